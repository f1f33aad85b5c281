"""Parallel layout: DP x TP x PP (x ZeRO stage) for a model, task and GPU count.

Candidates keep tensor parallelism inside one NVLink domain (its all-reduces run every layer);
each is sized with the memory engine, and the fastest that fits wins, by a step-time model of
compute x (1 + pipeline bubble) + tensor-parallel all-reduces (not overlapped) + data-parallel
gradient traffic (hidden behind compute on NVLink/InfiniBand, as in tools/train_time).
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from knowledge.schemas import GPU, ModelSpec
from tools import efficiency as eff
from tools.params import count_parameters
from tools.train_memory import TrainingMemoryRequest, estimate_training_memory
from tools.train_time import NETWORK_GBPS_PER_GPU, SLOW_LINK_OVERLAP, model_flops_per_token, slow_link
from tools.units import GB

Task = Literal["pretrain", "full", "lora", "qlora"]


class ParallelPlanRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: ModelSpec
    gpu: GPU
    num_gpus: int = Field(ge=1, le=100_000)
    task: Task = "full"
    seq_len: int = Field(4096, ge=1)
    micro_batch: int = Field(1, ge=1)
    global_batch_tokens: int = Field(4_000_000, ge=1)


class PlanOption(BaseModel):
    dp: int
    tp: int
    pp: int
    zero: int
    recompute: str
    per_gpu_gb: float
    fits: bool
    step_seconds: float | None
    comm_share: float | None = Field(description="share of a step spent in communication that is not hidden")


class ParallelPlan(BaseModel):
    dp: int | None
    tp: int | None
    pp: int | None
    zero: int | None
    recompute: str | None
    per_gpu_gb: float | None
    fits: bool
    step_seconds: float | None
    comm_share: float | None
    considered: list[PlanOption]
    assumptions: list[str]


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def _dp_link(gpu: GPU, num_gpus: int) -> tuple[float, float]:
    """(bytes/s per GPU for data-parallel traffic, share of compute it can hide behind)."""
    slow = slow_link(gpu, num_gpus)
    if slow is not None:
        return slow[0] * GB * eff.LINK_EFFICIENCY, SLOW_LINK_OVERLAP
    if gpu.nvlink_gbps and num_gpus <= (gpu.gpus_per_nvlink_domain or 1):
        return gpu.nvlink_gbps / 2 * GB * eff.LINK_EFFICIENCY, 1.0
    return NETWORK_GBPS_PER_GPU * GB * eff.LINK_EFFICIENCY, 1.0


def _step(req: ParallelPlanRequest, tp: int, pp: int, dp: int, zero: int) -> tuple[float, float]:
    """(step seconds, unhidden communication share) for one layout."""
    spec, gpu = req.model, req.gpu
    method = "full" if req.task == "pretrain" else req.task
    flops = model_flops_per_token(spec, req.seq_len, method) * req.global_batch_tokens
    peak = gpu.bf16_dense_tflops or gpu.fp16_dense_tflops  # V100 and T4 have FP16 tensor cores only
    if not peak:
        raise ValueError(f"{gpu.id} has no dense BF16/FP16 figure in the GPU table")
    compute = flops / (req.num_gpus * peak * 1e12 * eff.default_mfu(gpu, "bf16").point)
    micro = max(1, req.global_batch_tokens // (dp * req.micro_batch * req.seq_len))
    bubble = (pp - 1) / (micro + pp - 1)
    nv = (gpu.nvlink_gbps or 64.0) / 2 * GB * eff.LINK_EFFICIENCY
    # TP: 4 all-reduces of the micro-batch's activations (b x s x h, bf16) per layer, forward and backward
    tp_comm = 0.0
    if tp > 1:
        size = req.micro_batch * req.seq_len * spec.hidden_size * 2
        tp_comm = micro * (spec.num_layers / pp) * 4 * 2 * (tp - 1) / tp * size / nv
    dp_comm = 0.0
    if dp > 1:
        bw, overlap = _dp_link(gpu, req.num_gpus)
        local = count_parameters(spec).total / (tp * pp)
        grads = local * 2 * (method == "full")
        share = (dp - 1) / dp
        if zero >= 3:  # weights gathered for each micro-batch's forward and backward, gradients reduce-scattered
            traffic = micro * share * (2 * local * (0.5 if method == "qlora" else 2.0) + grads)
        else:
            traffic = 2 * share * grads
        dp_comm = max(0.0, traffic / bw - overlap * compute)
    step = compute * (1 + bubble) + tp_comm + dp_comm
    return step, (tp_comm + dp_comm) / step


def plan_parallel(req: ParallelPlanRequest) -> ParallelPlan:
    """The fastest DP x TP x PP x ZeRO layout that fits, with the alternatives considered."""
    spec, gpu = req.model, req.gpu
    method = "full" if req.task == "pretrain" else req.task
    domain = gpu.gpus_per_nvlink_domain or 1
    tps = [t for t in _divisors(min(domain, req.num_gpus)) if spec.num_attention_heads % t == 0
           and (spec.num_kv_heads % t == 0 or t % spec.num_kv_heads == 0) and req.num_gpus % t == 0]
    options: list[PlanOption] = []
    for tp in tps:
        for pp in [p for p in _divisors(req.num_gpus // tp) if p <= spec.num_layers and p <= 64]:
            dp = req.num_gpus // (tp * pp)
            zeros = [0] if dp == 1 else ([1, 3] if tp * pp > 1 else [1, 2, 3])
            for zero in zeros:
                mem = estimate_training_memory(TrainingMemoryRequest(
                    model=spec, gpu=gpu, method=method, num_gpus=req.num_gpus, tp=tp, pp=pp, zero=zero,
                    seq_len=req.seq_len, micro_batch=req.micro_batch))
                step, share = _step(req, tp, pp, dp, zero)
                options.append(PlanOption(dp=dp, tp=tp, pp=pp, zero=zero, recompute=str(mem.layout["recompute"]),
                                          per_gpu_gb=mem.per_gpu_gb, fits=bool(mem.fits), step_seconds=round(step, 3),
                                          comm_share=round(share, 3)))
    fitting = sorted((o for o in options if o.fits), key=lambda o: (o.step_seconds, o.tp * o.pp, o.zero))
    best = fitting[0] if fitting else None
    assumptions = [
        f"tensor parallelism kept inside one NVLink domain ({domain} GPUs on {gpu.name}) and dividing the "
        f"{spec.num_attention_heads} heads; pipeline stages up to 64",
        f"{req.global_batch_tokens:,} tokens per step in micro-batches of {req.micro_batch} x {req.seq_len}; 1F1B bubble "
        "(p-1)/(m+p-1)",
        f"TP: 4 all-reduces of the activations per layer at {eff.LINK_EFFICIENCY:.0%} of nominal NVLink, not overlapped; "
        "DP traffic (ZeRO-3: weights gathered per micro-batch) over NVLink, a 400 Gb/s NIC per GPU between HGX "
        "servers, or PCIe/Ethernet; exposed where it exceeds the compute it overlaps",
        "memory per GPU from the sizing engine (activation recomputation: its default for each layout)",
    ]
    if best is None:
        assumptions.append(f"no layout of {req.num_gpus} x {gpu.id} fits; more GPUs, offload or a smaller method are needed")
    return ParallelPlan(
        dp=best.dp if best else None, tp=best.tp if best else None, pp=best.pp if best else None,
        zero=best.zero if best else None, recompute=best.recompute if best else None,
        per_gpu_gb=best.per_gpu_gb if best else min((o.per_gpu_gb for o in options), default=None),
        fits=best is not None, step_seconds=best.step_seconds if best else None,
        comm_share=best.comm_share if best else None,
        considered=sorted(options, key=lambda o: (not o.fits, o.step_seconds or 0))[:20], assumptions=assumptions)
