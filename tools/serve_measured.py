"""Your own serving benchmark against the plan for the same conditions: correction factors for one deployment.

Reads the result that `vllm bench serve --save-result` (and the older benchmarks/benchmark_serving.py) writes, the
JSON line SGLang's `python -m sglang.bench_serving` appends to its --output-file, or a CSV with the same field
names (one run per row). Fields used, as the engines name them:
- load: `max_concurrency` (requests in flight) or `request_rate` (requests/s; inf = all at once), `completed`;
- lengths: `total_input_tokens` / `completed` and `total_output_tokens` / `completed` (the mean lengths run);
- figures: `output_throughput` (output tokens/s, all GPUs), `median_ttft_ms`, `median_tpot_ms` (else `median_itl_ms`).
The factors are measured / estimated; a later plan for the same model, card, engine and format multiplies its
decode step by the ITL factor and its prefill by the TTFT factor, and says so.
"""
from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field


class BenchResult(BaseModel):
    """One benchmark run, read from an engine's result file."""

    model_config = ConfigDict(extra="forbid")
    model_id: str | None = None
    engine: str | None = Field(None, description="vllm or sglang, from the file's `backend` where it says")
    completed: int = Field(ge=1)
    prompt_len: int = Field(ge=1, description="mean input tokens per request")
    output_len: int = Field(ge=1, description="mean output tokens per request")
    concurrency: int | None = Field(None, ge=1)
    request_rate: float | None = Field(None, gt=0, description="requests/s; None with a concurrency or for a burst")
    output_tokens_per_s: float = Field(gt=0)
    ttft_ms: float | None = Field(None, gt=0)
    itl_ms: float | None = Field(None, gt=0)


class Deployment(BaseModel):
    """What a correction applies to: the same model, card, engine and weight format."""

    model: str
    gpu: str
    engine: str
    precision: str
    tp: int = 1
    pp: int = 1

    def matches(self, model: str, gpu: str, engine: str, precision: str) -> bool:
        return (self.model, self.gpu, self.engine, self.precision) == (model, gpu, engine, precision)


class Correction(BaseModel):
    """Measured / estimated for one deployment, with both sides kept so the comparison can be read again."""

    deployment: Deployment
    itl_factor: float = Field(gt=0, description="measured ITL / estimated ITL (decode steps are scaled by it)")
    ttft_factor: float = Field(gt=0, description="measured TTFT / estimated TTFT (prefill is scaled by it)")
    throughput_factor: float = Field(gt=0, description="measured / estimated output tokens/s (a check: it follows "
                                                       "from the other two)")
    measured: dict[str, float | int | None]
    estimated: dict[str, float]
    source: str = Field(description="the file the run was read from")
    as_of: str


class BenchFormatError(ValueError):
    """A file that is not an engine benchmark result: says which fields were missing and which are accepted."""


_ACCEPTED = ("completed", "total_input_tokens", "total_output_tokens", "output_throughput", "max_concurrency or "
             "request_rate", "median_ttft_ms", "median_tpot_ms or median_itl_ms")


def _num(d: dict, *keys: str) -> float | None:
    for k in keys:
        v = d.get(k)
        if v in (None, "", "None"):
            continue
        try:
            x = float(v)
        except (TypeError, ValueError):
            continue
        if math.isfinite(x) or k == "request_rate":
            return x
    return None


def parse_bench(data: dict) -> BenchResult:
    """One benchmark run from the dict an engine wrote (vLLM's JSON, one SGLang JSON line, or one CSV row)."""
    completed = _num(data, "completed", "num_prompts")
    tin, tout = _num(data, "total_input_tokens"), _num(data, "total_output_tokens")
    out_tps = _num(data, "output_throughput", "output_token_throughput")
    missing = [name for name, v in (("completed", completed), ("total_input_tokens", tin),
                                    ("total_output_tokens", tout), ("output_throughput", out_tps)) if not v]
    if missing:
        raise BenchFormatError(f"not a serving-benchmark result: no {', '.join(missing)}. Accepted: the JSON that "
                               "`vllm bench serve --save-result` writes, a line of SGLang bench_serving's "
                               f"--output-file, or a CSV with the fields {', '.join(_ACCEPTED)}")
    conc = _num(data, "max_concurrency")
    rate = _num(data, "request_rate")
    backend = str(data.get("backend") or "").lower()
    engine = "sglang" if "sglang" in backend else "vllm" if backend in ("vllm", "openai", "openai-chat") else None
    return BenchResult(
        model_id=data.get("model_id") or data.get("model"), engine=engine, completed=int(completed),
        prompt_len=max(1, round(tin / completed)), output_len=max(1, round(tout / completed)),
        concurrency=int(conc) if conc and conc >= 1 else None,
        request_rate=rate if rate is not None and math.isfinite(rate) and rate > 0 else None,
        output_tokens_per_s=out_tps, ttft_ms=_num(data, "median_ttft_ms", "mean_ttft_ms"),
        itl_ms=_num(data, "median_tpot_ms", "median_itl_ms", "mean_tpot_ms", "mean_itl_ms"))


