"""Rule-based planner: intent and slots -> tool calls -> one Answer. Every number comes from a tool."""
from __future__ import annotations

from typing import Any

from assistant.answer import Answer, Citation, ToolCall, Verdict
from assistant.compose import T, md_table
from knowledge.catalog import Catalog, UnknownItem

FINETUNE_METHODS = ("qlora", "lora", "full")


class Deps:
    """What the planner needs, built once: the catalog and (lazily) the retrieval index."""

    def __init__(self, catalog: Catalog, index=None, prices=None):
        self.catalog = catalog
        self._index = index
        self._prices = prices

    def prices(self) -> list:
        """The price records answers use: this Deps' own (a session's overrides applied), else the shipped
        table with the user's price file on top."""
        if self._prices is not None:
            return self._prices
        from knowledge.prices import load_prices

        return load_prices().records

    def with_prices(self, overrides: list) -> Deps:
        """The same catalog and index with these Price records replacing the same GPU's records of the same kind."""
        replaced = {(p.gpu, p.kind) for p in overrides}
        kept = [p for p in self.prices() if (p.gpu, p.kind) not in replaced]
        clone = Deps(self.catalog, prices=kept + list(overrides))
        clone.index = self.index  # one retrieval index per process, however many sessions
        return clone

    def index(self, load: bool = True):
        """The retrieval index, built on first use; with load=False, None until then."""
        if self._index is None and load:
            from knowledge.index import KnowledgeIndex

            self._index = KnowledgeIndex(catalog=self.catalog)
        return self._index

    def search(self, query: str, k: int = 3) -> list[Citation]:
        """Citations from BM25 + named-entity retrieval (no embedding model: answers stay fast)."""
        try:
            res = self.index().search(query, k=k, mode="bm25")
        except Exception as e:  # the answer stands without citations; say why
            return [Citation(source="(none)", title="retrieval unavailable", snippet=str(e)[:200])]
        return [Citation(source=p.source, title=p.title + (f" / {p.section}" if p.section else ""),
                         snippet=p.text[:240].replace("\n", " "), as_of=p.as_of) for p in res.passages]


def _call(calls: list[ToolCall], name: str, args: dict, result) -> Any:
    dump = result.model_dump(mode="json", exclude={"terms"}) if hasattr(result, "model_dump") else result
    calls.append(ToolCall(name=name, args=args, result=dump))
    return result


def plan(intent: str, slots: dict[str, Any], deps: Deps, question: str) -> Answer:
    """The answer for a parsed question."""
    lang = slots.get("lang", "en")
    handler = {"training_memory": _training_memory, "fact_check": _fact_check, "training_time": _training_time,
               "compare": _compare, "spec": _spec, "inference_memory": _inference_memory,
               "explain": _explain, "recommend": _recommend, "cost": _training_time,
               "inference_speed": _inference_speed}.get(intent, _out_of_scope)
    try:
        if slots.get("invalid"):
            raise ValueError(slots["invalid"])
        if slots.get("num_gpus") == 0:
            raise ValueError("0 GPUs is not a configuration; give at least 1 (e.g. '8x H100', '单卡')")
        return handler(slots, deps, question, lang, intent)
    except UnknownItem as e:
        return Answer(answer=T(lang, "unknown", msg=str(e)), lang=lang, intent=intent, warnings=[str(e)], slots=slots)
    except ValueError as e:
        return Answer(answer=T(lang, "bad_input", msg=str(e)), lang=lang, intent=intent, warnings=[str(e)], slots=slots)


def _model_gpu(slots, deps):
    model_name = slots.get("model")
    if not model_name:
        raise ValueError("no model named (e.g. Llama-3.1-70B, Qwen2.5-7B or a size such as 70B)")
    model, mnote = deps.catalog.model(model_name)
    gpu, gnote = deps.catalog.gpu(slots.get("gpu") or "a100-80gb")
    notes = [n for n in (mnote, gnote) if n]
    if not slots.get("gpu"):
        notes.append("no GPU named: sized for an A100 80GB SXM")
    return model, gpu, notes


