"""How big a resumable checkpoint is, how long it takes to write, and how often to write it.

Interval: Young 1974 ("A first order approximation to the optimum checkpoint interval", CACM
17(9)), T = sqrt(2 · δ · M), with δ the write time and M the job's mean time between failures;
Daly 2006 (FGCS 22(3)) refines it to about sqrt(2 · δ · M) − δ when δ is not small against M. The
share of time lost is then about δ/T (writing) + (T/2 + restart)/M (work redone after a failure).

Failure rate: Meta's Llama 3 paper (arXiv:2407.21783, section 3.3.4) reports 419 unexpected
interruptions in a 54-day snapshot of pre-training on 16,384 H100 GPUs, one every 3.1 hours:
16,384 × 54 × 24 / 419 ≈ 50,700 GPU-hours per failure, taken here as 50,000 per GPU and divided
by the GPU count (failures assumed independent and proportional to GPUs).
"""
from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from knowledge.schemas import ModelSpec
from tools.params import count_parameters
from tools.states import lora_shapes
from tools.units import GB

LLAMA3_UNEXPECTED_INTERRUPTIONS = 419
LLAMA3_SNAPSHOT_DAYS = 54
LLAMA3_GPUS = 16_384
# 16,384 x 54 x 24 / 419 = 50,678 GPU-hours per interruption, rounded down (slightly more frequent checkpoints).
DEFAULT_MTBF_HOURS_PER_GPU = 50_000.0
DEFAULT_WRITE_GBPS = 5.0  # a few NVMe-backed NFS/object-store gateways; a parallel file system does 10-100+
DEFAULT_LORA_RANK = 16
DEFAULT_RELAUNCH_MINUTES = 10.0  # detect the failure, reschedule, start processes and NCCL, rebuild the data loader

# Bytes per saved parameter of a resumable checkpoint (mixed-precision AdamW; gradients are recomputed
# by the next step, so frameworks do not save them unless asked).
FULL_PARTS = {"weights_bf16": 2.0, "master_weights_fp32": 4.0, "adam_moments_fp32": 8.0}
FULL_GRADIENTS = {"gradients_bf16": 2.0}
ADAPTER_PARTS = {"adapter_weights_fp32": 4.0, "adam_moments_fp32": 8.0}  # PEFT keeps adapters in fp32
ADAPTER_GRADIENTS = {"gradients_fp32": 4.0}


class CheckpointRequest(BaseModel):
    """A training job to plan checkpoints for. None means 'use the default'."""

    model_config = ConfigDict(extra="forbid")
    model: ModelSpec
    method: Literal["full", "lora", "qlora"] = "full"
    num_gpus: int = Field(1, ge=1, le=1_000_000)
    write_gbps: float | None = Field(None, gt=0, le=100_000, description="aggregate storage write bandwidth, GB/s (default 5)")
    mtbf_hours_per_gpu: float | None = Field(None, gt=0, allow_inf_nan=False,
                                             description="GPU-hours per failure (default 50,000, from Llama 3)")
    step_seconds: float | None = Field(None, gt=0, allow_inf_nan=False, description="seconds per optimizer step")
    save_gradients: bool = Field(False, description="the framework also writes gradients")
    lora_rank: int | None = Field(None, ge=1, le=4096)
    restart_minutes: float | None = Field(None, ge=0, allow_inf_nan=False,
                                          description="time from a failure to training again (default: relaunch + reading the checkpoint)")


class CheckpointPlan(BaseModel):
    """Checkpoint size, write time, failure rate, the Young/Daly interval and what it costs."""

    model: str
    method: str
    num_gpus: int
    total_params: int
    saved_params: int = Field(description="parameters whose state is saved: all for full, the adapters for LoRA/QLoRA")
    bytes_per_saved_param: float
    checkpoint_parts_gb: dict[str, float]
    weights_only_gb: float = Field(description="the whole model's weights in bf16 (an export for inference)")
    checkpoint_gb: float
    write_gbps: float
    write_seconds: float
    mtbf_hours_per_gpu: float
    cluster_mtbf_hours: float
    interval_seconds: float
    interval_minutes: float
    daly_interval_minutes: float
    interval_steps: int | None
    overhead_fraction: float = Field(description="write time / interval: share of time spent writing")
    restart_minutes: float
    expected_lost_minutes_per_failure: float = Field(description="half an interval of work redone + the restart")
    expected_waste_fraction: float = Field(description="writing + redone work + restarts, as a share of the run")
    assumptions: list[str]


def young_interval_seconds(write_seconds: float, mtbf_seconds: float) -> float:
    """Young's optimum checkpoint interval sqrt(2 · δ · M), in seconds."""
    return math.sqrt(2 * write_seconds * mtbf_seconds)


def daly_interval_seconds(write_seconds: float, mtbf_seconds: float) -> float:
    """Daly's higher-order interval: sqrt(2 · δ · M) − δ while δ < M/2, else M."""
    if write_seconds >= mtbf_seconds / 2:
        return mtbf_seconds
    return young_interval_seconds(write_seconds, mtbf_seconds) - write_seconds


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:,.1f} s"
    return f"{seconds / 60:,.1f} min" if seconds < 7200 else f"{seconds / 3600:,.1f} h"


