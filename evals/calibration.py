"""The memory estimators against published measurements (evals/calibration/*.{jsonl,yaml}).

`memory_cases.yaml` says, for each published case, which engine request matches its conditions and
what to compare; the reported figures are read from `published_measurements.jsonl`, never copied.
"""
from __future__ import annotations

import json
from pathlib import Path

import yaml
from pydantic import BaseModel, Field

from knowledge.catalog import Catalog, default_catalog
from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory, kv_cache_bytes_per_token
from tools.memory import weight_bytes
from tools.params import count_parameters
from tools.train_memory import TrainingMemoryRequest, estimate_training_memory
from tools.units import GB, GiB

HERE = Path(__file__).resolve().parent / "calibration"


class CaseResult(BaseModel):
    """One compared figure: reported by the source, estimated by the engine."""

    id: str
    what: str
    reported: float | bool
    estimated: float | bool
    unit: str
    error_pct: float | None
    tolerance_pct: float | None
    ok: bool
    conditions: str
    source_error: str | None = Field(None, description="why the published figure is believed wrong; not counted as a miss")
    half: str | None = Field(None, description="serving rows: 'fit' or 'check' (chosen by source group before fitting)")
    metric: str | None = Field(None, description="serving rows: the figure compared (output_throughput, mean_ttft_ms, ...)")


def published() -> dict[str, dict]:
    """The published measurements by case id."""
    lines = (HERE / "published_measurements.jsonl").read_text(encoding="utf-8").splitlines()
    return {row["id"]: row for row in map(json.loads, filter(str.strip, lines))}


def _request(kind: str, spec: dict, catalog: Catalog):
    args = dict(spec)
    args["model"], _ = catalog.model(str(args["model"]))
    if "gpu" in args:
        args["gpu"], _ = catalog.gpu(args["gpu"])
    return TrainingMemoryRequest(**args) if kind == "train" else InferenceMemoryRequest(**args)


def _compare(cid: str, what: str, reported: float, estimated: float, unit: str, tol: float, conditions: str) -> CaseResult:
    err = 100 * (estimated / reported - 1)
    return CaseResult(id=cid, what=what, reported=reported, estimated=round(estimated, 3), unit=unit,
                      error_pct=round(err, 1), tolerance_pct=100 * tol, ok=abs(err) <= 100 * tol, conditions=conditions)


def run_memory_cases(catalog: Catalog | None = None) -> list[CaseResult]:
    """Every memory case of memory_cases.yaml, estimated and compared."""
    catalog = catalog or default_catalog()
    pub = published()
    cases = yaml.safe_load((HERE / "memory_cases.yaml").read_text(encoding="utf-8"))
    out: list[CaseResult] = []
    for case in cases:
        cid, kind, cond = case["id"], case["kind"], case["conditions"]
        row = pub[case.get("case", cid)]
        if kind == "weights_matrix":
            for size, model_id in case["models"].items():
                counts = count_parameters(catalog.model(model_id)[0])
                for col, fmt in case["columns"].items():
                    est = sum(weight_bytes(counts, fmt, quantize_embeddings=True)) / GB
                    out.append(_compare(f"{cid} {size} {fmt}", "weights", row["reported"][size][col], est, "GB",
                                        case["tolerance"], cond))
            continue
        if kind == "kv_matrix":
            for size, model_id in case["models"].items():
                bpt = kv_cache_bytes_per_token(catalog.model(model_id)[0], "fp16")
                for col, tokens in case["columns"].items():
                    res = _compare(f"{cid} {size} {col.split('_')[0]}", "KV cache", row["reported"][size][col],
                                   bpt * tokens / GiB, "GiB", case["tolerance"], cond)
                    why = case.get("source_errors", {}).get(size)
                    out.append(res.model_copy(update={"source_error": why, "ok": res.ok or why is not None}))
            continue
        if kind == "gpu":  # what the GPU may use of a card's memory
            from tools.memory import usable_bytes

            out.append(_compare(cid, f"usable {case['gpu']}", row["reported"][case["reported"]],
                                usable_bytes(catalog.gpu(case["gpu"])[0]) / GiB, "GiB", case["tolerance"], cond))
            continue
        req = _request(kind, case["request"], catalog)
        res = estimate_training_memory(req) if kind == "train" else estimate_inference_memory(req)
        what = f"{kind} {case['request']['model']} {case['request'].get('method', case['request'].get('precision', ''))}"
        if case["measure"] == "fits":
            out.append(CaseResult(id=cid, what=what + " fits?", reported=case["expect"], estimated=bool(res.fits),
                                  unit="", error_pct=None, tolerance_pct=None, ok=res.fits == case["expect"],
                                  conditions=cond))
            continue
        unit = "GiB" if case["measure"].endswith("gib") else "GB"
        if case["measure"].startswith("weights"):  # the checkpoint: weights and their scales
            est = (res.breakdown_gb.get("weights", 0) + res.breakdown_gb.get("quant_constants", 0)) * GB / (GiB if unit == "GiB" else GB)
        else:
            est = res.allocated_gb * GB / (GiB if unit == "GiB" else GB)
        out.append(_compare(cid, what, row["reported"][case["reported"]], est, unit, case["tolerance"], cond))
    return out


def run_time_cases(catalog: Catalog | None = None) -> list[CaseResult]:
    """Training-time cases (time_cases.yaml) and the MFU band against Megatron-LM's (C08)."""
    from tools.efficiency import default_mfu
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    catalog = catalog or default_catalog()
    pub = published()
    out: list[CaseResult] = []
    for case in yaml.safe_load((HERE / "time_cases.yaml").read_text(encoding="utf-8")):
        args = dict(case["request"])
        args["model"], _ = catalog.model(str(args["model"]))
        args["gpu"], _ = catalog.gpu(args["gpu"])
        if "achieved_tflops" in case:
            # the source counts the recomputed forward in its achieved TFLOP/s (hardware FLOPs); an MFU is model FLOPs
            # over peak, so the recomputed share comes off: x per-token model FLOPs / (those + 2 x active parameters)
            from tools.params import count_parameters
            from tools.train_time import model_flops_per_token

            hfu = case["achieved_tflops"] / args["gpu"].bf16_dense_tflops
            model_f = model_flops_per_token(args["model"], args.get("seq_len") or 2048, "full")
            extra = 2 * count_parameters(args["model"]).active if args.get("recompute") == "full" else 0.0
            args["mfu"] = hfu * model_f / (model_f + extra)
        res = estimate_training_time(TrainingTimeRequest(**args))
        est = res.gpu_hours if case["reported"] == "gpu_hours" else res.wall_seconds
        what = f"time {case['request']['model']} x{case['request']['num_gpus']} {case['reported']}"
        out.append(_compare(case["id"], what, pub[case["id"]]["reported"][case["reported"]], est,
                            "GPU-h" if case["reported"] == "gpu_hours" else "s", case["tolerance"], case["conditions"]))
    mfu = pub["C08"]["reported"]["MFU_pct"]
    band = default_mfu(catalog.gpu("a100-80gb")[0], "bf16")
    lo, hi = min(mfu.values()) / 100, max(mfu.values()) / 100
    out.append(CaseResult(id="C08", what="default A100 MFU inside Megatron's range", reported=round(lo, 3),
                          estimated=band.point, unit="MFU", error_pct=None, tolerance_pct=None, ok=lo <= band.point <= hi,
                          conditions=f"Megatron-LM A100 MFU {lo:.3f}-{hi:.3f} (22B-1T, large TP/PP); engine default "
                                     f"{band.point} (band {band.low}-{band.high})"))
    return out
