"""Training time: FLOPs over GPUs x dense peak x MFU, with recomputation, pipeline bubble and
the communication a slow link cannot hide.

Model FLOPs per token (Kaplan et al. 2020; PaLM's MFU, Chowdhery et al. 2022, appendix B):
6·N (forward 2·N, backward 4·N; N = active parameters for MoE) plus attention 12·L·h_attn·s/2
... counted as in Megatron-LM (Narayanan et al. 2021): 6·N·(1 + s/(6·h)) for a dense decoder.
LoRA/QLoRA skip the weight gradients of frozen matrices: 4·N. Full recomputation repeats the
forward (+2·N: 8·N for full training), which costs time but is not "model FLOPs"; so time uses
hardware FLOPs over peak x HFU, with HFU = MFU x hardware/model FLOPs of the calibrating runs.
"""
from __future__ import annotations

import math

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from knowledge.schemas import GPU, ModelSpec
from tools import efficiency as eff
from tools.params import count_parameters
from tools.units import GB, dtype_bytes

DEFAULT_SEQ_LEN = 2048
# Tokens per optimizer step when not given: Llama 2 pre-training used 4M; fine-tuning recipes ~0.25M.
PRETRAIN_BATCH_TOKENS = 4_000_000
FINETUNE_BATCH_TOKENS = 262_144
PRETRAIN_SCALE_TOKENS = 1e10  # full training on this many tokens or more is taken as pre-training
# PCIe servers: 8 cards share the host's PCIe switches and, between servers, one 100 GbE port.
PCIE_GBPS = {"gen3": 16.0, "gen4": 32.0, "gen5": 64.0}  # per direction, x16
PCIE_SERVER_GPUS = 8
NETWORK_GBPS_PER_GPU = 50.0  # HGX-class clusters: one 400 Gb/s InfiniBand/RoCE NIC per GPU
ETHERNET_GBPS_PER_SERVER = 12.5  # 100 Gb/s
# Links between servers, per direction, GB/s: Ethernet is one port per server, shared by its GPUs;
# InfiniBand/RoCE clusters give each GPU its own 400 Gb/s NIC.
SERVER_LINK_GBPS = {f"ethernet-{g}g": g / 8 for g in (1, 10, 25, 100, 200, 400)}
Interconnect = Literal["nvlink", "pcie", "ethernet-1g", "ethernet-10g", "ethernet-25g", "ethernet-100g", "ethernet-200g",
                       "ethernet-400g", "infiniband", "roce"]
# Share of a step's compute behind which communication can hide on a slow link (prefetch and bucketed
# all-reduce overlap imperfectly: DeepSpeed/FSDP over PCIe typically hide about half).
SLOW_LINK_OVERLAP = 0.5
QLORA_DEQUANT_PASSES = 3  # NF4 weights dequantized in the forward, the recomputed forward and the backward
# QLoRA runs slower than 16-bit LoRA by more than its dequantization bandwidth alone (bitsandbytes' 4-bit matmul
# path, extra kernel launches): S. Raschka, "Practical Tips for Finetuning LLMs Using LoRA" (Lightning AI / Ahead
# of AI, 2023-11-19) measured QLoRA at +39% runtime over LoRA (Llama 2 7B, one A100; 33% less memory). The floor
# below takes most of that, as the least overhead charged.
QLORA_MIN_OVERHEAD = 0.30


