"""One job on alternative hardware, from a speed ratio: what each option costs per unit of work, how long the job
takes on each when its length on one option is known, which is cheaper and by how much, and the speed ratio at
which the two cost the same.

The ratio is the user's ('the H100 is ~3x faster on this job') or the time estimator's for the same job on both;
this module only does the arithmetic, so it is the same whichever it is:

    hours_i   = baseline_hours x speed_baseline / speed_i
    cost_i    = hours_i x num_gpus_i x price_per_gpu_hour_i
    per unit  = num_gpus_i x price_per_gpu_hour_i / speed_i   (the cost of one hour of the baseline's work)
    break-even speed ratio of B over A = (num_gpus_B x price_B) / (num_gpus_A x price_A)
"""
from __future__ import annotations

from pydantic import BaseModel, Field, model_validator


class JobOption(BaseModel):
    """One way to run the job."""

    label: str = Field(description="as shown: '8× H100 80GB SXM5'")
    num_gpus: int = Field(1, ge=1, le=1_000_000)
    price_per_gpu_hour: float | None = Field(None, gt=0, description="rent per GPU-hour; None when unknown (no cost)")
    speed: float = Field(1.0, gt=0, le=1000, description="relative speed on this job (the baseline option is 1)")


class JobScalingRequest(BaseModel):
    options: list[JobOption] = Field(min_length=2)
    baseline: int = Field(0, ge=0, description="index of the option the measured length (if any) and speeds refer to")
    baseline_hours: float | None = Field(None, gt=0, le=10_000_000, description="the job's wall-clock hours on the "
                                         "baseline option, as measured; None: costs are per hour of baseline work")

    @model_validator(mode="after")
    def _baseline_in_range(self):
        if self.baseline >= len(self.options):
            raise ValueError(f"baseline must index one of the {len(self.options)} options")
        return self


class JobOptionResult(BaseModel):
    label: str
    speed: float = Field(description="relative to the baseline option")
    hours: float | None = Field(None, description="wall-clock hours for the job (when its baseline length is known)")
    gpu_hours: float | None = None
    cost: float | None = Field(None, description="the job's rental cost (when its length and the price are known)")
    cost_per_baseline_hour: float | None = Field(None, description="the cost of one hour of the baseline option's work")


class JobScalingResult(BaseModel):
    options: list[JobOptionResult]
    cheapest: str | None = Field(None, description="label of the option that costs least per unit of work")
    fastest: str
    saving: float | None = Field(None, description="cheapest against the next: cost per job (or per baseline hour)")
    saving_share: float | None = Field(None, description="the saving as a share of the next option's cost")
    break_even_speed: float | None = Field(None, description="two options: the speed ratio of the dearer-per-hour one "
                                           "over the other at which both cost the same per unit of work")


def scale_job(req: JobScalingRequest) -> JobScalingResult:
    base = req.options[req.baseline]
    rows = []
    for o in req.options:
        rel = o.speed / base.speed
        hourly = o.num_gpus * o.price_per_gpu_hour if o.price_per_gpu_hour else None
        hours = req.baseline_hours / rel if req.baseline_hours else None
        rows.append(JobOptionResult(label=o.label, speed=rel, hours=hours,
                                    gpu_hours=hours * o.num_gpus if hours is not None else None,
                                    cost=hours * hourly if hours is not None and hourly is not None else None,
                                    cost_per_baseline_hour=hourly / rel if hourly is not None else None))
    fastest = max(rows, key=lambda r: r.speed).label
    priced = [r for r in rows if r.cost_per_baseline_hour is not None]
    cheapest = saving = share = None
    if len(priced) >= 2:
        ranked = sorted(priced, key=lambda r: r.cost_per_baseline_hour)
        win, nxt = ranked[0], ranked[1]
        cheapest = win.label
        if win.cost is not None and nxt.cost is not None:
            saving, share = nxt.cost - win.cost, (nxt.cost - win.cost) / nxt.cost
        else:
            saving = nxt.cost_per_baseline_hour - win.cost_per_baseline_hour
            share = saving / nxt.cost_per_baseline_hour
    even = None
    if len(req.options) == 2 and all(o.price_per_gpu_hour for o in req.options):
        a, b = req.options
        ha, hb = a.num_gpus * a.price_per_gpu_hour, b.num_gpus * b.price_per_gpu_hour
        even = max(ha, hb) / min(ha, hb)
    return JobScalingResult(options=rows, cheapest=cheapest, fastest=fastest, saving=saving, saving_share=share,
                            break_even_speed=even)
