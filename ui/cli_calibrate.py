"""`gpu-advisor calibrate FILE`: your serving benchmark against the plan for the same conditions; the factors are
stored per deployment and later `plan serve` runs for that deployment use them (and say so)."""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import math
from pathlib import Path

EPILOG = """Examples:
  vllm bench serve --model meta-llama/Llama-3.1-8B-Instruct --random-input-len 1024 --random-output-len 256 \\
      --max-concurrency 32 --num-prompts 320 --save-result --result-filename run.json
  gpu-advisor calibrate run.json --gpu h100                  # model read from the file's model_id
  gpu-advisor calibrate sglang.jsonl --gpu a100-80gb --model qwen2.5-7b --engine sglang --tp 2
  gpu-advisor calibrate runs.csv --gpu rtx-4090 --model llama-3.1-8b --precision awq --no-save
Accepted files: the JSON `vllm bench serve --save-result` (or benchmarks/benchmark_serving.py) writes; the JSON
lines SGLang's bench_serving appends to --output-file; a CSV with the columns completed, total_input_tokens,
total_output_tokens, output_throughput, max_concurrency or request_rate, median_ttft_ms, median_tpot_ms.
Several runs in one file: the factors are their geometric mean. Stored in GPU_ADVISOR_CALIBRATION
(default ~/.config/gpu-advisor/calibration.json), one entry per model + card + engine + format."""


def add_parser(sub) -> None:
    p = sub.add_parser("calibrate", help="compare your vLLM/SGLang benchmark with the plan; store correction factors",
                       description=__doc__, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", help="benchmark result: .json (vLLM), .jsonl (SGLang) or .csv")
    p.add_argument("--gpu", required=True, help="the card the run used (gpu-advisor gpus)")
    p.add_argument("--model", help="catalog id or HF repo (default: the file's model_id)")
    p.add_argument("--engine", choices=["vllm", "sglang"], help="default: the file's backend, else vllm")
    p.add_argument("--precision", help="weight format the server ran (default: the checkpoint's own)")
    p.add_argument("--kv-dtype", choices=["bf16", "fp16", "fp8"])
    p.add_argument("--tp", type=int, default=1, help="tensor parallelism of the server (default 1)")
    p.add_argument("--pp", type=int, default=1, help="pipeline stages of the server (default 1)")
    p.add_argument("--memory-fraction", type=float, help="--gpu-memory-utilization / --mem-fraction-static used")
    p.add_argument("--no-save", action="store_true", help="compare only; do not store the factors")
    p.add_argument("--json", action="store_true")


def read_runs(path: Path) -> list[dict]:
    """The run dicts in a result file: one JSON object, JSON lines, or CSV rows."""
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() == ".csv":
        return list(csv.DictReader(text.splitlines()))
    try:
        data = json.loads(text)
        return data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        runs = []
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    runs.append(json.loads(line))
                except json.JSONDecodeError:
                    raise ValueError(f"{path}: line {n} is not JSON; give the result file the benchmark wrote "
                                     "(.json, .jsonl or .csv)") from None
        return runs


def run_calibrate(args, catalog) -> tuple[dict, str]:
    from knowledge import calibrations
    from tools.serve_load import Replica, figures_for_run
    from tools.serve_measured import Deployment, correction, parse_bench
    from tools.serving import ServeRequest

    path = Path(args.file).expanduser()
    if not path.exists():
        raise ValueError(f"{path} does not exist: give the result file your benchmark wrote")
    runs = [parse_bench(d) for d in read_runs(path)]
    if not runs:
        raise ValueError(f"{path} holds no benchmark run")
    name = args.model or runs[0].model_id
    if not name:
        raise ValueError("the file does not name the model (no model_id): give --model")
    model, _ = catalog.model(name)
    gpu, _ = catalog.gpu(args.gpu)
    engine = args.engine or runs[0].engine or "vllm"
    fixes = []
    for run in runs:
        req = ServeRequest(model=model, gpu=gpu, users=1, prompt_len=run.prompt_len, output_len=run.output_len,
                           engine=engine, precision=args.precision, kv_dtype=args.kv_dtype,
                           memory_fraction=args.memory_fraction)
        c = Replica(req, args.tp, args.pp, args.pp > 1)
        if c.max_seqs < 1:
            raise ValueError(f"{model.id} with {run.prompt_len + run.output_len:,}-token sequences does not fit "
                             f"TP{args.tp} x PP{args.pp} of {gpu.id} in the model; check --tp/--pp/--precision")
        est = figures_for_run(c, run.concurrency, run.request_rate, run.completed)
        dep = Deployment(model=model.id, gpu=gpu.id, engine=engine, precision=req.fmt, tp=args.tp, pp=args.pp)
        fixes.append(correction(run, dep, est, str(path), dt.date.today().isoformat()))
    fix = fixes[-1]
    if len(fixes) > 1:
        geo = {k: round(math.exp(sum(math.log(getattr(f, k)) for f in fixes) / len(fixes)), 4)
               for k in ("itl_factor", "ttft_factor", "throughput_factor")}
        fix = fix.model_copy(update=geo)
    stored = None if args.no_save else str(calibrations.save(fix))
    lines = [f"{len(runs)} run(s) of {model.id} on {args.tp * args.pp} x {gpu.id} ({engine}, {fix.deployment.precision}, "
             f"TP{args.tp}" + (f" x PP{args.pp}" if args.pp > 1 else "") + ") against the plan for the same conditions:"]
    for run, f in zip(runs, fixes):
        load = (f"{run.concurrency} in flight" if run.concurrency else f"{run.request_rate:g} req/s" if run.request_rate
                else f"{run.completed} at once")
        lines.append(f"  {load}, {run.prompt_len:,} in / {run.output_len:,} out: output {run.output_tokens_per_s:,.0f} "
                     f"vs {f.estimated['output_tokens_per_s']:,.0f} tok/s; TTFT {run.ttft_ms or 0:,.0f} vs "
                     f"{f.estimated['ttft_ms']:,.0f} ms; ITL {run.itl_ms or 0:,.1f} vs {f.estimated['itl_ms']:,.1f} ms")
    lines.append(f"factors (measured / estimated): ITL x{fix.itl_factor:.2f}, TTFT x{fix.ttft_factor:.2f}, "
                 f"throughput x{fix.throughput_factor:.2f}")
    lines.append(f"stored in {stored}: `plan serve` for {model.id} on {gpu.id} ({engine}, {fix.deployment.precision}) "
                 "now scales decode by the ITL factor and prefill by the TTFT factor, and says so" if stored else
                 "not stored (--no-save)")
    return {"correction": fix.model_dump(mode="json"), "runs": [r.model_dump(mode="json") for r in runs],
            "stored_in": stored}, "\n".join(lines)
