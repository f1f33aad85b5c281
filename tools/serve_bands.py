"""How far serving figures stray from measurements they were not fit to, as bands around each estimate.

BANDS holds, per figure, the p10 and p90 of reported / estimated over the calibration check half: published
serving measurements from sources the constants were never fit to (evals/calibration/serving_measurements.jsonl,
split by source before fitting; `make bench` prints the residuals and `tests/test_serve_bands.py` recomputes these
from the data, so they cannot drift from it). A band multiplies the estimate: the true TTFT is expected in
[estimate x low, estimate x high] eight times in ten. Plans are sized on the safe side: latencies at the high
end, throughput at the low end.
"""
from __future__ import annotations

# (p10, p90) of reported / estimated on the check half (79 rows collected after every fit, 25 source groups; most are
# MoE, so the dense bands rest on few rows: one H100 latency sweep and a handful of single-stream runs), dense and
# MoE models apart. MoE serving is the weak part of the model (small-batch DeepSeek steps, queued TTFTs).
# Regenerate with `python -m evals.serving_fit --bands` after any change to the speed model or its constants.
BANDS: dict[str, dict[str, tuple[float, float]]] = {
    "dense": {"ttft_s": (0.90, 1.84), "itl_ms": (0.83, 0.87), "tokens_per_s_per_gpu": (1.03, 1.14)},
    "moe": {"ttft_s": (0.63, 2.18), "itl_ms": (0.78, 1.88), "tokens_per_s_per_gpu": (0.63, 1.61)},
}
SAFE_END = {"ttft_s": 1, "itl_ms": 1, "tokens_per_s_per_gpu": 0}  # latencies: the high end; throughput: the low end


def kind_of(model) -> str:
    """Which band a model's serving figures carry: MoE strays further from measurements than dense."""
    return "moe" if model.moe is not None else "dense"


def band(metric: str, value: float, kind: str = "dense") -> list[float]:
    """[low, high] around `value` for `metric` (one of BANDS[kind]), kind "dense" or "moe".

    The band always holds the estimate itself: where the check half's p10-p90 lies wholly on one side of it (dense ITL,
    0.83-0.87, rests on a handful of rows), the band is stretched to the estimate rather than printed beside a figure it
    contradicts ('ITL 67 ms, likely 56-58 ms')."""
    lo, hi = BANDS[kind][metric]
    return [value * min(lo, 1.0), value * max(hi, 1.0)]


def safe(metric: str, value: float, kind: str = "dense") -> float:
    """The value at the safe end of its band: slower latency, lower throughput (never better than the estimate)."""
    end = BANDS[kind][metric][SAFE_END[metric]]
    return value * (max(end, 1.0) if SAFE_END[metric] else min(end, 1.0))


def bands_for(ttft_s: float, itl_ms: float, tokens_per_s_per_gpu: float, kind: str = "dense") -> dict[str, list[float]]:
    """The three bands a serving plan reports, rounded for display."""
    return {"ttft_s": [round(x, 3) for x in band("ttft_s", ttft_s, kind)],
            "itl_ms": [round(x, 2) for x in band("itl_ms", itl_ms, kind)],
            "tokens_per_s_per_gpu": [round(x, 1) for x in band("tokens_per_s_per_gpu", tokens_per_s_per_gpu, kind)]}
