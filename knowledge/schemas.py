"""Records of the knowledge tables: one pydantic model per kind, strict (extra="forbid").

Every record carries `source` and `as_of`; the loaders in `catalog.py` refuse a table
whose records lack them, so a fact without a source cannot enter the system.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MoE(_Record):
    """Mixture-of-experts layout, named as in the models' config.json files."""

    routed_experts: int = Field(gt=0, description="n_routed_experts / num_local_experts / num_experts")
    shared_experts: int = Field(0, ge=0, description="always-on experts (DeepSeek n_shared_experts)")
    experts_per_token: int = Field(gt=0, description="num_experts_per_tok: routed experts each token uses")
    expert_intermediate_size: int = Field(gt=0, description="moe_intermediate_size (or intermediate_size for Mixtral)")
    shared_expert_intermediate_size: int | None = Field(
        None, description="width of the shared expert(s); DeepSeek uses moe_intermediate_size per shared expert"
    )
    first_dense_layers: int = Field(0, ge=0, description="first_k_dense_replace: leading layers with a dense MLP")
    router_bias: bool = Field(False, description="per-expert score-correction bias (DeepSeek-V3) or router bias (gpt-oss)")
    layer_step: int = Field(1, ge=1, description="MoE in every k-th layer after the dense ones (Llama 4 Maverick "
                            "interleave_moe_layer_step 2); the others have a dense MLP of intermediate_size")
    expert_bias: bool = Field(False, description="biases on the expert matrices (gpt-oss)")
    shared_expert_gate: bool = Field(False, description="a sigmoid gate (hidden -> 1) on the shared expert "
                                     "(Qwen2-MoE, Qwen3-Next)")

    def moe_layers(self, num_layers: int) -> int:
        """How many of `num_layers` layers hold experts."""
        return len(range(self.first_dense_layers + self.layer_step - 1, num_layers, self.layer_step))


class MLA(_Record):
    """Multi-head latent attention (DeepSeek-V2/V3): K and V are cached as one compressed latent."""

    kv_lora_rank: int = Field(gt=0)
    q_lora_rank: int | None = Field(None, description="None: queries are projected directly from the hidden state")
    qk_rope_head_dim: int = Field(gt=0)
    qk_nope_head_dim: int = Field(gt=0)
    v_head_dim: int = Field(gt=0)


class SlidingWindow(_Record):
    """Layers that attend only to the last `window` tokens (their KV cache stops growing there)."""

    window: int = Field(gt=0, description="sliding_window / attention_chunk_size, tokens")
    layers: int = Field(gt=0, description="how many layers use the window; the others attend over the whole context")
    kind: Literal["sliding", "chunked"] = Field("sliding", description="chunked: Llama 4's local attention in "
                                                "fixed chunks (at most one chunk of KV per layer)")


class LinearAttention(_Record):
    """Hybrid models' linear-attention layers (Qwen3-Next Gated DeltaNet): a fixed-size state per sequence
    instead of a KV cache that grows with the context."""

    layers: int = Field(gt=0, description="layers with linear attention; the rest use full attention")
    num_key_heads: int = Field(gt=0, description="linear_num_key_heads")
    num_value_heads: int = Field(gt=0, description="linear_num_value_heads")
    key_head_dim: int = Field(gt=0, description="linear_key_head_dim")
    value_head_dim: int = Field(gt=0, description="linear_value_head_dim")
    conv_kernel: int = Field(gt=0, description="linear_conv_kernel_dim: a short causal convolution over q, k, v")

    @property
    def conv_dim(self) -> int:
        return 2 * self.num_key_heads * self.key_head_dim + self.num_value_heads * self.value_head_dim


