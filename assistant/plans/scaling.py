"""The user's own job on other hardware: a stated speedup ('the H100 is ~3x faster'), or the time estimator's ratio
for the same job on both cards, applied to the user's measured length and prices. Cards are compared on the cost
of the same work, never on their hourly rates alone (tools/job_scaling.py does the arithmetic)."""
from __future__ import annotations

from pydantic import BaseModel

from assistant.answer import ToolCall
from tools.job_scaling import JobOption, JobScalingRequest, JobScalingResult, scale_job


class Option(BaseModel):
    label: str
    gpu: str
    num_gpus: int = 1
    price_per_gpu_hour: float | None = None


def baseline_index(gpus: list[str], speedup_gpu: str | None) -> int:
    """The option a measured length and a stated speedup refer to: the card the speedup is not about (the one being
    compared against), else the card named first (where the job ran)."""
    if speedup_gpu in gpus:
        others = [i for i, g in enumerate(gpus) if g != speedup_gpu]
        return others[0] if others else 0
    return 0


def stated_speeds(gpus: list[str], speedup: float, speedup_gpu: str | None, base: int) -> list[float]:
    """Relative speeds from a stated speedup: the card it belongs to at `speedup`, the others at 1 (with no card named
    for it, every card but the baseline)."""
    return [speedup if (g == speedup_gpu or (not speedup_gpu and i != base)) else 1.0 for i, g in enumerate(gpus)]


def compare_job(options: list[Option], speeds: list[float], baseline: int, baseline_hours: float | None, zh: bool,
                sym: str, speed_source: tuple[str, str], calls: list | None = None) -> tuple[str, dict, JobScalingResult]:
    """The comparison paragraph, its figures and the tool's result. `speeds` are relative to `baseline`;
    `speed_source` says where they come from (en, zh); the call is recorded in `calls`."""
    args = JobScalingRequest(options=[JobOption(label=o.label, num_gpus=o.num_gpus, price_per_gpu_hour=o.price_per_gpu_hour,
                                                speed=s) for o, s in zip(options, speeds)],
                             baseline=baseline, baseline_hours=baseline_hours)
    res = scale_job(args)
    if calls is not None:
        calls.append(ToolCall(name="scale_job", args=args.model_dump(mode="json"), result=res.model_dump(mode="json")))
    base = options[baseline].label
    rows = []
    for o, r in zip(options, res.options):
        rate = (f"{o.num_gpus} × {sym}{o.price_per_gpu_hour:,.2f}" if o.price_per_gpu_hour else None)
        if r.hours is not None and r.cost is not None:
            rows.append(f"{o.label}: **{r.hours:,.1f} h ({r.hours / 24:,.1f} days)** × {rate} = **{sym}{r.cost:,.2f}**"
                        if not zh else
                        f"{o.label}：**{r.hours:,.1f} 小时（{r.hours / 24:,.1f} 天）** × {rate} = **{sym}{r.cost:,.2f}**")
        elif r.hours is not None:
            rows.append(f"{o.label}: **{r.hours:,.1f} h ({r.hours / 24:,.1f} days)**" if not zh else
                        f"{o.label}：**{r.hours:,.1f} 小时（{r.hours / 24:,.1f} 天）**")
        elif r.cost_per_baseline_hour is not None:
            rows.append(f"{o.label}: {rate} / {r.speed:.2f} = **{sym}{r.cost_per_baseline_hour:,.2f}** per {base}-hour of work"
                        if not zh else f"{o.label}：{rate} / {r.speed:.2f} = **{sym}{r.cost_per_baseline_hour:,.2f}**（每 {base} 小时的工作量）")
        else:
            rows.append(f"{o.label}: speed {r.speed:.2f}× (no price)" if not zh else f"{o.label}：速度 {r.speed:.2f} 倍（无价格）")
    src_en, src_zh = speed_source
    head = (f"同一份工作（{src_zh}）：" if zh else f"The same work ({src_en}): ") + ("；" if zh else "; ").join(rows)
    figures: dict = {f"speed_{o.gpu}": round(r.speed, 3) for o, r in zip(options, res.options)}
    figures |= {f"hours_{o.gpu}": round(r.hours, 2) for o, r in zip(options, res.options) if r.hours is not None}
    figures |= {f"cost_{o.gpu}": round(r.cost, 2) for o, r in zip(options, res.options) if r.cost is not None}
    tail = []
    if res.cheapest:
        share = res.saving_share or 0
        figures |= {"cheapest": res.cheapest, "saving": round(res.saving, 2), "saving_share": round(share, 4)}
        per = "" if baseline_hours else ("（按同等工作量）" if zh else " for the same work")
        if share < 0.03:
            tail.append(f"{res.cheapest} 略便宜 {sym}{res.saving:,.2f}（{share:.1%}），两者基本持平{per}。" if zh else
                        f"{res.cheapest} is slightly cheaper, by {sym}{res.saving:,.2f} ({share:.1%}): about even{per}.")
        else:
            tail.append(f"**{res.cheapest} 更便宜**，省 {sym}{res.saving:,.2f}（{share:.0%}）{per}。" if zh else
                        f"**{res.cheapest} is cheaper** by {sym}{res.saving:,.2f} ({share:.0%}){per}.")
    if baseline_hours and res.fastest != base:
        fast = next(r for r in res.options if r.label == res.fastest)
        tail.append(f"{res.fastest} 早 {baseline_hours - fast.hours:,.1f} 小时跑完。" if zh else
                    f"{res.fastest} finishes {baseline_hours - fast.hours:,.1f} h sooner.")
    if res.break_even_speed:
        figures["break_even_speed"] = round(res.break_even_speed, 3)
        tail.append(f"盈亏平衡的速度比：{res.break_even_speed:.2f} 倍（贵的一方快过这个倍数才更省钱）。" if zh else
                    f"Break-even speed ratio: {res.break_even_speed:.2f}× (the dearer option must be at least this much "
                    "faster to cost less).")
    return head + ("。" if zh else ". ") + ("" if zh else " ").join(tail), figures, res
