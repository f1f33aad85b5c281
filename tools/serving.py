"""Serving capacity: users or requests/s, latency targets and an engine -> layout, replicas, launch line, $/1M tokens.

One replica is `tp` tensor-parallel GPUs (within a node) x `pp` pipeline stages (across nodes). For a replica:
- memory: the engine's share of each GPU less weights, profiled activations and graphs is the KV pool
  (tools/infer_memory.serving_capacity); pool / one sequence's KV = M, the sequences it runs at once;
- decode: one step reads the weights (MoE: the experts the batch touches) and every running sequence's KV,
  bandwidth-bound until the batch makes it compute-bound (tools/infer_speed); pipeline stages run
  pp micro-batches at once, so a stream's step is the whole model's read and throughput scales with pp;
- prefill: 2·N_active·prompt + attention FLOPs at PREFILL_COMPUTE_EFFICIENCY of dense peak = P seconds.
Under load (continuous batching, chunked prefill): with λ requests/s per replica, prefill takes the share
ρ = λ·P/pp of the GPU time and decode steps stretch to step(B)/(1-ρ); TTFT = P + the mean M/D/1 wait
ρ·P/(2(1-ρ)) + one decode step. `users` is a closed loop (each user has one request in flight, no think
time): B = users, λ = B / (TTFT + (output-1)·ITL). `qps` is an open loop: B = λ·(TTFT + (output-1)·ITL).
Past M, requests queue: each waits (users/M - 1) service times. These are p50-style estimates of a
steady state: no burst, no tail.
The planner tries TP 1, 2, 4, 8 (powers of two up to the node) and, where one node is not enough, PP over
whole nodes; per layout the most load a replica carries within the targets, then replicas = load /
that; the layout with the fewest GPUs wins (ties: more, smaller replicas).
"""
from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from knowledge.schemas import GPU, ModelSpec, Price
from tools import efficiency as eff
from tools.engines import ENGINES, Engine, EngineId
from tools.formats import FormatName, kv_default, weight_format
from tools.infer_memory import InferenceMemoryRequest, _tp_ok, serving_capacity
from tools.infer_speed import STAGE_HANDOFF_S, InferenceSpeedRequest, decode_step_parts, prefill_seconds
from tools.memory import weight_bytes
from tools.params import count_parameters
from tools.pricing import on_demand_rate
from tools.units import GB

DEFAULT_PROMPT = 2048
DEFAULT_OUTPUT = 512
DEFAULT_TTFT_S = 2.0
DEFAULT_ITL_MS = 50.0
TP_DEGREES = (1, 2, 4, 8, 16, 32, 64, 72)
MAX_STAGES = 16
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
    ttft_s: float | None = Field(None, gt=0, le=3600, description=f"time-to-first-token target; default {DEFAULT_TTFT_S:g} s")
    itl_ms: float | None = Field(None, gt=0, le=600_000, description=f"inter-token latency target; default {DEFAULT_ITL_MS:g} ms")
    engine: EngineId = "vllm"
    precision: FormatName | None = Field(None, description="weight format; default: the checkpoint's own")
    kv_dtype: Literal["bf16", "fp16", "fp8"] | None = None
    memory_fraction: float | None = Field(None, gt=0, le=1, description="the engine's memory share (vLLM "
                                          "--gpu-memory-utilization, SGLang --mem-fraction-static); default the engine's")
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
        return self.ttft_s if self.ttft_s is not None else DEFAULT_TTFT_S

    @property
    def itl_target_s(self) -> float:
        return (self.itl_ms if self.itl_ms is not None else DEFAULT_ITL_MS) / 1000


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
    targets: dict[str, float]
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


