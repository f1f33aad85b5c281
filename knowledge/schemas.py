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
    router_bias: bool = Field(False, description="per-expert score-correction bias (DeepSeek-V3)")


class MLA(_Record):
    """Multi-head latent attention (DeepSeek-V2/V3): K and V are cached as one compressed latent."""

    kv_lora_rank: int = Field(gt=0)
    q_lora_rank: int | None = Field(None, description="None: queries are projected directly from the hidden state")
    qk_rope_head_dim: int = Field(gt=0)
    qk_nope_head_dim: int = Field(gt=0)
    v_head_dim: int = Field(gt=0)


class ModelSpec(_Record):
    """A decoder-only transformer, with fields from its official config.json."""

    id: str
    name: str
    aliases: list[str] = []
    family: str
    hf_repo: str | None = None
    params_total: int = Field(gt=0, description="official total parameter count (model card or safetensors index)")
    params_active: int | None = Field(None, description="official active parameters per token (MoE only)")
    num_layers: int = Field(gt=0)
    hidden_size: int = Field(gt=0)
    num_attention_heads: int = Field(gt=0)
    num_kv_heads: int = Field(gt=0)
    head_dim: int = Field(gt=0)
    intermediate_size: int = Field(gt=0, description="dense MLP width (the dense layers of an MoE model)")
    vocab_size: int = Field(gt=0)
    tie_embeddings: bool
    max_context: int = Field(gt=0)
    attention: Literal["mha", "gqa", "mqa", "mla"]
    mlp: Literal["gated", "plain"] = Field("gated", description="gated = SwiGLU/GeGLU (3 matrices); plain = 2 matrices")
    qkv_bias: bool = False
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
        return self

    @property
    def is_moe(self) -> bool:
        return self.moe is not None


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
    memory_bandwidth_gbps: float = Field(gt=0, description="GB/s, decimal")
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
