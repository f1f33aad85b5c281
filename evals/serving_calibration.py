"""The serving estimators against published and measured serving figures (`make bench`, suite `serving`).

Rows: evals/calibration/serving_measurements.jsonl (published engine benchmarks, engine start-up logs,
and measurements made here on an H200). Which request matches each row, which figure to compare and the
tolerance: evals/calibration/serving_cases.yaml. Reported figures are read from the rows, never copied.
"""
from __future__ import annotations

import json

import yaml

from evals.calibration import HERE, CaseResult, _compare
from knowledge.catalog import Catalog, default_catalog
from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory
from tools.infer_speed import InferenceSpeedRequest, prefill_seconds
from tools.serving import ServeRequest, _Ctx, load_point
from tools.units import GiB, GB


def rows() -> dict[str, dict]:
    lines = (HERE / "serving_measurements.jsonl").read_text(encoding="utf-8").splitlines()
    return {r["id"]: r for r in map(json.loads, filter(str.strip, lines))}


def _estimate(case: dict, catalog: Catalog) -> tuple[float, str]:
    model, _ = catalog.model(case["model"])
    gpu, _ = catalog.gpu(case["gpu"])
    metric = case["metric"]
    if metric in ("hf_peak_allocated_gib", "prefill_batch_s"):
        b, prompt = case.get("batch", 1), case["prompt_len"]
        if metric == "prefill_batch_s":
            sreq = InferenceSpeedRequest(model=model, gpu=gpu, precision=case.get("precision"), context=prompt, output=1)
            return b * prefill_seconds(sreq, prompt, 1), "s"
        mem = estimate_inference_memory(InferenceMemoryRequest(
            model=model, gpu=gpu, engine="hf", context=prompt + case["output_len"], prompt_len=prompt, batch=b,
            precision=case.get("precision")))
        return mem.allocated_gb * GB / GiB, "GiB"
    req = ServeRequest(model=model, gpu=gpu, users=case.get("users", 1), prompt_len=case["prompt_len"],
                       output_len=case["output_len"], engine=case.get("engine", "vllm"), precision=case.get("precision"),
                       kv_dtype=case.get("kv_dtype"), memory_fraction=case.get("memory_fraction"),
                       max_num_seqs=case.get("max_num_seqs"))
    tp, pp = case.get("tp", 1), case.get("pp", 1)
    c = _Ctx(req, tp, pp, pp > 1)
    if metric == "kv_tokens":
        return float(c.cap.kv_pool_tokens or 0), "tokens"
    if metric == "max_concurrency":
        return (c.cap.kv_pool_tokens or 0) / (case["prompt_len"] + case["output_len"]), "x"
    if metric == "out_tps_per_gpu_max":
        p = load_point(c, users=c.max_seqs)
        return p.output_tokens_per_s / (tp * pp), "tok/s/GPU"
    if metric == "single_stream_tps":
        return 1000 / load_point(c, users=1).itl_ms, "tok/s"
    if metric == "ttft_single_ms":
        return c.prefill_s * 1000, "ms"
    p = load_point(c, users=case["users"])
    return (p.ttft_s * 1000, "ms") if metric == "ttft_ms" else (p.itl_ms, "ms")


def run_serving_cases(catalog: Catalog | None = None) -> list[CaseResult]:
    """Every serving case, estimated and compared with its row's reported figure."""
    catalog = catalog or default_catalog()
    spec = yaml.safe_load((HERE / "serving_cases.yaml").read_text(encoding="utf-8"))
    data = rows()
    out = []
    for case in spec["cases"]:
        case = spec.get("defaults", {}) | case
        row = data[case.get("row", case["id"])]
        reported = float(row["reported"][case["report"]])
        est, unit = _estimate(case, catalog)
        i = row["inputs"]
        cond = (f"{i.get('model')} on {i.get('num_gpus') or 1} x {i.get('gpu')}, {i.get('engine')}, "
                f"{i.get('precision')}, in {i.get('input_len')} / out {i.get('output_len')}")
        out.append(_compare(case["id"], f"{case['metric']} ({row['source'][:60]})", reported, est, unit, case["tol"], cond))
    return out


def render(results: list[CaseResult]) -> str:
    lines = [f"{'case':6} {'metric':24} {'reported':>11} {'ours':>11} {'unit':9} {'error':>7}  ok",]
    for r in results:
        lines.append(f"{r.id:6} {r.what.split(' (')[0]:24} {r.reported:>11,.1f} {r.estimated:>11,.1f} {r.unit:9} "
                     f"{r.error_pct:>+6.1f}%  {'yes' if r.ok else 'NO'}")
    ok = sum(r.ok for r in results)
    lines.append(f"{ok}/{len(results)} within tolerance (throughput and latency +-35%, memory +-10%)")
    return "\n".join(lines)


if __name__ == "__main__":
    print(render(run_serving_cases()))