class _Ctx:
    """One layout's fixed figures, with decode steps memoised by batch."""

    def __init__(self, req: ServeRequest, tp: int, pp: int, pipelined: bool):
        self.req, self.tp, self.pp = req, tp, pp
        self.pipelined = pipelined and pp > 1
        ctx = req.prompt_len + req.output_len
        eng = req.eng
        self.mem_req = InferenceMemoryRequest(
            model=req.model, gpu=req.gpu, num_gpus=tp * pp, pipeline=pp, split="tp" if pp == 1 and tp > 1 else "auto",
            precision=req.precision, kv_dtype=req.kv_dtype, context=ctx,
            prompt_len=min(req.prompt_len, eng.max_batched_tokens or req.prompt_len),
            engine="vllm" if eng.id in ("vllm", "sglang") else "hf",
            gpu_memory_utilization=req.memory_fraction or eng.memory_fraction or 0.9,
            speculative=req.speculative, draft_model=req.draft_model, mtp_layers=req.mtp_layers,
            max_loras=req.max_loras, max_lora_rank=req.max_lora_rank)
        self.cap = serving_capacity(self.mem_req)
        m = self.cap.sequences
        cap = req.max_num_seqs or (eng.max_num_seqs if eng.id != "llama.cpp" else None)
        if cap is not None:
            m = min(m, cap * (pp if self.pipelined else 1))
        self.max_seqs = m
        self.speed_req = InferenceSpeedRequest(
            model=req.model, gpu=req.gpu, num_gpus=tp * pp, precision=req.precision, kv_dtype=req.kv_dtype,
            context=req.prompt_len, output=req.output_len, engine="hf" if eng.id == "hf" else "vllm")
        cached = req.prompt_len * (1 - req.prefix_cache_hit)
        self.prefill_s = prefill_seconds(self.speed_req, max(1, round(cached)), tp) if m else 0.0
        self.steps: dict[int, float] = {}

    def step(self, batch: float) -> float:
        """Seconds per decode step with `batch` sequences running (pipelined: batch/pp per micro-batch)."""
        b = max(1, math.ceil(batch / (self.pp if self.pipelined else 1)))
        if b not in self.steps:
            mem_s, comp_s, over = decode_step_parts(self.speed_req, b, self.tp)
            self.steps[b] = max(mem_s, comp_s) + over + (self.pp - 1) * STAGE_HANDOFF_S
        return self.steps[b]


def _continuous(c: _Ctx, users: float | None, rate: float | None) -> LoadPoint:
    req, P, O = c.req, c.prefill_s, c.req.output_len
    lanes = c.pp if c.pipelined else 1
    M = max(c.max_seqs, 1)
    if users is not None:
        B, queued = min(users, M), max(0.0, users - M)
        lam, ttft, itl = 0.0, P, c.step(B)
        for _ in range(100):  # fixed point of λ = B / service time; damped, monotone
            rho = min(lam * P / lanes, 0.98)
            itl = c.step(B) / (1 - rho)
            ttft = P + rho * P / (2 * (1 - rho)) + c.step(B)
            new = B / (ttft + (O - 1) * itl)
            if abs(new - lam) <= 1e-9 * max(new, 1):
                break
            lam = 0.5 * (lam + new)
        service = ttft + (O - 1) * itl
        ttft += queued / M * service  # past the pool: wait for places to free
        return LoadPoint(running=round(B, 3), queued=round(queued, 3), requests_per_s=lam, ttft_s=ttft,
                         itl_ms=itl * 1000, prefill_share=rho, output_tokens_per_s=lam * O)
    rho = rate * P / lanes
    if rho >= 0.98:
        return _saturated(rate, O, f"prefill alone needs {rho:.0%} of the GPU time ({rate:g} req/s x {P:.3f} s)")
    B = rate * (P + O * c.step(1))
    ttft = itl = 0.0
    for _ in range(100):
        itl = c.step(B) / (1 - rho)
        ttft = P + rho * P / (2 * (1 - rho)) + c.step(B)
        new = rate * (ttft + (O - 1) * itl)
        if new > M:
            return _saturated(rate, O, f"{new:.0f} requests would be in flight; the KV pool holds {c.max_seqs}")
        if abs(new - B) <= 1e-6 * max(B, 1):
            break
        B = 0.5 * (B + new)
    return LoadPoint(running=round(B, 3), queued=0.0, requests_per_s=rate, ttft_s=ttft, itl_ms=itl * 1000,
                     prefill_share=rho, output_tokens_per_s=rate * O)