class ModelSpec(_Record):
    """A decoder-only transformer, with fields from its official config.json."""

    id: str
    name: str
    aliases: list[str] = []
    family: str
    hf_repo: str | None = None
    params_total: int = Field(gt=0, description="official total parameter count (model card or safetensors index)")
    params_active: int | None = Field(None, description="official active parameters per token (MoE only)")
    active_excludes: list[Literal["embedding", "lm_head"]] = Field(
        default_factory=list, description="what the published active figure leaves out (gpt-oss: the embedding; "
        "GLM-4.5: embedding and LM head), so a check compares like with like")
    num_layers: int = Field(gt=0)
    hidden_size: int = Field(gt=0)
    num_attention_heads: int = Field(gt=0)
    num_kv_heads: int = Field(gt=0)
    head_dim: int = Field(gt=0)
    intermediate_size: int = Field(gt=0, description="dense MLP width (the dense layers of an MoE model)")
    vocab_size: int = Field(gt=0)
    tie_embeddings: bool
    max_context: int = Field(gt=0)
    max_context_extended: int | None = Field(None, gt=0, description="the longest context the model card supports with "
                                             "the rope scaling it documents (YaRN); None where it documents none")
    attention: Literal["mha", "gqa", "mqa", "mla"]
    mlp: Literal["gated", "plain"] = Field("gated", description="gated = SwiGLU/GeGLU (3 matrices); plain = 2 matrices")
    qkv_bias: bool = False
    o_bias: bool = Field(False, description="bias on the attention output projection too (gpt-oss)")
    attn_output_gate: bool = Field(False, description="gated attention: q_proj also emits a gate (Qwen3-Next)")
    attention_sinks: bool = Field(False, description="a learned sink logit per head (gpt-oss)")
    sliding_window: SlidingWindow | None = None
    linear_attention: LinearAttention | None = None
    native_precision: str = Field("bf16", description="the published checkpoint's weight format (tools.formats id): "
                                  "fp8 for DeepSeek-V3/R1 and Kimi K2, mxfp4 for gpt-oss")
    norms_per_layer: int = Field(2, ge=0, description="RMSNorm/LayerNorm weight vectors of width hidden_size per layer")
    qk_norm: bool = Field(False, description="per-head RMSNorm on queries and keys (Qwen3)")
    dropout: bool = Field(False, description="dropout in attention/MLP during training (modern LLMs: none)")
    mla: MLA | None = None
    moe: MoE | None = None
    generic: bool = Field(False, description="True for a shape made up from a bare size such as '70b'")
    extra_params: int = Field(0, ge=0, description="parameters the fields above do not describe (a generic "
                              "shape's rounding remainder), counted as 16-bit non-matrix weights")
    notes: str | None = None
    source: str
    as_of: str

    @model_validator(mode="after")
    def _consistent(self) -> ModelSpec:
        if self.num_attention_heads % self.num_kv_heads:
            raise ValueError(f"{self.id}: {self.num_attention_heads} heads not divisible by {self.num_kv_heads} KV heads")
        if (self.attention == "mla") != (self.mla is not None):
            raise ValueError(f"{self.id}: attention 'mla' and the mla block go together")
        if self.moe is not None and self.params_active is None:
            raise ValueError(f"{self.id}: an MoE record needs params_active")
        from tools.formats import weight_format  # the one place that knows formats (no import cycle: pydantic only)

        weight_format(self.native_precision)
        windowed = self.sliding_window.layers if self.sliding_window else 0
        linear = self.linear_attention.layers if self.linear_attention else 0
        if windowed + linear > self.num_layers:
            raise ValueError(f"{self.id}: {windowed} windowed + {linear} linear-attention layers exceed {self.num_layers}")
        return self

    @property
    def full_attention_layers(self) -> int:
        """Layers whose KV cache grows with the whole context."""
        windowed = self.sliding_window.layers if self.sliding_window else 0
        linear = self.linear_attention.layers if self.linear_attention else 0
        return self.num_layers - windowed - linear

    @property
    def is_moe(self) -> bool:
        return self.moe is not None


class AppleChip(_Record):
    """One Apple silicon variant (GPU core count); the catalog makes one GPU record per memory option
    (ids such as m4-max-128gb)."""

    chip: str
    name: str
    gpu_cores: int = Field(gt=0)
    memory_options_gb: list[int] = Field(min_length=1, description="unified memory configurations sold (GB = GiB here)")
    memory_bandwidth_gbps: float = Field(gt=0)
    fp32_tflops: float | None = None
    bf16: bool = Field(description="bfloat16 at native speed in Metal/MLX (M3 and later; M1/M2 emulate it)")
    release_year: int | None = None
    source: str
    as_of: str
    notes: str | None = None


