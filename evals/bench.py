"""`make bench`: the calibration table (case, reported, estimated, error) and the estimator's speed."""
from __future__ import annotations

import argparse
import json
import time

from evals.calibration import run_memory_cases


def main(argv: list[str] | None = None) -> int:
    """Print the memory calibration table; --json for machine-readable rows."""
    ap = argparse.ArgumentParser(prog="python -m evals.bench", description=__doc__)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--suite", choices=["all", "memory", "retrieval", "assistant", "load", "models", "serving"], default="all")
    args = ap.parse_args(argv)
    if args.suite in ("all", "serving"):
        from evals.serving_calibration import render, run_serving_cases

        print("Serving estimators vs published and measured figures (evals/calibration/serving_*)")
        print(render(run_serving_cases()))
        print()
        if args.suite == "serving":
            return 0
    if args.suite in ("all", "models"):
        print(models_table())
        if args.suite == "models":
            return 0
        print()
    if args.suite in ("all", "load"):
        from evals.load_bench import render, run_load

        print(render(run_load()))
        burst = run_load(clients=200, per_client=1)
        lines = render(burst).replace("Load:", "Burst:", 1).splitlines()[:-1]  # a burst's target is 0 errors only
        print("\n".join(lines + [f"  target (0 errors; p95 stated): {'met' if burst.errors == 0 else 'NOT met'}"]))
        if args.suite == "load":
            return 0
        print()
    if args.suite in ("all", "assistant"):
        print(_assistant())
        if args.suite == "assistant":
            return 0
        print()
    if args.suite in ("all", "retrieval"):
        print(_retrieval(args.json))
        if args.suite == "retrieval":
            return 0
        print()
    t0 = time.perf_counter()
    from evals.calibration import run_time_cases

    rows = run_memory_cases() + run_time_cases()
    elapsed = time.perf_counter() - t0
    if args.json:
        print(json.dumps([r.model_dump() for r in rows], indent=2))
        return 0
    print("Memory and time estimators vs published measurements (evals/calibration/)")
    print(f"{'case':<16} {'what':<36} {'reported':>10} {'estimated':>10} {'unit':<4} {'error':>7} {'tol':>5}  ok")
    for r in rows:
        fmt = (lambda v: f"{v}" if isinstance(v, bool) else f"{v:.2f}")
        err = "" if r.error_pct is None else f"{r.error_pct:+.1f}%"
        tol = "" if r.tolerance_pct is None else f"{r.tolerance_pct:.0f}%"
        print(f"{r.id:<16} {r.what[:36]:<36} {fmt(r.reported):>10} {fmt(r.estimated):>10} {r.unit:<4} {err:>7} {tol:>5}  "
              f"{'source error' if r.source_error else 'yes' if r.ok else 'NO'}")
    for r in rows:
        if r.source_error and r.id.endswith("1k"):
            print(f"  {r.id.rsplit(' ', 1)[0]}: source error: {r.source_error}")
    ok = sum(r.ok and not r.source_error for r in rows)
    disputed = sum(bool(r.source_error) for r in rows)
    errs = sorted(abs(r.error_pct) for r in rows if r.error_pct is not None and not r.source_error)
    print(f"\n{ok}/{len(rows) - disputed} within tolerance ({disputed} rows where the source is wrong); "
          f"median |error| {errs[len(errs) // 2]:.1f}%, max {errs[-1]:.1f}%; {len(rows)} estimates in {elapsed * 1000:.0f} ms")
    return 0


def models_table() -> str:
    """Every catalog model: parameters computed from its config fields vs the published total, active parameters,
    KV cache bytes per token and the attention kind; a row over 1% off is flagged."""
    from knowledge.catalog import default_catalog
    from tools.infer_memory import kv_cache_bytes, kv_cache_bytes_per_token
    from tools.params import count_parameters

    lines = ["Catalog models: parameters from the config fields vs the published figure; KV cache per token (bf16)",
             f"{'model':<30} {'ours':>9} {'published':>10} {'diff':>7} {'active':>8} {'KV B/token':>11} "
             f"{'KV GB @32k':>10}  attention / format"]
    flagged = 0
    for m in default_catalog().models:
        c = count_parameters(m)
        diff = c.total / m.params_total - 1
        flagged += abs(diff) > 0.01
        kinds = [m.attention.upper()] + (["MoE"] if m.moe else []) + \
            ([f"{m.sliding_window.layers}x{m.sliding_window.kind} {m.sliding_window.window}"] if m.sliding_window else []) + \
            ([f"{m.linear_attention.layers}x linear"] if m.linear_attention else []) + [m.native_precision]
        lines.append(f"{m.id:<30} {c.total / 1e9:>8.2f}B {m.params_total / 1e9:>9.2f}B {diff:>+7.2%} "
                     f"{(c.active / 1e9 if m.moe else c.total / 1e9):>7.2f}B {kv_cache_bytes_per_token(m, 'bf16'):>11,} "
                     f"{kv_cache_bytes(m, 'bf16', 32768) / 1e9:>10.2f}  {' · '.join(kinds)}"
                     + ("  <-- over 1%" if abs(diff) > 0.01 else ""))
    n = len(default_catalog().models)
    lines.append(f"\n{n - flagged}/{n} within 1% of the published total ('published' is the model card, report or Hub "
                 "figure; see each record's source)")
    return "\n".join(lines)