def _static(c: _Ctx, users: float | None, rate: float | None) -> LoadPoint:
    """Hugging Face generate(): one batch of B prompts prefilled together, then O steps; arrivals wait for it."""
    P, O, M = c.prefill_s, c.req.output_len, max(c.max_seqs, 1)
    if users is not None:
        B = min(users, M)
        batch_s = B * P + O * c.step(B)
        rounds = math.ceil(users / M)
        lam = users / (batch_s * rounds)
        ttft = B * P + (rounds - 1) * batch_s / 2 + c.step(B)
        return LoadPoint(running=B, queued=max(0.0, users - M), requests_per_s=lam, ttft_s=ttft,
                         itl_ms=c.step(B) * 1000, prefill_share=B * P / batch_s, output_tokens_per_s=lam * O)
    B = 1.0
    for _ in range(100):  # a batch collects what arrives while the previous one runs
        batch_s = B * P + O * c.step(B)
        new = max(1.0, rate * batch_s)
        if new > M:
            return _saturated(rate, O, f"a batch would need {new:.0f} sequences; memory holds {c.max_seqs}")
        if abs(new - B) < 1e-6:
            break
        B = new
    batch_s = B * P + O * c.step(B)
    return LoadPoint(running=B, queued=0.0, requests_per_s=rate, ttft_s=batch_s / 2 + B * P + c.step(B),
                     itl_ms=c.step(B) * 1000, prefill_share=B * P / batch_s, output_tokens_per_s=rate * O)


def _saturated(rate: float, O: int, why: str) -> LoadPoint:
    return LoadPoint(running=0, queued=math.inf, requests_per_s=rate, ttft_s=math.inf, itl_ms=math.inf,
                     prefill_share=1.0, output_tokens_per_s=rate * O, saturated=why)


def load_point(c: _Ctx, users: float | None = None, rate: float | None = None) -> LoadPoint:
    """One replica of layout `c` at `users` concurrent users or `rate` requests/s."""
    return (_continuous if c.req.eng.continuous_batching else _static)(c, users, rate)


def _meets(p: LoadPoint, req: ServeRequest) -> bool:
    return p.saturated is None and p.ttft_s <= req.ttft_target and p.itl_ms / 1000 <= req.itl_target_s


def _capacity(c: _Ctx, req: ServeRequest) -> float:
    """Most users (integer) or requests/s one replica carries within the targets (0 if even one does not)."""
    if req.users is not None:
        if not _meets(load_point(c, users=1), req):
            return 0.0
        lo, hi = 1, max(1, c.max_seqs)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if _meets(load_point(c, users=mid), req) else (lo, mid - 1)
        return float(lo)
    lanes = c.pp if c.pipelined else 1
    lo, hi = 0.0, 0.98 * lanes / c.prefill_s if c.prefill_s else 1e6
    if not _meets(load_point(c, rate=hi * 1e-6), req):
        return 0.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _meets(load_point(c, rate=mid), req) else (lo, mid)
    return lo


def _shapes(req: ServeRequest) -> list[tuple[int, int, bool]]:
    """(tp, pp, pipelined) to try: TP powers of two within a node; PP over whole nodes; layer splits for engines
    without TP (hf device_map='auto', llama.cpp --split-mode layer), which run one stage at a time."""
    spec = req.model
    if req.engine in ("hf", "llama.cpp"):
        return [(1, n, False) for n in range(1, min(MAX_HOST_LAYERS, spec.num_layers) + 1)]
    tps = [t for t in TP_DEGREES if t <= req.gpus_per_node and _tp_ok(spec, t)]
    out = [(t, 1, False) for t in tps]
    if tps and tps[-1] == req.gpus_per_node:
        out += [(tps[-1], s, True) for s in range(2, MAX_STAGES + 1) if s <= spec.num_layers]
    return out


