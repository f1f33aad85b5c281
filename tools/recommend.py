"""GPU recommendation: every GPU in the table (or a given list) sized, timed, priced and ranked.

For training tasks each GPU gets the least count that fits (memory engine), raised if a deadline
needs more, then time (training-time model) and rental cost (price table). For inference, the
least count that holds the model and the requested context x concurrency, its decode speed and
cost per hour. Ranking: with a deadline, the cheapest option that meets it; with a budget, the
fastest within it; otherwise the cheapest. Options that cannot run are listed apart with why.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from knowledge.schemas import GPU, ModelSpec, Price
from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory
from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed
from tools.pricing import CNY_PER_USD, on_demand_rate
from tools.train_memory import TrainingMemoryRequest, estimate_training_memory
from tools.train_time import TrainingTimeRequest, estimate_training_time

Task = Literal["pretrain", "full", "lora", "qlora", "inference"]
DEFAULT_FINETUNE_TOKENS = 1e8  # 100M tokens: e.g. 50k examples x 2k tokens, one epoch
MAX_GPUS = 4096
FAST_PICK_SPEEDUP = 2.0  # a training option this much faster than the cheapest ...
FAST_PICK_COST = 2.0  # ... for at most this multiple of its cost is picked when no deadline or budget decides


class RecommendRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: ModelSpec
    task: Task
    gpus: list[GPU] = Field(min_length=1)
    prices: list[Price] = []
    seq_len: int | None = Field(None, ge=1, le=10_000_000)
    tokens: float | None = Field(None, gt=0, le=1e16, description="training tokens")
    batch: int = Field(1, ge=1, le=100_000, description="inference: concurrent sequences")
    budget: float | None = Field(None, gt=0, description="USD for the whole job (training) or per hour (inference)")
    deadline_hours: float | None = Field(None, gt=0)
    deadline_slack: float = Field(0.0, ge=0, le=1, description="training: the share of the deadline kept spare "
                                  "(restarts, evaluation, a slower MFU): an option makes it when hours x (1 + slack) fit")
    train_gpus: int | None = Field(None, ge=1, le=MAX_GPUS, description="training: every option at this many GPUs (the "
                                   "count the user named, '8x H100 or 8x A100'), or at the least that holds the job if more")
    box_gpus: int | None = Field(None, ge=1, le=8, description="inference: every option is one machine of this many "
                                 "GPUs ('from ONE box', '一台 8 卡机'), tensor parallel over all of them, no latency target "
                                 "imposed; a card whose box does not hold the model is rejected with the reason")
    precision: str | None = Field(None, description="inference: the weight format asked for (tools.formats id); "
                                  "default: the checkpoint's own")


class Option(BaseModel):
    gpu: str
    num_gpus: int | None
    config: dict[str, int | str | float | None]
    fits: bool
    per_gpu_gb: float | None
    wall_hours: float | None
    cost: float | None = Field(description="USD: whole job (training) or per hour (inference), on-demand typical")
    tokens_per_second: float | None = None
    rank: int | None = None
    why: str


class Recommendation(BaseModel):
    options: list[Option]
    rejected: list[Option]
    assumptions: list[str]


# QLoRA's NF4 matmuls come from bitsandbytes, built for CUDA (NVIDIA) and ROCm (AMD).
QLORA_VENDORS = ("nvidia", "amd")


def _unrated(gpu: GPU, task: str) -> str | None:
    """Why a card cannot be ranked for this task, or None."""
    if gpu.vendor == "Apple":
        return ("Apple silicon runs llama.cpp / MLX, not vLLM: size it with `size infer`" if task == "inference" else
                "Apple silicon trains with MLX, outside these CUDA/ROCm estimates")
    if not (gpu.bf16_dense_tflops or gpu.fp16_dense_tflops) or gpu.memory_bandwidth_gbps is None:
        return "no compute or bandwidth figures for this card"
    return None


def _train_option(req: RecommendRequest, gpu: GPU, tokens: float) -> Option:
    method = "full" if req.task == "pretrain" else req.task
    if _unrated(gpu, method):
        return Option(gpu=gpu.id, num_gpus=None, config={}, fits=False, per_gpu_gb=None, wall_hours=None, cost=None,
                      why=_unrated(gpu, method))
    if method == "qlora" and not gpu.vendor.lower().startswith(QLORA_VENDORS):
        return Option(gpu=gpu.id, num_gpus=None, config={}, fits=False, per_gpu_gb=None, wall_hours=None, cost=None,
                      why=f"QLoRA needs bitsandbytes' NF4 kernels (NVIDIA CUDA, AMD ROCm); on {gpu.vendor} use LoRA")
    mem_req = TrainingMemoryRequest(model=req.model, gpu=gpu, method=method, seq_len=req.seq_len)
    n = estimate_training_memory(mem_req).min_gpus
    if n is None:
        return Option(gpu=gpu.id, num_gpus=None, config={}, fits=False, per_gpu_gb=None, wall_hours=None, cost=None,
                      why="does not fit at any GPU count (activations per GPU exceed its memory)")

    def timed(count: int):
        return estimate_training_time(TrainingTimeRequest(model=req.model, gpu=gpu, num_gpus=count, tokens=tokens,
                                                          method=method, seq_len=req.seq_len))
    if req.train_gpus:  # the count named for every option ('8x H100 or 8x A100'): kept where it holds the job
        n = max(n, req.train_gpus)
    t = timed(n)
    while req.deadline_hours and not req.train_gpus and t.wall_hours * (1 + req.deadline_slack) > req.deadline_hours \
            and n * 2 <= MAX_GPUS:
        faster = timed(n * 2)
        if faster.wall_hours >= t.wall_hours * 0.95:  # more GPUs stopped helping (slow links)
            break
        n, t = n * 2, faster
    mem = estimate_training_memory(mem_req.model_copy(update={"num_gpus": n}))
    rate = on_demand_rate(req.prices, gpu.id)
    return Option(gpu=gpu.id, num_gpus=n, config={"method": method, **mem.layout}, fits=bool(mem.fits),
                  per_gpu_gb=mem.per_gpu_gb, wall_hours=t.wall_hours, cost=round(rate.typical * t.gpu_hours, 0) if rate else None,
                  tokens_per_second=t.tokens_per_second, why="")


def _infer_option(req: RecommendRequest, gpu: GPU) -> Option:
    """The serving planner's smallest layout for `batch` users at seq_len tokens within the default latency targets:
    TP a power of two in a node, whole nodes beyond, replicas for the rest (never a layout slower per stream than
    a smaller one: the planner takes the fewest GPUs that meet the targets)."""
    from tools.formats import runnable_format
    from tools.serving import DEFAULT_ITL_MS, DEFAULT_OUTPUT, DEFAULT_TTFT_S, ServeRequest, plan_serving

    if _unrated(gpu, "inference"):
        return Option(gpu=gpu.id, num_gpus=None, config={}, fits=False, per_gpu_gb=None, wall_hours=None, cost=None,
                      why=_unrated(gpu, "inference"))
    ctx = req.seq_len or 4096
    out = min(DEFAULT_OUTPUT, max(1, ctx // 4))
    fmt = runnable_format(req.precision, gpu)  # (no FP8 on Ascend: W8A8 INT8)
    shape = {"model": req.model, "gpu": gpu, "users": req.batch, "prompt_len": max(1, ctx - out), "output_len": out,
             "prices": req.prices} | ({"precision": fmt} if fmt else {})
    try:
        p = plan_serving(ServeRequest(**shape, tp=req.box_gpus) if req.box_gpus else
                         ServeRequest(**shape, ttft_s=DEFAULT_TTFT_S, itl_ms=DEFAULT_ITL_MS))
    except ValueError as e:
        why = str(e).split(": try")[0]
        if req.box_gpus and not shape.get("kv_dtype"):
            try:  # a near miss on one box: an 8-bit KV cache (vLLM --kv-cache-dtype fp8) halves the context's memory
                p8 = plan_serving(ServeRequest(**shape, tp=req.box_gpus, kv_dtype="fp8"))
            except ValueError:
                p8 = None
            if p8 is not None and p8.total_gpus <= req.box_gpus:
                return Option(gpu=gpu.id, num_gpus=p8.total_gpus,
                              config={"engine": "vllm", "tp": p8.tp, "pp": p8.pp, "replicas": p8.replicas,
                                      "itl_ms": p8.itl_ms, "ttft_s": p8.ttft_s, "kv_cache": "fp8",
                                      "max_concurrent_sequences": p8.max_concurrent_sequences},
                              fits=True, per_gpu_gb=p8.per_gpu_gb, wall_hours=None, cost=p8.cost_per_hour_usd,
                              tokens_per_second=p8.output_tokens_per_s,
                              why="fits only with the KV cache in FP8 (vLLM --kv-cache-dtype fp8): in 16-bit the "
                                  f"weights and one {ctx:,}-token sequence pass its memory")
        if req.box_gpus:
            need = _boxes_needed(req, gpu, ctx)
            why = f"one box of {req.box_gpus} does not hold it" + (f" in {req.precision}" if req.precision else "") \
                + (f"; {need} boxes ({need * req.box_gpus} GPUs) do, for the weights and one {ctx:,}-token sequence"
                   if need else f" ({why})")
        return Option(gpu=gpu.id, num_gpus=None, config={}, fits=False, per_gpu_gb=None, wall_hours=None, cost=None,
                      why=why)
    if req.box_gpus and p.total_gpus > req.box_gpus:
        return Option(gpu=gpu.id, num_gpus=p.total_gpus, config={}, fits=False, per_gpu_gb=p.per_gpu_gb, wall_hours=None,
                      cost=None, why=f"needs {p.total_gpus} GPUs: more than one box of {req.box_gpus}")
    return Option(gpu=gpu.id, num_gpus=p.total_gpus,
                  config={"engine": "vllm", "tp": p.tp, "pp": p.pp, "replicas": p.replicas, "itl_ms": p.itl_ms,
                          "ttft_s": p.ttft_s, "max_concurrent_sequences": p.max_concurrent_sequences}
                  | ({"format": "int8 (W8A8: Ascend has no FP8)"} if fmt != req.precision else {}),
                  fits=True, per_gpu_gb=p.per_gpu_gb, wall_hours=None, cost=p.cost_per_hour_usd,
                  tokens_per_second=p.output_tokens_per_s, why="")


def _boxes_needed(req: RecommendRequest, gpu: GPU, context: int) -> int | None:
    """Machines of box_gpus that hold the weights and one sequence (memory alone), or None when that cannot be sized."""
    from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory

    try:
        r = estimate_inference_memory(InferenceMemoryRequest(model=req.model, gpu=gpu, num_gpus=1, context=context,
                                                             precision=req.precision, engine="vllm"))
    except ValueError:
        return None
    return -(-r.min_gpus // req.box_gpus) if r.min_gpus else None


def recommend(req: RecommendRequest) -> Recommendation:
    """Every candidate GPU evaluated and ranked; those that cannot run are listed apart with the reason."""
    tokens = req.tokens or (None if req.task in ("pretrain", "inference") else DEFAULT_FINETUNE_TOKENS)
    if req.task == "pretrain" and tokens is None:
        raise ValueError("pre-training needs --tokens (e.g. 2T); fine-tuning defaults to 100M")
    opts = [(_infer_option(req, g) if req.task == "inference" else _train_option(req, g, tokens)) for g in req.gpus]
    viable = [o for o in opts if o.fits]
    rejected = [o for o in opts if not o.fits]
    inf = float("inf")
    if req.deadline_hours and req.task != "inference":
        key = lambda o: (o.wall_hours * (1 + req.deadline_slack) > req.deadline_hours, o.cost if o.cost is not None
                         else inf, o.wall_hours)
    elif req.budget:
        key = lambda o: ((o.cost or inf) > req.budget, o.wall_hours or 0, -(o.tokens_per_second or 0))
    else:
        key = lambda o: (o.cost if o.cost is not None else inf, o.wall_hours or 0, -(o.tokens_per_second or 0))
    mods = {g.id for g in req.gpus if g.modified}
    viable.sort(key=lambda o: (o.gpu in mods, key(o)))  # a modified card (no vendor warranty) after the official ones
    quick = None
    if viable and req.task != "inference" and not req.deadline_hours and not req.budget and viable[0].cost and \
            viable[0].wall_hours:
        # no deadline and no budget: a card at least FAST_PICK_SPEEDUP× faster for at most FAST_PICK_COST× the money
        # is the one a practitioner picks (the run's weeks matter as much as its bill)
        cheap = viable[0]
        fast = [o for o in viable[1:] if o.cost and o.wall_hours and o.gpu not in mods and
                cheap.wall_hours / o.wall_hours >= FAST_PICK_SPEEDUP and o.cost / cheap.cost <= FAST_PICK_COST]
        if fast:
            quick = min(fast, key=lambda o: o.wall_hours)
            viable.remove(quick)
            viable.insert(0, quick)
    best = viable[0] if viable else None
    for rank, o in enumerate(viable, 1):
        o.rank = rank
        o.why = _why(o, best, req)
    if quick is not None:
        cheap = viable[1]
        quick.why = (f"{cheap.wall_hours / quick.wall_hours:.1f}× faster than {cheap.gpu} for "
                     f"{quick.cost / cheap.cost:.2f}× the cost (no deadline or budget given: the time is weighed too)")
    priced = [o for o in viable if o.cost is not None]
    if best is not None and best.why == "cheapest" and len(priced) == 1 and len(viable) > 1:
        best.why = "the only one with a price in the table (the others cannot be compared on cost)"
    return Recommendation(options=viable, rejected=rejected, assumptions=_assumptions(req, tokens))


def _why(o: Option, best: Option, req: RecommendRequest) -> str:
    if o is not best and any(g.id == o.gpu and g.modified for g in req.gpus):
        return "a modified card (no vendor warranty, unofficial firmware): ranked after the official cards"
    if o.cost is None:
        return "no rental price in the table for this GPU (add one to your prices file)"
    if req.deadline_hours and o.wall_hours is not None and o.wall_hours > req.deadline_hours:
        return f"misses the {req.deadline_hours:g} h deadline by {o.wall_hours - req.deadline_hours:,.1f} h"
    if req.deadline_hours and o.wall_hours is not None and o.wall_hours * (1 + req.deadline_slack) > req.deadline_hours:
        return f"only just: inside the {req.deadline_hours:g} h deadline, without {req.deadline_slack:.0%} to spare"
    if req.budget and o.cost > req.budget:
        return f"over the budget by ${o.cost - req.budget:,.0f}"
    if o is best:
        return ((f"cheapest that meets the deadline with {req.deadline_slack:.0%} to spare" if req.deadline_slack else
                 "cheapest that meets the deadline") if req.deadline_hours else
                "fastest within the budget" if req.budget else "cheapest")
    if best.cost is not None and o.cost > best.cost:
        more = f"${o.cost - best.cost:,.0f} more than {best.gpu}"
        if o.wall_hours is not None and best.wall_hours is not None:
            more += f", {'faster' if o.wall_hours < best.wall_hours else 'slower'} ({o.wall_hours:,.1f} h)"
        return more
    if best.cost is not None and o.cost is not None and o.cost < best.cost:
        return f"${best.cost - o.cost:,.0f} cheaper than {best.gpu}" + (
            f", slower ({o.wall_hours:,.1f} h)" if o.wall_hours is not None else "")
    return f"slower than {best.gpu}" if req.budget else f"ties {best.gpu} on cost"


def _assumptions(req: RecommendRequest, tokens: float | None) -> list[str]:
    out = []
    if req.task != "inference":
        out.append(f"{tokens:.3g} training tokens" + ("" if req.tokens else " (default for fine-tuning; --tokens)"))
        out.append(f"per GPU type: {req.train_gpus} GPUs as named (more where {req.train_gpus} do not hold the job)"
                   if req.train_gpus else
                   "per GPU type: the least count that fits (memory engine defaults: ZeRO-3 with more than one GPU, "
                   "full recomputation), doubled while a deadline is missed and more GPUs still help")
    elif req.box_gpus:
        out.append(f"serving {req.batch} concurrent user(s) at {req.seq_len or 4096} tokens each with vLLM on one box of "
                   f"{req.box_gpus} GPUs (TP{req.box_gpus}), weights in {req.precision or 'the published format'}; no "
                   "latency target imposed; cost per hour of the box")
    else:
        out.append(f"serving {req.batch} concurrent user(s) at {req.seq_len or 4096} tokens each with vLLM, within TTFT "
                   "<= 2 s and ITL <= 50 ms (the serving planner: TP within a node, whole nodes beyond, replicas); "
                   "cost per hour")
    yours = sorted({p.gpu for p in req.prices if p.id.startswith("session-") and p.kind == "rent_on_demand"})
    if yours:
        out.append("cost: your stated rental price for " + ", ".join(yours) + "; the price table's median on-demand "
                   "rate for any other card")
    else:
        out.append("cost: on-demand rental at the median of the price table's USD records for each GPU (CNY-only GPUs "
                   f"converted at {CNY_PER_USD} CNY/USD; estimates; write your price in the question to replace them)")
    out.append("ranking: " + ("cheapest meeting the deadline" if req.deadline_hours else
                              "fastest within the budget" if req.budget else "cheapest, then fastest"))
    return out
