"""One replica under load: its memory (KV pool, sequences it holds) and speed, and the steady state at a load.

One replica is `tp` tensor-parallel GPUs (within a node) x `pp` pipeline stages (across nodes). For a replica:
- memory: the engine's share of each GPU less weights, profiled activations and graphs is the KV pool
  (tools/infer_memory.serving_capacity); pool / one sequence's KV = M, the sequences it runs at once;
- decode: one step reads the weights (MoE: the experts the batch touches) and every running sequence's KV,
  bandwidth-bound until the batch makes it compute-bound (tools/infer_speed); pipeline stages run
  pp micro-batches at once, so a stream's step is the whole model's read and throughput scales with pp;
- prefill: 2·N_active·prompt + attention FLOPs at PREFILL_COMPUTE_EFFICIENCY of dense peak = P seconds.
Under load (continuous batching, chunked prefill): with λ requests/s per replica, prefill takes the share
ρ = λ·P/pp of the GPU time and decode steps stretch to step(B)/(1-ρ); TTFT = P + the mean M/D/1 wait
ρ·P/(2(1-ρ)) + one decode step. `users` is a closed loop (each user has one request in flight, no think
time): B = users, λ = B / (TTFT + (output-1)·ITL). `qps` is an open loop: B = λ·(TTFT + (output-1)·ITL).
Past M, requests queue: each waits (users/M - 1) service times. These are p50-style estimates of a
steady state: no burst, no tail.
"""
from __future__ import annotations

import math

from tools import efficiency as eff
from tools.infer_memory import InferenceMemoryRequest, serving_capacity
from tools.infer_speed import STAGE_HANDOFF_S, InferenceSpeedRequest, decode_step_parts, prefill_seconds
from tools.serve_request import LoadPoint, ServeRequest



TEAM_PEAK_SHARE = 0.25  # a team's people -> requests in flight at its busiest (an assumption, always said)
ORG_PEAK_SHARE = 0.10  # beyond TEAM_MAX people (a company, a department of hundreds), fewer of them are asking at once
TEAM_MAX = 100
PEAK_SHARE_OF_DAU = 0.05  # chat users a day (a user base) -> requests in flight at the peak hour (an assumption, said)


def peak_share(people: int) -> float:
    """Requests in flight at the busiest moment per person: a working team (up to TEAM_MAX) 25%, a company 10%
    (internal chat assistants see 5-10% of staff active at the peak; an assumption, always said)."""
    return TEAM_PEAK_SHARE if people <= TEAM_MAX else ORG_PEAK_SHARE


def peak_in_flight(team_size: int | None = None, daily_active_users: int | None = None) -> tuple[int, float]:
    """People -> requests in flight at the busiest moment, and the share used: a team (or company) by peak_share,
    a user base by PEAK_SHARE_OF_DAU; rounded up, at least one. The one place that turns a head-count into load."""
    if team_size:
        share, people = peak_share(team_size), team_size
    elif daily_active_users:
        share, people = PEAK_SHARE_OF_DAU, daily_active_users
    else:
        raise ValueError("peak_in_flight needs a team size or a number of daily users")
    return max(1, math.ceil(people * share)), share

class Replica:
    """One layout's fixed figures, with decode steps memoised by batch."""

    def __init__(self, req: ServeRequest, tp: int, pp: int, pipelined: bool):
        self.req, self.tp, self.pp = req, tp, pp
        self.pipelined = pipelined and pp > 1
        ctx = req.prompt_len + req.output_len
        eng = req.eng
        self.mem_req = InferenceMemoryRequest(
            model=req.model, gpu=req.gpu, num_gpus=tp * pp, pipeline=pp, split="tp" if pp == 1 and tp > 1 else "auto",
            precision=req.precision, kv_dtype=req.kv_dtype, context=ctx,
            prompt_len=min(req.prompt_len, eng.max_batched_tokens or req.prompt_len),
            engine="vllm" if eng.id in ("vllm", "sglang") else "hf",
            gpu_memory_utilization=req.memory_fraction or eng.memory_fraction or 0.9,
            speculative=req.speculative, draft_model=req.draft_model, mtp_layers=req.mtp_layers,
            max_loras=req.max_loras, max_lora_rank=req.max_lora_rank)
        self.cap = serving_capacity(self.mem_req)
        m = self.cap.sequences
        cap = req.max_num_seqs or (eng.max_num_seqs if eng.id != "llama.cpp" else None)
        if cap is not None:
            m = min(m, cap * (pp if self.pipelined else 1))
        self.max_seqs = m
        self.speed_req = InferenceSpeedRequest(
            model=req.model, gpu=req.gpu, num_gpus=tp * pp, precision=req.precision, kv_dtype=req.kv_dtype,
            context=req.prompt_len, output=req.output_len, engine="hf" if eng.id == "hf" else "vllm")
        cached = req.prompt_len * (1 - req.prefix_cache_hit)
        self.prefill_s = prefill_seconds(self.speed_req, max(1, round(cached)), tp) if m else 0.0
        fix = req.correction
        self.itl_factor = fix.itl_factor if fix else 1.0
        self.prefill_s *= fix.ttft_factor if fix else 1.0
        self.request_s = eff.request_overhead_s(eng.id)  # front end and admission: latency, not GPU time
        self.steps: dict[int, float] = {}

    def step(self, batch: float) -> float:
        """Seconds per decode step with `batch` sequences running (pipelined: batch/pp per micro-batch)."""
        b = max(1, math.ceil(batch / (self.pp if self.pipelined else 1)))
        if b not in self.steps:
            mem_s, comp_s, over = decode_step_parts(self.speed_req, b, self.tp)
            self.steps[b] = (max(mem_s, comp_s) + over + (self.pp - 1) * STAGE_HANDOFF_S) * self.itl_factor
        return self.steps[b]