def _layout_row(c: _Ctx, req: ServeRequest) -> Layout:
    one = load_point(c, users=1)
    row = Layout(tp=c.tp, pp=c.pp, gpus=c.tp * c.pp, max_concurrent_sequences=c.max_seqs,
                 kv_pool_tokens=c.cap.kv_pool_tokens, per_gpu_gb=c.cap.per_gpu_gb,
                 single_stream_itl_ms=round(one.itl_ms, 2), unloaded_ttft_s=round(one.ttft_s, 4), capacity=0.0)
    if c.max_seqs < 1:
        row.why_not = (f"the weights and overheads leave no room for one sequence of "
                       f"{req.prompt_len + req.output_len:,} tokens ({c.cap.per_gpu_gb:g} GB per GPU)")
        return row
    if one.itl_ms / 1000 > req.itl_target_s:
        row.why_not = f"one stream alone decodes at {one.itl_ms:.1f} ms per token (target {req.itl_target_s * 1000:g} ms)"
        return row
    if one.ttft_s > req.ttft_target:
        row.why_not = f"one {req.prompt_len:,}-token prompt alone takes {one.ttft_s:.2f} s to prefill (target {req.ttft_target:g} s)"
        return row
    row.capacity = _capacity(c, req)
    load = req.users if req.users is not None else req.qps
    row.replicas = max(1, math.ceil(load / row.capacity - 1e-9)) if row.capacity else None
    row.total_gpus = row.replicas * row.gpus if row.replicas else None
    return row


def plan_serving(req: ServeRequest) -> ServePlan:
    """The smallest layout (fewest GPUs) that serves the load within the targets, with its figures and cost.
    Raises ServeTargetError when no layout meets a target even unloaded, ValueError when the model never fits."""
    rows: list[tuple[Layout, _Ctx]] = []
    for tp, pp, pipelined in _shapes(req):
        c = _Ctx(req, tp, pp, pipelined)
        rows.append((_layout_row(c, req), c))
        if pp > 1 and c.max_seqs >= 1 and rows[-1][0].total_gpus:
            break  # deeper pipelines only add GPUs once one fits and serves
    ok = [(r, c) for r, c in rows if r.total_gpus and r.total_gpus <= req.max_gpus]
    if not ok:
        _raise_why(req, rows)
    best, c = min(ok, key=lambda rc: (rc[0].total_gpus, rc[0].gpus, rc[0].single_stream_itl_ms))
    load = req.users if req.users is not None else req.qps
    per = load / best.replicas
    point = load_point(c, users=per) if req.users is not None else load_point(c, rate=per)
    rate_total = point.requests_per_s * best.replicas
    out_tps = rate_total * req.output_len
    in_tps = rate_total * req.prompt_len
    price, source = _price(req)
    per_hour = price * best.total_gpus if price else None
    kv = req.kv_dtype or kv_default(req.fmt)
    return ServePlan(
        model=req.model.id, gpu=req.gpu.id, engine=req.engine, precision=req.fmt, kv_dtype=kv,
        load={"users": req.users, "qps": req.qps, "prompt_len": req.prompt_len, "output_len": req.output_len,
              "per_replica": round(per, 4), "running_per_replica": point.running, "queued_per_replica": point.queued},
        targets={"ttft_s": req.ttft_target, "itl_ms": req.itl_target_s * 1000},
        total_gpus=best.total_gpus, tp=best.tp, pp=best.pp, replicas=best.replicas,
        max_concurrent_sequences=best.max_concurrent_sequences, kv_pool_tokens=best.kv_pool_tokens,
        per_gpu_gb=best.per_gpu_gb, breakdown_gb=c.cap.breakdown_gb, ttft_s=round(point.ttft_s, 3), itl_ms=round(point.itl_ms, 2),
        tokens_per_s_per_user=round(1000 / point.itl_ms, 1), tokens_per_s_per_gpu=round(out_tps / best.total_gpus, 1),
        output_tokens_per_s=round(out_tps, 1), prefill_share=round(point.prefill_share, 4),
        saturation={"users" if req.users is not None else "requests_per_s": round(best.capacity, 3)},
        launch_command=launch_command(req, best, kv),
        price_per_gpu_hour=price, price_source=source, cost_per_hour_usd=round(per_hour, 2) if per_hour else None,
        cost_per_million_input_tokens_usd=_per_million(per_hour, point.prefill_share, in_tps),
        cost_per_million_output_tokens_usd=_per_million(per_hour, 1 - point.prefill_share, out_tps),
        layouts=[r for r, _ in rows], assumptions=_assumptions(req, best, c, point, kv, source),
    )


def _per_million(per_hour: float | None, share: float, tokens_per_s: float) -> float | None:
    if not per_hour or tokens_per_s <= 0:
        return None
    return round(per_hour * share / (tokens_per_s * 3600) * 1e6, 4)