def _training_memory(slots, deps, question, lang, intent) -> Answer:
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    model, gpu, notes = _model_gpu(slots, deps)
    n = slots.get("num_gpus") or 1
    if not slots.get("num_gpus"):
        notes.append(T(lang, "assume_one"))
    methods = [slots["method"]] if slots.get("method") in FINETUNE_METHODS else list(FINETUNE_METHODS)
    calls: list[ToolCall] = []
    options: list[Verdict] = []
    results = {}
    for method in methods:
        args = {"model": model.id, "method": method, "gpu": gpu.id, "num_gpus": n}
        r = _call(calls, "size_train", args, estimate_training_memory(TrainingMemoryRequest(
            model=model, gpu=gpu, method=method, num_gpus=n)))
        results[method] = r
        options.append(Verdict(fits=r.fits, gpu=gpu.id, num_gpus=n, min_gpus=r.min_gpus, method=method,
                               per_gpu_gb=r.per_gpu_gb))
    offload = None
    if "full" in results and not results["full"].fits:
        args = {"model": model.id, "method": "full", "gpu": gpu.id, "num_gpus": 8, "offload": "optimizer"}
        offload = _call(calls, "size_train", args, estimate_training_memory(TrainingMemoryRequest(
            model=model, gpu=gpu, method="full", num_gpus=8, offload="optimizer")))
    asked = slots.get("method")
    main = next((o for o in options if o.fits), options[-1]) if asked not in FINETUNE_METHODS else options[0]
    rows = [[o.method.upper() if o.method != "full" else T(lang, "full"), T(lang, "yes") if o.fits else T(lang, "no"),
             f"{o.per_gpu_gb:.1f}", str(o.min_gpus or "-")] for o in options]
    lines = [T(lang, "tm_head", model=model.name, n=n, gpu=gpu.name)]
    for o in options:
        key = "tm_fits" if o.fits else "tm_nofit"
        lines.append("- " + T(lang, key, method=o.method, gb=o.per_gpu_gb, min=o.min_gpus, n=n))
    if offload is not None:
        lines.append("- " + T(lang, "tm_offload", gb=offload.per_gpu_gb, host=offload.host_ram_gb / 1000,
                              fits=T(lang, "yes") if offload.fits else T(lang, "no")))
    lines.append("")
    lines.append(md_table([T(lang, "method"), T(lang, "fits_q"), "GB/GPU", T(lang, "min_gpus")], rows))
    best = results.get(main.method)
    if best is not None:
        lines.append("")
        lines.append(T(lang, "breakdown", method=main.method))
        lines.append(md_table(["", "GB"], [[k, f"{v:.2f}"] for k, v in best.breakdown_gb.items()]))
    cites = deps.search(f"{model.name} {main.method} {gpu.id} 显存" if lang == "zh" else
                        f"{main.method} memory {model.name} {gpu.id}")
    figures = {f"{o.method}_per_gpu_gb": o.per_gpu_gb for o in options}
    figures |= {f"{o.method}_min_gpus": o.min_gpus for o in options}
    if offload is not None:
        figures["full_offload_host_ram_gb"] = offload.host_ram_gb
    assumptions = notes + (best.assumptions if best else [])
    text = "\n".join(lines) + _assumptions_md(lang, assumptions) + _sources_md(lang, cites)
    return Answer(answer=text, lang=lang, intent=intent, verdict=main, options=options, figures=figures,
                  citations=cites, tool_calls=calls, slots=slots)