class GPU(_Record):
    """One accelerator. Throughput figures are DENSE unless the field name says sparse."""

    id: str
    name: str
    aliases: list[str] = []
    vendor: str
    architecture: str
    form_factor: str = Field(description="SXM, PCIe, NVL (PCIe pair with NVLink bridge), OAM, board...")
    memory_gb: float = Field(gt=0, description="capacity as marketed, decimal GB")
    memory_bytes: int = Field(gt=0, description="capacity as nvidia-smi (or the vendor's tool) reports it, bytes")
    memory_type: str
    memory_bandwidth_gbps: float | None = Field(gt=0, description="GB/s, decimal; None only for a custom card "
                                                "given by its memory size alone (speed estimates then ask for it)")
    supports_bf16: bool | None = Field(None, description="None: BF16 where the table gives a BF16 figure "
                                       "(none on V100/T4); Apple silicon says it per chip")
    usable_share: float | None = Field(None, gt=0, le=1, description="share of memory_bytes the GPU may use (Apple "
                                       "silicon: the wired-memory limit macOS sets); None: all but the driver's reserve")
    fp32_tflops: float | None = None
    tf32_dense_tflops: float | None = None
    bf16_dense_tflops: float | None = None
    fp16_dense_tflops: float | None = None
    fp8_dense_tflops: float | None = Field(None, description="null where the chip has no FP8 tensor cores (e.g. A100)")
    int8_dense_tops: float | None = None
    fp4_dense_tflops: float | None = None
    interconnect: str
    nvlink_gbps: float | None = Field(None, description="NVLink/HCCS/Infinity Fabric GB/s per GPU, bidirectional total")
    gpus_per_nvlink_domain: int | None = None
    tdp_w: float | None = None
    release_year: int | None = None
    market_notes: str | None = None
    modified: str | None = Field(None, description="an unofficial board modification (no vendor sells this card): "
                                 "what was changed and what it risks; said in every answer that uses the card")
    modified_zh: str | None = Field(None, description="the same, in Chinese")
    notes: str | None = None
    source: str
    source_kind: Literal["vendor", "secondary"] = "vendor"
    as_of: str

    def scale_up_fabric(self, n: int) -> str | None:
        """The GPU-to-GPU fabric `n` GPUs of one node talk over ('NVLink', 'HCCS', 'Infinity Fabric', ...), or None where
        it is PCIe: no fabric, or more GPUs than one fabric domain joins (TP4 over two bridged A100 PCIe pairs)."""
        if not self.nvlink_gbps or n > (self.gpus_per_nvlink_domain or 1):
            return None
        names = ("NVLink", "Infinity Fabric", "HCCS", "Unified Bus")
        found = sorted((self.interconnect.find(x), x) for x in names if x in self.interconnect)
        return found[0][1] if found else "NVLink"


class Phone(_Record):
    """A phone chip or phone class: the memory bandwidth an on-device model decodes at, and the share of the phone's
    memory one app can use (knowledge/data/phones.yaml)."""

    id: str
    name: str
    aliases: list[str] = []
    memory_type: str
    memory_bandwidth_gbps: float = Field(gt=0, description="GB/s, decimal")
    app_memory_share: float = Field(gt=0, le=1, description="share of the phone's RAM one app may hold (an assumption)")
    prefill_tflops: float = Field(gt=0, description="effective FP16 TFLOPS of a phone runtime for prefill (an assumption)")
    notes: str | None = None
    source: str
    source_kind: Literal["vendor", "secondary"] = "vendor"
    as_of: str