def _assistant() -> str:
    """Warm in-process `ask` latency on the rules backend, and a fresh `gpu-advisor ask` process."""
    import statistics
    import subprocess
    import sys
    from pathlib import Path

    from assistant.service import ask

    questions = ["A100够不够微调70B？", "Is one A100 80GB enough to fine-tune a 70B model?", "H20 显存带宽多少",
                 "A100 和 910B 哪个好", "从H100降级到A100只多20%-30%的时间，对吗？", "What is ZeRO-3?"]
    for q in questions:
        ask(q)
    ms = []
    for _ in range(5):
        for q in questions:
            t0 = time.perf_counter()
            ask(q)
            ms.append((time.perf_counter() - t0) * 1000)
    exe = Path(sys.executable).with_name("gpu-advisor")
    t0 = time.perf_counter()
    subprocess.run([str(exe), "ask", questions[0]], capture_output=True, check=False)
    fresh = time.perf_counter() - t0
    ms.sort()
    from evals.run import REALISTIC, load_cases

    real = []
    for case in load_cases(REALISTIC):  # every turn of the realistic set, as its conversation asks it
        history: list[dict] = []
        for turn in case.turns:
            t0 = time.perf_counter()
            a = ask(turn, history=history)
            real.append((time.perf_counter() - t0) * 1000)
            history.append(a.slots)
    real.sort()
    p50 = statistics.median(real)
    from evals import run as ev

    gate = ev.load_cases()
    t0 = time.perf_counter()
    ev.run(gate, progress=False)
    gate_s = time.perf_counter() - t0
    return (f"Quality-gate set ({len(gate)} cases, the whole offline evaluation): {gate_s:.1f} s (target: < 60 s: "
            f"{'met' if gate_s < 60 else 'MISSED'})\n"
            f"Assistant (rules backend): warm ask p50 {statistics.median(ms):.1f} ms, p95 {ms[int(len(ms) * 0.95)]:.1f} ms "
            f"over {len(ms)} questions; a fresh `gpu-advisor ask` process {fresh:.2f} s\n"
            f"Realistic set (evals/realistic, {len(real)} turns): warm answer p50 {p50:.1f} ms, "
            f"p95 {real[int(len(real) * 0.95)]:.1f} ms, max {real[-1]:.1f} ms (target: p50 < 50 ms: "
            f"{'met' if p50 < 50 else 'MISSED'})")


def _retrieval(as_json: bool) -> str:
    """Build the index from scratch with the real embedder in a temporary directory, then score it."""
    import tempfile
    from pathlib import Path

    from evals.retrieval_bench import evaluate, render
    from knowledge.index import IndexSettings, KnowledgeIndex

    with tempfile.TemporaryDirectory() as scratch:
        t0 = time.perf_counter()
        KnowledgeIndex(IndexSettings(data_dir=Path(scratch), chroma_host=None)).build(use_cache=False)
        from_scratch = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        index = KnowledgeIndex(IndexSettings(data_dir=Path(tmp), chroma_host=None))
        index.build()
        built = time.perf_counter() - t0
        report = evaluate(index, build_seconds=built)
        cold = _cold_search_seconds(Path(tmp))
    if as_json:
        return report.model_dump_json(indent=2)
    return render(report) + (f"\nindex build without the shipped embeddings (model load + {len(index.chunks())} chunks "
                             f"embedded): {from_scratch:.1f} s\ncold `gpu-advisor search` (a new process, index built): "
                             f"median {cold[1]:.2f} s, max {cold[2]:.2f} s of 3 (first run {cold[0]:.2f} s)")


def _cold_search_seconds(data_dir) -> tuple[float, float, float]:
    """Wall seconds of `gpu-advisor search` in a fresh process against a built index: (first, median, max) of 3."""
    import os
    import statistics
    import subprocess
    import sys

    env = os.environ | {"GPU_ADVISOR_DATA": str(data_dir)}
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "ui.cli", "search", "H100 显存带宽", "--k", "3"], env=env,
                       capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    return times[0], statistics.median(times), max(times)


if __name__ == "__main__":
    raise SystemExit(main())