def _price(req: ServeRequest) -> tuple[float | None, str | None]:
    if req.price_per_gpu_hour is not None:
        return req.price_per_gpu_hour, "your price"
    rate = on_demand_rate(req.prices, req.gpu.id)
    if rate is None:
        return None, None
    return rate.typical, (f"price table: typical on-demand of {len(rate.records)} record(s), range "
                          f"{rate.low:g}-{rate.high:g} USD per GPU-hour")


def _raise_why(req: ServeRequest, rows: list[tuple[Layout, _Ctx]]) -> None:
    fits = [(r, c) for r, c in rows if c.max_seqs >= 1]
    if not fits:
        raise ValueError(f"{req.model.id} with {req.prompt_len + req.output_len:,}-token sequences fits no layout of "
                         f"{req.gpu.id} up to {max(r.gpus for r, _ in rows)} GPUs per replica ({req.engine}, "
                         f"{req.fmt}): try a smaller format (--precision), fp8 KV (--kv-dtype fp8) or a larger card")
    best_itl = min(fits, key=lambda rc: (rc[0].single_stream_itl_ms, rc[0].gpus))[0]
    if best_itl.single_stream_itl_ms / 1000 > req.itl_target_s:
        spec = req.model
        w = sum(weight_bytes(count_parameters(spec), req.fmt)) / GB
        raise ServeTargetError(
            f"ITL target {req.itl_target_s * 1000:g} ms is below what {req.gpu.id} allows: even one stream on "
            f"TP{best_itl.tp}{f' x PP{best_itl.pp}' if best_itl.pp > 1 else ''} decodes at "
            f"{best_itl.single_stream_itl_ms:.1f} ms per token (each token reads {w:.1f} GB of weights over "
            f"{best_itl.tp} x {req.gpu.memory_bandwidth_gbps:g} GB/s at {eff.DECODE_BANDWIDTH_EFFICIENCY:.0%}, plus "
            "per-layer overheads); a smaller format, a faster card or speculative decoding is needed",
            {"bound": "itl", "best_itl_ms": best_itl.single_stream_itl_ms, "tp": best_itl.tp, "pp": best_itl.pp})
    best_ttft = min(fits, key=lambda rc: (rc[0].unloaded_ttft_s, rc[0].gpus))[0]
    if best_ttft.unloaded_ttft_s > req.ttft_target:
        raise ServeTargetError(
            f"TTFT target {req.ttft_target:g} s is below what {req.gpu.id} allows: a {req.prompt_len:,}-token prompt "
            f"takes {best_ttft.unloaded_ttft_s:.2f} s to prefill even alone on TP{best_ttft.tp} (compute-bound at "
            f"{eff.PREFILL_COMPUTE_EFFICIENCY:.0%} of dense peak)",
            {"bound": "ttft", "best_ttft_s": best_ttft.unloaded_ttft_s, "tp": best_ttft.tp, "pp": best_ttft.pp})
    raise ValueError(f"serving the load needs more than {req.max_gpus} {req.gpu.id}")


def launch_command(req: ServeRequest, lay: Layout, kv: str) -> str:
    """The engine's launch line for one replica."""
    spec, eng = req.model, req.eng
    repo = spec.hf_repo or spec.id
    ctx = req.prompt_len + req.output_len
    seqs = max(1, lay.max_concurrent_sequences)
    quant = req.precision and req.precision != spec.native_precision
    frac = req.memory_fraction or eng.memory_fraction
    tail = f"   # x {lay.replicas} replicas behind a load balancer" if (lay.replicas or 1) > 1 else ""
    if eng.launch:  # the paged-KV servers (vLLM, SGLang): their flags from the engine table
        parts = [eng.launch.format(repo=repo), f"{eng.tp_flag} {lay.tp}"]
        if lay.pp > 1:
            parts.append(f"{eng.pp_flag} {lay.pp}")
        parts += [f"{eng.context_flag} {ctx}", f"{eng.fraction_flag} {frac:g}", f"{eng.max_num_seqs_flag} {seqs}"]
        if kv == "fp8":
            parts.append(f"--kv-cache-dtype {eng.kv_fp8}")
        if quant and req.precision == "fp8":
            parts.append("--quantization fp8")
        if eng.id == "vllm":
            parts += _vllm_extras(req)
            if quant and req.precision in ("awq", "gptq", "int4"):
                parts[0] = f"vllm serve <an {req.precision.upper()} checkpoint of {repo}>"
        return " ".join(parts) + tail
    if eng.id == "llama.cpp":
        fmt = req.fmt if weight_format(req.fmt).family == "gguf" else "q4_k_m"
        return (f"llama-server -m {spec.id}-{fmt.upper()}.gguf -c {ctx * seqs} --parallel {seqs} -ngl 999"
                + (f" --split-mode layer   # over {lay.pp} GPUs" if lay.pp > 1 else "") + tail)
    dev = "device_map='auto'" if lay.pp > 1 else "device_map='cuda'"
    return (f"python -c \"from transformers import AutoModelForCausalLM; m = AutoModelForCausalLM.from_pretrained("
            f"'{repo}', {dev}, torch_dtype='auto')\"  # then m.generate() on batches of up to {seqs}" + tail)


