"""Fit the serving-speed constants of tools/efficiency.py on the FIT half of the serving calibration, and print the
check half's residual band for tools/serve_bands.py.

    python -m evals.serving_fit            # fit on the fit half; print the constants to write into efficiency.py
    python -m evals.serving_fit --bands    # with the constants as they are: the check half's p10-p90 per figure

The fit minimises a robust (Cauchy, scale log 1.35) loss of log(estimated / reported) over the fit half's throughput and latency cases, each
source group weighted 1/sqrt(its cases) so one big table does not decide the constants. The check half is never
read by the fit. The constants are written into tools/efficiency.py by hand (with the date), so the code that
answers users never reads calibration data.
"""
from __future__ import annotations

import argparse
import math

from evals.serving_calibration import FAMILY, all_cases, check_bands, estimate, rows, run_serving_cases, summary
from knowledge.catalog import default_catalog
from tools import efficiency as eff

PARAMS = {  # name: (low, high) bounds a practitioner would accept for it
    "STEP_OVERHEAD_S": (0.2e-3, 8e-3),
    "REQUEST_OVERHEAD_S": (0.0, 0.1),
    "PREFILL_COMPUTE_EFFICIENCY": (0.2, 0.8),
    "DECODE_COMPUTE_EFFICIENCY": (0.2, 0.8),
    "FP8_COMPUTE_FACTOR": (0.4, 1.0),
    "CDNA": (0.3, 1.0),
}


SCALE = math.log(1.35)  # the tolerance: errors within it count nearly quadratically, far beyond it nearly flat


def _set(name: str, value: float) -> None:
    if name == "CDNA":
        eff.VENDOR_SERVING_FACTOR["cdna"] = value
    else:
        setattr(eff, name, value)


def _get(name: str) -> float:
    return eff.VENDOR_SERVING_FACTOR["cdna"] if name == "CDNA" else getattr(eff, name)


def fit_cases(catalog) -> list[tuple[dict, float, float]]:
    """(case, reported, weight) for the fit half's speed cases."""
    data = rows()
    cases = [c for c in all_cases(catalog)[0]
             if data[c["row"]].get("half", "fit") == "fit" and FAMILY[c["metric"]] != "memory"]
    groups: dict[str, int] = {}
    for c in cases:
        g = data[c["row"]].get("source_group", c["row"])
        groups[g] = groups.get(g, 0) + 1
    return [(c, float(data[c["row"]]["reported"][c["report"]]),
             1 / math.sqrt(groups[data[c["row"]].get("source_group", c["row"])])) for c in cases]


def loss(values: list[float], cases, catalog) -> float:
    for (name, _), v in zip(PARAMS.items(), values):
        _set(name, v)
    total = 0.0
    for case, reported, w in cases:
        est, _ = estimate(case, catalog)
        if not est or not math.isfinite(est) or est <= 0:
            total += w * 4.0
            continue
        e = math.log(est / reported) / SCALE
        total += w * math.log1p(e * e)  # Cauchy: a row the model cannot represent (a cost it lacks) pulls little
    return total


def fit() -> dict[str, float]:
    from scipy.optimize import minimize

    catalog = default_catalog()
    cases = fit_cases(catalog)
    start = [_get(n) for n in PARAMS]
    res = minimize(loss, start, args=(cases, catalog), method="Powell", bounds=list(PARAMS.values()),
                   options={"maxfev": 600, "xtol": 1e-3, "ftol": 1e-4})
    best = dict(zip(PARAMS, res.x))
    for n, v in best.items():
        _set(n, v)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bands", action="store_true", help="print the check half's residual band per figure")
    args = ap.parse_args()
    if not args.bands:
        best = fit()
        print("fitted on the fit half:")
        for n, v in best.items():
            print(f"  {n} = {v:.4g}")
        res = run_serving_cases()
        for fam, s in summary(res, "fit").items():
            print(f"  fit {fam}: {s}")
        return
    res = run_serving_cases()
    for fam, s in summary(res, "check").items():
        print(f"check {fam}: {s}")
    print("BANDS =", check_bands(res))


if __name__ == "__main__":
    main()
