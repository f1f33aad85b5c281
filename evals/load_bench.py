"""Load benchmark: 50 concurrent clients x 20 requests to POST /api/ask on 127.0.0.1, rules backend.

Starts `gpu-advisor serve` as its own process (a fresh data directory, the rate limit off because every
client shares 127.0.0.1), drives it with asyncio + httpx, and prints throughput, latency percentiles and
errors. Bounded: at most clients x requests requests and --max-seconds of wall time; loopback only.
"""
from __future__ import annotations

import argparse
import asyncio
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from pydantic import BaseModel

# A mix of the questions people ask, with follow-ups that use the session (every client keeps its own).
QUESTIONS = ["A100够不够微调70B？", "那H100呢？", "How many H100s for a full fine-tune of Llama 3.1 70B?",
             "Can one RTX 4090 serve Llama 3.1 8B in int4 with a 32k context?",
             "How long to pretrain a 7B model on 1T tokens with 64 A100s?", "H20 vs H200 for serving Qwen2.5-72B",
             "A100 和 910B 哪个好？", "从H100降级到A100只多20%-30%的时间，对吗？", "rent or buy 8 H100?",
             "用8张H100全参微调Llama 3.1 70B要多少显存？"]
TARGET_P95_S = 1.0


class LoadReport(BaseModel):
    clients: int
    requests_per_client: int
    sent: int
    ok: int
    errors: int
    error_kinds: dict[str, int]
    seconds: float
    throughput_rps: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    cpu_cores: int
    met_target: bool


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list: the value at rank ceil(q/100 x n)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), math.ceil(q / 100 * len(sorted_values))))
    return sorted_values[rank - 1]


async def _drive(base: str, clients: int, per_client: int, max_seconds: float) -> tuple[list[float], dict[str, int], float]:
    import httpx

    latencies: list[float] = []
    errors: dict[str, int] = {}
    deadline = time.monotonic() + max_seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits, trust_env=False) as http:
        async def client(k: int):
            session_id = None
            for n in range(per_client):
                if time.monotonic() > deadline:
                    errors["time budget exceeded"] = errors.get("time budget exceeded", 0) + 1
                    return
                body = {"message": QUESTIONS[(k + n) % len(QUESTIONS)], "session_id": session_id}
                t0 = time.perf_counter()
                try:
                    r = await http.post("/api/ask", json=body)
                    elapsed = time.perf_counter() - t0
                    if r.status_code == 200:
                        latencies.append(elapsed)
                        session_id = r.json()["session_id"]
                    else:
                        errors[f"HTTP {r.status_code}"] = errors.get(f"HTTP {r.status_code}", 0) + 1
                except httpx.HTTPError as e:
                    errors[e.__class__.__name__] = errors.get(e.__class__.__name__, 0) + 1

        t0 = time.perf_counter()
        await asyncio.gather(*(client(k) for k in range(clients)))
        return latencies, errors, time.perf_counter() - t0


def run_load(clients: int = 50, per_client: int = 20, max_seconds: float = 300, base: str | None = None) -> LoadReport:
    """Start a server (unless `base` is given, which must be a loopback URL) and load it."""
    proc = None
    tmp = None
    if base is None:
        port = _free_port()
        tmp = tempfile.TemporaryDirectory(prefix="gpu-advisor-load-")
        env = os.environ | {"GPU_ADVISOR_DATA": tmp.name, "GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1"}
        env.pop("GPU_ADVISOR_LLM", None)
        env.pop("REDIS_URL", None)
        proc = subprocess.Popen([sys.executable, "-m", "ui.cli", "serve", "--port", str(port), "--backend", "rules",
                                 "--rate-limit", "off"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        base = f"http://127.0.0.1:{port}"
        _wait_ready(base, proc)
    elif not base.startswith(("http://127.0.0.1", "http://localhost", "http://[::1]")):
        raise ValueError(f"the load benchmark targets loopback only (got {base})")
    try:
        latencies, errors, seconds = asyncio.run(_drive(base, clients, per_client, max_seconds))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(15)
        if tmp is not None:
            tmp.cleanup()
    lat = sorted(latencies)
    n_err = sum(errors.values())
    p95 = _percentile(lat, 95)
    return LoadReport(clients=clients, requests_per_client=per_client, sent=len(lat) + n_err, ok=len(lat), errors=n_err,
                      error_kinds=errors, seconds=round(seconds, 2), throughput_rps=round(len(lat) / seconds, 1),
                      p50_ms=round(statistics.median(lat) * 1000, 1) if lat else float("nan"),
                      p95_ms=round(p95 * 1000, 1), p99_ms=round(_percentile(lat, 99) * 1000, 1),
                      max_ms=round(lat[-1] * 1000, 1) if lat else float("nan"), cpu_cores=os.cpu_count() or 0,
                      met_target=n_err == 0 and p95 < TARGET_P95_S)


def _wait_ready(base: str, proc: subprocess.Popen, timeout_s: float = 120) -> None:
    import httpx

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited: {proc.stderr.read().decode(errors='replace')[-2000:]}")
        try:
            if httpx.get(base + "/healthz", timeout=1, trust_env=False).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"the server did not answer /healthz within {timeout_s:.0f} s")


def render(r: LoadReport) -> str:
    lines = [f"Load: {r.clients} concurrent clients x {r.requests_per_client} requests, POST /api/ask on 127.0.0.1, "
             f"rules backend, {r.cpu_cores} CPU cores (rate limit off: every client is 127.0.0.1)",
             f"  sent {r.sent}, ok {r.ok}, errors {r.errors}" + (f" {r.error_kinds}" if r.errors else ""),
             f"  {r.seconds:.1f} s, {r.throughput_rps:.1f} requests/s",
             f"  latency p50 {r.p50_ms:.0f} ms, p95 {r.p95_ms:.0f} ms, p99 {r.p99_ms:.0f} ms, max {r.max_ms:.0f} ms",
             f"  target (0 errors, p95 < {TARGET_P95_S * 1000:.0f} ms): {'met' if r.met_target else 'NOT met'}"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m evals.load_bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--requests", type=int, default=20, help="per client")
    ap.add_argument("--max-seconds", type=float, default=300, help="stop sending after this long")
    ap.add_argument("--url", help="load a running server instead (loopback only), e.g. http://127.0.0.1:7860")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not (1 <= args.clients <= 500 and 1 <= args.requests <= 1000):
        ap.error("--clients must be 1-500 and --requests 1-1000")
    report = run_load(args.clients, args.requests, args.max_seconds, args.url)
    print(report.model_dump_json(indent=2) if args.json else render(report))
    return 0 if report.errors == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
