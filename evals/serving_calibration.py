"""The serving estimators against published and measured serving figures (`make bench`, suite `serving`).

Rows: evals/calibration/serving_measurements.jsonl (published engine benchmarks, engine start-up logs, and
measurements made here on an H200), each with its `source_group` (one blog post, doc page, issue or paper) and its
`half`: the rows were split by source group into a fit half and a check half before any constant was fitted
(groups that had already shaped the constants are fit rows). Constants are fitted on the fit half only
(evals/serving_fit.py); the check half is the honest figure, and its residuals set the bands in
tools/serve_bands.py.

Which request matches each row: evals/calibration/serving_cases.yaml for the rows written by hand (KV pools,
transformers memory), and evals/serving_rows.case_from_row for the rest, by rules that read the row's stated
conditions. Reported figures are read from the rows, never copied.
"""
from __future__ import annotations

import json
import math
import statistics

import yaml

from evals.calibration import HERE, CaseResult, _compare
from evals.serving_rows import case_from_row
from knowledge.catalog import Catalog, default_catalog
from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory
from tools.infer_speed import InferenceSpeedRequest, prefill_seconds
from tools.serve_bands import kind_of
from tools.serve_load import burst_ttft
from tools.serving import Replica, ServeRequest, load_point
from tools.units import GiB, GB

TOLERANCE = 0.35
FAMILY = {"out_tps_per_gpu_max": "throughput", "out_tps_total_max": "throughput", "rps_max": "throughput",
          "out_tps_per_gpu": "throughput", "out_tps_total": "throughput", "single_stream_tps": "itl",
          "single_e2e_total_tps": "throughput", "single_e2e_out_tps": "throughput", "single_e2e_ms": "itl",
          "itl_ms": "itl", "ttft_ms": "ttft", "ttft_single_ms": "ttft", "prefill_batch_s": "ttft",
          "kv_tokens": "memory", "max_concurrency": "memory", "hf_peak_allocated_gib": "memory"}


def rows() -> dict[str, dict]:
    lines = (HERE / "serving_measurements.jsonl").read_text(encoding="utf-8").splitlines()
    return {r["id"]: r for r in map(json.loads, filter(str.strip, lines))}


def all_cases(catalog: Catalog) -> tuple[list[dict], list[tuple[str, str]]]:
    """(every case, [(row id, why it has none)]): the hand-written ones, then one per figure of every other row."""
    spec = yaml.safe_load((HERE / "serving_cases.yaml").read_text(encoding="utf-8"))
    data = rows()
    cases, covered = [], set()
    for case in spec["cases"]:
        case = spec.get("defaults", {}) | case
        case.setdefault("row", case["id"])
        covered.add(case["row"])
        cases.append(case)
    skipped = []
    for rid, row in data.items():
        if rid in covered:
            continue
        made, why = case_from_row(row, catalog)
        if why:
            skipped.append((rid, why))
        for n, case in enumerate(made):
            cases.append({"id": f"{rid}{'' if n == 0 else chr(ord('a') + n)}", "tol": TOLERANCE,
                          "memory_fraction": 0.9, **case})
    return cases, skipped


def _replica(case: dict, model, gpu, **load) -> Replica:
    req = ServeRequest(model=model, gpu=gpu, prompt_len=case["prompt_len"], output_len=case["output_len"],
                       engine=case.get("engine", "vllm"), precision=case.get("precision"), kv_dtype=case.get("kv_dtype"),
                       memory_fraction=case.get("memory_fraction"), max_num_seqs=case.get("max_num_seqs"),
                       **(load or {"users": 1}))
    tp, pp = case.get("tp", 1), case.get("pp", 1)
    return Replica(req, tp, pp, pp > 1 and req.eng.continuous_batching and case.get("engine") not in ("hf", "llama.cpp"))


def estimate(case: dict, catalog: Catalog) -> tuple[float, str]:
    """The estimator's figure for a case, in the unit of the reported figure."""
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
    c = _replica(case, model, gpu)
    gpus = c.tp * c.pp
    out = case["output_len"]
    if metric == "kv_tokens":
        return float(c.cap.kv_pool_tokens or 0), "tokens"
    if metric == "max_concurrency":
        return (c.cap.kv_pool_tokens or 0) / (case["prompt_len"] + out), "x"
    if metric in ("out_tps_per_gpu_max", "out_tps_total_max", "rps_max"):
        p = load_point(c, users=max(1, c.max_seqs))
        return {"out_tps_per_gpu_max": (p.output_tokens_per_s / gpus, "tok/s/GPU"),
                "out_tps_total_max": (p.output_tokens_per_s, "tok/s"), "rps_max": (p.requests_per_s, "req/s")}[metric]
    one = load_point(c, users=1)
    if metric == "single_stream_tps":
        return 1000 / one.itl_ms, "tok/s"
    if metric == "ttft_single_ms":
        return (c.request_s + c.prefill_s) * 1000, "ms"
    e2e = one.ttft_s + (out - 1) * one.itl_ms / 1000
    if metric == "single_e2e_ms":
        return e2e * 1000, "ms"
    if metric == "single_e2e_total_tps":
        return (case["prompt_len"] + out) / e2e, "tok/s"
    if metric == "single_e2e_out_tps":
        return out / e2e, "tok/s"
    load = {"users": case["users"]} if case.get("users") else {"rate": case["qps"]}
    if case.get("qps"):  # an open loop: the replica is built for requests/s
        c = _replica(case, model, gpu, qps=case["qps"])
    p = load_point(c, **load)
    if metric == "ttft_ms" and case.get("burst"):
        return burst_ttft(c, case["users"]) * 1000, "ms"
    if metric == "out_tps_per_gpu":
        return p.output_tokens_per_s / gpus, "tok/s/GPU"
    if metric == "out_tps_total":
        return p.output_tokens_per_s, "tok/s"
    return (p.ttft_s * 1000, "ms") if metric == "ttft_ms" else (p.itl_ms, "ms")