def _vllm_extras(req: ServeRequest) -> list[str]:
    """vLLM's flags for multi-LoRA slots and speculative decoding."""
    out = []
    if req.max_loras:
        out.append(f"--enable-lora --max-loras {req.max_loras} --max-lora-rank {req.max_lora_rank}")
    if req.speculative:
        method = {"draft": f'"model": "{req.draft_model.hf_repo or req.draft_model.id}"' if req.draft_model else "",
                  "eagle": '"method": "eagle3", "model": "<EAGLE head repo>"', "mtp": '"method": "mtp"'}[req.speculative]
        tokens = req.mtp_layers if req.speculative == "mtp" else 3
        out.append(f"--speculative-config '{{{method}, \"num_speculative_tokens\": {tokens}}}'")
    return out


def _assumptions(req: ServeRequest, lay: Layout, c: _Ctx, p: LoadPoint, kv: str, price_source: str | None) -> list[str]:
    eng = req.eng
    out = []
    if req.users is not None:
        out.append(f"{req.users:,} concurrent users = {req.users:,} requests in flight (each sends the next as soon as "
                   "the last finishes; with think time between requests, fewer are in flight)")
    else:
        out.append(f"{req.qps:g} requests/s arriving evenly (Poisson); p50-style steady-state figures, no bursts")
    out.append(f"each request: {req.prompt_len:,} prompt + {req.output_len:,} output tokens"
               + ("" if "prompt_len" in req.model_fields_set else " (default lengths; --prompt-len / --output-len)"))
    out.append(f"targets: TTFT <= {req.ttft_target:g} s" + ("" if req.ttft_s is not None else " (default)")
               + f", ITL <= {req.itl_target_s * 1000:g} ms" + ("" if req.itl_ms is not None else " (default)"))
    fmt = weight_format(req.fmt)
    out.append(f"weights in {fmt.name}" + (" (the checkpoint's own)" if req.precision is None else "")
               + f", KV cache in {kv}" + ("" if req.kv_dtype else " (default)"))
    if eng.preallocates and eng.memory_fraction is not None:
        frac = req.memory_fraction or eng.memory_fraction
        out.append(f"{eng.name}: {eng.fraction_flag} {frac:g}; the KV pool after weights, a profiled forward of "
                   f"{eng.max_batched_tokens:,} tokens and CUDA graphs holds {lay.kv_pool_tokens or 0:,} tokens = "
                   f"{c.cap.sequences:,} sequences of {req.prompt_len + req.output_len:,}"
                   + (f", capped at the engine's {eng.max_num_seqs_flag} {eng.max_num_seqs}" if eng.max_num_seqs and
                      c.cap.sequences > lay.max_concurrent_sequences and not req.max_num_seqs else "")
               + (f", capped at your {eng.max_num_seqs_flag} {req.max_num_seqs}" if req.max_num_seqs else ""))
    elif eng.id == "llama.cpp":
        out.append(f"llama.cpp: --parallel {lay.max_concurrent_sequences} slots of {req.prompt_len + req.output_len:,} "
                   "tokens allocated at start (-c = slots x context); layers split over GPUs, one stage at a time")
    else:
        out.append("transformers generate(): static batches (no continuous batching): a request waits for the running "
                   "batch; layers split over GPUs with device_map='auto', one at a time")
    out.append(f"past {lay.max_concurrent_sequences:,} running sequences per replica: {eng.past_the_pool}")
    out.append(f"prefill compute-bound at {eff.PREFILL_COMPUTE_EFFICIENCY:.0%} of dense peak ({c.prefill_s * 1000:.0f} ms "
               f"per prompt on TP{lay.tp}); decode reads weights + KV at {eff.DECODE_BANDWIDTH_EFFICIENCY:.0%} of "
               f"{req.gpu.memory_bandwidth_gbps:g} GB/s; prefill takes {p.prefill_share:.0%} of GPU time and stretches "
               "decode steps by that share (chunked prefill, no overlap credit)")
    if lay.tp > 1:
        link = "NVLink" if req.gpu.nvlink_gbps else "PCIe (no NVLink: every all-reduce is slower)"
        out.append(f"TP{lay.tp} within one node over {link}: two all-reduces per layer per step")
    if lay.pp > 1:
        out.append(f"PP{lay.pp} across nodes: a stream's decode speed is one replica-stage's, throughput rises with "
                   f"{lay.pp} micro-batches in flight" if c.pipelined else
                   f"layers split over {lay.pp} GPUs for memory; they run one after another")
    if req.model.moe is not None:
        out.append("MoE: each decode step reads the experts the running batch routes to; compute uses active parameters")
    if req.speculative:
        out.append(f"speculative decoding ({req.speculative}): its weights and KV cache are counted in memory; its "
                   "speed-up depends on the acceptance rate and is not modelled (ITL as without it)")
    if req.max_loras:
        out.append(f"{req.max_loras} LoRA slot(s) at rank {req.max_lora_rank} allocated at start (vLLM --max-loras "
                   f"{req.max_loras} --max-lora-rank {req.max_lora_rank}); adapters beyond them wait in the CPU cache")
    if req.prefix_cache_hit:
        out.append(f"{req.prefix_cache_hit:.0%} of prompt tokens served from the prefix cache (not prefilled)")
    if price_source:
        out.append(f"cost: {price_source}; input/output split by GPU time (prefill share {p.prefill_share:.0%})")
    else:
        out.append(f"no price for {req.gpu.id} in the table: give --price (USD per GPU-hour) for $/1M tokens")
    return out


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