class TrainingTimeRequest(BaseModel):
    """A training job to time."""

    model_config = ConfigDict(extra="forbid")
    model: ModelSpec
    gpu: GPU
    num_gpus: int = Field(1, ge=1, le=1_000_000)
    tokens: float = Field(gt=0, le=1e16, description="training tokens (tokens x epochs)")
    method: Literal["full", "lora", "qlora"] = "full"
    precision: Literal["bf16", "fp8"] = "bf16"
    mfu: float | None = Field(None, gt=0, le=1, description="model FLOPs utilization; default by GPU family")
    peak_tflops: float | None = Field(None, gt=0, le=100_000, description="dense TFLOPS per GPU to time against, "
                                      "instead of the GPU table's (e.g. a vendor figure you trust)")
    seq_len: int | None = Field(None, ge=1, le=10_000_000)
    recompute: Literal["none", "selective", "full"] | None = None
    zero: int | None = Field(None, ge=0, le=3)
    tp: int = Field(1, ge=1)
    pp: int = Field(1, ge=1)
    ep: int | None = Field(None, ge=1, description="expert parallelism (MoE) as run ('EP8'); None: default_ep, the "
                           "largest count dividing the routed experts, at most the data-parallel GPUs")
    global_batch_tokens: int | None = Field(None, ge=1)
    interconnect: Interconnect | None = Field(None, description="the link data parallelism crosses; default: the GPU's own")
    gpus_per_node: int | None = Field(None, ge=1, le=64, description="GPUs per server (default 8)")

    @model_validator(mode="after")
    def _layout(self) -> TrainingTimeRequest:
        from tools.train_memory import layout_problem

        problem = layout_problem(self.model, self.tp, self.pp, self.num_gpus)
        if problem:
            raise ValueError(problem)
        return self


class TrainingTime(BaseModel):
    """How long, how many GPU-hours, at what utilization."""

    model: str
    gpu: str
    num_gpus: int
    method: str
    precision: str
    total_flops: float = Field(description="model FLOPs (6·N·D + attention; 4·N·D for LoRA/QLoRA)")
    hardware_flops: float = Field(description="FLOPs executed, recomputation included")
    peak_tflops: float = Field(description="dense peak per GPU for the precision used")
    mfu: float
    mfu_range: tuple[float, float]
    hfu: float
    gpu_hours: float
    gpu_hours_range: tuple[float, float]
    wall_hours: float
    wall_seconds: float
    wall_hours_range: tuple[float, float]
    wall_days: float
    tokens_per_second: float
    overheads: dict[str, float] = Field(description="fractions added to compute time: bubble, exposed comm, dequant")
    layout: dict[str, int] = Field(default_factory=dict, description="dp, tp, pp, ep, zero, global_batch_tokens")
    assumptions: list[str]


def model_flops_per_token(spec: ModelSpec, seq_len: int, method: str) -> float:
    """Model FLOPs per trained token: 6·N_active (4·N for adapters) plus causal attention."""
    counts = count_parameters(spec)
    n = counts.active
    mult = 6 if method == "full" else 4
    q_dim = spec.num_attention_heads * (spec.mla.qk_nope_head_dim + spec.mla.qk_rope_head_dim if spec.mla else spec.head_dim)
    # QK^T and AV: 2 matmuls x 2 FLOPs x s x q_dim per layer per token in the forward; causal masks half
    attention_fwd = 2 * 2 * seq_len * q_dim * spec.num_layers / 2
    return mult * n + mult / 2 * attention_fwd


SMALL_MODEL_PRETRAIN_BATCH_TOKENS = 2_097_152  # Pythia, TinyLlama, OLMo-1B: ~2M tokens per step below ~3B parameters


def _default_batch_tokens(spec: ModelSpec, req: TrainingTimeRequest) -> int:
    """Tokens per optimizer step when none is given: a pre-training run (PRETRAIN_SCALE_TOKENS or more, full
    training) steps on millions of tokens, as published runs do (~2M below 3B parameters, 4M above); a fine-tune
    on FINETUNE_BATCH_TOKENS."""
    if req.method != "full" or req.tokens < PRETRAIN_SCALE_TOKENS:
        return FINETUNE_BATCH_TOKENS
    return SMALL_MODEL_PRETRAIN_BATCH_TOKENS if count_parameters(spec).total < 3e9 else PRETRAIN_BATCH_TOKENS


def _fastest_zero(req: TrainingTimeRequest, seq: int) -> int:
    """The lowest ZeRO stage whose model states fit each GPU (plain data parallelism moves the gradients once a step;
    full sharding gathers the weights for every micro-batch); 0 on one GPU; 3 when nothing lower fits."""
    if req.num_gpus == 1:
        return 0
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    for stage in (1, 2):
        try:
            m = estimate_training_memory(TrainingMemoryRequest(model=req.model, gpu=req.gpu, method=req.method,
                                                               num_gpus=req.num_gpus, tp=req.tp, pp=req.pp, zero=stage,
                                                               seq_len=seq))
        except ValueError:
            continue
        if m.fits:
            return stage
    return 3