def correction(run: BenchResult, deployment: Deployment, estimated: dict[str, float], source: str,
               as_of: str) -> Correction:
    """Factors from a run and the estimate for its conditions ({"ttft_ms", "itl_ms", "output_tokens_per_s"})."""
    itl = run.itl_ms / estimated["itl_ms"] if run.itl_ms and estimated.get("itl_ms") else 1.0
    ttft = run.ttft_ms / estimated["ttft_ms"] if run.ttft_ms and estimated.get("ttft_ms") else 1.0
    tps = run.output_tokens_per_s / estimated["output_tokens_per_s"] if estimated.get("output_tokens_per_s") else 1.0
    return Correction(deployment=deployment, itl_factor=round(itl, 4), ttft_factor=round(ttft, 4),
                      throughput_factor=round(tps, 4), measured=run.model_dump(exclude={"model_id", "engine"}),
                      estimated={k: round(v, 4) for k, v in estimated.items()}, source=source, as_of=as_of)


class QuotedRate(BaseModel):
    """A serving rate measured or quoted for one model and card, carried to another by what decode reads per token."""

    model_config = ConfigDict(extra="forbid")
    rate_per_gpu: float = Field(gt=0, le=1e8, description="output tokens/s per GPU of the quoted run")
    active_params_quoted: float = Field(gt=0, description="active parameters of the quoted run's model")
    active_params_job: float = Field(gt=0, description="active parameters of the job's model")
    bandwidth_quoted_gbps: float = Field(gt=0, description="memory bandwidth of the quoted run's card")
    bandwidth_job_gbps: float = Field(gt=0, description="memory bandwidth of the job's card")
    target_tokens_per_s: float | None = Field(None, gt=0, description="the job's output tokens/s to carry")


class QuotedRateScaled(BaseModel):
    rate_per_gpu: float = Field(description="the quote carried to the job's model and card, tokens/s per GPU")
    params_ratio: float
    bandwidth_ratio: float
    gpus_for_target: int | None = None


def scale_quoted_rate(q: QuotedRate) -> QuotedRateScaled:
    """Decode reads every active weight once per step, so tokens/s per GPU go about inversely with the active
    parameters and with memory bandwidth across cards: a rough carry of another model's figure, a cross-check only
    (the quote's prompt lengths, batch and engine settings are unknown)."""
    p = q.active_params_quoted / q.active_params_job
    b = q.bandwidth_job_gbps / q.bandwidth_quoted_gbps
    rate = q.rate_per_gpu * p * b
    need = math.ceil(q.target_tokens_per_s / rate - 1e-9) if q.target_tokens_per_s else None
    return QuotedRateScaled(rate_per_gpu=rate, params_ratio=p, bandwidth_ratio=b, gpus_for_target=need)


class BenchUnit(BaseModel):
    """A deployment unit the user benchmarked: its GPUs, the requests in flight it ran at, and its total throughput."""

    model_config = ConfigDict(extra="forbid")
    gpus: int = Field(ge=1, le=100_000, description="GPUs in one unit (one replica)")
    concurrency: int = Field(ge=1, le=100_000, description="requests in flight during the benchmark")
    tokens_per_s: float = Field(gt=0, le=1e9, description="the unit's total output tokens/s at that load")
    target_users: int = Field(ge=1, le=10_000_000, description="requests in flight to serve")
    gpus_owned: int | None = Field(None, ge=1, description="GPUs the user has, when stated")
    target_tokens_per_s_per_user: float | None = Field(None, gt=0, le=10_000, description="each user's rate needed")


class BenchUnitPlan(BaseModel):
    units: int = Field(description="replicas of the benchmarked unit, each at no more than its benchmark load")
    gpus: int
    per_user_tokens_per_s: float = Field(description="each user's rate at the benchmark's load (total / concurrency)")
    total_tokens_per_s: float = Field(description="the units' total at the target load, linear in the users served")
    enough: bool | None = None
    units_at_target: int | None = Field(None, description="with a per-user rate below the measured one: the fewest units "
                                        "if each keeps its measured total and spreads it over users at the target rate")


def replicas_from_benchmark(u: BenchUnit) -> BenchUnitPlan:
    """Replicas of a unit the user measured, each held at the load it was measured at (where they found the latency
    acceptable): units = ceil(users / concurrency); the total grows with the users, each user keeps the measured rate."""
    units = math.ceil(u.target_users / u.concurrency)
    per_user = u.tokens_per_s / u.concurrency
    gpus = units * u.gpus
    at_target = None
    if u.target_tokens_per_s_per_user and u.target_tokens_per_s_per_user < per_user:
        # a unit's total holds (decode batches more users for about the same step time until its KV cache fills), so
        # at the slower rate each carries total / target users
        at_target = math.ceil(u.target_users * u.target_tokens_per_s_per_user / u.tokens_per_s - 1e-9)
    return BenchUnitPlan(units=units, gpus=gpus, per_user_tokens_per_s=per_user,
                         total_tokens_per_s=per_user * u.target_users,
                         enough=None if u.gpus_owned is None else u.gpus_owned >= gpus, units_at_target=at_target)
