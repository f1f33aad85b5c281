"""A published training run's GPU-hours carried to another job at the same efficiency ('Meta says 405B took 30.84M
H100 GPU-hours: at that rate, how many for 100B tokens?'). Training compute is ~6·N·D, so at the same efficiency the
GPU-hours scale with the tokens and the parameters that compute per token (the active ones of an MoE), and inversely
with the card's dense peak when the job runs on another card:

    gpu_hours_job = gpu_hours_run x (D_job / D_run) x (N_job / N_run) x (peak_run / peak_job)
    wall_hours    = gpu_hours_job / num_gpus                      (when the job's GPU count is known)
    cost          = gpu_hours_job x price_per_gpu_hour            (when a price is known)
"""
from __future__ import annotations

from pydantic import BaseModel, Field


class RunScalingRequest(BaseModel):
    gpu_hours_run: float = Field(gt=0, description="the published run's GPU-hours, as published")
    tokens_run: float = Field(gt=0)
    params_run: float = Field(gt=0, description="parameters computing per token (active for an MoE)")
    tokens_job: float = Field(gt=0)
    params_job: float = Field(gt=0)
    peak_tflops_run: float = Field(gt=0, description="dense BF16 peak of the run's card")
    peak_tflops_job: float = Field(gt=0, description="dense BF16 peak of the job's card")
    num_gpus: int | None = Field(None, ge=1, le=1_000_000)
    price_per_gpu_hour: float | None = Field(None, gt=0)


class RunScalingResult(BaseModel):
    gpu_hours: float
    factor: float = Field(description="the job's GPU-hours over the run's")
    wall_hours: float | None
    cost: float | None


def scale_run(req: RunScalingRequest) -> RunScalingResult:
    factor = (req.tokens_job / req.tokens_run) * (req.params_job / req.params_run) * (req.peak_tflops_run /
                                                                                      req.peak_tflops_job)
    hours = req.gpu_hours_run * factor
    return RunScalingResult(gpu_hours=hours, factor=factor,
                            wall_hours=hours / req.num_gpus if req.num_gpus else None,
                            cost=hours * req.price_per_gpu_hour if req.price_per_gpu_hour else None)