def _fact_check(slots, deps, question, lang, intent) -> Answer:
    from assistant.claims import check_paragraph, sentences

    low = question.lower()
    memory_claim = slots.get("model") and (slots.get("method") or slots.get("finetune"))
    if len(sentences(question)) > 2 or not memory_claim:  # check every claim we can compute
        checks = check_paragraph(question, deps)
        if checks:
            mark = {"right": "✅", "wrong": "❌", "misleading": "⚠️"}
            rows = [[mark[c.verdict] + " " + T(lang, "v_" + c.verdict), c.claim[:80], c.correct, c.source] for c in checks]
            cites = deps.search("errata 文章 A100" if lang == "zh" else "errata article A100 claims", k=3)
            text = (T(lang, "fc_para", n=len(checks), wrong=sum(c.verdict != "right" for c in checks)) + "\n\n"
                    + md_table([T(lang, "verdict"), T(lang, "claim"), T(lang, "correct"), T(lang, "sources")], rows)
                    + _sources_md(lang, cites))
            calls = [ToolCall(name="check_claims", args={"sentences": len(sentences(question))},
                              result={"checks": [c.model_dump() for c in checks]})]
            return Answer(answer=text, lang=lang, intent="fact_check", citations=cites, tool_calls=calls, slots=slots,
                          figures={k: v for c in checks for k, v in c.figures.items()} | {"claims_checked": len(checks),
                                   "claims_wrong": sum(c.verdict == "wrong" for c in checks),
                                   "claims_misleading": sum(c.verdict == "misleading" for c in checks)})
    if memory_claim:
        inference = slots.get("method") == "inference"
        base = (_inference_memory if inference else _training_memory)(slots, deps, question, lang, "fact_check")
        claim_fits = not any(w in low for w in ("不能", "不够", "放不下", "装不下", "跑不了", "cannot", "can't",
                                                "doesn't fit", "does not fit", "won't fit", "not fit", "not enough"))
        v = base.verdict
        correct = v.fits == claim_fits
        head = T(lang, "fc_right" if correct else "fc_wrong")
        errata = deps.search("errata 单张A100 LoRA 70B 文章" if lang == "zh" else "errata article LoRA 70B one A100", k=2)
        return base.model_copy(update={"answer": head + "\n\n" + base.answer + _sources_md(lang, errata),
                                       "citations": errata + base.citations, "figures": base.figures | {"claim_correct": int(correct)}})
    if len(slots.get("gpus", [])) >= 2 or "a100" in low:
        base = _training_time(slots, deps, question, lang, "fact_check")
        return base.model_copy(update={"answer": T(lang, "fc_time") + "\n\n" + base.answer})
    return _explain(slots, deps, question, lang, "fact_check")