def run_serving_cases(catalog: Catalog | None = None) -> list[CaseResult]:
    """Every serving case, estimated and compared with its row's reported figure; `what` carries the half."""
    catalog = catalog or default_catalog()
    data = rows()
    out = []
    for case in all_cases(catalog)[0]:
        row = data[case["row"]]
        reported = float(row["reported"][case["report"]])
        est, unit = estimate(case, catalog)
        i = row["inputs"]
        cond = (f"{i.get('model')} on {i.get('num_gpus') or 1} x {i.get('gpu')}, {i.get('engine')}, "
                f"{i.get('precision')}, in {i.get('input_len')} / out {i.get('output_len')}")
        res = _compare(case["id"], f"{case['metric']} [{row.get('half', 'fit')}] ({row['source'][:60]})", reported, est,
                       unit, case["tol"], cond)
        out.append(res.model_copy(update={"half": row.get("half", "fit"), "metric": case["metric"]}))
    return out


def half_of(r: CaseResult) -> str:
    return r.half or "fit"


def metric_of(r: CaseResult) -> str:
    return r.metric or ""


def summary(results: list[CaseResult], half: str) -> dict[str, dict]:
    """Per figure family (throughput, ttft, itl): cases, median error factor, share within ±35%, and the p10/p90 of
    reported / estimated (the band)."""
    out = {}
    for fam in ("throughput", "ttft", "itl"):
        rs = [r for r in results if half_of(r) == half and FAMILY[metric_of(r)] == fam and r.estimated and r.reported]
        if not rs:
            continue
        ratios = []
        for r in rs:  # reported / estimated, as a time for latencies (a tokens/s figure of one stream is 1 / ITL)
            x = r.reported / r.estimated
            ratios.append(1 / x if fam != "throughput" and "/s" in r.unit else x)
        logs = sorted(abs(math.log(x)) for x in ratios)
        ratios.sort()
        q = statistics.quantiles(ratios, n=10, method="inclusive") if len(ratios) > 1 else [ratios[0]] * 9
        out[fam] = {"cases": len(rs), "median_error_factor": round(math.exp(statistics.median(logs)), 3),
                    "within_35pct": sum(r.ok for r in rs), "p10": q[0], "p90": q[-1]}
    return out


BAND_KEY = {"throughput": "tokens_per_s_per_gpu", "ttft": "ttft_s", "itl": "itl_ms"}


def check_bands(results: list[CaseResult], catalog: Catalog | None = None) -> dict[str, dict[str, tuple[float, float]]]:
    """The check half's p10-p90 of reported / estimated per figure, dense and MoE models apart (tools/serve_bands.py
    holds these, rounded to two decimals)."""
    catalog = catalog or default_catalog()
    cases = {c["id"]: c for c in all_cases(catalog)[0]}
    out: dict[str, dict[str, tuple[float, float]]] = {}
    for kind in ("dense", "moe"):
        chosen = [r for r in results if kind_of(catalog.model(cases[r.id]["model"])[0]) == kind]
        out[kind] = {BAND_KEY[fam]: (round(s["p10"], 2), round(s["p90"], 2)) for fam, s in summary(chosen, "check").items()}
    return out


def render(results: list[CaseResult]) -> str:
    lines = [f"{'case':8} {'metric':22} {'half':5} {'reported':>11} {'ours':>11} {'unit':9} {'error':>7}  ok"]
    for r in results:
        lines.append(f"{r.id:8} {metric_of(r):22} {half_of(r):5} {r.reported:>11,.1f} {r.estimated:>11,.1f} {r.unit:9} "
                     f"{r.error_pct:>+6.1f}%  {'yes' if r.ok else 'NO'}")
    ok = sum(r.ok for r in results)
    lines.append(f"{ok}/{len(results)} within tolerance (throughput and latency +-35%, memory +-10%)")
    for half in ("fit", "check"):
        for fam, s in summary(results, half).items():
            lines.append(f"{half:5} {fam:10} {s['cases']:3} cases: median error x{s['median_error_factor']:.2f}, "
                         f"{s['within_35pct']}/{s['cases']} within 35%, reported/estimated p10-p90 {s['p10']:.2f}-{s['p90']:.2f}")
    bands = check_bands(results)
    for kind, b in bands.items():
        lines.append(f"check {kind} bands (reported/estimated p10-p90): "
                     + ", ".join(f"{k} {lo:.2f}-{hi:.2f}" for k, (lo, hi) in b.items()))
    return "\n".join(lines)


if __name__ == "__main__":
    print(render(run_serving_cases()))