class Price(_Record):
    """One price estimate: a range with its unit, currency, source, date and confidence."""

    id: str
    gpu: str = Field(description="GPU id from gpus.yaml")
    kind: Literal["rent_on_demand", "rent_reserved", "rent_spot", "buy_new", "buy_used"]
    unit: Literal["per_gpu_hour", "per_gpu", "per_8gpu_server"]
    currency: Literal["USD", "CNY"]
    low: float = Field(gt=0)
    high: float = Field(gt=0)
    typical: float | None = Field(None, gt=0, description="a representative figure inside [low, high]")
    provider: str | None = Field(None, description="cloud or market, e.g. 'AWS p5.48xlarge', 'Alibaba Cloud', 'used market'")
    region: str | None = None
    commitment: str | None = Field(None, description="for reserved prices: term, e.g. '1 year'")
    confidence: Literal["high", "medium", "low"]
    note: str | None = None
    source: str
    source_kind: Literal["vendor", "secondary"] = "secondary"
    as_of: str

    @model_validator(mode="after")
    def _range(self) -> Price:
        if self.low > self.high:
            raise ValueError(f"{self.id}: low {self.low} > high {self.high}")
        if self.typical is not None and not self.low <= self.typical <= self.high:
            raise ValueError(f"{self.id}: typical {self.typical} outside [{self.low}, {self.high}]")
        if self.kind.startswith("rent") != (self.unit == "per_gpu_hour"):
            raise ValueError(f"{self.id}: rentals are per_gpu_hour, purchases per_gpu or per_8gpu_server")
        return self


class TrainingRun(_Record):
    """One published training run: GPU-hours, tokens and cluster as the developer reported them.

    Figures are copied as published, never derived; a field the source does not give is null.
    `gpu_hours` is the source's own total for the scope named in `gpu_hours_scope` (what a
    "GPU-hour" covers differs between sources: pre-training only, or everything up to the
    released chat model).
    """

    id: str
    name: str
    model: str | None = Field(None, description="model id from models.yaml when the model is in the catalog")
    aliases: list[str] = Field(default_factory=list, description="names people use for this run or model")
    params: int = Field(gt=0, description="total parameters, as the source states them (nominal, e.g. 70e9)")
    active_params: int | None = Field(None, gt=0, description="parameters active per token (MoE only)")
    gpu: str = Field(description="GPU id from gpus.yaml")
    gpu_hours: float | None = Field(None, gt=0, description="GPU-hours as published; null when the source gives "
                                    "only a cluster size and a duration")
    gpu_hours_scope: str = Field(description="what the GPU-hour figure covers, e.g. 'pre-training only'")
    gpu_hours_breakdown: dict[str, float] | None = Field(
        None, description="published split of gpu_hours by stage, e.g. {'pre-training': 2.664e6, ...}")
    tokens: float = Field(gt=0, description="training tokens as published")
    num_gpus: int | None = Field(None, gt=0, description="GPUs used (peak cluster size) if published")
    wall_days: float | None = Field(None, gt=0, description="wall-clock days if published")
    precision: str | None = Field(None, description="training precision as published (bf16, fp16, fp8 mixed, ...)")
    reported_mfu: float | None = Field(None, gt=0, le=1, description="model FLOPs utilization as published (0-1)")
    reported_tflops_per_gpu: float | None = Field(
        None, gt=0, description="achieved TFLOPS per GPU as published (the source's own counting)")
    source: str = Field(description="title and URL of the publication the figures come from")
    source_kind: Literal["paper", "model_card", "developer_blog", "secondary"]
    as_of: str
    note: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> TrainingRun:
        if self.gpu_hours is None and (self.num_gpus is None or self.wall_days is None):
            raise ValueError(f"{self.id}: without gpu_hours a run needs both num_gpus and wall_days")
        if self.active_params is not None and self.active_params > self.params:
            raise ValueError(f"{self.id}: active_params {self.active_params} > params {self.params}")
        if self.gpu_hours_breakdown and self.gpu_hours is not None:
            total = sum(self.gpu_hours_breakdown.values())
            if abs(total - self.gpu_hours) > 0.01 * self.gpu_hours:
                raise ValueError(f"{self.id}: breakdown sums to {total:,.0f}, not gpu_hours {self.gpu_hours:,.0f}")
        return self