def _continuous(c: Replica, users: float | None, rate: float | None) -> LoadPoint:
    """Continuous batching with chunked prefill. A prompt is prefilled in chunks of the engine's token budget, each
    riding on a decode step of the running batch, so a prefill share ρ of the GPU time stretches decode steps to
    step/(1-ρ) but never beyond step + one chunk (ρ <= ρ_max = chunk/(step + chunk)); past ρ_max prefill is the
    bottleneck: an open loop saturates, a closed loop cycles at the rate prefill allows and the rest waits for the
    first token. TTFT = P + one decode step per chunk (the running batch's) + the M/D/1 wait ρ·P/(2(1-ρ))."""
    P, O = c.prefill_s, c.req.output_len
    lanes = c.pp if c.pipelined else 1
    M = max(c.max_seqs, 1)
    budget = c.req.eng.max_batched_tokens or c.req.prompt_len
    chunks = max(1, math.ceil(c.req.prompt_len / budget))  # steps one prompt's prefill spans
    chunk_s = P * budget / c.req.prompt_len  # prefill time one step can carry: its token budget (several short prompts)

    def at(B: float, lam: float) -> tuple[float, float, float]:
        step = c.step(B)
        rho_max = chunk_s / (step + chunk_s) if P else 0.0
        rho = min(lam * P / lanes, rho_max, 0.98)
        riding = chunks * c.step(B - 1) if B > 1 else 0.0
        return rho, step / (1 - rho), c.request_s + P + riding + rho * P / (2 * (1 - rho))

    if users is not None:
        B, queued = min(users, M), max(0.0, users - M)
        step = c.step(B)
        lam_max = min(chunk_s / (step + chunk_s), 0.98) * lanes / P if P else math.inf
        lo, hi = 0.0, min(lam_max, B / (O * step) if O else math.inf)
        for _ in range(80):  # λ = B / (TTFT(λ) + (O-1)·ITL(λ)): the right side falls as λ rises, so bisect
            mid = (lo + hi) / 2
            _, itl, ttft = at(B, mid)
            lo, hi = (mid, hi) if B / (ttft + (O - 1) * itl) > mid else (lo, mid)
        lam = lo
        rho, itl, ttft = at(B, lam)
        service = B / lam if lam else math.inf
        ttft = max(ttft, service - (O - 1) * itl)  # prefill-bound: the cycle is set by prefill; the rest is waiting
        ttft += queued / M * service  # past the pool: wait for places to free
        return LoadPoint(running=round(B, 3), queued=round(queued, 3), requests_per_s=lam, ttft_s=ttft,
                         itl_ms=itl * 1000, prefill_share=rho, output_tokens_per_s=lam * O, converged=True)
    rho_need = rate * P / lanes
    lo, hi = 0.0, float(M)

    def excess(B: float) -> float:  # requests in flight the rate implies at B running, minus B
        rho, itl, ttft = at(max(B, 1.0), rate)
        return rate * (ttft + (O - 1) * itl) - B

    rho1, _, _ = at(1.0, rate)
    if rho_need >= 0.98 or rho_need > rho1 + 1e-12:
        return _saturated(rate, O, f"prefill alone needs {rho_need:.0%} of the GPU time ({rate:g} req/s x {P:.3f} s); "
                                   f"chunked prefill riding on decode steps leaves it at most {rho1:.0%}")
    if excess(hi) > 0:
        return _saturated(rate, O, f"more requests would be in flight than the KV pool's {c.max_seqs}")
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if excess(mid) > 0 else (lo, mid)
    B = hi
    rho, itl, ttft = at(max(B, 1.0), rate)
    if rho_need > rho + 1e-9:
        return _saturated(rate, O, f"at {B:.0f} running, chunked prefill takes at most {rho:.0%} of the GPU time; "
                                   f"{rate:g} req/s need {rho_need:.0%}")
    return LoadPoint(running=round(B, 3), queued=0.0, requests_per_s=rate, ttft_s=ttft, itl_ms=itl * 1000,
                     prefill_share=rho, output_tokens_per_s=rate * O, converged=True)


