"""A serving question and what it gets back: ServeRequest (model, card, load, lengths, targets, engine) and the
result models (LoadPoint for one replica at one load, Layout for one replica shape, ServePlan, ServeOption).
"""
from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from knowledge.schemas import GPU, ModelSpec, Price
from tools.engines import ENGINES, Engine, EngineId
from tools.formats import FormatName
from tools.serve_measured import Correction

DEFAULT_PROMPT = 2048
DEFAULT_OUTPUT = 512
DEFAULT_TTFT_S = 2.0
DEFAULT_ITL_MS = 50.0
TP_DEGREES = (1, 2, 4, 8, 16, 32, 64, 72)
MAX_STAGES = 16
HEADROOM = 0.8  # an open-loop load is planned at <= 80% of the rate that saturates a replica
MAX_HOST_LAYERS = 8  # engines without tensor parallelism (hf, llama.cpp) split layers over at most 8 GPUs


class ServeTargetError(ValueError):
    """A latency target no layout can meet: carries the bound that was hit."""

    def __init__(self, message: str, bound: dict):
        super().__init__(message)
        self.bound = bound


class ServeRequest(BaseModel):
    """A serving question: model, GPU type, load (users or requests/s), lengths, latency targets, engine."""

    model_config = ConfigDict(extra="forbid")
    model: ModelSpec
    gpu: GPU
    users: int | None = Field(None, ge=1, le=10_000_000, description="concurrent users, each with one request in "
                              "flight (closed loop, no think time)")
    qps: float | None = Field(None, gt=0, le=1e6, description="requests per second arriving (open loop)")
    prompt_len: int = Field(DEFAULT_PROMPT, ge=1, le=10_000_000)
    output_len: int = Field(DEFAULT_OUTPUT, ge=1, le=1_000_000)
    ttft_s: float | None = Field(None, gt=0, le=3600, description="time-to-first-token target; none: not imposed (the plan "
                                 f"says what it achieves, and what TTFT <= {DEFAULT_TTFT_S:g} s would take)")
    itl_ms: float | None = Field(None, gt=0, le=600_000, description="inter-token latency target; none: not imposed (the "
                                 f"plan says what ITL <= {DEFAULT_ITL_MS:g} ms would take)")
    tp: int | None = Field(None, ge=1, le=72, description="pin tensor parallelism per replica (within a node)")
    pp: int | None = Field(None, ge=1, le=64, description="pin pipeline stages per replica (whole nodes with tp)")
    engine: EngineId = "vllm"
    precision: FormatName | None = Field(None, description="weight format; default: the checkpoint's own")
    kv_dtype: Literal["bf16", "fp16", "fp8"] | None = None
    memory_fraction: float | None = Field(None, gt=0, le=1, description="the engine's memory share (vLLM "
                                          "--gpu-memory-utilization, SGLang --mem-fraction-static); default the engine's")
    max_model_len: int | None = Field(None, ge=1, le=10_000_000, description="the engine's context limit when the user "
                                      "sets one above the request lengths (vLLM --max-model-len); lengths size the load")
    max_num_seqs: int | None = Field(None, ge=1, le=100_000, description="the engine's running-sequence cap (vLLM "
                                     "--max-num-seqs, SGLang --max-running-requests); default the engine's")
    speculative: Literal["draft", "eagle", "mtp"] | None = Field(None, description="memory of speculative decoding "
                                                                  "(its speed-up is not modelled)")
    draft_model: ModelSpec | None = None
    mtp_layers: int = Field(1, ge=1, le=8)
    max_loras: int = Field(0, ge=0, le=1024, description="multi-LoRA serving: adapters resident at once")
    max_lora_rank: int = Field(16, ge=1, le=1024)
    gpus_per_node: int = Field(8, ge=1, le=72)
    prefix_cache_hit: float = Field(0.0, ge=0, lt=1, description="share of prompt tokens served from the prefix cache")
    price_per_gpu_hour: float | None = Field(None, gt=0, description="your price; default the price table's typical on-demand")
    prices: list[Price] = []
    max_gpus: int = Field(4096, ge=1, le=100_000)
    correction: Correction | None = Field(None, description="your benchmark's factors for this deployment "
                                          "(`gpu-advisor calibrate`): decode steps x itl_factor, prefill x ttft_factor")

    @field_validator("gpu")
    @classmethod
    def _rated(cls, g: GPU) -> GPU:
        if g.memory_bandwidth_gbps is None or not (g.bf16_dense_tflops or g.fp16_dense_tflops):
            raise ValueError(f"{g.name} has no bandwidth or compute figures, and serving speed is bound by them: "
                             "give them as --gpu 24GB:936 (GB/s) or name a card from `gpu-advisor gpus`")
        return g

    @model_validator(mode="after")
    def _load(self) -> ServeRequest:
        if (self.users is None) == (self.qps is None):
            raise ValueError("give the load as exactly one of users (concurrent requests in flight) or qps (requests/s)")
        if self.prompt_len + self.output_len > 10_000_000:
            raise ValueError("prompt + output exceeds 10M tokens")
        return self

    @property
    def fmt(self) -> str:
        return self.precision or self.model.native_precision

    @property
    def eng(self) -> Engine:
        return ENGINES[self.engine]

    @property
    def ttft_target(self) -> float:
        """The TTFT a layout must meet: the stated target, else none (infinite)."""
        return self.ttft_s if self.ttft_s is not None else math.inf

    @property
    def itl_target_s(self) -> float:
        """The inter-token latency a layout must meet, in seconds: the stated target, else none (infinite)."""
        return self.itl_ms / 1000 if self.itl_ms is not None else math.inf

    @property
    def targets_stated(self) -> bool:
        return self.ttft_s is not None or self.itl_ms is not None