def _least_recompute(req: TrainingTimeRequest, seq: int) -> str:
    """LoRA/QLoRA: no recomputation when the activations of one sequence fit beside the frozen weights (the forward runs
    once: 4·N·D), full recomputation only when they do not (+2·N·D). A practitioner turns gradient checkpointing on
    to fit, not by habit; the answer says which it assumed."""
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    try:
        m = estimate_training_memory(TrainingMemoryRequest(model=req.model, gpu=req.gpu, method=req.method,
                                                           num_gpus=req.num_gpus, tp=req.tp, pp=req.pp, seq_len=seq,
                                                           zero=req.zero if req.zero is not None else _fastest_zero(req, seq),
                                                           micro_batch=1, recompute="none"))
    except ValueError:
        return "full"
    return "none" if m.fits else "full"


def _ring_over_servers(server_gbps: float, num_gpus: int, per_node: int) -> float:
    """Per-GPU GB/s that makes a flat ring all-reduce's per-GPU traffic, 2·S·(n-1)/n, take the time the collective
    really takes between servers: NCCL reduces inside each server first, so a server's port carries 2·S·(k-1)/k for k
    servers, not every GPU's share apart."""
    nodes = max(2, math.ceil(num_gpus / per_node))
    return server_gbps * ((num_gpus - 1) / num_gpus) / ((nodes - 1) / nodes)


def slow_link(gpu: GPU, num_gpus: int, interconnect: str | None = None,
              gpus_per_node: int | None = None) -> tuple[float, str] | None:
    """(per-direction GB/s, name) when data-parallel traffic must cross PCIe or Ethernet; None on NVLink/InfiniBand.

    HGX-class systems (NVLink inside the server, an InfiniBand/RoCE NIC per GPU between servers) hide
    their collectives behind compute: that is already inside the published MFU. PCIe cards do not.
    A stated interconnect replaces the GPU's default: Ethernet between servers, or PCIe inside one."""
    per_node = gpus_per_node or PCIE_SERVER_GPUS
    if interconnect in SERVER_LINK_GBPS and num_gpus > per_node:
        gbps = SERVER_LINK_GBPS[interconnect]
        return _ring_over_servers(gbps, num_gpus, per_node), (f"{interconnect} between servers ({gbps * 8:g} Gb/s per "
                                                                f"server, {per_node} GPUs each)")
    if interconnect == "pcie" and gpu.nvlink_gbps:
        text = gpu.interconnect.lower().replace(" ", "")
        gen = next((g for g in ("gen5", "gen4", "gen3") if g in text), "gen4")
        return PCIE_GBPS[gen], f"PCIe {gen.capitalize()} without NVLink ({PCIE_GBPS[gen]:g} GB/s per direction)"
    if interconnect in ("infiniband", "roce", "nvlink"):
        return None
    domain = gpu.gpus_per_nvlink_domain or 1
    if gpu.nvlink_gbps and (num_gpus <= domain or domain >= 8):
        return None
    if num_gpus > PCIE_SERVER_GPUS:
        name = f"Ethernet between PCIe servers ({ETHERNET_GBPS_PER_SERVER * 8:g} Gb/s per server)"
        return _ring_over_servers(ETHERNET_GBPS_PER_SERVER, num_gpus, PCIE_SERVER_GPUS), name
    text = gpu.interconnect.lower().replace(" ", "")
    gen = next((g for g in ("gen5", "gen4", "gen3") if g in text), "gen4")
    return PCIE_GBPS[gen], f"PCIe {gen.capitalize()} ({PCIE_GBPS[gen]:g} GB/s per direction)"