def _training_time(slots, deps, question, lang, intent) -> Answer:
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    model_name = slots.get("model") or "llama-3.1-8b"
    model, mnote = deps.catalog.model(model_name)
    gpus = slots.get("gpus") or [slots.get("gpu") or "a100-80gb"]
    if len(gpus) == 1 and intent == "fact_check":
        gpus = ["h100", "a100-80gb"]
    if len(gpus) == 1 and gpus[0] != "a100-80gb" and "降级" in question:
        gpus.append("a100-80gb")
    n = slots.get("num_gpus") or 8
    tokens = slots.get("tokens") or 1e10
    method = slots.get("method") if slots.get("method") in FINETUNE_METHODS else "full"
    calls: list[ToolCall] = []
    rows, results = [], []
    for gid in gpus:
        gpu, _ = deps.catalog.gpu(gid)
        args = {"model": model.id, "gpu": gpu.id, "num_gpus": n, "tokens": tokens, "method": method}
        r = _call(calls, "time_train", args, estimate_training_time(TrainingTimeRequest(
            model=model, gpu=gpu, num_gpus=n, tokens=tokens, method=method)))
        results.append(r)
        rows.append([gpu.id, f"{r.peak_tflops:g}", f"{r.mfu:.2f}", f"{r.wall_hours:,.1f}", f"{r.gpu_hours:,.0f}"])
    lines = [T(lang, "tt_head", model=model.name, n=n, tokens=tokens, method=method)]
    figures: dict[str, Any] = {f"{r.gpu}_wall_hours": r.wall_hours for r in results}
    figures |= {f"{r.gpu}_gpu_hours": r.gpu_hours for r in results}
    if len(results) >= 2:
        slow, fast = max(results[:2], key=lambda r: r.wall_hours), min(results[:2], key=lambda r: r.wall_hours)
        ratio = slow.wall_hours / fast.wall_hours
        figures["time_ratio"] = round(ratio, 2)
        lines.append(T(lang, "tt_ratio", a=slow.gpu, b=fast.gpu, ratio=ratio))
    else:
        from knowledge.prices import is_session_override
        from tools.pricing import on_demand_rate

        figures["wall_hours"] = results[0].wall_hours
        figures["gpu_hours"] = results[0].gpu_hours
        rate = on_demand_rate(deps.prices(), results[0].gpu)
        if rate is not None:
            figures["cost_usd"] = round(rate.typical * results[0].gpu_hours, 0)
            given = all(map(is_session_override, rate.records))
            lines.append(T(lang, "tt_cost_given" if given else "tt_cost", cost=figures["cost_usd"], rate=rate.typical,
                           low=rate.low * results[0].gpu_hours, high=rate.high * results[0].gpu_hours))
    lines.append("")
    lines.append(md_table(["GPU", "BF16 TFLOPS", "MFU", T(lang, "hours"), "GPU-h"], rows))
    cites = deps.search("H100 A100 BF16 989 312 训练时间 文章" if lang == "zh" else "H100 vs A100 training time BF16 989 312")
    notes = [n for n in (mnote,) if n]
    if not slots.get("tokens"):
        notes.append(T(lang, "assume_tokens", tokens=tokens))
    text = "\n".join(lines) + _assumptions_md(lang, notes + results[0].assumptions) + _sources_md(lang, cites)
    return Answer(answer=text, lang=lang, intent=intent, figures=figures, citations=cites, tool_calls=calls, slots=slots,
                  verdict=Verdict(gpu=results[0].gpu, num_gpus=n, method=method))


def _compare(slots, deps, question, lang, intent) -> Answer:
    from knowledge.lookups import CompareGpusInput, compare_gpus

    gpus = slots.get("gpus") or []
    calls: list[ToolCall] = []
    res = _call(calls, "compare_gpus", {"gpus": gpus}, compare_gpus(CompareGpusInput(gpus=gpus, fields=[
        "memory_gb", "memory_bandwidth_gbps", "bf16_dense_tflops", "fp8_dense_tflops", "nvlink_gbps", "tdp_w",
        "source_kind", "as_of"]), deps.catalog))
    ids = [g.id for g in res.gpus]
    rows = [[r.field] + ["-" if v is None else (f"{v:g}" if isinstance(v, float) else str(v)) for v in r.values.values()]
            for r in res.rows]
    cites = deps.search(" ".join(ids) + (" 生态 软件栈 对比" if lang == "zh" else " ecosystem software stack compare"))
    text = (T(lang, "cmp_head", gpus=", ".join(ids)) + "\n\n" + md_table([""] + ids, rows) + "\n\n" + T(lang, "cmp_note")
            + _assumptions_md(lang, res.notes) + _sources_md(lang, cites))
    figures = {f"{r.field}:{gid}": v for r in res.rows for gid, v in r.values.items() if isinstance(v, (int, float))}
    return Answer(answer=text, lang=lang, intent=intent, figures=figures, citations=cites, tool_calls=calls, slots=slots)