class LoadPoint(BaseModel):
    """One replica at one load: steady-state estimates."""

    running: float = Field(description="sequences decoding at once")
    queued: float = Field(description="requests waiting for a place in the KV pool / a slot")
    requests_per_s: float
    ttft_s: float
    itl_ms: float
    prefill_share: float = Field(description="share of GPU time spent on prefill (ρ)")
    output_tokens_per_s: float
    saturated: str | None = Field(None, description="why this load cannot be sustained (queue grows without bound)")
    converged: bool = Field(True, description="whether the load/latency fixed point settled; if not, the figures are "
                            "the last iterate and are said to be unsettled")


class Layout(BaseModel):
    """One replica's shape and what it carries within the targets."""

    tp: int
    pp: int
    gpus: int
    max_concurrent_sequences: int
    kv_pool_tokens: int | None
    per_gpu_gb: float
    single_stream_itl_ms: float
    unloaded_ttft_s: float
    capacity: float = Field(description="users (or requests/s) one replica carries within the targets")
    replicas: int | None = None
    total_gpus: int | None = None
    why_not: str | None = None


class ServePlan(BaseModel):
    """The smallest layout that meets the targets, with its load point, launch line and cost."""

    model: str
    gpu: str
    engine: str
    precision: str
    kv_dtype: str
    load: dict[str, float | int | None]
    targets: dict[str, float] = Field(description="the latency targets you stated (none stated: empty, none imposed)")
    meets_targets: bool | None = Field(description="whether this plan's own figures, at the safe end of their bands, "
                                       "meet the stated targets (None: none stated)")
    with_default_targets: dict | None = Field(None, description=f"what TTFT <= {DEFAULT_TTFT_S:g} s and ITL <= "
                                              f"{DEFAULT_ITL_MS:g} ms would take, where no target was stated")
    layout_pinned: bool = False
    converged: bool = True
    bands: dict[str, list[float]] = Field(default_factory=dict, description="p10-p90 of each serving figure: the "
                                          "estimate times the check-half residual range (tools/serve_bands.py)")
    total_gpus: int
    tp: int
    pp: int
    replicas: int
    max_concurrent_sequences: int = Field(description="per replica: sequences of prompt+output tokens the KV pool holds")
    kv_pool_tokens: int | None
    per_gpu_gb: float
    breakdown_gb: dict[str, float] = Field(default_factory=dict, description="one GPU of the chosen layout")
    ttft_s: float
    itl_ms: float
    tokens_per_s_per_user: float
    tokens_per_s_per_gpu: float = Field(description="output tokens per second per GPU at the offered load")
    output_tokens_per_s: float = Field(description="all replicas")
    prefill_share: float
    saturation: dict[str, float] = Field(description="per replica: the load at which the targets stop holding")
    launch_command: str
    price_per_gpu_hour: float | None
    price_source: str | None
    cost_per_hour_usd: float | None
    cost_per_million_input_tokens_usd: float | None
    cost_per_million_output_tokens_usd: float | None
    layouts: list[Layout] = Field(description="every layout tried, with what it carries or why not")
    assumptions: list[str]


class ServeOption(BaseModel):
    """One GPU type's smallest layout for the same load and targets, for ranking."""

    gpu: str
    total_gpus: int | None
    tp: int | None = None
    pp: int | None = None
    replicas: int | None = None
    ttft_s: float | None = None
    itl_ms: float | None = None
    tokens_per_s_per_gpu: float | None = None
    cost_per_hour_usd: float | None = None
    cost_per_million_output_tokens_usd: float | None = None
    rank: int | None = None
    why_not: str | None = None