def plan_checkpoint(req: CheckpointRequest) -> CheckpointPlan:
    """Size, write time and Young/Daly interval of resumable checkpoints for a training job."""
    notes: list[str] = []
    total = count_parameters(req.model).total
    if req.method == "full":
        saved = total
        parts = FULL_PARTS | (FULL_GRADIENTS if req.save_gradients else {})
        notes.append("full: bf16 weights 2 + fp32 master 4 + Adam moments 8 = 14 B/param"
                     + (" + bf16 gradients 2 = 16 B/param (save_gradients)" if req.save_gradients else
                        "; gradients not saved (recomputed by the next step; 16 B/param if your framework saves them)"))
    else:
        rank = req.lora_rank or DEFAULT_LORA_RANK
        saved = lora_shapes(req.model, None, rank).params
        parts = ADAPTER_PARTS | (ADAPTER_GRADIENTS if req.save_gradients else {})
        notes.append(f"{req.method}: the frozen base is not re-saved (reloaded from its files); rank-{rank} adapters on all "
                     f"linear layers{'' if req.lora_rank else ' (default rank; --lora-rank)'}: fp32 weights 4 + Adam 8 = "
                     "12 B per adapter parameter" + (" + fp32 gradients 4 = 16 B" if req.save_gradients else
                                                     "; gradients not saved (16 B if they are)"))
    bpp = sum(parts.values())
    checkpoint_bytes = saved * bpp
    write_gbps = req.write_gbps or DEFAULT_WRITE_GBPS
    if req.write_gbps is None:
        notes.append(f"storage writes {DEFAULT_WRITE_GBPS:g} GB/s aggregate (default; --write-gbps): use the measured "
                     "throughput of large parallel writes on your system, not the vendor's peak")
    write_s = checkpoint_bytes / GB / write_gbps
    mtbf_gpu = req.mtbf_hours_per_gpu or DEFAULT_MTBF_HOURS_PER_GPU
    if req.mtbf_hours_per_gpu is None:
        notes.append(f"{DEFAULT_MTBF_HOURS_PER_GPU:,.0f} GPU-hours between failures (default; --mtbf-hours-per-gpu): Llama 3 "
                     f"pre-training saw {LLAMA3_UNEXPECTED_INTERRUPTIONS} unexpected interruptions in {LLAMA3_SNAPSHOT_DAYS} "
                     f"days on {LLAMA3_GPUS:,} H100s (Meta, arXiv:2407.21783), one per ~50,700 GPU-hours")
    cluster_mtbf_h = mtbf_gpu / req.num_gpus
    notes.append(f"job MTBF = {mtbf_gpu:,.0f} / {req.num_gpus} GPUs = {cluster_mtbf_h:,.1f} h (failures assumed proportional "
                 "to GPU count; network, storage and software faults do not scale exactly so)")
    mtbf_s = cluster_mtbf_h * 3600
    interval_s = young_interval_seconds(write_s, mtbf_s)
    daly_s = daly_interval_seconds(write_s, mtbf_s)
    notes.append(f"interval: Young 1974, sqrt(2 x {write_s:,.1f} s x {mtbf_s:,.0f} s) = {interval_s:,.0f} s "
                 f"({_duration(interval_s)}); Daly 2006 gives {_duration(daly_s)}")
    if interval_s > 12 * 3600:
        notes.append("an interval this long exceeds many fine-tuning runs: then checkpoint at evaluation points and at the end")
    if write_s >= mtbf_s / 10:
        notes.append("the write takes a large share of the time between failures: Young's first-order formula is rough "
                     "here (Daly's is the better guide)")
    if req.restart_minutes is not None:
        restart_min = req.restart_minutes
    else:
        restart_min = DEFAULT_RELAUNCH_MINUTES + write_s / 60
        notes.append(f"restart = {DEFAULT_RELAUNCH_MINUTES:g} min to relaunch (default, an assumption; --restart-minutes) "
                     f"+ {_duration(write_s)} reading the checkpoint back at the write bandwidth")
    steps = None
    if req.step_seconds is not None:
        steps = max(1, int(interval_s // req.step_seconds))
        notes.append(f"{req.step_seconds:g} s per step: checkpoint every {steps:,} steps")
    article = "the source article's 'every 50-100 steps' is not a rule: a step lasts under a second or over a minute"
    if req.step_seconds is not None:
        article += (f"; here 50 steps = {_duration(50 * req.step_seconds)} of training against {_duration(write_s)} "
                    f"of writing, where the interval above is {_duration(interval_s)}")
    notes.append(article + "; set the interval in time from the write time and the failure rate, then convert to steps")
    notes.append("asynchronous checkpointing (torch.distributed.checkpoint.async_save) blocks only for the GPU-to-host "
                 "copy: the write time above then bounds how often, not how long training stops")
    waste = write_s / interval_s + (interval_s / 2 + restart_min * 60) / mtbf_s
    if waste > 0.1:
        notes.append(f"writing checkpoints and recovering from failures cost about {waste:.0%} of the run: faster storage, "
                     "sharded or asynchronous checkpoints cut it")
    return CheckpointPlan(
        model=req.model.id, method=req.method, num_gpus=req.num_gpus, total_params=total, saved_params=saved,
        bytes_per_saved_param=bpp, checkpoint_parts_gb={k: round(saved * v / GB, 4) for k, v in parts.items()},
        weights_only_gb=round(total * 2 / GB, 4), checkpoint_gb=round(checkpoint_bytes / GB, 4), write_gbps=write_gbps,
        write_seconds=round(write_s, 2), mtbf_hours_per_gpu=mtbf_gpu, cluster_mtbf_hours=round(cluster_mtbf_h, 3),
        interval_seconds=round(interval_s, 1), interval_minutes=round(interval_s / 60, 2),
        daly_interval_minutes=round(daly_s / 60, 2), interval_steps=steps,
        overhead_fraction=round(write_s / interval_s, 5), restart_minutes=round(restart_min, 2),
        expected_lost_minutes_per_failure=round(interval_s / 120 + restart_min, 2),
        expected_waste_fraction=round(waste, 5), assumptions=notes,
    )


__all__ = ["CheckpointRequest", "CheckpointPlan", "plan_checkpoint", "young_interval_seconds", "daly_interval_seconds"]