def estimate_training_time(req: TrainingTimeRequest) -> TrainingTime:
    """Total FLOPs, GPU-hours, wall-clock time and throughput for a training job, with a band. LoRA/QLoRA on several
    GPUs with no stage or recomputation given: where the lowest stage that holds the frozen weights leaves no room for
    the activations (full recomputation, +2·N·D), ZeRO-3 sharding of the frozen weights that frees the room is timed
    too, and the faster of the two is the answer (said)."""
    seq = req.seq_len or DEFAULT_SEQ_LEN
    if req.zero is None and req.recompute is None and req.method in ("lora", "qlora") and req.num_gpus > 1 and \
            req.tp * req.pp == 1:
        low = _fastest_zero(req, seq)
        if low < 3 and _least_recompute(req, seq) == "full" and \
                _least_recompute(req.model_copy(update={"zero": 3}), seq) == "none":
            a = _estimate(req.model_copy(update={"zero": low}))
            b = _estimate(req.model_copy(update={"zero": 3}))
            faster, other = (b, a) if b.wall_hours < a.wall_hours else (a, b)
            faster.assumptions.append(
                f"layout: ZeRO-{3 if faster is b else low} " + ("(the frozen weights sharded, so one sequence's activations "
                "fit without recomputation)" if faster is b else "with full recomputation") +
                f" is faster than ZeRO-{low if faster is b else 3} " + ("with full recomputation" if faster is b else
                "(its weight gathers cost more than recomputing here)") + f" ({faster.wall_hours:,.1f} h against "
                f"{other.wall_hours:,.1f} h; --zero to fix it)")
            return faster
    return _estimate(req)