def burst_ttft(c: Replica, users: int) -> float:
    """Median time to first token when `users` requests arrive at once (a benchmark that sends its whole batch at the
    start): prefills are served one after another, so the median request waits for half of the others' prefills."""
    n = min(users, max(c.max_seqs, 1))
    return c.request_s + c.prefill_s * (n + 1) / 2


def _static(c: Replica, users: float | None, rate: float | None) -> LoadPoint:
    """Hugging Face generate(): one batch of B prompts prefilled together, then O steps; arrivals wait for it."""
    P, O, M = c.prefill_s, c.req.output_len, max(c.max_seqs, 1)
    if users is not None:
        B = min(users, M)
        batch_s = B * P + O * c.step(B)
        rounds = math.ceil(users / M)
        lam = users / (batch_s * rounds)
        ttft = B * P + (rounds - 1) * batch_s / 2 + c.step(B)
        return LoadPoint(running=B, queued=max(0.0, users - M), requests_per_s=lam, ttft_s=ttft,
                         itl_ms=c.step(B) * 1000, prefill_share=B * P / batch_s, output_tokens_per_s=lam * O)
    B = 1.0
    for _ in range(100):  # a batch collects what arrives while the previous one runs
        batch_s = B * P + O * c.step(B)
        new = max(1.0, rate * batch_s)
        if new > M:
            return _saturated(rate, O, f"a batch would need {new:.0f} sequences; memory holds {c.max_seqs}")
        if abs(new - B) < 1e-6:
            converged = True
            break
        B = new
    else:
        converged = abs(new - B) < 1e-3 * max(B, 1)
    batch_s = B * P + O * c.step(B)
    return LoadPoint(running=B, queued=0.0, requests_per_s=rate, ttft_s=batch_s / 2 + B * P + c.step(B),
                     itl_ms=c.step(B) * 1000, prefill_share=B * P / batch_s, output_tokens_per_s=rate * O,
                     converged=converged)


def _saturated(rate: float, O: int, why: str) -> LoadPoint:
    return LoadPoint(running=0, queued=math.inf, requests_per_s=rate, ttft_s=math.inf, itl_ms=math.inf,
                     prefill_share=1.0, output_tokens_per_s=rate * O, saturated=why)


def load_point(c: Replica, users: float | None = None, rate: float | None = None) -> LoadPoint:
    """One replica of layout `c` at `users` concurrent users or `rate` requests/s."""
    return (_continuous if c.req.eng.continuous_batching else _static)(c, users, rate)


def figures_for_run(c: Replica, concurrency: int | None, rate: float | None, completed: int) -> dict[str, float]:
    """The estimate for a benchmark run's load: a fixed concurrency (closed loop), a request rate (open loop), or
    every request sent at once (neither): {"ttft_ms", "itl_ms", "output_tokens_per_s"} for the whole replica."""
    if concurrency:
        p = load_point(c, users=concurrency)
    elif rate:
        p = load_point(c, rate=rate)
        if p.saturated:  # past what the model says the replica carries: compare at its full pool
            p = load_point(c, users=max(1, c.max_seqs))
    else:
        n = min(completed, max(1, c.max_seqs))
        p = load_point(c, users=n)
        return {"ttft_ms": burst_ttft(c, n) * 1000, "itl_ms": p.itl_ms, "output_tokens_per_s": p.output_tokens_per_s}
    return {"ttft_ms": p.ttft_s * 1000, "itl_ms": p.itl_ms, "output_tokens_per_s": p.output_tokens_per_s}


def max_rate_within_ttft(prefill_s: float, ttft_s: float) -> float:
    """Prompts a second one replica can take before the mean TTFT passes `ttft_s`, prefill alone: TTFT = P + the M/D/1
    wait ρ·P/(2(1-ρ)) with ρ = λ·P, so ρ = 2k/(1+2k) for k = (T-P)/P, and λ = ρ/P; 0 when one prefill already takes T."""
    if prefill_s <= 0 or ttft_s <= prefill_s:
        return 0.0
    k = (ttft_s - prefill_s) / prefill_s
    return (2 * k / (1 + 2 * k)) / prefill_s
