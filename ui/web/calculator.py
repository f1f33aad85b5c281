"""The Calculator tab's logic: a form in, the sizing tool's result, chart rows and the equivalent CLI line out."""
from __future__ import annotations

import shlex
from typing import Literal

from pydantic import BaseModel, Field

from assistant.answer import ToolCall
from assistant.compose import money
from tools.formats import WeightFormatId


class CalcForm(BaseModel):
    """What the form holds; the defaults are the CLI's."""

    mode: Literal["train", "infer", "serve"] = "train"
    model: str = "llama-3.1-70b"
    gpu: str = "a100-80gb"
    num_gpus: int = Field(1, ge=1, le=100_000)
    # training
    method: Literal["full", "lora", "qlora"] = "qlora"
    seq_len: int = Field(2048, ge=1, le=10_000_000)
    micro_batch: int = Field(1, ge=1, le=4096)
    precision: Literal["mixed", "bf16", "fp32"] = "mixed"
    zero: Literal["auto", "0", "1", "2", "3"] = "auto"
    offload: Literal["none", "optimizer", "all"] = "none"
    # inference
    weights: WeightFormatId | Literal["native"] = "native"
    context: int = Field(4096, ge=1, le=10_000_000)
    batch: int = Field(1, ge=1, le=100_000)
    engine: Literal["hf", "vllm"] = "hf"
    prefill_tokens: int | None = Field(None, ge=1, le=10_000_000, description="tokens prefilled at once (a chunked "
                                       "prefill's chunk); blank: the whole context, as `size infer` takes it")
    # serving (the planner: users and latency targets -> layout, replicas, cost)
    users: int = Field(32, ge=1, le=10_000_000)
    prompt_len: int = Field(2048, ge=1, le=10_000_000)
    output_len: int = Field(512, ge=1, le=1_000_000)
    ttft_s: float | None = Field(None, gt=0, le=3600, description="blank: no target imposed")
    itl_ms: float | None = Field(None, gt=0, le=600_000, description="blank: no target imposed")
    serve_engine: Literal["vllm", "sglang", "hf", "llama.cpp"] = "vllm"


class CalcResult(BaseModel):
    call: ToolCall
    per_gpu_gb: float
    usable_gb: float | None
    fits: bool | None
    min_gpus: int | None
    breakdown_gb: dict[str, float]
    assumptions: list[str]
    cli: str
    headline: str | None = Field(None, description="serving: the plan in one line")


def cli_command(form: CalcForm) -> str:
    """The `gpu-advisor size ...` line that gives the same estimate (only non-default flags)."""
    q = shlex.quote
    if form.mode == "serve":
        parts = ["gpu-advisor", "plan", "serve", "--model", q(form.model), "--gpu", q(form.gpu), "--users", str(form.users),
                 "--prompt-len", str(form.prompt_len), "--output-len", str(form.output_len)]
        if form.ttft_s:
            parts += ["--ttft", f"{form.ttft_s:g}s"]
        if form.itl_ms:
            parts += ["--itl", f"{form.itl_ms:g}ms"]
        if form.serve_engine != "vllm":
            parts += ["--engine", form.serve_engine]
        if form.weights != "native":
            parts += ["--precision", form.weights]
        return " ".join(parts)
    parts = ["gpu-advisor", "size", form.mode, "--model", q(form.model), "--gpu", q(form.gpu)]
    if form.num_gpus != 1:
        parts += ["--num-gpus", str(form.num_gpus)]
    if form.mode == "train":
        parts += ["--method", form.method]
        if form.seq_len != 2048:
            parts += ["--seq-len", str(form.seq_len)]
        if form.micro_batch != 1:
            parts += ["--micro-batch", str(form.micro_batch)]
        if form.precision != "mixed":
            parts += ["--precision", form.precision]
        if form.zero != "auto":
            parts += ["--zero", form.zero]
        if form.offload != "none":
            parts += ["--offload", form.offload]
    else:
        if form.weights != "native":
            parts += ["--precision", form.weights]
        parts += ["--context", str(form.context)]
        if form.batch != 1:
            parts += ["--batch", str(form.batch)]
        if form.engine != "hf":
            parts += ["--engine", form.engine]
        if form.prefill_tokens and form.prefill_tokens < form.context:
            parts += ["--prompt-len", str(form.prefill_tokens)]
    return " ".join(parts)