def _estimate(req: TrainingTimeRequest) -> TrainingTime:
    spec, gpu = req.model, req.gpu
    notes: list[str] = []
    precision = req.precision
    if precision == "fp8" and not gpu.fp8_dense_tflops:
        notes.append(f"{gpu.name} has no FP8 tensor cores: timed in BF16 instead")
        precision = "bf16"
    peak = gpu.fp8_dense_tflops if precision == "fp8" else (gpu.bf16_dense_tflops or gpu.fp16_dense_tflops)
    if req.peak_tflops is not None:
        notes.append(f"peak {req.peak_tflops:g} dense TFLOPS per GPU (given; the GPU table has {peak or '-'})")
        peak = req.peak_tflops
    if not peak:
        raise ValueError(f"{gpu.id} has no dense BF16/FP16 figure in the GPU table, and training time is bound by "
                         "it: name a card from `gpu-advisor gpus`")
    seq = req.seq_len or DEFAULT_SEQ_LEN
    recompute = req.recompute or ("selective" if req.method == "full" else _least_recompute(req, seq))
    per_token = model_flops_per_token(spec, seq, req.method)
    total = per_token * req.tokens
    n_active = count_parameters(spec).active
    extra_forward = 2 * n_active if recompute == "full" else 0.0
    hardware = (per_token + extra_forward) * req.tokens

    band = eff.default_mfu(gpu, precision)
    mfu = req.mfu if req.mfu is not None else band.point
    lo, hi = (mfu, mfu) if req.mfu is not None else (band.low, band.high)
    # the calibrating runs recomputed selectively (hardware ~= model FLOPs), so MFU is their HFU
    hfu = mfu
    # a stated MFU is the user's model-FLOPs utilization (6·N·D over time x peak), recomputation already inside it;
    # the default is calibrated on runs that recomputed selectively (hardware FLOPs ~ model FLOPs), so it times hardware
    compute_s = (total if req.mfu is not None else hardware) / (req.num_gpus * peak * 1e12 * hfu)

    # --- overheads on top of compute -------------------------------------------------------
    overheads: dict[str, float] = {}
    mp = req.tp * req.pp
    dp = req.num_gpus // mp
    gbt = req.global_batch_tokens or _default_batch_tokens(spec, req)

    micro = max(1, gbt // (dp * seq))  # micro-batches of one sequence per data-parallel rank per step
    if req.pp > 1:
        overheads["pipeline_bubble"] = (req.pp - 1) / (micro + req.pp - 1)
    zero = req.zero if req.zero is not None else _fastest_zero(req, seq)

    from tools.train_memory import default_ep

    ep = math.gcd(req.ep, dp) if (req.ep and spec.moe is not None and dp > 1) else default_ep(spec, dp)
    link = slow_link(gpu, req.num_gpus, req.interconnect, req.gpus_per_node) if dp > 1 else None
    if link is not None:
        gbps, link_name = link
        bw = gbps * eff.LINK_EFFICIENCY * GB
        params_local = count_parameters(spec).total / mp
        grad_bytes = (params_local if req.method == "full" else 0.0) * 2
        share = (dp - 1) / dp
        step_compute = compute_s / max(1.0, req.tokens / gbt)  # seconds of compute per optimizer step
        if zero >= 3:  # weights gathered for every micro-batch's forward and backward, gradients reduce-scattered
            weights = params_local * (0.5 if req.method == "qlora" else 2.0)
            comm = micro * share * (2 * weights + grad_bytes) / bw
        else:  # one gradient all-reduce per optimizer step (ring: 2 x (dp-1)/dp of the gradients)
            comm = 2 * share * grad_bytes / bw
        # MoE all-to-all: each token's hidden state to its k experts and back, forward and backward, over the link
        # the EP group spans (inside one server when it fits there)
        a2a_link = slow_link(gpu, ep, req.interconnect, req.gpus_per_node) if ep > 1 else None
        if a2a_link is not None:
            k, layers = spec.moe.experts_per_token, spec.moe.moe_layers(spec.num_layers)
            a2a = (gbt / dp) * layers * 2 * 2 * k * spec.hidden_size * 2 * (ep - 1) / ep
            comm += a2a / (a2a_link[0] * eff.LINK_EFFICIENCY * GB)
            notes.append(f"expert parallelism EP {ep}: {a2a / GB:,.1f} GB of all-to-all per GPU per optimizer step "
                         f"over {a2a_link[1]} (dispatch + combine, forward + backward, top-{k} of "
                         f"{spec.hidden_size}-wide BF16 states)")
        exposed = max(0.0, comm - SLOW_LINK_OVERLAP * step_compute)
        if exposed > 0:
            overheads["exposed_communication"] = exposed / step_compute
            notes.append(f"data parallelism over {link_name}: {comm:.1f} s of communication per optimizer step, "
                         f"{exposed:.1f} s not hidden behind {step_compute:.1f} s of compute")
    if req.method == "qlora":
        tokens_per_pass = micro * seq
        dequant_bytes = count_parameters(spec).linear / mp * (dtype_bytes("nf4") + 2 + 2)  # read NF4, write+read bf16
        dq_s = QLORA_DEQUANT_PASSES * dequant_bytes / ((gpu.memory_bandwidth_gbps or 1.0) * GB * eff.DECODE_BANDWIDTH_EFFICIENCY)
        per_pass_compute = compute_s / (req.tokens / (tokens_per_pass * dp))
        overheads["qlora_dequantization"] = max(QLORA_MIN_OVERHEAD, dq_s / per_pass_compute)
    factor = 1 + sum(overheads.values())
    wall_s = compute_s * factor
    wall_h = wall_s / 3600
    gpu_h = wall_h * req.num_gpus

    def hours(m: float) -> float:
        return (total if req.mfu is not None else hardware) / (req.num_gpus * peak * 1e12 * m) * factor / 3600

    assumptions = [
        f"FLOPs: {'6' if req.method == 'full' else '4'}·N·D + causal attention at {seq} tokens/sequence"
        + ("" if req.seq_len else " (default; --seq-len)") + f", N = {n_active / 1e9:.2f}e9"
        + (" active" if spec.moe else "") + " parameters",
        f"recomputation {recompute}" + (" (+2·N·D: the forward runs twice)" if recompute == "full" else "")
        + ("" if req.recompute else " (default)" if req.method == "full" else
           " (default: one sequence's activations fit without it)" if recompute == "none" else
           " (default: the activations do not fit without it)"),
        f"dense {precision.upper()} peak {peak:g} TFLOPS per GPU ({gpu.name}, "
        + ("given)" if req.peak_tflops is not None else "GPU table)"),
        (f"MFU {mfu:.2f} (given)" if req.mfu is not None else
         f"MFU {mfu:.2f}, band {lo:.2f}-{hi:.2f} (default for {eff.family(gpu)}: {band.basis}; --mfu to override)"),
        f"{req.num_gpus} GPUs: dp {dp} x tp {req.tp} x pp {req.pp}, ZeRO-{zero}"
        + (f", EP {ep} (each GPU holds 1/{ep} of every MoE layer's experts; all-to-all inside the published MFU on "
           "NVLink/InfiniBand, charged on slower links)" if ep > 1 else "")
        + ("" if req.zero is not None or req.num_gpus == 1 else
           " (the lowest stage whose model states fit each GPU: less traffic than full sharding; --zero)" if zero < 3
           else " (the model states fit each GPU only fully sharded; --zero)")
        + f"; {gbt:,} tokens per optimizer step"
        + ("" if req.global_batch_tokens else " (default: pre-training scale, as published runs of this size use)"
           if gbt != FINETUNE_BATCH_TOKENS else " (default: a fine-tuning batch)"),
    ]
    if req.method != "full":
        assumptions.append("LoRA/QLoRA: no weight gradients for frozen matrices (4·N·D instead of 6·N·D)")
    if req.method == "qlora":
        assumptions.append(f"QLoRA: NF4 weights dequantized {QLORA_DEQUANT_PASSES} times per micro-batch, "
                           f"memory-bound at {eff.DECODE_BANDWIDTH_EFFICIENCY:.0%} of {gpu.memory_bandwidth_gbps:g} GB/s, "
                           f"at least +{QLORA_MIN_OVERHEAD:.0%} (bitsandbytes' 4-bit path: measured +39% over LoRA, Raschka "
                           f"2023) (+{overheads['qlora_dequantization']:.0%})")
    if req.pp > 1:
        assumptions.append(f"pipeline bubble (p-1)/(m+p-1) = {overheads['pipeline_bubble']:.1%} with {micro} micro-batches")
    return TrainingTime(
        model=spec.id, gpu=gpu.id, num_gpus=req.num_gpus, method=req.method, precision=precision,
        total_flops=total, hardware_flops=hardware, peak_tflops=peak, mfu=round(mfu, 4),
        mfu_range=(round(lo, 4), round(hi, 4)), hfu=round(hfu, 4),
        gpu_hours=round(gpu_h, 1), gpu_hours_range=(round(hours(hi) * req.num_gpus, 1), round(hours(lo) * req.num_gpus, 1)),
        wall_hours=round(wall_h, 4), wall_seconds=round(wall_s, 3), wall_hours_range=(round(hours(hi), 2), round(hours(lo), 2)),
        wall_days=round(wall_h / 24, 2), tokens_per_second=round(req.tokens / wall_s, 1),
        overheads={k: round(v, 4) for k, v in overheads.items()}, assumptions=assumptions + notes,
        layout={"dp": dp, "tp": req.tp, "pp": req.pp, "ep": ep, "zero": zero, "global_batch_tokens": gbt},
    )


def mfu_for_deadline(result: TrainingTime, deadline_hours: float) -> float:
    """The MFU the same run needs to finish in `deadline_hours`: wall-clock time is inversely proportional to MFU at a
    fixed GPU count and overhead share, so it is the assumed MFU x (estimated hours / deadline hours)."""
    if deadline_hours <= 0:
        raise ValueError("a deadline must be a positive number of hours")
    return result.mfu * result.wall_hours / deadline_hours


__all__ = ["TrainingTimeRequest", "TrainingTime", "estimate_training_time", "model_flops_per_token", "mfu_for_deadline"]


class Overheads(BaseModel):
    """A run's wall clock with the time it loses besides compute."""

    wall_hours: float
    gpu_hours: float
    factor: float = Field(description="(1 + checkpoint stall) / (1 - time lost)")


def with_overheads(wall_hours: float, num_gpus: int, checkpoint_stall: float = 0.0, time_lost: float = 0.0) -> Overheads:
    """Blocking checkpoints stretch the compute time by their share (10 min every 2 h: x 1.083); failures and restarts
    take a share of the wall clock itself (5%: / 0.95)."""
    if not (0 <= checkpoint_stall < 1 and 0 <= time_lost < 1):
        raise ValueError("checkpoint_stall and time_lost are shares of time, between 0 and 1")
    factor = (1 + checkpoint_stall) / (1 - time_lost)
    return Overheads(wall_hours=wall_hours * factor, gpu_hours=wall_hours * factor * num_gpus, factor=factor)