def _spec(slots, deps, question, lang, intent) -> Answer:
    from knowledge.lookups import LookupGpuInput, lookup_gpu

    calls: list[ToolCall] = []
    res = _call(calls, "lookup_gpu", {"name": slots["gpu"]}, lookup_gpu(LookupGpuInput(name=slots["gpu"]), deps.catalog))
    g = res.gpu
    rows = [[k, "-" if v is None else str(v)] for k, v in g.model_dump().items()
            if k in ("memory_gb", "memory_type", "memory_bandwidth_gbps", "bf16_dense_tflops", "fp8_dense_tflops",
                     "int8_dense_tops", "interconnect", "nvlink_gbps", "tdp_w", "market_notes")]
    text = (T(lang, "spec_head", name=g.name) + "\n\n" + md_table(["", ""], rows)
            + _sources_md(lang, [Citation(source=f"gpus.yaml#{g.id}", title=g.source[:120], snippet="", as_of=g.as_of)]))
    return Answer(answer=text, lang=lang, intent=intent, figures={"memory_gb": g.memory_gb,
                  "memory_bandwidth_gbps": g.memory_bandwidth_gbps, "bf16_dense_tflops": g.bf16_dense_tflops},
                  citations=[Citation(source=f"gpus.yaml#{g.id}", title=g.name, snippet=g.source[:200], as_of=g.as_of)],
                  tool_calls=calls, slots=slots)


def _inference_memory(slots, deps, question, lang, intent) -> Answer:
    from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory

    model, gpu, notes = _model_gpu(slots, deps)
    n = slots.get("num_gpus") or 1
    ctx = slots.get("context") or 4096
    precision, batch = slots.get("precision") or "bf16", slots.get("batch") or 1
    calls: list[ToolCall] = []
    args = {"model": model.id, "gpu": gpu.id, "num_gpus": n, "context": ctx, "precision": precision, "batch": batch}
    r = _call(calls, "size_infer", args, estimate_inference_memory(InferenceMemoryRequest(
        model=model, gpu=gpu, num_gpus=n, context=ctx, precision=precision, batch=batch)))
    v = Verdict(fits=r.fits, gpu=gpu.id, num_gpus=n, min_gpus=r.min_gpus, method="inference", per_gpu_gb=r.per_gpu_gb)
    lines = [T(lang, "im_fits" if r.fits else "im_nofit", model=model.name, n=n, gpu=gpu.name, gb=r.per_gpu_gb,
               min=r.min_gpus, ctx=ctx), "", md_table(["", "GB"], [[k, f"{x:.2f}"] for k, x in r.breakdown_gb.items()])]
    cites = deps.search(f"KV cache {model.name} 推理 显存" if lang == "zh" else f"KV cache inference memory {model.name}")
    text = "\n".join(lines) + _assumptions_md(lang, notes + r.assumptions) + _sources_md(lang, cites)
    return Answer(answer=text, lang=lang, intent=intent, verdict=v, options=[v], figures={
        "per_gpu_gb": r.per_gpu_gb, "kv_cache_gb": r.kv_cache_gb, "kv_cache_bytes_per_token": r.kv_cache_bytes_per_token,
        "max_context": r.max_context}, citations=cites, tool_calls=calls, slots=slots)


def _inference_speed(slots, deps, question, lang, intent) -> Answer:
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed

    model, gpu, notes = _model_gpu(slots, deps)
    n, ctx = slots.get("num_gpus") or 1, slots.get("context") or 2048
    args = {"model": model.id, "gpu": gpu.id, "num_gpus": n, "context": ctx, "batch": slots.get("batch") or 1,
            "precision": slots.get("precision") or "bf16"}
    calls: list[ToolCall] = []
    r = _call(calls, "time_infer", args, estimate_inference_speed(InferenceSpeedRequest(
        model=model, gpu=gpu, num_gpus=n, context=ctx, batch=args["batch"], precision=args["precision"])))
    rows = [[T(lang, "ttft"), f"{r.ttft_s * 1000:,.0f} ms"], [T(lang, "per_seq"), f"{r.decode_tokens_per_s_per_seq:,.1f} tokens/s"],
            [T(lang, "total"), f"{r.decode_tokens_per_s_total:,.0f} tokens/s"], ["bound", r.decode_bound],
            [T(lang, "max_batch"), str(r.max_batch_that_fits)]]
    text = (T(lang, "speed_head", model=model.name, n=n, gpu=gpu.name, ctx=ctx) + "\n\n" + md_table(["", ""], rows)
            + _assumptions_md(lang, notes + r.assumptions))
    return Answer(answer=text, lang=lang, intent=intent, tool_calls=calls, slots=slots,
                  verdict=Verdict(gpu=gpu.id, num_gpus=n, method="inference"),
                  figures={"ttft_s": r.ttft_s, "decode_tokens_per_s_per_seq": r.decode_tokens_per_s_per_seq,
                           "decode_tokens_per_s_total": r.decode_tokens_per_s_total,
                           "max_batch_that_fits": r.max_batch_that_fits})