def serving_options(req: ServeRequest, gpus: list[GPU]) -> list[ServeOption]:
    """The same load and targets on each GPU type, ranked: cheapest per hour first where priced (your --price applies
    to the GPU you asked about only), then by GPU count; GPUs that cannot serve it last, with why."""
    out: list[ServeOption] = []
    for g in gpus:
        try:
            alt = ServeRequest(**{**dict(req), "gpu": g,  # validated again: a card without figures is refused
                                  "price_per_gpu_hour": req.price_per_gpu_hour if g.id == req.gpu.id else None})
            p = plan_serving(alt)
        except ValidationError as e:  # the card's own check (no bandwidth or compute figures), in its words
            out.append(ServeOption(gpu=g.id, total_gpus=None, why_not=e.errors()[0]["msg"].removeprefix("Value error, ")))
            continue
        except ValueError as e:
            out.append(ServeOption(gpu=g.id, total_gpus=None, why_not=str(e).split(": try")[0]))
            continue
        out.append(ServeOption(gpu=g.id, total_gpus=p.total_gpus, tp=p.tp, pp=p.pp, replicas=p.replicas, ttft_s=p.ttft_s,
                               itl_ms=p.itl_ms, tokens_per_s_per_gpu=p.tokens_per_s_per_gpu,
                               cost_per_hour_usd=p.cost_per_hour_usd,
                               cost_per_million_output_tokens_usd=p.cost_per_million_output_tokens_usd))
    ok = sorted((o for o in out if o.total_gpus), key=lambda o: (o.cost_per_hour_usd is None, o.cost_per_hour_usd or 0,
                                                                 o.total_gpus))
    for n, o in enumerate(ok, 1):
        o.rank = n
    return ok + [o for o in out if not o.total_gpus]