def calculate(form: CalcForm, catalog, lang: str = "en") -> CalcResult:
    """Run the sizing tool the form describes. Raises UnknownItem / ValueError for bad input (shown, not raised, by the UI)."""
    model, mnote = catalog.model(form.model)
    gpu, gnote = catalog.gpu(form.gpu)
    notes = [n for n in (mnote, gnote) if n]
    if form.mode == "serve":
        from knowledge.prices import load_prices
        from tools.serving import ServeRequest, plan_serving

        args = {"model": model.id, "gpu": gpu.id, "users": form.users, "prompt_len": form.prompt_len,
                "output_len": form.output_len, "ttft_s": form.ttft_s, "itl_ms": form.itl_ms, "engine": form.serve_engine,
                "precision": None if form.weights == "native" else form.weights}
        plan = plan_serving(ServeRequest(**(args | {"model": model, "gpu": gpu}), prices=load_prices().records))
        zh = lang == "zh"
        shape = f"TP{plan.tp}" + (f" × PP{plan.pp}" if plan.pp > 1 else "") + f" × {plan.replicas}"
        if plan.cost_per_million_output_tokens_usd is None:
            cost = ""
        elif zh:
            cost = (f"；每小时 {money(lang, plan.cost_per_hour_usd, 2)}，每百万输出 token "
                    f"{money(lang, plan.cost_per_million_output_tokens_usd, 2)}")
        else:
            cost = f"; ${plan.cost_per_hour_usd:,.2f}/h, ${plan.cost_per_million_output_tokens_usd:g} per 1M output tokens"
        head = ((f"### {plan.total_gpus} 张 {gpu.id}（{shape} 副本）：首 token {plan.ttft_s:.2f} 秒，token 间隔 "
                 f"{plan.itl_ms:.0f} 毫秒，每卡 {plan.tokens_per_s_per_gpu:,.0f} token/秒{cost}") if zh else
                (f"### {plan.total_gpus} × {gpu.id} ({shape} replicas): TTFT {plan.ttft_s:.2f} s, ITL {plan.itl_ms:.0f} ms, "
                 f"{plan.tokens_per_s_per_gpu:,.0f} tok/s/GPU{cost}")) + f"\n\n`{plan.launch_command}`"
        return CalcResult(call=ToolCall(name="plan_serve", args=args, result=plan.model_dump(mode="json", exclude={"layouts"})),
                          per_gpu_gb=plan.per_gpu_gb, usable_gb=None, fits=True, min_gpus=plan.total_gpus,
                          breakdown_gb=plan.breakdown_gb, assumptions=notes + plan.assumptions, cli=cli_command(form),
                          headline=head)
    if form.mode == "train":
        from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

        args = {"model": model.id, "method": form.method, "gpu": gpu.id, "num_gpus": form.num_gpus, "seq_len": form.seq_len,
                "micro_batch": form.micro_batch, "precision": form.precision,
                "zero": None if form.zero == "auto" else int(form.zero), "offload": form.offload}
        res = estimate_training_memory(TrainingMemoryRequest(**(args | {"model": model, "gpu": gpu})))
        name = "size_train"
    else:
        from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory

        args = {"model": model.id, "gpu": gpu.id, "num_gpus": form.num_gpus, "precision": None if form.weights == "native" else form.weights,
                "context": form.context, "batch": form.batch, "engine": form.engine}
        if form.prefill_tokens and form.prefill_tokens < form.context:  # a chunked prefill, as the chat sized it
            args["prompt_len"] = form.prefill_tokens
        res = estimate_inference_memory(InferenceMemoryRequest(**(args | {"model": model, "gpu": gpu})))
        name = "size_infer"
    dump = res.model_dump(mode="json", exclude={"terms"})
    return CalcResult(call=ToolCall(name=name, args=args, result=dump), per_gpu_gb=res.per_gpu_gb, usable_gb=res.usable_gb,
                      fits=res.fits, min_gpus=res.min_gpus, breakdown_gb=res.breakdown_gb,
                      assumptions=notes + res.assumptions, cli=cli_command(form))