def _recommend(slots, deps, question, lang, intent) -> Answer:
    from tools.recommend import RecommendRequest, recommend

    model, mnote = deps.catalog.model(slots.get("model") or "llama-3.1-8b")
    task = slots.get("method") if slots.get("method") in ("qlora", "lora", "full", "pretrain", "inference") else "lora"
    calls: list[ToolCall] = []
    from tools.pricing import CNY_PER_USD

    budget = slots.get("budget")
    if budget and slots.get("budget_currency") == "CNY":
        budget = budget / CNY_PER_USD
    args = {"model": model.id, "task": task, "tokens": slots.get("tokens"), "budget_usd": budget,
            "deadline_hours": slots.get("deadline_hours")}
    res = _call(calls, "recommend", args, recommend(RecommendRequest(
        model=model, task=task, gpus=deps.catalog.gpus, prices=deps.prices(), tokens=slots.get("tokens"),
        budget=budget, deadline_hours=slots.get("deadline_hours"))))
    rows = [[str(o.rank), o.gpu, str(o.num_gpus), f"{o.per_gpu_gb:.1f}", "-" if o.cost is None else f"{o.cost:,.0f}", o.why]
            for o in res.options[:6]]
    top = res.options[0] if res.options else None
    text = (T(lang, "rec_head", model=model.name, task=task) + "\n\n"
            + md_table(["#", "GPU", "GPUs", "GB/GPU", "USD", T(lang, "why")], rows) + _assumptions_md(lang, res.assumptions))
    verdict = Verdict(fits=True, gpu=top.gpu, num_gpus=top.num_gpus, method=task, per_gpu_gb=top.per_gpu_gb) if top else None
    return Answer(answer=text, lang=lang, intent=intent, verdict=verdict, tool_calls=calls, slots=slots,
                  options=[Verdict(fits=o.fits, gpu=o.gpu, num_gpus=o.num_gpus, method=task, per_gpu_gb=o.per_gpu_gb)
                           for o in res.options], figures={"cost_usd": top.cost if top else None})


def _explain(slots, deps, question, lang, intent) -> Answer:
    cites = deps.search(question, k=3)
    body = "\n\n".join(f"> {c.snippet}\n> — {c.title} ({c.source})" for c in cites if c.source != "(none)")
    text = T(lang, "explain_head") + "\n\n" + (body or T(lang, "no_sources"))
    return Answer(answer=text, lang=lang, intent=intent, citations=cites, slots=slots)


def _out_of_scope(slots, deps, question, lang, intent) -> Answer:
    return Answer(answer=T(lang, "oos"), lang=lang, intent="out_of_scope", slots=slots)


def _assumptions_md(lang: str, items: list[str]) -> str:
    return "" if not items else "\n\n**" + T(lang, "assumptions") + "**\n" + "\n".join(f"- {a}" for a in items[:12])


def _sources_md(lang: str, cites: list[Citation]) -> str:
    good = [c for c in cites if c.source != "(none)"]
    return "" if not good else "\n\n**" + T(lang, "sources") + "**\n" + "\n".join(
        f"- {c.title} — `{c.source}`" + (f" (as of {c.as_of})" if c.as_of else "") for c in good)
