"""Inference answers: can it run (the best precision that fits), serving N users with a pre-allocating engine,
and decode/prefill speed."""
from __future__ import annotations

import math
import re
from typing import Any

from assistant.answer import Answer, Verdict
from assistant.zh import component_name
from assistant.compose import T, md_table
from assistant.context import (TIGHT_SHARE, USES, Ctx, assumptions_md, memory_classes, short_card_name, sources_md,
                               vendor_ok)
from assistant.plans.money import typical_rate
from assistant.readers.slots import w
from tools.formats import CHECKPOINT_FORMATS, runnable_format, supported_on
from tools.cost import desk_card
from tools.engines import ENGINES, prefill_at_once

DEFAULT_CONTEXT = 4096
DEFAULT_SERVING_GPU = "a100-80gb"
PRECISION_LADDER = ("bf16", "fp8", "int8", "int4")  # best quality first
APPLE_LADDER = ("bf16", "q8_0", "q4_k_m")  # llama.cpp / MLX on Apple silicon
GGUF_LADDER = ("bf16", "q8_0", "q6_k", "q5_k_m", "q4_k_m", "q3_k_m")  # llama.cpp / Ollama: the GGUF quant types
GGUF_ENGINES = ("llamacpp", "ollama")
PREALLOCATING = ("vllm", "sglang", "tensorrt-llm")

_INFER = {"model", "checkpoint_format", "gpu", "gpus", "num_gpus", "gpus_per_node", "nodes", "precision", "kv_dtype",
          "context", "prompt_len", "output_len", "batch", "engine", "gpu_memory_utilization", "ram_gb", "full_model",
          "batch_items", "batch_output_tokens", "tensor_parallel"}
USES["inference_memory"] = _INFER | {"largest_model"}
USES["serving"] = _INFER | {"concurrent_users", "requests_per_s", "ttft_s", "itl_ms", "tokens_per_s_per_user",
                            "daily_active_users"}
USES["inference_speed"] = (_INFER - {"gpu_memory_utilization"}) | {"concurrent_users", "ttft_s", "itl_ms",
                                                                   "tokens_per_s_per_user", "max_throughput"}
USES["serving"] = USES["serving"] | {"gpu_rental_prices", "load_multiplier"}  # (priced via the price records)
USES["inference_speed"] = USES["inference_speed"] | {"gpu_rental_prices", "claimed_tokens_per_s"}  # (prices via the records; a claim judged)




# The share of a card's usable memory above which a format is not offered as the answer while a lighter one leaves room
# (one longer prompt or the runtime's own buffers tip it over)
FULL_SHARE = 0.95


def _bits(fmt: str) -> float:
    from tools.formats import weight_format

    return weight_format(fmt).bits


def weight_format_for(ctx: Ctx, model, gpu) -> str | None:
    """The weight format the question fixes, if any: a named checkpoint ('-AWQ', 'Q4_K_M' -> q4_k_m), else the
    stated precision ('int4'; on Apple silicon an 8-/4-bit ask is a GGUF/MLX file); bf16 on a card without BF16
    becomes fp16, said. None: not fixed (the answer tries the checkpoint's own format first)."""
    from tools.formats import supported_on, weight_format

    req = ctx.req
    fmt = None
    cf = (req.checkpoint_format or "").lower()
    if cf.startswith("gguf-"):
        try:
            fmt = weight_format(cf[5:]).id
        except ValueError:
            fmt = "q4_k_m"
    elif cf in CHECKPOINT_FORMATS:
        fmt = CHECKPOINT_FORMATS[cf]
        if cf == "gguf":
            ctx.assume("GGUF Q4_K_M (no quant type named)", "GGUF Q4_K_M（未写量化类型）")
    elif req.precision and req.precision != "fp32":
        fmt = req.precision
        if ((gpu is not None and gpu.vendor == "Apple") or req.engine in GGUF_ENGINES) and fmt in ("int8", "int4"):
            fmt = {"int8": "q8_0", "int4": "q4_k_m"}[fmt]  # (llama.cpp's 8- and 4-bit files: Q8_0, Q4_K_M)
    if req.full_model and (fmt is None or fmt == model.native_precision):
        fmt = model.native_precision
        ctx.assume(f"the full model: {model.name} in its published format, {fmt} (not quantized, not distilled)",
                   f"满血：{model.name} 官方发布的 {fmt} 格式（不量化、非蒸馏）")
    if fmt in ("bf16",) and gpu is not None and not supported_on("bf16", gpu)[0]:
        ctx.notes.append(ctx.t(f"{gpu.name} has no BF16: the 16-bit weights run in fp16 (same size)",
                               f"{gpu.name} 不支持 BF16：16 位权重用 fp16 运行（大小相同）"))
        fmt = "fp16"
    return ascend_8bit(ctx, fmt, gpu)


def ascend_8bit(ctx: Ctx, fmt: str | None, gpu) -> str | None:
    """An FP8 format on an Ascend card, which has no FP8 at all (not even weight-only in MindIE): the 8-bit route there
    is W8A8 INT8 (msModelSlim / MindIE), same memory, said."""
    from tools.formats import runnable_format

    if runnable_format(fmt, gpu) != fmt:
        line = ctx.t(f"{gpu.name} has no FP8: the 8-bit route on Ascend is W8A8 INT8 (msModelSlim quantization, served by "
                     "MindIE), the same memory as FP8; an FP8 checkpoint is converted to BF16 or quantized to W8A8 first",
                     f"{gpu.name} 不支持 FP8：昇腾上的 8 位方案是 W8A8 INT8（msModelSlim 量化、MindIE 部署），显存与 FP8 相同；"
                     "FP8 的权重要先转成 BF16 或量化成 W8A8")
        ctx.note(line)
    return runnable_format(fmt, gpu)


def precision_ladder(ctx: Ctx, model, gpu) -> list[str]:
    """Formats to try, best first: the checkpoint's own, then fewer bits (FP8 only where the card has it;
    GGUF on Apple silicon; fp16 where there is no BF16)."""
    from tools.formats import supported_on

    native = model.native_precision
    base = APPLE_LADDER if gpu is not None and gpu.vendor == "Apple" else \
        GGUF_LADDER if ctx.req.engine in GGUF_ENGINES else PRECISION_LADDER
    ladder = [native] + [p for p in base if _bits(p) < _bits(native) and (gpu is None or supported_on(p, gpu)[0])]
    if gpu is not None and "bf16" in ladder and not supported_on("bf16", gpu)[0]:
        ladder[ladder.index("bf16")] = "fp16"
    return list(dict.fromkeys(ladder))


def _served_format(ctx: Ctx, model, gpu, say: bool = True) -> str:
    """The format a serving or speed answer uses: the one the question fixes, else the checkpoint's own (said)."""
    fmt = weight_format_for(ctx, model, gpu)
    if fmt:
        return fmt
    fmt = model.native_precision
    from tools.formats import supported_on

    if fmt == "bf16" and not supported_on("bf16", gpu)[0]:
        fmt = "fp16"
    native, fmt = fmt, ascend_8bit(ctx, fmt, gpu)
    if say:
        ctx.assume(f"{fmt} weights (the published checkpoint)" if fmt == native else f"{fmt} weights (W8A8, see below)",
                   f"{fmt} 权重（官方发布的格式）" if fmt == native else f"{fmt} 权重（W8A8，见下）")
    return fmt


def offload(ctx: Ctx) -> Answer:
    """Local inference with part of the model in system RAM (llama.cpp / Ollama): the split, the flags, the speed."""
    from tools.offload import OffloadRequest, plan_offload

    req, lang = ctx.req, ctx.lang
    model, gpu, _ = ctx.job("rtx-4090")
    fmt = weight_format_for(ctx, model, gpu)
    if not fmt:
        fmt = model.native_precision if model.native_precision != "bf16" else "q4_k_m"
        ctx.assume(f"{fmt} weights" + (" (the published checkpoint)" if fmt == model.native_precision else
                                       " (the usual llama.cpp file)"),
                   f"{fmt} 权重" + ("（官方发布的格式）" if fmt == model.native_precision else "（llama.cpp 最常用的文件）"))
    gguf = {"int4": "q4_k_m", "int8": "q8_0"}  # what a llama.cpp / Ollama user's '4-bit' / '8-bit' file is
    if req.engine in ("llamacpp", "ollama") and fmt in gguf:
        ctx.assume(f"{fmt} as a GGUF file: {gguf[fmt]} (Ollama's default 4-bit tag; llama.cpp's usual choice)",
                   f"{fmt} 按 GGUF 文件算：{gguf[fmt]}（Ollama 默认的 4-bit，llama.cpp 常用）")
        fmt = gguf[fmt]
    context = req.context or 8192
    if not req.context:
        ctx.assume("context 8192 (llama.cpp -c)", "上下文 8192（llama.cpp -c）")
    n = min(req.num_gpus or 1, 16)
    r = ctx.call("plan_offload", {"model": model.id, "gpu": gpu.id, "precision": fmt, "context": context,
                                  "ram_gb": req.ram_gb, "num_gpus": n},
                 plan_offload(OffloadRequest(model=model, gpu=gpu, precision=fmt, context=context, ram_gb=req.ram_gb,
                                             num_gpus=n)))
    fits_all = r.fits_gpu and (r.fits_ram is not False)
    ram = (f"{req.ram_gb:g} GB RAM" if req.ram_gb else
           ctx.t(f"system RAM (it needs about {r.ram_gb:,.0f} GB free for the rest)", f"系统内存（其余部分约需 {r.ram_gb:,.0f} GB）"))
    cards = ctx.t(f"one {gpu.name}" if n == 1 else f"{n}× {gpu.name} (layers split across them)",
                  f"一张 {gpu.name}" if n == 1 else f"{n} 张 {gpu.name}（按层切分）")
    all_on = r.mode == "layers" and r.gpu_layers == r.total_layers
    head = ctx.t(
        f"**{'Yes' if fits_all else 'No'}**: {model.name} in {fmt} on {cards}"
        + ("" if all_on else f" + {ram}") + " — "
        + (f"{r.gpu_layers} of {r.total_layers} layers on the GPU" + ("s" if n > 1 else "") if r.mode == "layers" else
           f"all layers on the GPU, the experts of {r.cpu_moe_layers} layers in RAM")
        + f"; decode up to **~{r.decode_tokens_per_s:.0f} tokens/s** (batch 1, bandwidth bound).",
        f"**{'可以' if fits_all else '不行'}**：{model.name}（{fmt}）用{cards}" + ("" if all_on else f" + {ram}") + " —— "
        + (f"{r.total_layers} 层里 {r.gpu_layers} 层放 GPU" if r.mode == "layers" else
           f"所有层放 GPU，{r.cpu_moe_layers} 层的专家放内存")
        + f"；解码上限约 **{r.decode_tokens_per_s:.0f} token/s**（batch 1，按带宽估算）。")
    rows = [[ctx.t("GPU layers (-ngl)", "GPU 层数 (-ngl)"), f"{r.gpu_layers} / {r.total_layers}"],
            [ctx.t("experts in RAM (--n-cpu-moe)", "专家放内存的层 (--n-cpu-moe)"), str(r.cpu_moe_layers)],
            [ctx.t("GPU memory", "显存"), f"{r.gpu_gb:.1f} GB"], [ctx.t("system RAM", "内存"), f"{r.ram_gb:.1f} GB"],
            [ctx.t("decode (batch 1)", "解码（batch 1）"), f"{r.decode_tokens_per_s:.1f} tokens/s"]]
    text = (head + "\n\n" + md_table(["", ""], rows) + f"\n\n`{r.command}`" + assumptions_md(lang, ctx.notes + r.assumptions))
    figures = {"gpu_layers": r.gpu_layers, "cpu_moe_layers": r.cpu_moe_layers, "offload_gpu_gb": r.gpu_gb,
               "offload_ram_gb": r.ram_gb, "offload_decode_tokens_per_s": r.decode_tokens_per_s,
               "decode_tokens_per_s_per_seq": r.decode_tokens_per_s, "precision": fmt, "batch": 1,
               "fits": int(bool(all_on))}  # (the GPUs hold every layer; otherwise part runs from RAM, at RAM speed)
    return Answer(answer=text, lang=lang, intent=req.intent, tool_calls=ctx.calls, figures=figures,
                  verdict=Verdict(fits=fits_all, gpu=gpu.id, num_gpus=n, method="inference", per_gpu_gb=r.per_gpu_gb))


LAYER_SPLIT_RUNTIMES = GGUF_ENGINES + ("hf",)  # split a model by layers over any number of GPUs


def serving_count(ctx: Ctx, model, gpu, least: int | None, note: bool = True) -> int | None:
    """The fewest GPUs a serving engine runs the model on, from the fewest that hold it by memory: vLLM, SGLang and
    TensorRT-LLM split the attention heads evenly (tensor parallelism 1, 2, 4 or 8 in a node), and past one node run
    TP8 per node with pipeline stages across nodes (16, 24, 32 ...). '3 GPUs' or '6 GPUs' is not a layout anyone
    deploys; the count is raised to the next one that is, said. A runtime that splits by layers (llama.cpp, Ollama,
    transformers) keeps the memory count."""
    from tools.infer_memory import tp_ok

    if not least or least == 1 or ctx.req.engine in LAYER_SPLIT_RUNTIMES or gpu.vendor == "Apple":
        return least
    tp = next((t for t in (2, 4, 8) if t >= least and tp_ok(model, t)), None)
    count = tp or (8 * -(-least // 8) if tp_ok(model, 8) else least)
    if count != least and note:
        ctx.notes.append(ctx.t(
            f"{least} GPUs hold it by memory, but a serving engine (vLLM, SGLang, TensorRT-LLM) splits the "
            f"{model.num_attention_heads} attention heads and {model.num_kv_heads} KV heads evenly over a tensor-parallel "
            f"group of 1, 2, 4 or 8 GPUs in a node, with whole 8-GPU nodes as pipeline stages beyond it: **{count}** "
            + (f"(--tensor-parallel-size {count})" if count <= 8 else f"(--tensor-parallel-size 8 --pipeline-parallel-size "
               f"{count // 8})") + f"; {least} only as pipeline stages (--pipeline-parallel-size {least}, slower per "
            "token) or in a runtime that splits by layers (llama.cpp)",
            f"按显存 {least} 张放得下，但推理引擎（vLLM、SGLang、TensorRT-LLM）要把 {model.num_attention_heads} 个注意力头和 "
            f"{model.num_kv_heads} 个 KV 头平均分到一台机器里 1、2、4 或 8 张卡的张量并行组上，超过一台按整台 8 卡做流水级："
            f"**{count}** 张" + (f"（--tensor-parallel-size {count}）" if count <= 8 else
                                f"（--tensor-parallel-size 8 --pipeline-parallel-size {count // 8}）")
            + f"；{least} 张只能做流水并行（--pipeline-parallel-size {least}，单路更慢）或用按层切分的 llama.cpp"))
    return count


def _gguf_job(ctx: Ctx) -> bool:
    """The weights asked are a GGUF file ('Q4_K_M', '(gguf)'), which llama.cpp / Ollama run, not vLLM."""
    req = ctx.req
    return str(req.precision or "").startswith(("q", "iq")) or str(req.checkpoint_format or "").startswith("gguf")


def _engine(ctx: Ctx, default: str) -> str:
    """The tool's engine mode: vllm (pre-allocating pool) or hf (allocate as you go: HF, llama.cpp, Ollama)."""
    e = ctx.req.engine
    if e is None and ctx.req.gpu and ctx.gpu().vendor == "Apple":
        return "hf"  # a Mac runs llama.cpp / MLX, which allocate as they go (no vLLM pool)
    if e is None and _gguf_job(ctx):
        return "hf"  # a GGUF file runs in llama.cpp / Ollama, which allocate as they go (no vLLM pool)
    if e is None:
        return default
    return "vllm" if e in PREALLOCATING else "hf"


def _speed_engine(ctx: Ctx, default: str) -> str:
    """The speed tool's engine: llama.cpp / Ollama decode with CUDA graphs (no eager launch cost per layer) but allocate
    as they go; the rest as _engine."""
    if ctx.req.engine in ("llamacpp", "ollama") or (ctx.req.engine is None and _gguf_job(ctx)):
        return "llamacpp"  # ('70B Q4 (gguf) on 2x 3090'): the GGUF file's own runtime
    if ctx.req.engine is None and ctx.req.gpu and ctx.gpu().vendor == "Apple":
        return "llamacpp"  # a Mac runs llama.cpp / MLX (compiled graphs), not eager PyTorch
    return _engine(ctx, default)


CHAT_PROMPT = 1024  # tokens a chat message's prompt carries when only the answer's length is given (system prompt and
# a few turns of history; an assumption, said)


def _context(ctx: Ctx) -> int:
    req = ctx.req
    if req.context and req.prompt_len and req.output_len and req.context > req.prompt_len + req.output_len and \
            (req.concurrent_users or req.requests_per_s or (req.batch or 1) > 1 or req.intent == "serving"):
        # (also with no load: 'max_model_len 16384, avg prompt 2,000, avg output 400: how many concurrent seqs?')
        # 'max_model_len=8192 … avg prompt 2,000, avg output 400': paged KV holds what requests use; the average sizes
        # the load, the limit only caps one request
        line = ctx.t(f"KV cache sized at the average request ({req.prompt_len:,} + {req.output_len:,} tokens): the "
                     f"{req.context:,}-token limit caps one request, it is not reserved for each (vLLM's paged KV)",
                     f"KV cache 按平均请求（{req.prompt_len:,} + {req.output_len:,} token）计算：{req.context:,} 的上限只限制单个"
                     "请求，并不为每个请求预留（vLLM 分页 KV）")
        ctx.note(line)
        ctx.used.add("context")
        return req.prompt_len + req.output_len
    if req.context:
        return req.context
    if req.prompt_len:
        return req.prompt_len + (req.output_len or 0)
    if req.output_len:  # ('每条回复大概 300 token'): the answer's length; a chat turn's prompt with some history, said
        ctx.assume(f"{CHAT_PROMPT:,}-token prompts (a chat turn with some history; give yours)",
                   f"每次输入 {CHAT_PROMPT:,} token（一轮对话带一些历史；可给出你的）")
        return CHAT_PROMPT + req.output_len
    ctx.assume(f"context {DEFAULT_CONTEXT}", f"上下文 {DEFAULT_CONTEXT}")
    return DEFAULT_CONTEXT


_PREFILL_CHUNK = ENGINES["vllm"].max_batched_tokens  # tokens one chunked-prefill step takes (vLLM's default budget)


def _prefill_tokens(ctx: Ctx, context: int) -> int:
    """Tokens prefilled at once: the prompt, in chunks of the engine's budget. vLLM and SGLang prefill in chunks of
    their token budget, llama.cpp in batches of -b: a long prompt's activations are one chunk's, not the whole
    prompt's (transformers generate(), when named, prefills it at once)."""
    req = ctx.req
    return prefill_at_once(req.engine, req.prompt_len if req.prompt_len and req.prompt_len <= context else context)


def _size(ctx: Ctx, model, gpu, precision: str, batch: int, engine: str, context: int):
    from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory

    req = ctx.req
    args: dict[str, Any] = {"num_gpus": req.num_gpus or 1, "context": context, "precision": precision, "batch": batch,
                            "engine": engine}
    if req.kv_dtype:
        args["kv_dtype"] = req.kv_dtype
    if req.gpu_memory_utilization:
        args["gpu_memory_utilization"] = req.gpu_memory_utilization
    prompt = _prefill_tokens(ctx, context)
    if prompt == _PREFILL_CHUNK and prompt < context:
        note = ctx.t(f"prefill in chunks of {_PREFILL_CHUNK:,} tokens, as vLLM, SGLang and llama.cpp run it (activations "
                     "for one chunk; transformers generate() prefills the whole prompt at once and needs more)",
                     f"预填充按每块 {_PREFILL_CHUNK:,} token 分块（vLLM、SGLang、llama.cpp 都这样；激活按一块算；transformers "
                     "generate() 一次预填充整段，需要更多）")
        ctx.note(note)
    if prompt != context:
        args["prompt_len"] = prompt
    return ctx.call("size_infer", {"model": model.id, "gpu": gpu.id if gpu else None, **args},
                    estimate_inference_memory(InferenceMemoryRequest(model=model, gpu=gpu, **args)))


def _largest_runnable(ctx: Ctx) -> Answer:
    from assistant.plans.train import largest_sizes
    from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory

    req = ctx.req
    gpu = ctx.gpu()
    if not req.num_gpus:
        ctx.assume_one_gpu()
    n, context, engine = req.num_gpus or 1, _context(ctx), _engine(ctx, "hf")
    ladder = [req.precision] if req.precision else [p for p in PRECISION_LADDER if p != "fp8" or gpu.fp8_dense_tflops]
    batch = req.batch or req.concurrent_users or 1  # ('the biggest we can serve … ~30 concurrent users, 8k': all held)
    if batch > 1:  # several sequences at once are served by an engine that prefills in chunks (vLLM)
        engine = _engine(ctx, "vllm")
    if req.concurrent_users and not req.batch:
        ctx.used.add("concurrent_users")
        ctx.notes.append(ctx.t(f"sized to hold {batch} sequences of {context:,} tokens at once (the users stated)",
                               f"按同时容纳 {batch} 路、每路 {context:,} token 计算（你给的并发）"))

    def fits(p: str, spec) -> bool:
        args = {"model": spec, "gpu": gpu, "context": context, "precision": p, "batch": batch, "engine": engine}
        try:
            return bool(estimate_inference_memory(InferenceMemoryRequest(num_gpus=n, **args)).fits)
        except ValueError:  # too small to split over n GPUs: then it fits if it fits on one
            return bool(estimate_inference_memory(InferenceMemoryRequest(num_gpus=1, **args)).fits)

    sizes = largest_sizes(ctx, gpu, ladder, fits)
    rows = [[p, "-" if v is None else f"{v / 1e9:.3g}B"] for p, v in sizes.items()]
    if req.family:
        from assistant.plans.train import family_line

        rows = [r + [""] for r in rows]
        head_family = family_line(ctx, sizes)
        ctx.notes.remove(head_family)
        ctx.notes.insert(0, head_family)
    head = ctx.t(f"**Largest model that runs on {n}× {gpu.name} at {context:,} tokens, by weight precision:**",
                 f"**{n} 张 {gpu.name} 能跑的最大模型（上下文 {context:,}，按权重精度）：**")
    rows = [r[:2] for r in rows]
    named, named_figures = ([], {}) if req.family else _named_models_that_fit(ctx, gpu, n, context, sizes, fits)
    if req.family:  # 'how big a Gemma 3 can I run?': the family's member that fits leads
        head = "**" + ctx.notes.pop(0)[:1].upper() + head_family[1:] + "**" + ctx.t(".", "。") + "\n\n" + head
    members = _family_members(ctx, gpu, n, context) if req.family else []
    text = head + "\n\n" + md_table([ctx.t("precision", "精度"), ctx.t("largest model", "最大模型")], rows) + \
        ("\n\n" + "\n".join(named) if named else "") + ("\n\n" + "\n".join(members) if members else "") + \
        assumptions_md(ctx.lang, ctx.notes)
    figures = {f"largest_{p}_params_b": None if v is None else round(v / 1e9, 2) for p, v in sizes.items()}
    figures |= named_figures
    return Answer(answer=text, lang=ctx.lang, intent=req.intent, figures=figures, tool_calls=ctx.calls,
                  verdict=Verdict(gpu=gpu.id, num_gpus=n, method="inference"))


def _family_members(ctx: Ctx, gpu, n: int, context: int) -> list[str]:
    """'Qwen3 in Q4_K_M on a 48 GB Mac, which size?': each general member of the family in the format asked (GGUF on a
    Mac or with llama.cpp), its memory, whether it fits and one stream's decode speed, so the pick is visible."""
    local = ctx.req.engine in ("llamacpp", "ollama") or gpu.vendor == "Apple"
    fmt = {"int4": "q4_k_m", "int8": "q8_0"}.get(ctx.req.precision or "", ctx.req.precision) if local else \
        (ctx.req.precision or "int4")
    fmt = fmt or ("q4_k_m" if local else "int4")
    rows = []
    for m in sorted((m for m in ctx.deps.catalog.models if m.family == ctx.req.family and not _SPECIALISED.search(m.id)),
                    key=lambda m: m.params_total):
        try:
            x = fits_on(m, gpu, n, fmt, context)
            sp = timed(ctx, m, gpu, num_gpus=n, precision=fmt, context=min(context, 1024), output=256, batch=1,
                       engine=_speed_engine(ctx, "llamacpp" if local else "hf")).decode_tokens_per_s_per_seq if x.fits else None
        except ValueError:
            continue
        rows.append([m.name, f"{m.params_total / 1e9:.1f}B" + (" (MoE)" if m.moe else ""), f"{x.per_gpu_gb:.1f}",
                     ctx.t("yes", "是") if x.fits else ctx.t("no", "否"), f"{sp:.0f}" if sp else "-"])
    if len(rows) < 2:
        return []
    return [ctx.t(f"**Each {ctx.req.model_text or ctx.req.family} model in {fmt} on {n}× {gpu.name}** "
                  f"(memory at {context:,} tokens; one stream's decode speed):",
                  f"**{ctx.req.model_text or ctx.req.family} 各型号用 {fmt} 在 {n} 张 {gpu.name} 上**（上下文 {context:,} 时的显存；"
                  "单路解码速度）："), "",
            md_table([ctx.t("model", "模型"), ctx.t("parameters", "参数量"), "GB", ctx.t("fits", "放得下"),
                      ctx.t("tokens/s", "token/s")], rows)]


USABLE_TOKENS_PER_S = 8.0  # one reader's pace in a chat: slower than ~8 tokens/s the wait is felt (an assumption)
_SPECIALISED = re.compile(r"coder|-vl-|distill|qwq|llama-2|baichuan|phi-3-|llama-3-\d")  # kept out of a general list


def _named_models_that_fit(ctx: Ctx, gpu, n: int, context: int, sizes: dict, fits) -> tuple[list[str], dict]:
    """Real models near the ceiling, each with its speed: 'the largest that runs is 5B' is a size nobody can download;
    the answer names the biggest general chat model of each family that fits in 4-bit and says which are usable."""
    if not gpu.memory_bandwidth_gbps:
        return [], {}
    local = ctx.req.engine in ("llamacpp", "ollama") or ctx.req.device_kind == "phone" or gpu.vendor == "Apple"
    fmt = "q4_k_m" if local else "int4"
    ceiling = max((v for v in sizes.values() if v), default=0)
    best: dict[str, object] = {}
    for m in sorted(ctx.deps.catalog.models, key=lambda m: -m.params_total):
        if m.params_total > ceiling * 1.05 or m.params_total < ceiling / 12 or _SPECIALISED.search(m.id) \
                or m.family in best or not fits(fmt if fmt != "q4_k_m" else "int4", m):
            continue
        best[m.family] = m
    picks = sorted(best.values(), key=lambda m: -m.params_total)[:5]
    if not picks:
        return [], {}
    rows, usable = [], None
    for m in picks:
        try:
            sp = timed(ctx, m, gpu, num_gpus=n, precision=fmt, context=min(context, 1024), output=256, batch=1,
                       engine=_speed_engine(ctx, "hf")).decode_tokens_per_s_per_seq
        except ValueError:
            continue
        ok = sp >= USABLE_TOKENS_PER_S
        usable = usable or (m if ok else None)
        rows.append([m.name, f"{m.params_total / 1e9:.1f}B", f"{sp:.0f}", ctx.t("yes" if ok else "slow", "能用" if ok else "偏慢")])
    if not rows:
        return [], {}
    head = (ctx.t(f"**Biggest usable: {usable.name}** ({usable.params_total / 1e9:.1f}B, {fmt}); real models that fit "
                  f"in {fmt}, with one stream's decode speed:",
                  f"**实际能用的最大：{usable.name}**（{usable.params_total / 1e9:.1f}B，{fmt}）；放得下的具体模型（{fmt}）"
                  "及单路解码速度：") if usable else
            ctx.t(f"Real models that fit in {fmt}, with one stream's decode speed (none reaches "
                  f"{USABLE_TOKENS_PER_S:g} tokens/s):", f"放得下的具体模型（{fmt}）及单路解码速度（都不到 "
                  f"{USABLE_TOKENS_PER_S:g} token/s）："))
    ctx.assume(f"usable = at least {USABLE_TOKENS_PER_S:g} tokens/s for one reader (an assumption: reading pace)",
               f"能用 = 单路至少 {USABLE_TOKENS_PER_S:g} token/s（假设：阅读速度）")
    table = md_table([ctx.t("model", "模型"), ctx.t("parameters", "参数量"), ctx.t("tokens/s", "token/s"),
                      ctx.t("usable?", "能用？")], rows)
    return [head, "", table], ({"biggest_usable_model": usable.id} if usable else {})


def _offloads(ctx: Ctx) -> bool:
    """Local inference with layers in system RAM: a RAM size stated, or offloading named with llama.cpp / Ollama (the
    'offload' of a training question is the optimizer's, not this)."""
    req = ctx.req
    split = bool(req.num_gpus and req.num_gpus > 1 and req.gpu and (req.engine in ("llamacpp", "ollama") or
                                                                     (req.engine is None and _gguf_job(ctx)))
                 and not (req.batch and req.batch > 1) and not (req.concurrent_users and req.concurrent_users > 1))
    return bool(req.ram_gb or split or (req.offload and req.gpu and (req.engine in ("llamacpp", "ollama")
                                                                     or req.method == "inference")))


def _unified(ctx: Ctx) -> bool:
    """An Apple machine: its GPU and CPU share one memory, so there is no system RAM to offload layers to (a RAM
    size stated beside it belongs to another machine in the message), said."""
    if not ctx.req.gpu or ctx.gpu().vendor != "Apple":
        return False
    ctx.ignore("ram_gb", "unified memory: the GPU and CPU share the Mac's memory, nothing to offload to",
               "统一内存：Mac 的 GPU 和 CPU 共用内存，没有可卸载的系统内存")
    return True


def inference_memory(ctx: Ctx) -> Answer:
    req, lang = ctx.req, ctx.lang
    if req.largest_model and not req.model:
        return _largest_runnable(ctx)
    if _offloads(ctx) and not _unified(ctx):
        return offload(ctx)
    model, gpu, n = ctx.job(DEFAULT_SERVING_GPU)
    context = _context(ctx)
    # several sequences held at once are served by an engine that batches them with chunked prefill (vLLM); one
    # user's local run allocates as it goes (HF, llama.cpp)
    engine = _engine(ctx, "vllm" if max(req.concurrent_users or 0, req.batch or 0) > 1 or req.gpu_memory_utilization
                     else "hf")  # ('gpu-memory-utilization 0.92' is vLLM's own flag)
    batch = req.batch or req.concurrent_users or 1  # (the users held at once, when the memory is asked beside them)
    if not req.batch and req.concurrent_users:
        ctx.used.add("concurrent_users")
    fixed = weight_format_for(ctx, model, gpu if req.gpu else None)
    ladder = [fixed] if fixed else precision_ladder(ctx, model, gpu)
    results = {p: _size(ctx, model, gpu, p, batch, engine, context) for p in ladder}
    best = next((p for p in ladder if results[p].fits and (not results[p].usable_gb or
                                                          results[p].per_gpu_gb <= FULL_SHARE * results[p].usable_gb)),
                None) or next((p for p in ladder if results[p].fits), None)
    # (a format that fills 99% of the card 'fits' on paper only: the most faithful one that leaves room leads)
    main_p = best or ladder[0]  # nothing fits: the published format leads, with the GPUs it needs
    if not req.gpu and not fixed:  # 'how much memory does 70B need': the published checkpoint first
        main_p = model.native_precision
        ctx.assume(f"{main_p} weights (the published checkpoint)", f"{main_p} 权重（官方发布的格式）")
    elif not fixed and model.native_precision != "bf16":
        ctx.notes.append(ctx.t(f"{model.name} is published in {model.native_precision}: sized in that format first",
                               f"{model.name} 官方以 {model.native_precision} 发布：先按该格式估算"))
    r = results[main_p]
    v = Verdict(fits=r.fits, gpu=gpu.id, num_gpus=n, min_gpus=r.min_gpus, method="inference", per_gpu_gb=r.per_gpu_gb)
    lines = []
    counts = {p: serving_count(ctx, model, gpu, x.min_gpus, note=False) for p, x in results.items()}
    if len(ladder) > 1 and any(counts[p] != x.min_gpus for p, x in results.items()):
        ctx.notes.append(ctx.t("GPU counts are those a serving engine deploys: tensor parallelism over 1, 2, 4 or 8 GPUs "
                               "(the heads split evenly), whole 8-GPU nodes beyond; memory alone would allow odd counts "
                               "split by layers (llama.cpp)",
                               "卡数按推理引擎实际的部署方式：张量并行 1、2、4 或 8 张（注意力头平均分），超过按整台 8 卡；只看显存"
                               "的话，按层切分（llama.cpp）可以用奇数张"))
    if len(ladder) > 1 and not req.gpu:
        top, low = results[ladder[0]], results[ladder[-1]]
        lines.append(ctx.t(f"**{model.name} needs about {top.weights_total_gb:,.0f} GB of weights in {ladder[0]}** "
                           f"({ladder[-1]}: {low.weights_total_gb:,.0f} GB) plus KV cache and workspace; on {gpu.name} "
                           f"cards that is at least {counts[ladder[0]]} GPU(s) in {ladder[0]}, {counts[ladder[-1]]} in "
                           f"{ladder[-1]}.",
                           f"**{model.name} {ladder[0]} 权重约 {top.weights_total_gb:,.0f} GB**（{ladder[-1]} 约 "
                           f"{low.weights_total_gb:,.0f} GB），另加 KV cache 和工作区；用 {gpu.name} 的话，{ladder[0]} 至少 "
                           f"{counts[ladder[0]]} 张，{ladder[-1]} 至少 {counts[ladder[-1]]} 张。"))
        rows = [[p, T(lang, "yes") if x.fits else T(lang, "no"), f"{x.per_gpu_gb:.1f}", str(counts[p] or "-")]
                for p, x in results.items()]
        lines += ["", md_table([ctx.t("precision", "精度"), T(lang, "fits_q"), "GB/GPU", T(lang, "min_gpus")], rows)]
    elif len(ladder) > 1:
        head = results[ladder[0]]
        if best and best != ladder[0] and "num_gpus" not in req.stated and counts[ladder[0]]:
            # 'how many H100s do we need?' with no format stated: the count in the published format leads; a smaller
            # format that fits fewer cards is the alternative, not a silent switch
            main_p, r = ladder[0], head
            try:  # (the verdict is for the count it names: each GPU's share on that many, not one card's whole need)
                spread = fits_on(model, gpu, counts[ladder[0]], ladder[0], context, batch).per_gpu_gb
            except ValueError:
                spread = head.per_gpu_gb
            v = Verdict(fits=True, gpu=gpu.id, num_gpus=counts[ladder[0]], min_gpus=counts[ladder[0]], method="inference",
                        per_gpu_gb=spread)
            work = sum(x for k, x in head.breakdown_gb.items() if k not in ("weights", "quant_constants", "kv_cache")) * n
            need = head.weights_total_gb + (head.kv_cache_total_gb or 0) + work
            lines.append(ctx.t(f"**{counts[ladder[0]]}× {gpu.name} in {ladder[0]}**: {model.name} with {batch} sequence(s) of "
                               f"{context:,} tokens needs {head.weights_total_gb:.1f} GB of weights + "
                               f"{head.kv_cache_total_gb or 0:.1f} GB of KV cache + {work:.1f} GB of workspace = "
                               f"{need:.1f} GB, more than {n} card(s) give it ({head.usable_gb:.1f} GB usable each); in "
                               f"{best} it fits on {n}.",
                               f"**{ladder[0]} 需要 {counts[ladder[0]]} 张 {gpu.name}**：{model.name} {batch} 路、每路 "
                               f"{context:,} token，权重 {head.weights_total_gb:.1f} GB + KV cache "
                               f"{head.kv_cache_total_gb or 0:.1f} GB + 工作区 {work:.1f} GB = {need:.1f} GB，超过 {n} 张卡"
                               f"（每张可用 {head.usable_gb:.1f} GB）；用 {best} 的话 {n} 张放得下。"))
        elif best:
            timed = bool(req.ttft_s or req.itl_ms or req.tokens_per_s_per_user)  # (a latency target: memory is not the verdict)
            lines.append(ctx.t((f"**Fits in {best}** (memory; your latency target is checked below)" if timed else
                                f"**Yes, in {best}**") + f": {model.name} fits on {n}× {gpu.name} at {context:,} tokens "
                               f"({r.per_gpu_gb:.1f} GB per GPU of {r.usable_gb:.1f} GB usable).",
                               (f"**{best} 放得下**（显存；延迟目标见下）" if timed else f"**可以，用 {best}**")
                               + f"：{model.name} 放得进 {n} 张 {gpu.name}（上下文 {context:,}，"
                               f"每卡 {r.per_gpu_gb:.1f} GB，可用 {r.usable_gb:.1f} GB）。"))
            lines += _total_line(ctx, r, n, best, batch, context)
        else:
            last = results[ladder[-1]]
            rest = [p for p in ladder[1:] if counts.get(p)]  # each lighter format's count ('8 in bf16, 4 in fp8, 2 in int4')
            lines.append(ctx.t(f"**No**: on {n}× {gpu.name}, {model.name} needs {r.per_gpu_gb:.1f} GB per GPU in {main_p}; "
                               f"at least **{counts[main_p] or '-'}** GPUs in {main_p}"
                               + "".join(f", {counts[p]} in {p}" for p in rest) + ".",
                               f"**放不下**：{n} 张 {gpu.name} 上，{model.name} {main_p} 每卡要 {r.per_gpu_gb:.1f} GB；"
                               f"{main_p} 至少需要 **{counts[main_p] or '-'}** 张"
                               + "".join(f"，{p} 至少 {counts[p]} 张" for p in rest) + "。"))
        rows = [[p, T(lang, "yes") if x.fits else T(lang, "no"), f"{x.per_gpu_gb:.1f}", str(counts[p] or "-")]
                for p, x in results.items()]
        lines += ["", md_table([ctx.t("precision", "精度"), T(lang, "fits_q"), "GB/GPU", T(lang, "min_gpus")], rows)]
    else:
        from tools.infer_memory import tp_ok

        least = serving_count(ctx, model, gpu, r.min_gpus) if not r.fits else r.min_gpus
        if least and not r.fits:
            v = v.model_copy(update={"min_gpus": least})  # (the count a comparison or a follow-up carries: deployable)
        lines.append(T(lang, "im_fits" if r.fits else "im_nofit", model=model.name, n=n, gpu=gpu.name, gb=r.per_gpu_gb,
                       min=least, ctx=context) if least or r.fits else
                     ctx.t(f"**{model.name} does not fit on {n} x {gpu.name}** at {context:,} tokens ({r.per_gpu_gb:.1f} GB).",
                           f"**{model.name} 在 {n} 张 {gpu.name} 上放不下**（上下文 {context:,}，需 {r.per_gpu_gb:.1f} GB）。"))
        if n > 1 and r.weights_total_gb:  # 'how much VRAM does it need … on 2x L40S': the whole model's need, not one GPU's
            total = r.per_gpu_gb * n
            lines.append(ctx.t(f"In total **{total:,.1f} GB** over the {n} GPUs: {r.weights_total_gb:,.1f} GB of weights in "
                               f"{r.precision}, {r.kv_cache_total_gb:,.2f} GB of KV cache, the rest each GPU's own runtime "
                               "(CUDA context, buffers, activations).",
                               f"{n} 张卡合计 **{total:,.1f} GB**：权重 {r.weights_total_gb:,.1f} GB（{r.precision}），KV cache "
                               f"{r.kv_cache_total_gb:,.2f} GB，其余是每张卡各自的运行开销（CUDA 上下文、缓冲区、激活值）。"))
        if not r.fits and least and least > n and "num_gpus" not in req.stated and gpu.vendor != "Apple":
            # '最少要几张 H20？': the fewest, and how much room they leave for the KV cache, said
            saved = ctx.req
            ctx.req = saved.model_copy(update={"num_gpus": least})
            try:
                at = _size(ctx, model, gpu, main_p, batch, engine, context)
            except ValueError:
                at = None
            finally:
                ctx.req = saved
            if at is not None and at.fits and at.usable_gb:
                share = 0.9 if at.engine in PREALLOCATING else 1.0
                room = max(at.usable_gb * share - (at.per_gpu_gb - at.kv_cache_gb), 0)
                seqs = at.max_batch  # (the sequences of this context the fewest GPUs hold, as the KV line below says)
                lines.append(ctx.t(f"On the fewest, {least}× {gpu.name}: {at.per_gpu_gb - at.kv_cache_gb:,.1f} GB per GPU before "
                                   f"the KV cache, ~{room:,.1f} GB per GPU left for it"
                                   + (f" (~{seqs:,} sequences of {context:,} tokens)" if seqs is not None else "")
                                   + ("; tight: the next standard size gives room for users." if at.per_gpu_gb /
                                      at.usable_gb > TIGHT_SHARE or (seqs is not None and seqs < 16) else "."),
                                   f"最少的 {least} 张 {gpu.name}：KV cache 之外每卡 {at.per_gpu_gb - at.kv_cache_gb:,.1f} GB，"
                                   f"每卡约剩 {room:,.1f} GB 给 KV"
                                   + (f"（约 {seqs:,} 路 {context:,} token）" if seqs is not None else "")
                                   + ("；很紧：并发要多，得上大一档。" if at.per_gpu_gb / at.usable_gb > TIGHT_SHARE or
                                      (seqs is not None and seqs < 16) else "。")))
        pool = r.breakdown_gb.get("kv_cache", 0.0)
        lines += _total_line(ctx, r, n, main_p, batch, context)
        if r.fits and r.engine in PREALLOCATING and pool > r.kv_cache_gb * 1.05:
            # vLLM takes 90% of each card and fills what the job leaves with KV blocks: the job's own need, said apart
            need = r.per_gpu_gb - pool + r.kv_cache_gb
            lines.append(ctx.t(
                f"The job itself needs about **{need:.1f} GB per GPU** ({need * n:,.0f} GB on the {n}): weights "
                f"{r.breakdown_gb.get('weights', 0):.1f} + KV cache {r.kv_cache_gb:.1f} for {batch} × {context:,} tokens + "
                f"{need - r.breakdown_gb.get('weights', 0) - r.kv_cache_gb:.1f} of workspace; {r.engine} reserves "
                f"{r.per_gpu_gb:.1f} and gives the rest ({pool - r.kv_cache_gb:.1f} GB) to more sequences.",
                f"这个任务本身每卡约需 **{need:.1f} GB**（{n} 张共 {need * n:,.0f} GB）：权重 {r.breakdown_gb.get('weights', 0):.1f}"
                f" + {batch} × {context:,} token 的 KV cache {r.kv_cache_gb:.1f} + 工作区 "
                f"{need - r.breakdown_gb.get('weights', 0) - r.kv_cache_gb:.1f}；{r.engine} 预留 {r.per_gpu_gb:.1f} GB，"
                f"多出的 {pool - r.kv_cache_gb:.1f} GB 给更多请求用。"))
        remedy = _standard_fix(ctx, model, gpu, n, main_p, context, batch, speeds=False) if (
            req.gpu and not r.fits and not req.gpu_memory_utilization and gpu.vendor != "Apple" and "num_gpus" in req.stated
            and not ctx.one_of_several) else None  # (the cards the user has, one question: alternatives compare as sized)
        if remedy:  # 'a 32B AWQ on one 24 GB card at 8k': a miss by a little under vLLM's defaults is a setting, not a card
            lines[-1] = remedy
            v = v.model_copy(update={"fits": True})
    share = r.per_gpu_gb / r.usable_gb if r.usable_gb else 0
    if v.fits and r.fits and req.gpu and share > TIGHT_SHARE and r.engine not in PREALLOCATING:
        # (vLLM takes its --gpu-memory-utilization share whatever the job: the pool against the need is the check)
        # 'fits' at 93-99% of a card: a longer prompt, a bigger batch or the framework's own overhead tips it over
        lines.append("")
        fp8_kv = req.kv_dtype in ("fp8", "int8")  # (already in 8 bits: not offered again)
        lines.append(ctx.t(f"**Tight**: {r.per_gpu_gb:.1f} of {r.usable_gb:.1f} GB usable per GPU ({share:.0%}); a longer "
                           "prompt, more sequences or a framework's extra buffers push it over: plan for headroom ("
                           + ("" if fp8_kv else "an FP8 KV cache, ") + "a shorter context, fewer sequences at once, or the "
                           "next size up).",
                           f"**很紧**：每卡 {r.per_gpu_gb:.1f} GB / 可用 {r.usable_gb:.1f} GB（{share:.0%}）；输入更长、并发更多或"
                           "框架自己的缓冲都会让它放不下：要留余量（" + ("" if fp8_kv else "FP8 KV cache、")
                           + "缩短上下文、降低并发，或者换大一档）。"))
    if req.gpu and not (r.fits if fixed else best) and not v.fits:
        lines += _ways_that_fit(ctx, model, gpu, n, context, main_p, r, batch)  # (not 128 Raspberry Pis)
    if req.gpu and req.family_flagship:
        lines += _family_fits(ctx, model, gpu, n, context)
    if not req.gpu:
        from assistant.context import smallest_cards

        line = smallest_cards(ctx, lambda g: (lambda x: (bool(x.fits), x.per_gpu_gb))(
            fits_on(model, g, 1, main_p, context, batch)))
        if line:
            lines += ["", line]
    lines += ["", _kv_line(ctx, model, r, batch, context)]
    also, also_figures = _memory_also(ctx, model, gpu, n, main_p, batch, engine, context, r)
    lines += also
    lines += ["", ctx.t(f"Breakdown per GPU ({main_p}):", f"每卡显存构成（{main_p}）："),
              md_table(["", "GB"], [[component_name(k, lang), f"{x:.2f}"] for k, x in r.breakdown_gb.items()])]
    cites = ctx.deps.search(f"KV cache {model.name} 推理 显存" if ctx.zh else f"KV cache inference memory {model.name}")
    figures: dict[str, Any] = {"per_gpu_gb": r.per_gpu_gb, "weights_gb": r.weights_total_gb, "kv_cache_gb": r.kv_cache_gb,
                               "kv_cache_bytes_per_token": r.kv_cache_bytes_per_token, "max_context": r.max_context,
                               "max_sequences_at_context": r.max_batch, "min_gpus": r.min_gpus, "precision": main_p}
    if len(ladder) > 1:
        figures |= {f"{p}_per_gpu_gb": x.per_gpu_gb for p, x in results.items()}
        figures["best_precision"] = best
    figures |= also_figures
    text = "\n".join(lines) + assumptions_md(lang, ctx.notes + r.assumptions) + sources_md(lang, cites)
    return Answer(answer=text, lang=lang, intent=req.intent, verdict=v, options=[v], figures=figures, citations=cites,
                  tool_calls=ctx.calls)


def _fewest_tp(ctx: Ctx, model, gpu, fmt: str, batch: int, engine: str, context: int) -> int | None:
    """The smallest power-of-two GPU count (1, 2, 4, 8) on which the weights fit with the KV cache for the batch."""
    from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory

    for k in (1, 2, 4, 8):
        if model.num_attention_heads % k:
            continue
        args = {"num_gpus": k, "context": context, "precision": fmt, "batch": batch, "engine": engine}
        try:
            x = estimate_inference_memory(InferenceMemoryRequest(model=model, gpu=gpu, **args))
        except ValueError:
            continue
        if x.fits and x.weights_total_gb / k < WEIGHTS_ROOM * x.usable_gb:
            return k
    return None


def _memory_also(ctx: Ctx, model, gpu, n: int, fmt: str, batch: int, engine: str, context: int, r) -> tuple[list[str], dict]:
    """What a deployment question asks beside the memory, computed rather than left for a second message: one
    request's KV cache at the context, the capacity with an FP8 KV cache (when the KV format is not stated), and the
    speed of one stream and of a full batch on this set-up (when it fits)."""
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed

    lines, figures = [], {}
    if gpu is not None and n > 1 and r.fits and re.search(r"几个实例|多少个?实例|几份|几个副本|" + w(
            r"how many (?:instances|replicas|copies)|instances|replicas"), ctx.question.lower()):
        # '一台 8 卡能跑几个实例？': the fewest GPUs that hold one copy (a tensor-parallel width) and how many fit in n
        per = _fewest_tp(ctx, model, gpu, fmt, batch, engine, context)
        if per:
            figures |= {"gpus_per_instance": per, "instances": n // per}
            lines.append(ctx.t(f"**Instances**: one copy needs {per} GPUs (the smallest tensor-parallel width that holds the "
                               f"{fmt} weights with room for the KV cache), so {n} GPUs run **{n // per}** of them.",
                               f"**实例数**：一个实例至少 {per} 张卡（放得下 {fmt} 权重并给 KV cache 留空间的最小张量并行宽度），"
                               f"{n} 张卡可以跑 **{n // per}** 个。"))
    kv = r.kv_cache_bytes_per_token
    if kv and context:
        one = kv * context / 1e9
        figures["kv_gb_per_request"] = round(one, 3)
        lines.append(ctx.t(f"One request at {context:,} tokens holds **{one:,.2f} GB** of KV cache ({kv / 1024:,.0f} KiB × {context:,}).",
                           f"单个 {context:,} token 的请求占 KV cache **{one:,.2f} GB**（{kv / 1024:,.0f} KiB × {context:,}）。"))
        from assistant.readers.slots import contexts_named

        others = [c for c in contexts_named(ctx.question.lower()) if c != context]
        for c in others:  # 'at 8k ctx and at 128k ctx': each context named, not only the one the plan is sized at
            gb = kv * c / 1e9
            figures[f"kv_gb_per_request_{c}"] = round(gb, 3)
            lines.append(ctx.t(f"At {c:,} tokens: **{gb:,.2f} GB** ({kv / 1024:,.0f} KiB × {c:,}).",
                               f"{c:,} token 时：**{gb:,.2f} GB**（{kv / 1024:,.0f} KiB × {c:,}）。"))
    if gpu is not None and not ctx.req.kv_dtype and r.fits and kv and not model.mla and gpu.vendor != "Huawei":
        # (Ascend runs no FP8 KV cache: MindIE's cache stays 16-bit or INT8; no vLLM flag to name there)
        try:
            from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory

            args = {"num_gpus": n, "context": context, "precision": fmt, "batch": batch, "engine": engine, "kv_dtype": "fp8"}
            if _prefill_tokens(ctx, context) != context:
                args["prompt_len"] = _prefill_tokens(ctx, context)
            r8 = ctx.call("size_infer", {"model": model.id, "gpu": gpu.id, **args},
                          estimate_inference_memory(InferenceMemoryRequest(model=model, gpu=gpu, **args)))
        except (ValueError, LookupError):
            r8 = None
        if r8 is not None and r8.max_context:
            figures |= {"fp8_kv_max_context": r8.max_context, "fp8_kv_max_batch": r8.max_batch}
            local = _speed_engine(ctx, "vllm") == "llamacpp" or str(fmt).startswith(("q", "iq"))
            how_en = "an 8-bit KV cache (llama.cpp `-ctk q8_0 -ctv q8_0`, about the same bytes)" if local else \
                "an FP8 KV cache (vLLM `--kv-cache-dtype fp8`)"
            how_zh = "8 位 KV cache（llama.cpp `-ctk q8_0 -ctv q8_0`，字节数相近）" if local else "FP8（vLLM `--kv-cache-dtype fp8`）"
            lines.append(ctx.t(f"With {how_en}: {r8.kv_cache_bytes_per_token / 1024:,.0f} KiB "
                               f"per token, the longest context **{r8.max_context:,} tokens**"
                               + (f", up to **{r8.max_batch}** sequences at {context:,}" if r8.max_batch else "")
                               + f" (BF16 KV: {r.max_context:,}" + (f", {r.max_batch}" if r.max_batch else "") + ").",
                               f"KV cache 用 {how_zh}：每 token {r8.kv_cache_bytes_per_token / 1024:,.0f} KiB，"
                               f"最长上下文 **{r8.max_context:,} token**"
                               + (f"，{context:,} 上下文下最多 **{r8.max_batch}** 条" if r8.max_batch else "")
                               + f"（BF16 KV：{r.max_context:,}" + (f"，{r.max_batch} 条" if r.max_batch else "") + "）。"))
    if gpu is not None and r.fits and fmt in ("bf16", "fp16") and (r.max_batch or 0) <= 4 and not model.mla:
        # 'does 32B fit in bf16 on one H100? how many 8k chats?': it fits with room for two or three; 8-bit weights (FP8
        # where the card computes it, INT8 weight-only elsewhere) are what a practitioner reaches for, so their room is said
        from tools.formats import supported_on

        eight = "fp8" if supported_on("fp8", gpu)[0] else "int8"
        try:
            from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory

            args = {"num_gpus": n, "context": context, "precision": eight, "batch": batch, "engine": engine}
            if _prefill_tokens(ctx, context) != context:
                args["prompt_len"] = _prefill_tokens(ctx, context)
            rw = ctx.call("size_infer", {"model": model.id, "gpu": gpu.id, **args},
                          estimate_inference_memory(InferenceMemoryRequest(model=model, gpu=gpu, **args)))
        except (ValueError, LookupError):
            rw = None
        if rw is not None and rw.max_batch and rw.max_batch > (r.max_batch or 0):
            figures |= {f"{eight}_weights_max_batch": rw.max_batch}
            lines.append(ctx.t(f"**Tight in {fmt.upper()}**: {r.max_batch or 0} sequence(s) of {context:,} tokens at once. With "
                               f"{eight.upper()} weights (half the bytes; {'near-BF16 quality on this card' if eight == 'fp8' else 'weight-only, near-BF16 quality'}) "
                               f"the same card holds **{rw.max_batch}** at {context:,}, and decodes faster (half the bytes read per token); "
                               "a second GPU (tensor parallel) is the other way.",
                               f"**{fmt.upper()} 很紧**：{context:,} token 时只能同时 {r.max_batch or 0} 路。换成 {eight.upper()} 权重（字节减半，"
                               f"{'质量接近 BF16' if eight == 'fp8' else '仅权重量化，质量接近 BF16'}），同一张卡在 {context:,} 上下文下能同时 "
                               f"**{rw.max_batch}** 路，解码也更快（每 token 读的字节减半）；另一条路是加一张卡做张量并行。"))
    if gpu is not None and r.fits and (gpu.bf16_dense_tflops or gpu.fp16_dense_tflops):
        try:
            speed_engine = _speed_engine(ctx, "vllm")
            args = {"num_gpus": n, "context": min(context, 2048), "output": 256, "batch": 1, "precision": fmt,
                    "engine": "vllm" if speed_engine == "hf" else speed_engine}
            one = ctx.call("time_infer", {"model": model.id, "gpu": gpu.id, **args},
                           estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, **args)))
            figures |= {"decode_tokens_per_s_per_seq": round(one.decode_tokens_per_s_per_seq, 2), "ttft_s": round(one.ttft_s, 4)}
            label = "llama.cpp" if args["engine"] == "llamacpp" else "SGLang" if args["engine"] == "sglang" else "vLLM"
            text = ctx.t(f"Speed (estimate, {label}): one stream **{one.decode_tokens_per_s_per_seq:,.1f} tokens/s**, first token "
                         f"{one.ttft_s * 1000:,.0f} ms at a {args['context']:,}-token prompt",
                         f"速度（估算，{label}）：单路 **{one.decode_tokens_per_s_per_seq:,.1f} token/秒**，{args['context']:,} token "
                         f"输入时首 token {one.ttft_s * 1000:,.0f} ms")
            many = min(one.max_batch_that_fits or 1, BATCHED_SEQS)
            if many > 1:
                full = ctx.call("time_infer", {"model": model.id, "gpu": gpu.id, **args, "batch": many},
                                estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, **(args | {"batch": many}))))
                figures |= {"batched_tokens_per_s_total": round(full.decode_tokens_per_s_total, 1), "batched_sequences": many}
                text += ctx.t(f"; {many} sequences at once: {full.decode_tokens_per_s_total:,.0f} tokens/s in total",
                              f"；同时 {many} 条：合计 {full.decode_tokens_per_s_total:,.0f} token/秒")
            lines.append(text + ctx.t(".", "。"))
            if context >= 32768:  # ('128k 上下文能开吗？'): holding it is one thing; reading a whole one in is another
                try:
                    long_args = args | {"context": context, "output": 256, "batch": 1}
                    full = ctx.call("time_infer", {"model": model.id, "gpu": gpu.id, **long_args},
                                    estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, **long_args)))
                    figures["ttft_s_full_context"] = round(full.ttft_s, 2)
                    lines.append(ctx.t(
                        f"**A full {context:,}-token prompt takes ~{full.ttft_s:,.0f} s to read in** on {n}× {gpu.name} "
                        "(prefill is compute-bound and attention grows with the length) before the first token, and "
                        "decoding slows as each step reads that long a KV cache; prefix caching helps only where the long "
                        "part repeats.",
                        f"**一个满 {context:,} token 的输入要约 {full.ttft_s:,.0f} 秒才能读完**（{n} 张 {gpu.name}；预填充受算力限制，"
                        "注意力随长度增长），之后才出第一个 token；解码时每步都要读这么长的 KV cache，也会变慢；只有长的部分重复时前缀缓存才有用。"))
                except (ValueError, LookupError):
                    pass
            target = ctx.req.ttft_s
            if target and one.ttft_s > target:
                # '首token延迟1秒以内': the stated target against one stream's own first token, before any queueing
                ctx.used.add("ttft_s")
                figures["ttft_target_missed"] = 1
                lines.append(ctx.t(
                    f"**Your first-token target ({target:g} s) is missed by one request alone**: {one.ttft_s:,.2f} s to read a "
                    f"{args['context']:,}-token prompt on {n}× {gpu.name}, before any queueing. Prefill is compute-bound: "
                    "shorter prompts, FP8 (where the card computes it), prefix caching of a shared system prompt, or "
                    "tensor parallelism over more cards bring it down; how long your prompts are decides which.",
                    f"**你要求的首 token {target:g} 秒，单个请求就达不到**：{n} 张 {gpu.name} 读一个 {args['context']:,} token 的输入要 "
                    f"{one.ttft_s:,.2f} 秒，还没算排队。预填充受算力限制：缩短输入、用 FP8（卡支持时）、共享的系统提示做前缀缓存，"
                    "或多卡张量并行，都能降下来；选哪个取决于你的输入有多长。"))
        except (ValueError, LookupError):
            pass
    return [x for ln in lines for x in ("", ln)], figures


def tp_width(n: int) -> int:
    """The tensor-parallel width that holds `n` GPUs' worth: the next power of two (3 -> 4, 5 -> 8): engines split
    attention heads over 1, 2, 4, 8 or 16 GPUs."""
    return 1 << (n - 1).bit_length()


def _standard_settings(model, gpu, n: int, fmt: str, context: int, batch: int) -> tuple | None:
    """(gpu_memory_utilization, kv_dtype, flags, longest context) of the first standard setting that makes a set-up fit
    which misses under vLLM's defaults (90% of memory, a 16-bit KV cache): vLLM at --gpu-memory-utilization 0.95, then
    the KV cache in FP8 as well. None when neither fits (then the job needs more GPUs or a smaller format)."""
    if batch > 8:
        return None
    tries = [(0.95, None, "--gpu-memory-utilization 0.95"),
             (0.95, "fp8", "--gpu-memory-utilization 0.95 --kv-cache-dtype fp8")]
    for util, kv, flags in tries:
        if kv == "fp8" and not (gpu.fp8_dense_tflops or gpu.vendor == "NVIDIA"):
            continue
        try:
            r = fits_on(model, gpu, n, fmt, context, batch, engine="vllm", gpu_memory_utilization=util, kv_dtype=kv)
        except ValueError:
            continue
        if r.fits:
            return util, kv, flags, r.max_context
    return None


def _standard_fix(ctx: Ctx, model, gpu, n: int, fmt: str, context: int, batch: int, speeds: bool = True,
                  found: tuple | None = None) -> str | None:
    """The line that says a set-up fits with a standard setting (_standard_settings, or `found` already searched), with
    the longest context it leaves; None when no standard setting makes it fit."""
    found = found or _standard_settings(model, gpu, n, fmt, context, batch)
    if found is None:
        return None
    _, _, flags, max_context = found
    longest = f"{max_context:,}" if max_context else "?"
    return ctx.t(f"**Fits with a standard setting**: at vLLM's default 90% of memory it misses by a little; with "
                 f"`{flags}` it fits, up to {longest} tokens of context for one sequence (ExLlamaV2 or llama.cpp, "
                 "which keep no such reserve, fit too)." + (" The speeds above hold." if speeds else ""),
                 f"**改一个常用设置就放得下**：按 vLLM 默认只用 90% 显存时差一点；加上 `{flags}` 就放得下，单条最长约 "
                 f"{longest} token 上下文（ExLlamaV2 或 llama.cpp 不留这份余量，也放得下）。" + ("上面的速度成立。" if speeds else ""))


def fits_on(model, gpu, n: int, fmt: str, context: int, batch: int = 1, **settings):
    """The memory answer for a set-up, prefilled in the chunks serving engines use; `settings` are further
    InferenceMemoryRequest fields (engine, gpu_memory_utilization, kv_dtype)."""
    from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory

    return estimate_inference_memory(InferenceMemoryRequest(model=model, gpu=gpu, num_gpus=n, precision=fmt,
                                                            context=context, batch=batch,
                                                            prompt_len=prefill_at_once(None, context), **settings))


def _ways_that_fit(ctx: Ctx, model, gpu, n: int, context: int, fmt: str, r, batch: int) -> list[str]:
    """A 'does not fit' answer names what does: whole servers of this card in this format, the same GPUs in a
    smaller format, and the card with the least memory that holds it on the same count (same vendor first)."""
    ways = []
    if ctx.req.kv_dtype not in ("fp8", "int8") and not model.mla and gpu.vendor != "Huawei":
        # the same cards, the cache in 8 bits / a shorter context (not on Ascend: no FP8 KV cache there)
        try:
            q8 = fits_on(model, gpu, n, fmt, context, batch, kv_dtype="fp8")
        except ValueError:
            q8 = None
        if q8 is not None and q8.fits:
            ways.append(ctx.t(f"the same {n}× {gpu.name} with an 8-bit KV cache (vLLM `--kv-cache-dtype fp8`, llama.cpp "
                              f"`-ctk q8_0 -ctv q8_0`), {q8.per_gpu_gb:.1f} GB per GPU",
                              f"同样 {n} 张 {gpu.name}，KV cache 用 8 位（vLLM `--kv-cache-dtype fp8`，llama.cpp `-ctk q8_0 "
                              f"-ctv q8_0`），每卡 {q8.per_gpu_gb:.1f} GB"))
        elif r.max_context and r.max_context >= 1024 and batch == 1:
            ways.append(ctx.t(f"the same {n}× {gpu.name} at up to {r.max_context:,} tokens of context",
                              f"同样 {n} 张 {gpu.name}，上下文不超过 {r.max_context:,} token"))
    total = 0
    if r.min_gpus and gpu.vendor != "Apple":
        total = r.min_gpus if r.min_gpus <= 8 else math.ceil(r.min_gpus / 8) * 8
        if total <= 8:
            total = tp_width(total)
    if total and not (desk_card(gpu) and total > 8):  # (more than 8 desk cards is not a machine anyone builds)
        servers = ctx.t(f" ({total // 8} servers of 8)", f"（{total // 8} 台 8 卡服务器）") if total > 8 else ""
        ways.append(ctx.t(f"{total}× {gpu.name} in {fmt}{servers}", f"{total} 张 {gpu.name}，{fmt}{servers}"))
    from tools.formats import FORMATS

    native = runnable_format(model.native_precision, gpu)
    if native in FORMATS and FORMATS[native].bits < FORMATS[fmt].bits - 1 and gpu.vendor != "Apple":
        # 'DeepSeek-V3 in fp16 on H100s': it was published in FP8; its own checkpoint needs far fewer cards
        x = fits_on(model, gpu, n, native, context, batch)
        k = n if x.fits else (x.min_gpus if x.min_gpus and x.min_gpus <= 8 else
                              math.ceil((x.min_gpus or 0) / 8) * 8 if x.min_gpus else 0)
        if k and k <= 8:
            k = tp_width(k)
        if k:
            ways.append(ctx.t(f"{k}× {gpu.name} in {native}, the format {model.name} was published in (no quality lost "
                              f"against the original)", f"{k} 张 {gpu.name}，用官方发布的 {native}（相对原版不损失精度）"))

    gguf = fmt.startswith(("q", "iq")) or gpu.vendor == "Apple"
    for small in ("fp8", "int8", "awq", "q4_k_m") + (("q3_k_m", "iq3_xxs", "q2_k") if gguf else ()):
        if FORMATS[small].bits >= FORMATS[fmt].bits - (1 if not gguf else 0.1):
            continue
        if gpu.vendor == "Apple" and small in ("fp8", "int8", "awq"):
            continue
        if runnable_format(small, gpu) != small:
            continue  # (FP8 on Ascend: its 8-bit route, INT8, comes next)
        x = fits_on(model, gpu, n, small, context, batch)
        if x.fits:
            what = ctx.t(" (quantized: not the full model)", "（量化版，不是满血）") if ctx.req.full_model else ""
            native, why = supported_on(small, gpu)
            if not native:  # 'FP8 on an A100': the bytes of FP8, the compute of 16-bit
                what += ctx.t(f" — weight-only: {why}, so the weights are stored in 8 bits and computed in 16 (vLLM's "
                              "Marlin W8A16 kernels): the memory of FP8, not its compute speed-up",
                              f"——只能 weight-only：{gpu.name} 没有 FP8 张量核心，权重按 8 位存、按 16 位算（vLLM 的 Marlin "
                              "W8A16 内核）：省的是显存，算力不会提升")
            room = ""
            if x.max_context:  # ('… do i need to quantize? and how much context do i have left?'): the room it leaves
                room = ctx.t(f"; the longest context it leaves at batch 1: {x.max_context:,} tokens"
                             + (f" (the model's own limit is {model.max_context:,}: that, with room for "
                                f"~{max(1, x.max_context // model.max_context)} such sequences at once)"
                                if x.max_context > model.max_context else ""),
                             f"；它留下的最长上下文（batch 1）：{x.max_context:,} token"
                             + (f"（模型自身上限 {model.max_context:,}：能开满，同时约 {max(1, x.max_context // model.max_context)} "
                                "条这么长的序列）" if x.max_context > model.max_context else ""))
            ways.append(ctx.t(f"the same {n}× {gpu.name} in {small}{what}, {x.per_gpu_gb:.1f} GB per GPU{room}",
                              f"同样 {n} 张 {gpu.name} 用 {small}{what}，每卡 {x.per_gpu_gb:.1f} GB{room}"))
            break
    else:
        four = "q4_k_m" if gguf else "awq"
        if gpu.vendor != "Apple" and FORMATS[four].bits < FORMATS[fmt].bits - 1 and runnable_format(four, gpu) == four and (
                supported_on(four, gpu)[0]):
            # '70B in fp16 on one 24 GB card': none of the same count holds it; the fewest such cards in 4-bit (a box)
            for k in (2, 4, 8):
                if k <= n:
                    continue
                x = fits_on(model, gpu, k, four, context, batch)
                if x.fits and (not total or k < total):
                    ways.append(ctx.t(f"{k}× {gpu.name} in {four} (4-bit), {x.per_gpu_gb:.1f} GB per GPU",
                                      f"{k} 张 {gpu.name} 用 {four}（4 位），每卡 {x.per_gpu_gb:.1f} GB"))
                    break
    box = _cheapest_box(ctx, model, gpu, n, fmt, context, batch) if gpu.vendor != "Apple" else None
    if box:
        ways.append(box)
    if desk_card(gpu) and gpu.vendor != "Apple" and batch <= 4 and (not total or total > 8 or n == 1):
        # ('DeepSeek-V3 on two 4090s', 'Llama 3 70B on a 4090?'): more than the desk cards hold; what such users run is
        # a hybrid (layers in system RAM)
        hybrid = _hybrid_offload(ctx, model, gpu, n, context)
        if hybrid:
            ways.append(hybrid)
    if desk_card(gpu) and gpu.vendor != "Apple" and n == 1 and batch <= 4:
        smaller = _smaller_model_on(ctx, model, gpu, context)
        if smaller:
            ways.append(smaller)
    if not ways:
        return []
    return ["", ctx.t("**What does fit**: ", "**放得下的方案**：") + ("; " if not ctx.zh else "；").join(ways)
            + ("." if not ctx.zh else "。")]


SMALLER_ON_ONE_CARD = ("qwen2.5-32b", "qwen3-14b", "llama-3.1-8b")  # strong open models a desk card runs in 4-bit


def _smaller_model_on(ctx: Ctx, model, gpu, context: int) -> str | None:
    """A model too big for one desk card: the largest of a few strong smaller open models that fits it whole in
    Q4_K_M (what people run instead), with its one-stream speed bound (memory bandwidth over the weight bytes)."""
    from tools.params import count_parameters

    big = count_parameters(model).total
    for mid in SMALLER_ON_ONE_CARD:
        try:
            other = ctx.deps.catalog.model(mid)[0]
        except LookupError:
            continue
        if count_parameters(other).total >= 0.8 * big:
            continue
        x = fits_on(other, gpu, 1, "q4_k_m", min(context, 8192), 1)
        if x.fits:
            tps = 0.8 * (gpu.memory_bandwidth_gbps or 0) / max(x.weights_total_gb, 0.1)
            return ctx.t(f"a smaller model whole on the card: {other.name} in Q4_K_M ({x.per_gpu_gb:.1f} GB, up to "
                         f"~{tps:,.0f} tokens/s for one user)",
                         f"换小一点的模型整个放进这张卡：{other.name} Q4_K_M（{x.per_gpu_gb:.1f} GB，单人最快约 {tps:,.0f} token/秒）")
    return None


def _cheapest_box(ctx: Ctx, model, gpu, n: int, fmt: str, context: int, batch: int) -> str | None:
    """The machine a buyer would actually get for a model its cards cannot hold: 1, 2, 4 or 8 of one rack card (no
    superchip racks, no card smaller than the one named) that hold it with room for more than one short request,
    the cheapest by the price table's rental rate over the cards (a card without a rate comes after those with)."""
    options = []
    for g in ctx.deps.catalog.gpus:
        if g.vendor in ("Apple", "custom") or g.id.startswith("gb") or not vendor_ok(ctx.req, g) or \
                g.memory_gb <= gpu.memory_gb or (fmt == "fp8" and not g.fp8_dense_tflops) or (
                    desk_card(g) and not desk_card(gpu)) or runnable_format(fmt, g) != fmt:
            continue
        for k in (1, 2, 4, 8):
            if k < n and k * g.memory_gb < n * gpu.memory_gb:
                continue
            try:
                x = fits_on(model, g, k, fmt, context, batch)
            except ValueError:
                break
            if x.fits and x.per_gpu_gb <= 0.9 * x.usable_gb:  # room for more than one short request
                rate = typical_rate(ctx, g.id, "USD")
                options.append((g.vendor != gpu.vendor and gpu.vendor != "custom", rate is None, k * (rate or 0), k,
                                g.memory_gb, g, x))
                break
    if not options:
        return None
    _, _, cost, k, _, g, x = min(options, key=lambda o: o[:5])
    why = ctx.t(" (the cheapest such set-up to rent in the price table)", "（价格表里租用最便宜的这类配置）") if cost else ""
    return ctx.t(f"{k}× {g.name} in {fmt}, {x.per_gpu_gb:.1f} GB per GPU{why}",
                 f"{k} 张 {g.name}，{fmt}，每卡 {x.per_gpu_gb:.1f} GB{why}")


def _hybrid_offload(ctx: Ctx, model, gpu, n: int, context: int) -> str | None:
    """For a desk machine a model is far too big for: llama.cpp / KTransformers keeping attention (and, for an MoE,
    the shared parts) on the cards and the rest in system RAM, with the RAM it needs and its single-user speed."""
    from tools.offload import DEFAULT_RAM_BANDWIDTH_GBPS, OffloadRequest, plan_offload

    fmt = "q4_k_m"
    args = {"precision": fmt, "context": min(context, 8192), "num_gpus": min(n, 16)}
    try:
        p = ctx.call("plan_offload", {"model": model.id, "gpu": gpu.id, **args},
                     plan_offload(OffloadRequest(model=model, gpu=gpu, **args)))
    except ValueError:
        return None
    if not p.fits_gpu:
        return None
    moe = ctx.t("the routed experts", "路由专家") if p.mode == "experts" else ctx.t("the layers that do not fit",
                                                                                  "放不下的层")
    quoted = ""
    if ctx.req.throughput_tokens_per_s and not ctx.req.measured_concurrency:
        # 'someone runs full R1 on 4 4090s at 10 tokens/s': not on the cards alone; a hybrid like this, for one user
        q = ctx.req.throughput_tokens_per_s
        ctx.used.add("throughput_tokens_per_s")
        ceiling = p.decode_tokens_per_s * 6  # (a 12-channel server memory against the dual-channel desk default)
        if q > ceiling:  # '405B in BF16 on one 5090 at 50 tok/s': beyond even the hybrid on a server's memory
            quoted = ctx.t(f". The quoted {q:g} tokens/s is beyond this too (~{p.decode_tokens_per_s:,.1f} here, under "
                           f"~{ceiling:,.0f} even on a 12-channel server): no software compresses the weights that far "
                           "without changing the model; it is likely a much smaller or distilled model, a quantized one "
                           "far below BF16, or a batched total; ask the vendor to show the model file and a "
                           "single-stream run",
                           f"。引用的 {q:g} token/秒连这个也达不到（这里约 {p.decode_tokens_per_s:,.1f}，即使 12 通道服务器内存也不到 "
                           f"{ceiling:,.0f}）：没有软件能把权重“压缩”到这个程度而不改模型；多半是小得多的或蒸馏的模型、远低于 BF16 "
                           "的量化版，或者是多路合计；请厂商拿出模型文件和单路实测")
        else:
            quoted = ctx.t(f". The quoted {q:g} tokens/s cannot come from the GPUs alone (the weights do not fit them): it fits "
                         f"a hybrid like this one for a single user (more with a many-channel server CPU), or a distilled or "
                         "smaller model sold under the big one's name; it does not carry concurrent users",
                         f"。引用的 {q:g} token/秒不可能只靠这几张卡（权重放不下）：它对得上这种内存混合方案的单用户速度（服务器多通道"
                         "内存会更快），或者其实是蒸馏版/小模型冒用了大模型的名字；都带不了多人并发")
    return ctx.t(f"for one user at a time, the same {n}× {gpu.name} with {moe} in system RAM (llama.cpp / KTransformers, "
                 f"{fmt}): about {p.ram_gb:,.0f} GB of RAM and ~{p.decode_tokens_per_s:,.1f} tokens/s on dual-channel DDR5 "
                 f"({DEFAULT_RAM_BANDWIDTH_GBPS:g} GB/s; a server's 8-12 memory channels go several times faster){quoted}",
                 f"单用户用的话，同样 {n} 张 {gpu.name}，{moe}放在内存里（llama.cpp / KTransformers，{fmt}）：约需 "
                 f"{p.ram_gb:,.0f} GB 内存，双通道 DDR5（{DEFAULT_RAM_BANDWIDTH_GBPS:g} GB/s）约 {p.decode_tokens_per_s:,.1f} "
                 f"token/秒（服务器 8-12 通道内存会快几倍）{quoted}")


def _mac_does_not_hold(ctx: Ctx, model, gpu, context: int) -> list[str] | None:
    """A model no format of which loads on this Mac: its 4-bit (Q4_K_M) need against what macOS gives the GPU, the
    smallest Mac memory that holds it, and the family's models this Mac does hold. None when 4-bit fits (then the
    format ladder answers)."""
    try:
        q4 = fits_on(model, gpu, 1, "q4_k_m", context)
    except ValueError:
        return None
    if q4.fits:
        return None
    holds = sorted((g for g in ctx.deps.catalog.gpus if g.vendor == "Apple" and g.memory_gb > gpu.memory_gb),
                   key=lambda g: g.memory_gb)
    bigger = next((g for g in holds if fits_on(model, g, 1, "q4_k_m", context).fits), None)
    head = ctx.t(f"**Does not fit this Mac in any usable format**: even 4-bit (Q4_K_M) {model.name} needs "
                 f"{q4.per_gpu_gb:,.1f} GB, and macOS gives the GPU {q4.usable_gb:,.1f} GB of the {gpu.memory_gb:g} GB"
                 + (f"; a Mac with {bigger.memory_gb:g} GB of unified memory or more holds it" if bigger else "")
                 + ".",
                 f"**这台 Mac 用什么可用格式都放不下**：{model.name} 就算 4 位（Q4_K_M）也要 {q4.per_gpu_gb:,.1f} GB，macOS 只给 GPU "
                 f"{gpu.memory_gb:g} GB 里的 {q4.usable_gb:,.1f} GB" + (f"；统一内存 {bigger.memory_gb:g} GB 及以上的 Mac 才放得下"
                                                                       if bigger else "")
                 + "。")
    return [head] + _mac_low_bit(ctx, model, gpu, context) + [x for x in _family_fits(ctx, model, gpu, 1, context) if x]


def _mac_low_bit(ctx: Ctx, model, gpu, context: int) -> list[str]:
    """'Can a 192 GB Mac run 405B? which quant, how fast?': the 3- and 2-bit GGUF files against what macOS gives the GPU
    by default and with the wired limit raised (16 GB left to macOS), and the batch-1 decode ceiling of the one that
    loads (bandwidth-bound: 80% of the memory bandwidth over the bytes read per token)."""
    raised = gpu.model_copy(update={"usable_share": max(0.0, (gpu.memory_gb - 16) / gpu.memory_gb)})
    rows = []
    for fmt in ("q3_k_m", "q2_k", "iq2_xxs"):
        try:
            x, y = fits_on(model, gpu, 1, fmt, context), fits_on(model, raised, 1, fmt, context)
        except ValueError:
            continue
        if x.fits or y.fits:
            rows.append((fmt, x, y))
    if not rows:
        return []
    bw = gpu.memory_bandwidth_gbps or 0
    mb = int((gpu.memory_gb - 16) * 1024)
    parts_en, parts_zh = [], []
    for fmt, x, y in rows:
        tps = 0.8 * bw / x.per_gpu_gb if x.per_gpu_gb else 0
        where_en = "loads as is" if x.fits else "loads once the GPU limit is raised"
        where_zh = "默认就能装下" if x.fits else "调高 GPU 上限后能装下"
        parts_en.append(f"{fmt.upper()} {x.per_gpu_gb:,.0f} GB: {where_en}, ~{tps:,.1f} tokens/s at most")
        parts_zh.append(f"{fmt.upper()} {x.per_gpu_gb:,.0f} GB：{where_zh}，最多约 {tps:,.1f} token/秒")
    raise_en = (f" (raise it with `sudo sysctl iogpu.wired_limit_mb={mb}`, leaving 16 GB to macOS)"
                if any(not x.fits for _, x, _ in rows) else "")
    raise_zh = (f"（调高：`sudo sysctl iogpu.wired_limit_mb={mb}`，给 macOS 留 16 GB）" if any(not x.fits for _, x, _ in rows) else "")
    return ["", ctx.t(
        "**What does load: 3- and 2-bit files**, with a clear quality loss against 4-bit: " + "; ".join(parts_en) + raise_en
        + f". Decode is bandwidth-bound (0.8 × {bw:g} GB/s over the file, one user), and a long prompt takes minutes to "
        "read in (the Mac's prefill is slow).",
        "**能装下的是 3 位、2 位量化**，质量比 4 位明显下降：" + "；".join(parts_zh) + raise_zh
        + f"。解码受带宽限制（0.8 × {bw:g} GB/s ÷ 文件大小，单用户），长提示要读好几分钟（Mac 的预填充慢）。")]


def _family_fits(ctx: Ctx, model, gpu, n: int, context: int) -> list[str]:
    """A family named alone is sized as its flagship; the family's other models on record that fit the card are listed
    (the largest in each of 16-bit, 8-bit and 4-bit), since a small card rarely means the flagship."""
    stem = model.id.split("-")[0].rstrip("0123456789.")
    members = [m for m in ctx.deps.catalog.models if m.id.startswith(stem) and m.id != model.id]
    apple = gpu.vendor == "Apple"
    parts = []
    for fmt in (("bf16", "q8_0", "q4_k_m") if apple else ("bf16", "int8", "awq")):
        fit = [(m, x) for m in members for x in [fits_on(m, gpu, n, fmt, context)] if x.fits]
        if fit:
            m, x = max(fit, key=lambda mx: (round(mx[0].params_total / 1e9),  # the largest, a general model first
                                            not re.search(r"coder|vl|distill|math", mx[0].id), mx[0].params_total))
            parts.append(f"{fmt}: {m.name} ({x.per_gpu_gb:.1f} GB)")
    typed = ctx.req.model_text or ""
    family = typed if (typed and not typed.isascii()) else re.split(r"[-\s]", model.name)[0].rstrip("0123456789.")
    if not parts:
        return ["", ctx.t(f"No other {family} model on record fits {n}× {gpu.name} either.",
                          f"{family} 系列里也没有别的型号放得进 {n} 张 {gpu.name}。")]
    distilled = any("distill" in p.lower() for p in parts) and model.params_total > 1e11
    caveat = ctx.t(f" The distills are smaller Qwen / Llama models trained on {model.name}'s outputs: far weaker than the "
                   "full model on hard reasoning, maths and long answers; try one on your own tasks before choosing it.",
                   f" 蒸馏版是用 {model.name} 的输出训练的小模型（Qwen / Llama 底座）：在难推理、数学和长回答上明显不如满血版；"
                   "先拿你们自己的任务试一试再定。") if distilled else ""
    return ["", ctx.t(f"**The {family} models that do fit {n}× {gpu.name}** (largest on record per format): ",
                      f"**{family} 系列里放得进 {n} 张 {gpu.name} 的型号**（每种格式里最大的）：") + "; ".join(parts) + "." + caveat]


def _users_from_rate(ctx: Ctx, model, gpu, context: int) -> int:
    """Concurrent sequences implied by requests per second (Little's law: L = λ·W, W from the speed tool)."""
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed

    req = ctx.req
    prompt = req.prompt_len or max(1, context - (req.output_len or 256))
    out = req.output_len or 256
    users, first, settled = 1, None, False
    for _ in range(8):
        s = ctx.call("time_infer", {"model": model.id, "gpu": gpu.id, "batch": users, "context": prompt, "output": out},
                     estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, num_gpus=req.num_gpus or 1,
                                                                    precision=_served_format(ctx, model, gpu, say=False),
                                                                    context=prompt,
                                                                    output=out, batch=users)))
        new = max(1, math.ceil(req.requests_per_s * (s.ttft_s + out / max(s.decode_tokens_per_s_per_seq, 1e-9))))
        first = first or new
        if abs(new - users) <= max(1, users // 50):
            settled, users = True, new
            break
        users = min(new, 100_000)
    if not settled:  # the latency grows faster than the load it holds: these GPUs cannot sustain the rate
        users = first
        ctx.notes.append(ctx.t(
            f"{req.requests_per_s:g} requests/s: more than {req.num_gpus or 1} GPU(s) sustain (requests in flight grow "
            f"without bound); memory sized for the {users} in flight at an unloaded latency (Little's law), the plan below "
            "spreads the rate", f"{req.requests_per_s:g} 请求/秒 超过 {req.num_gpus or 1} 张卡能承受的速率（在途请求无限增长）；"
            f"显存按空载延迟下的 {users} 个在途请求估算（Little 定律），下面的方案分摊这个速率"))
        return users
    ctx.notes.append(ctx.t(f"{req.requests_per_s:g} requests/s x {out} output tokens each ≈ {users} requests in flight "
                           "(Little's law with the estimated latency)",
                           f"{req.requests_per_s:g} 请求/秒 × 每个输出 {out} token ≈ 同时处理 {users} 个请求（Little 定律，按估算延迟）"))
    return users


def _total_line(ctx: Ctx, r, n: int, fmt: str, batch: int, context: int) -> list[str]:
    """'满血 R1 要多少显存？一台 8 卡够不够': the memory in all over several GPUs, when the question asks how much (the
    per-GPU fit is the headline; a preallocating engine's need is said by its own line)."""
    pool = r.breakdown_gb.get("kv_cache", 0.0)
    if not r.fits or n <= 1 or (r.engine in PREALLOCATING and pool > r.kv_cache_gb * 1.05) or \
            not re.search(MEMORY_ASK + r"|多少显存|要多少|how much", ctx.question.lower()):
        return []
    return [ctx.t(f"In all, about **{r.per_gpu_gb * n:,.0f} GB** over the {n} GPUs: {r.weights_total_gb:,.0f} GB of {fmt} "
                  f"weights + {r.kv_cache_total_gb:,.1f} GB of KV cache for {batch} × {context:,} tokens + each GPU's "
                  "workspace.",
                  f"总共约 **{r.per_gpu_gb * n:,.0f} GB**（{n} 张卡）：{fmt} 权重 {r.weights_total_gb:,.0f} GB + {batch} × "
                  f"{context:,} token 的 KV cache {r.kv_cache_total_gb:,.1f} GB + 每卡工作区。")]


def _kv_line(ctx: Ctx, model, r, batch: int, context: int | None = None) -> str:
    """KV cache per token, with its formula, and the longest context that fits (what long-context questions ask)."""
    kv = r.kv_cache_bytes_per_token
    if model.mla:
        shape = ctx.t(f"MLA latent: {model.num_layers} layers × ({model.mla.kv_lora_rank} + {model.mla.qk_rope_head_dim})",
                      f"MLA 潜变量：{model.num_layers} 层 × ({model.mla.kv_lora_rank} + {model.mla.qk_rope_head_dim})")
    else:
        shape = f"2 × {model.num_layers} layers × {model.num_kv_heads} KV heads × {model.head_dim}" if not ctx.zh else \
            f"2 × {model.num_layers} 层 × {model.num_kv_heads} 个 KV 头 × {model.head_dim}"
    longest = r.max_context  # (one sequence alone: the KV pool's tokens; several at once share it)
    each = longest // batch if longest and batch > 1 else None
    capped = bool(longest) and not each and longest >= model.max_context
    cap_kv = kv * model.max_context / 2**30 if kv else 0
    ext = model.max_context_extended if (model.max_context_extended or 0) > model.max_context else None
    tail = ("" if longest is None else ctx.t(
        (f"; with {batch} sequences at once, about **{each:,} tokens each** (the pool holds {longest:,} tokens; one "
         f"sequence alone could take them all" if each else
         f"; the longest context one request can have: **{model.max_context:,} tokens, the model's own limit** (its "
         f"{cap_kv:,.0f} GiB of KV cache fits; memory alone would hold {longest:,}"
         + (f"; the model card allows {ext:,} with RoPE scaling (YaRN), which "
            + ("also fits" if longest >= ext else f"fits up to {longest:,}") if ext else "") + ")" if capped else
         f"; the longest context that fits at batch 1: **{longest:,} tokens**")
        + (f", the model's limit is {model.max_context:,}" if longest >= model.max_context and each else "") + (")" if each else ""),
        (f"；同时 {batch} 条时每条约 **{each:,} token**（KV 池共 {longest:,} token，单条可以全用" if each else
         f"；单个请求最长上下文：**{model.max_context:,} token，是模型自身上限**（对应 KV cache {cap_kv:,.0f} GiB，放得下；"
         f"只看显存能放 {longest:,}" + (f"；模型卡允许用 RoPE 缩放（YaRN）扩到 {ext:,}，"
                                    + ("也放得下" if longest >= ext else f"显存最多放 {longest:,}") if ext else "") + "）" if capped else f"；batch 1 时放得下的最长上下文：**{longest:,} token**")
        + (f"，模型上限 {model.max_context:,}" if longest >= model.max_context and each else "") + ("）" if each else "")))
    if r.max_batch:
        at_en = f"at {context:,} tokens each" if context else "at this context"  # (the request's context, not the
        at_zh = f"每条 {context:,} token 时" if context else "这个上下文下"        # longest one named before it)
        tail += ctx.t(f"; {at_en}, up to **{r.max_batch}** sequences at once",
                      f"；{at_zh}最多同时 **{r.max_batch}** 条序列")
    if batch > 1 and r.kv_cache_total_gb:  # '... and for 100 users at 8k, how much in total?'
        tail += ctx.t(f"; for {batch} sequences at this context: **{r.kv_cache_total_gb:,.1f} GB** of KV cache in total",
                      f"；{batch} 条序列、这个上下文下 KV cache 合计 **{r.kv_cache_total_gb:,.1f} GB**")
    if r.usable_gb and kv and re.search(r"剩[^，。？?]{0,6}(?:给)?\s*kv|kv[^，。？?]{0,10}(?:剩|还有|能用)|(?<![a-z])(?:left|room|budget|"
                                        r"space)[^.,?]{0,12}(?:for )?(?:the )?kv|kv[^.,?]{0,12}(?:budget|room|left)",
                                        ctx.question.lower()):
        # '剩给 KV cache 的大概多少 G？': the card's usable memory less the weights and the runtime, and the tokens it holds
        room = r.usable_gb - (r.per_gpu_gb - r.kv_cache_gb)
        tail += ctx.t(f"; room left for the KV cache: **{room:,.1f} GB** per GPU ({r.usable_gb:,.1f} usable − "
                      f"{r.per_gpu_gb - r.kv_cache_gb:,.1f} of weights and runtime) = about {room * 1e9 / kv:,.0f} tokens "
                      "summed over the sequences in flight (one long prompt's prefill also needs room, hence the single-"
                      "sequence limit above; a serving engine reserving 90% of the card leaves a little less)",
                      f"；剩给 KV cache 的约 **{room:,.1f} GB**/卡（可用 {r.usable_gb:,.1f} − 权重和运行时 "
                      f"{r.per_gpu_gb - r.kv_cache_gb:,.1f}），约 {room * 1e9 / kv:,.0f} token，是同时在跑的各条序列合计（单条长"
                      "提示的预填充还要占显存，所以上面的单条上限更小；推理引擎按 90% 预留时略少）")
    return ctx.t(f"KV cache: **{kv / 1024:,.0f} KiB per token** ({shape} × bytes per value; {kv * 1024 / 1e9:.2f} GB per 1k tokens)",
                 f"KV cache：**每 token {kv / 1024:,.0f} KiB**（{shape} × 每个值的字节数；每 1k token {kv * 1024 / 1e9:.2f} GB）") + tail + \
        ("。" if ctx.zh else ".")


CHAT_TOKENS_PER_S = 20.0  # a chat user's comfortable stream: ITL <= 50 ms, the latency target serving plans use


def _request_shape(req, context: int) -> tuple[int, int]:
    """(prompt, output) tokens of one request of a serving load: as stated, else an output of an eighth of the
    context (at most 512) and the rest of the context as the prompt."""
    out = req.output_len or min(512, max(1, context // 8))
    return req.prompt_len or max(1, context - out), out


def requests_per_s(ttft_s: float, out: int, batch_tokens_per_s: float) -> float:
    """Requests per second a set of GPUs sustains at full load: each request costs its own prefill plus its share of
    the batch's decode steps, 1 / (prefill of one prompt + output / the batch's tokens per second)."""
    return 1 / (ttft_s + out / batch_tokens_per_s)


def _rate_at_capacity(ctx: Ctx, model, gpu, fmt: str, context: int, seqs: int) -> tuple[list[str], dict | None]:
    """Requests per second the GPUs sustain with `seqs` in flight: each request costs its own prefill plus its share
    of the decode steps, 1 / (prefill of one prompt + output / tokens-per-second of the whole batch)."""
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed

    req = ctx.req
    prompt, out = _request_shape(req, context)
    if not req.output_len:
        ctx.assume(f"{out} output tokens per request", f"每个请求输出 {out} token")
    base = {"num_gpus": req.num_gpus or 1, "precision": fmt, "context": prompt, "output": out}
    one = ctx.call("time_infer", {"model": model.id, "gpu": gpu.id, **base, "batch": 1},
                   estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, batch=1, **base)))
    full = ctx.call("time_infer", {"model": model.id, "gpu": gpu.id, **base, "batch": seqs},
                    estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, batch=seqs, **base)))
    if not full.decode_tokens_per_s_total:
        return [], None
    rps = requests_per_s(one.ttft_s, out, full.decode_tokens_per_s_total)
    per_user = out * rps / seqs  # Little's law: each request spends seqs / rps seconds in flight for its `out` tokens
    shown = f"{rps:,.1f} requests/s" if rps >= 0.1 else f"{rps * 60:,.1f} requests/min"
    shown_zh = f"每秒 {rps:,.1f} 个请求" if rps >= 0.1 else f"每分钟 {rps * 60:,.1f} 个请求"
    alone = ctx.t(f" One user alone: {one.decode_tokens_per_s_per_seq:,.1f} tokens/s, first token after {one.ttft_s:,.1f} s.",
                  f"只有一个人用时：每秒 {one.decode_tokens_per_s_per_seq:,.1f} token，首 token {one.ttft_s:,.1f} 秒。") \
        if seqs > 1 and one.decode_tokens_per_s_per_seq else ""
    made = rps * out  # output tokens a second, prefill pauses included: the throughput a benchmark reports
    line = ctx.t(f"At {seqs} in flight: about **{shown}** = **{made:,.0f} output tokens/s** ({prompt:,} prompt + {out:,} output tokens each: "
                 f"{one.ttft_s:.2f} s of prefill per request plus {out:,} tokens at {full.decode_tokens_per_s_total:,.0f} "
                 f"tokens/s for the batch). Each user then sees about {per_user:,.1f} tokens/s (decoding pauses while "
                 "other prompts are prefilled); fewer in flight, faster each.",
                 f"同时 {seqs} 路时：约 **{shown_zh}** = **每秒 {made:,.0f} 个输出 token**（每个输入 {prompt:,} + 输出 {out:,} token：每个请求预填充 "
                 f"{one.ttft_s:.2f} 秒，加上整批每秒 {full.decode_tokens_per_s_total:,.0f} token 的解码）。此时每个用户约 "
                 f"{per_user:,.1f} token/秒（别人的提示在预填充时解码会暂停）；同时在线的少，每人就快。") + alone
    figs = {}
    if per_user < CHAT_TOKENS_PER_S and not req.tokens_per_s_per_user and seqs > 1:
        # a full KV pool is a queue, not a service: the load at which each user still reads comfortably
        got = _users_at_rate(ctx, model, gpu, fmt, context, CHAT_TOKENS_PER_S, seqs)
        if got and got[0] >= 1:
            n2, each = got
            at = estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, batch=n2, **base))
            rps2 = requests_per_s(one.ttft_s, out, at.decode_tokens_per_s_total) if at.decode_tokens_per_s_total else 0
            figs = {"requests_per_s_at_chat_speed": round(rps2, 2), "sequences_at_chat_speed": n2,
                    "tokens_per_s_per_user_at_chat_speed": round(each, 1)}
            line += ctx.t(f" **At a chat speed of ≥ {CHAT_TOKENS_PER_S:g} tokens/s each** (ITL ≤ 50 ms, the usual target): "
                          f"**{n2} in flight, about {rps2:,.1f} requests/s** ({each:,.1f} tokens/s each) — the figure to "
                          "plan a service on.",
                          f"**按聊天常用的每路 ≥ {CHAT_TOKENS_PER_S:g} token/秒**（每 token ≤ 50 毫秒）：**同时 {n2} 路，约每秒 "
                          f"{rps2:,.1f} 个请求**（每路 {each:,.1f} token/秒）——按这个数规划服务。")
    return ["", line], figs | {"requests_per_s_at_capacity": round(rps, 2),
                        "tokens_per_s_at_capacity": full.decode_tokens_per_s_total,
                        "tokens_per_s_per_user_at_capacity": round(per_user, 2),
                        "output_tokens_per_s_at_capacity": round(made)}


def _users_at_rate(ctx: Ctx, model, gpu, fmt: str, context: int, target: float, cap: int) -> tuple[int, float] | None:
    """The most sequences in flight at which each still gets `target` tokens/s (the per-user rate of _rate_at_capacity:
    output x requests/s / sequences, falling as the batch grows), up to the `cap` that fits in memory; None when
    even one stream is slower. Bisection on the batch."""
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed

    req = ctx.req
    prompt, out = _request_shape(req, context)
    base = {"num_gpus": req.num_gpus or 1, "precision": fmt, "context": prompt, "output": out}
    speed = lambda b: estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, batch=b, **base))
    ttft1 = speed(1).ttft_s

    def per_user(b: int) -> float:
        total = speed(b).decode_tokens_per_s_total
        return out * requests_per_s(ttft1, out, total) / b if total else 0.0
    if per_user(1) < target:
        return None
    lo, hi = 1, max(1, cap)
    if per_user(hi) >= target:
        lo = hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if per_user(mid) >= target else (lo, mid)
    ctx.call("users_at_rate", {"model": model.id, "gpu": gpu.id, **base, "target_tokens_per_s": target, "cap": cap},
             {"users": lo, "tokens_per_s_each": round(per_user(lo), 2)})
    return lo, per_user(lo)


def _replicas_of(ctx: Ctx, model, gpu, n: int, tp: int) -> Answer:
    """'4x L40S, no tensor parallel: each card runs its own copy': every replica of `tp` GPUs holds the whole model and
    its share of the users; the most faithful format whose weights fit one replica, the users the replicas hold, and
    the plan with that width pinned."""
    req = ctx.req
    reps = n // tp
    context = _context(ctx)
    users = req.concurrent_users or req.batch or 1
    each = -(-users // reps)
    engine = _engine(ctx, "vllm")
    fixed = weight_format_for(ctx, model, gpu)
    before = len(ctx.assumed)
    first = _served_format(ctx, model, gpu)
    published = ctx.assumed[before:]
    ladder = [first] if fixed else [first] + [p for p in precision_ladder(ctx, model, gpu) if p != first]
    ctx.req = req.model_copy(update={"num_gpus": tp})
    try:
        sized = [(p, _size(ctx, model, gpu, p, each, engine, context)) for p in dict.fromkeys(ladder)]
    finally:
        ctx.req = req
    # the most faithful format that holds every user; else the one that holds the most
    fmt, r = next(((p, x) for p, x in sized if x.fits), None) or max(sized, key=lambda px: px[1].max_batch or 0)
    ctx.used |= {"tensor_parallel", "num_gpus", "concurrent_users"}
    if fmt != first:
        ctx.assumed[:] = [a for a in ctx.assumed if a not in published]
        ctx.assume(f"{fmt} weights: {first} does not fit {tp} GPU(s) with room for the users",
                   f"{fmt} 权重：{first} 放进 {tp} 张卡后没有给用户的空间")
    held = (r.max_batch or 0) * reps
    wide = ctx.t(f"{tp} GPU" + ("s" if tp > 1 else ""), f"{tp} 张卡")
    if not r.max_batch:
        head = ctx.t(f"**No**: with tensor parallelism of {tp}, one replica ({wide}) cannot hold {model.name} even in "
                     f"{fmt}; the model needs a wider replica.",
                     f"**不行**：张量并行度 {tp} 时，一个副本（{wide}）即使用 {fmt} 也放不下 {model.name}；需要更宽的副本。")
    else:
        ok = held >= users
        need = -(-users // r.max_batch)
        head = ctx.t(f"**{'Yes' if ok else 'No'}**, with each of the {reps} replicas on {wide} (TP{tp}): in {fmt}, one "
                     f"replica holds the weights and up to {r.max_batch} sequences of {context:,} tokens, **{held} in all** "
                     f"for your {users}" + ("." if ok else f"; {need} replicas ({need * tp} GPUs) would hold them."),
                     f"**{'可以' if ok else '不够'}**，{reps} 个副本各用 {wide}（TP{tp}）：用 {fmt} 时一个副本放得下权重和最多 "
                     f"{r.max_batch} 路 {context:,} token 的请求，**合计 {held} 路**（你要 {users} 路）"
                     + ("。" if ok else f"；需要 {need} 个副本（{need * tp} 张卡）。"))
    others = [ctx.t(f"{p}: {(x.max_batch or 0) * reps} in all", f"{p}：合计 {(x.max_batch or 0) * reps} 路")
              for p, x in sized if p != fmt and x.max_batch]
    if others:
        head += " " + ctx.t("Other formats on the same replicas: ", "同样的副本换格式：") + ctx.t("; ", "；").join(others) \
            + ctx.t(".", "。")
    lines = [head, "", md_table(["", "GB"], [[component_name(k, ctx.lang), f"{x:.2f}"] for k, x in r.breakdown_gb.items()])]
    plan_lines, plan = _serve_plan(ctx, model, gpu, fmt, context, users) if r.max_batch else ([], None)
    figures = {"per_gpu_gb": r.per_gpu_gb, "max_concurrent_sequences": held, "replica_sequences": r.max_batch or 0,
               "replicas": reps, "concurrent_users": users, "precision": fmt}
    if plan is not None:
        figures |= {"serve_total_gpus": plan.total_gpus, "serve_tp": plan.tp, "serve_replicas": plan.replicas,
                    "serve_ttft_s": plan.ttft_s, "serve_itl_ms": plan.itl_ms}
    v = Verdict(fits=bool(r.max_batch) and held >= users, gpu=gpu.id, num_gpus=n, method="inference",
                per_gpu_gb=r.per_gpu_gb)
    text = "\n".join(lines + [""] + plan_lines) + assumptions_md(ctx.lang, ctx.notes + r.assumptions
                                                                 + (plan.assumptions if plan else []))
    return Answer(answer=text, lang=ctx.lang, intent=req.intent, verdict=v, options=[v], figures=figures,
                  tool_calls=ctx.calls)


def _if_full_attention(ctx: Ctx, model, r, users: int, context: int, n: int) -> str:
    """A bare size ('our 7B finetune') is sized with grouped-query attention (8 KV heads, as current models); a model of
    that size with full multi-head attention (Llama 2, Baichuan 2 and fine-tunes of them) caches heads / KV heads times
    more per token: when the users' KV cache matters, both are said and which base model it is, asked."""
    gqa = r.kv_cache_bytes_per_token or 0
    if not gqa or model.num_kv_heads >= model.num_attention_heads or users * context < 32_768:
        return ""
    ratio = model.num_attention_heads / model.num_kv_heads
    kv_gqa = r.kv_cache_total_gb or gqa * users * context / 1e9
    kv_mha = kv_gqa * ratio
    room = (r.usable_gb or 0) * 0.9 * n - r.weights_total_gb
    verdict = ctx.t("still fits" if kv_mha <= room else "does **not** fit", "仍放得下" if kv_mha <= room else "**放不下**")
    return ctx.t(
        f"**Which base model is it?** The KV cache turns on it: a {model.name.split()[1] if ' ' in model.name else ''} "
        f"model with grouped-query attention (8 KV heads, as Llama 3, Qwen2.5, Mistral) caches {gqa / 1024:,.0f} KiB per "
        f"token, {kv_gqa:,.1f} GB for {users} × {context:,} tokens (sized above); one with full multi-head attention "
        f"(Llama 2, Baichuan 2 and fine-tunes of them) caches {ratio:g}× that, **{kv_mha:,.1f} GB**, which {verdict} on "
        f"{n}× {ctx.gpu(r.gpu).name if r.gpu else 'the GPUs'} (~{max(room, 0):,.0f} GB beside the weights).",
        f"**是哪个基座模型？** KV cache 取决于它：分组查询注意力（8 个 KV 头，如 Llama 3、Qwen2.5、Mistral）每 token "
        f"{gqa / 1024:,.0f} KiB，{users} × {context:,} token 共 {kv_gqa:,.1f} GB（上面按这个算）；全多头注意力（Llama 2、Baichuan 2 "
        f"及其微调）是它的 {ratio:g} 倍，**{kv_mha:,.1f} GB**，在 {n} 张 {ctx.gpu(r.gpu).name if r.gpu else 'GPU'} 上{verdict}"
        f"（权重之外约 {max(room, 0):,.0f} GB）。")


def serving(ctx: Ctx) -> Answer:
    req, lang = ctx.req, ctx.lang
    model, gpu, n = ctx.job(DEFAULT_SERVING_GPU)
    if not req.engine:
        ctx.assume(*(("llama.cpp server (a Mac runs llama.cpp or MLX, not vLLM)", "llama.cpp server（Mac 上跑 llama.cpp 或 "
                      "MLX，不是 vLLM）") if gpu.vendor == "Apple" else ("vLLM", "vLLM")))
    tp = req.tensor_parallel
    if tp and "num_gpus" in req.stated and tp < n and n % tp == 0 and not ctx.one_of_several and \
            gpu.vendor != "Apple":
        return _replicas_of(ctx, model, gpu, n, tp)
    before = len(ctx.assumed)
    fmt = _served_format(ctx, model, gpu)
    published = ctx.assumed[before:]  # ('bf16 weights (the published checkpoint)', when said)
    context = _context(ctx)
    users = req.concurrent_users or (_users_from_rate(ctx, model, gpu, context) if req.requests_per_s else req.batch or 1)
    if req.batch and req.concurrent_users:
        ctx.ignore("batch", "the concurrent users set how many sequences are decoded together", "并发用户数决定同时解码的序列数")
    if req.concurrent_users and re.search(r"同时在线|在线用户|人在线|" + w(r"online|logged[\s-]?in|signed[\s-]?in"),
                                          ctx.question.lower()):
        ctx.assume(f"{req.concurrent_users:,} users online sized as {req.concurrent_users:,} requests in flight, the worst "
                   "case (typically 10-30% of people online are generating at any moment: give that count for a leaner plan)",
                   f"{req.concurrent_users:,} 人在线按 {req.concurrent_users:,} 路同时请求算，是最坏情况（通常在线的人同一时刻只有"
                   "一到三成在等回复：给出这个数可以算得更省）")
    r = _size(ctx, model, gpu, fmt, users, _engine(ctx, "vllm"), context)
    smaller = None
    if "num_gpus" in req.stated and not r.max_batch and not weight_format_for(ctx, model, gpu) and \
            (not ctx.one_of_several or "models_compared" in ctx.shared):
        # (models compared on the user's cards: each in the most faithful format that fits them, not one left at zero)
        # 'we have 2 RTX 3090s: enough for a 32B?': the cards the user has, in a smaller format, before more cards
        for p in precision_ladder(ctx, model, gpu)[1:]:
            rp = _size(ctx, model, gpu, p, users, _engine(ctx, "vllm"), context)
            if rp.fits:
                smaller = (fmt, r.min_gpus, p)
                ctx.assumed[:] = [a for a in ctx.assumed if a not in published]
                ctx.assume(f"{p} weights: the published {fmt} does not fit your {n} GPU(s) (it needs {r.min_gpus}); "
                           f"the most faithful format that does",
                           f"{p} 权重：官方的 {fmt} 放不进你的 {n} 张卡（需要 {r.min_gpus} 张）；这是放得下的最接近原精度的格式")
                fmt, r = p, rp
                break
    if not req.num_gpus and not (req.concurrent_users or req.requests_per_s or req.batch) and not r.max_batch \
            and r.min_gpus:
        # 'how many 8-GPU H20 servers, and how many concurrent at 128k?': the fewest whole servers that hold it, and
        # their concurrency (not one GPU's zero)
        per = req.gpus_per_node or 8
        n = -(-r.min_gpus // per) * per
        ctx.req = req = req.model_copy(update={"num_gpus": n})
        ctx.applied["num_gpus"] = n
        ctx.assumed[:] = [a for a in ctx.assumed if a not in ("1 GPU", "单卡")]
        ctx.assume(f"{n // per} server(s) of {per}: the fewest that hold the weights and one {context:,}-token sequence",
                   f"{n // per} 台 {per} 卡：放得下权重和一条 {context:,} token 序列的最少整机数")
        r = _size(ctx, model, gpu, fmt, users, _engine(ctx, "vllm"), context)
    max_seqs = r.max_batch or 0
    apple = gpu.vendor == "Apple"
    per_node = 1 if apple else (req.gpus_per_node or 8)
    node_replicas = 1
    if (apple or not (req.concurrent_users or req.requests_per_s or req.batch)) and n > per_node and n % per_node == 0 \
            and not req.tensor_parallel:
        # 'two 8x H100 nodes': one tensor-parallel replica per node (TP across the network is slow, and past the
        # model's KV heads it copies the cache), the nodes' capacities added; 'two Mac Studios': each Mac runs its own
        # copy (their memories do not pool), the users split between them
        ctx.req = req.model_copy(update={"num_gpus": per_node})
        each = -(-users // (n // per_node))
        r_node = _size(ctx, model, gpu, fmt, each, _engine(ctx, "vllm"), context)
        ctx.req = req
        if r_node.fits or apple:
            if apple or (r_node.max_batch or 0) * (n // per_node) > max_seqs:
                node_replicas = n // per_node
                r, max_seqs = r_node, (r_node.max_batch or 0) * node_replicas
                ctx.assume(*((f"each of the {node_replicas} machines runs its own copy of the model (their memories do not "
                              f"pool); {each} of the {users} requests on each",
                              f"{node_replicas} 台机器各跑一份模型（内存不能合并）；{users} 路请求每台分 {each} 路") if apple else
                             (f"one TP{per_node} replica per server, {node_replicas} servers (tensor parallelism over the "
                              "network between servers is slow); their capacities add up",
                              f"每台服务器一个 TP{per_node} 副本，共 {node_replicas} 台（跨服务器的张量并行走网络，很慢）；各台容量相加")))
    at_min_count: dict = {}
    v = Verdict(fits=r.fits, gpu=gpu.id, num_gpus=n, min_gpus=r.min_gpus, method="inference", per_gpu_gb=r.per_gpu_gb)
    if not (req.concurrent_users or req.requests_per_s or req.batch) and not max_seqs:
        # no room for even one sequence: the weights and workspace fill the engine's share, said with the ways out
        head = ctx.t(f"**No room for a {context:,}-token sequence on {n}× {gpu.name}** in {fmt}: the weights and workspace "
                     f"({r.per_gpu_gb - r.kv_cache_gb:,.1f} GB per GPU) leave the KV cache nothing in the engine's share. "
                     "Ways out: a smaller weight format, an 8-bit KV cache, a shorter context, or more GPUs (the next "
                     "tensor-parallel size).",
                     f"**{n} 张 {gpu.name} 用 {fmt} 放不下一条 {context:,} token 的请求**：权重和工作区（每卡 "
                     f"{r.per_gpu_gb - r.kv_cache_gb:,.1f} GB）占满了引擎可用的显存，KV cache 没有空间。出路：更小的权重格式、8 位 KV "
                     "cache、缩短上下文，或者加卡（下一档张量并行）。")
        # ('一台不够的话要几台？每人 8k 能扛多少并发？'): the concurrency on the count that holds it, in whole servers
        box = 8 if n % 8 == 0 or n >= 8 else n
        more = max(n * 2, -(-(r.min_gpus or 2 * n) // box) * box)
        try:
            ctx.req = req.model_copy(update={"num_gpus": more})
            r_more = _size(ctx, model, gpu, fmt, 1, _engine(ctx, "vllm"), context)
        except ValueError:
            r_more = None
        finally:
            ctx.req = req
        if r_more is not None and r_more.fits and r_more.max_batch:
            at_min_count = {"max_concurrent_sequences_at_min_count": r_more.max_batch, "min_count_gpus": more}
            servers = f" ({more // 8} servers of 8)" if box == 8 and more > 8 else ""
            servers_zh = f"（{more // 8} 台 8 卡）" if box == 8 and more > 8 else ""
            head += "\n\n" + ctx.t(
                f"**On {more}× {gpu.name}{servers}: up to {r_more.max_batch} concurrent sequences of {context:,} tokens** "
                f"(KV pool {r_more.vllm_kv_cache_tokens or 0:,} tokens, memory alone; per-user speed falls as more run "
                "at once).",
                f"**{more} 张 {gpu.name}{servers_zh}：最多同时 {r_more.max_batch} 路 {context:,} token 的请求**"
                f"（KV 池 {r_more.vllm_kv_cache_tokens or 0:,} token，只按显存算；同时跑的越多，每路越慢）。")
    elif not (req.concurrent_users or req.requests_per_s or req.batch):
        bpt = r.kv_cache_bytes_per_token
        each = ctx.t(f" per server ({node_replicas} servers)", f"（每台，共 {node_replicas} 台）") if node_replicas > 1 else ""
        head = ctx.t(f"**Up to {max_seqs} concurrent sequences of {context:,} tokens** on {n}× {gpu.name}: the KV pool holds "
                     f"{r.vllm_kv_cache_tokens or 0:,} tokens{each}" + (f" ({bpt:,} B per token)" if bpt else "") + ". Shorter "
                     "conversations fit more; the engine queues the rest.",
                     f"**最多同时 {max_seqs} 路 {context:,} token 的请求**（{n} 张 {gpu.name}）：KV 池 "
                     f"{r.vllm_kv_cache_tokens or 0:,} token{each}" + (f"（每 token {bpt:,} B）" if bpt else "") + "。对话更短能容纳更多，"
                     "多出来的请求由引擎排队。")
        if not weight_format_for(ctx, model, gpu) and r.weights_total_gb and r.vllm_kv_cache_tokens and \
                r.weights_total_gb > 0.7 * n * r.usable_gb:
            # ('八卡 4090 跑 72B，能撑多少并发'): the published format fills the cards; what the usual smaller ones hold
            alts = []
            for small in ("fp8", "awq"):
                if _bits(small) >= _bits(fmt) or not supported_on(small, gpu)[0]:
                    continue
                try:
                    rs = _size(ctx, model, gpu, small, 1, _engine(ctx, "vllm"), context)
                except ValueError:
                    continue
                if rs.fits and rs.vllm_kv_cache_tokens:
                    alts.append((small, rs.vllm_kv_cache_tokens // context))
            if alts:
                head += "\n\n" + ctx.t(
                    f"{fmt} leaves little room for the KV cache ({r.weights_total_gb:,.0f} GB of weights on "
                    f"{n * r.usable_gb:,.0f} GB): " + "; ".join(f"in {f}, **{k}** at once" for f, k in alts) +
                    " (8-bit is usually close to BF16 in quality; 4-bit costs a little more: evaluate on your own prompts).",
                    f"{fmt} 权重占满了显存（{n * r.usable_gb:,.0f} GB 里权重 {r.weights_total_gb:,.0f} GB），KV 空间很少：" +
                    "；".join(f"用 {f} 可同时 **{k}** 路" for f, k in alts) + "（8 位质量通常接近 BF16；4 位损失稍多，用自己的请求评测）。")
        if req.max_num_seqs:  # 'max_num_seqs 256 有意义吗': the cap against what the KV pool holds
            ctx.used.add("max_num_seqs")
            head += " " + (ctx.t(f"Your max_num_seqs {req.max_num_seqs} is never reached: the KV pool runs out at about "
                                 f"{max_seqs} such requests first (KV-bound), so the cap changes nothing here; more "
                                 "sequences need more KV room (an FP8 KV cache, a shorter max_model_len, more GPUs).",
                                 f"你的 max_num_seqs {req.max_num_seqs} 达不到：KV 池放到约 {max_seqs} 路就满了（受 KV 限制），"
                                 "这个上限在这里不起作用；要更多路需要更多 KV 空间（FP8 KV cache、更短的 max_model_len、加卡）。")
                           if req.max_num_seqs > max_seqs else
                           ctx.t(f"Your max_num_seqs {req.max_num_seqs} caps it below what the KV pool holds ({max_seqs}): "
                                 f"at most {req.max_num_seqs} run at once.",
                                 f"你的 max_num_seqs {req.max_num_seqs} 比 KV 池能放的（{max_seqs} 路）还小：最多同时跑 "
                                 f"{req.max_num_seqs} 路。"))
            if req.max_num_seqs < max_seqs:  # the cap is the answer: it leads, and the speed below is at the cap
                head = ctx.t(f"**At most {req.max_num_seqs} at once: your max_num_seqs** ({n}× {gpu.name}); the KV pool "
                             f"({r.vllm_kv_cache_tokens or 0:,} tokens" + (f", {bpt:,} B per token" if bpt else "") +
                             f") would hold {max_seqs} requests of {context:,} tokens, so memory is not the limit.",
                             f"**最多同时 {req.max_num_seqs} 路：受你的 max_num_seqs 限制**（{n} 张 {gpu.name}）；KV 池 "
                             f"{r.vllm_kv_cache_tokens or 0:,} token" + (f"（每 token {bpt:,} B）" if bpt else "") +
                             f"本可放 {max_seqs} 路 {context:,} token 的请求，显存不是瓶颈。")
                max_seqs = req.max_num_seqs
        if req.context and req.context > context and r.vllm_kv_cache_tokens:
            # ('max-model-len 32k, average 3k in / 1k out'): the average sizes the load; the limit is its worst case
            worst = r.vllm_kv_cache_tokens // req.context
            ctx.used.add("context")
            head += ctx.t(f" Worst case, every request at the {req.context:,}-token limit: **{worst}** at once "
                          f"({r.vllm_kv_cache_tokens:,} ÷ {req.context:,}).",
                          f"最坏情况（每个请求都用满 {req.context:,} token 上限）：同时 **{worst}** 路"
                          f"（{r.vllm_kv_cache_tokens:,} ÷ {req.context:,}）。")
        avg = (req.prompt_len or 0) + (req.output_len or 0)
        if req.prompt_len and avg < context and r.vllm_kv_cache_tokens:
            # '平均输入 3k 输出 500': the pool over the average request, next to the max_model_len worst case
            at_avg = r.vllm_kv_cache_tokens // avg
            head += ctx.t(f" At your average request ({req.prompt_len:,} + {req.output_len or 0:,} = {avg:,} tokens): about "
                          f"**{at_avg:,}** at once ({r.vllm_kv_cache_tokens:,} ÷ {avg:,}; vLLM's --max-num-seqs, default 256, "
                          "caps it).",
                          f"按你的平均请求（{req.prompt_len:,} + {req.output_len or 0:,} = {avg:,} token）：约 **{at_avg:,}** 路同时"
                          f"（{r.vllm_kv_cache_tokens:,} ÷ {avg:,}；vLLM 的 --max-num-seqs 默认 256 为上限）。")
    elif not r.fits and "num_gpus" in req.stated and not req.gpu_memory_utilization and gpu.vendor != "Apple" and \
            (setting := _standard_settings(model, gpu, n, fmt, context, users)):
        # '单张 4090 跑 32B AWQ，8k，一个人用': a miss by a little under vLLM's defaults is a setting, not another card;
        # the plan below runs with it
        head = _standard_fix(ctx, model, gpu, n, fmt, context, users, speeds=False, found=setting)
        v = v.model_copy(update={"fits": True})
        with_it = fits_on(model, gpu, n, fmt, context, users, engine="vllm", gpu_memory_utilization=setting[0],
                          kv_dtype=setting[1])
        max_seqs = with_it.max_batch or users  # (what the setting holds, the figure a comparison reads)
        ctx.req = req = req.model_copy(update={"gpu_memory_utilization": setting[0], "kv_dtype": setting[1] or req.kv_dtype})
    elif r.fits:
        pool = r.vllm_kv_cache_tokens
        head = ctx.t(f"**Yes**: {n}× {gpu.name} hold {users} concurrent sequences of {context:,} tokens "
                     + (f"(KV pool {pool:,} tokens = up to **{max_seqs}** such sequences)." if pool else
                        f"(up to **{max_seqs}** such sequences; the KV cache grows as they run, no pool is reserved)."),
                     f"**可以**：{n} 张 {gpu.name} 能同时容纳 {users} 路 {context:,} token 的请求"
                     + (f"（KV 池 {pool:,} token，最多 **{max_seqs}** 路）。" if pool else
                        f"（最多 **{max_seqs}** 路；KV cache 随运行增长，不预留池）。"))
        if re.search(HEADROOM_ASK, ctx.question.lower()) and users and max_seqs:
            # 'does it fit, and how much headroom?': the room left at the load asked, in sequences and in memory
            ctx.used.add("concurrent_users")
            spare = (pool - users * context) if pool else None
            head += ctx.t(f" **Headroom**: {max_seqs - users} more such sequences at once ({max_seqs / users:.1f}× your "
                          f"{users})" + (f"; {spare:,} tokens of the KV pool are left at your load" if spare else "")
                          + "; the speed at your load is below.",
                          f" **余量**：还能再多放 {max_seqs - users} 路（是你 {users} 路的 {max_seqs / users:.1f} 倍）"
                          + (f"；你的负载下 KV 池还剩 {spare:,} token" if spare else "") + "；这个负载下的速度见下。")
    else:
        per = req.gpus_per_node or 8
        boxes = -(-(r.min_gpus or 0) // per)
        whole = (ctx.t(f" (the minimum in whole servers: {boxes} × {per} = **{boxes * per} GPUs**, memory alone)",
                       f"（按整机算最少 {boxes} 台 × {per} 卡 = **{boxes * per} 张**，只看显存）")
                 if r.min_gpus and r.min_gpus > per else "")
        least = serving_count(ctx, model, gpu, r.min_gpus) if r.min_gpus and r.min_gpus <= per else r.min_gpus
        need_en = (f"at least **{least}** GPUs are needed{whole}" if least else
                   "more such machines do not pool their memory: fewer sequences at once, a shorter context or an 8-bit KV "
                   "cache, or a machine with more memory")  # (a Mac: no count of them holds more sequences)
        need_zh = (f"至少需要 **{least}** 张{whole}" if least else "这种机器不能合并显存：减少同时路数、缩短上下文或用 8 位 KV cache，"
                   "或换内存更大的机器")
        head = ctx.t(f"**No**: {users} concurrent sequences of {context:,} tokens need {r.kv_cache_total_gb:.1f} GB of KV cache; "
                     f"{n}× {gpu.name} hold up to **{max_seqs}**; {need_en}.",
                     f"**不够**：{users} 路 {context:,} token 的请求需要 {r.kv_cache_total_gb:.1f} GB KV cache；"
                     f"{n} 张 {gpu.name} 最多 **{max_seqs}** 路；{need_zh}。")
        if not max_seqs and desk_card(gpu) and gpu.vendor != "Apple" and (r.min_gpus or 0) > 8:
            # ('两张 4090 跑满血 R1 给 20 个人用？网上说用 KTransformers 就行'): what such cards do run, for one user, and
            # why it carries no group
            hybrid = _hybrid_offload(ctx, model, gpu, n, context)
            if hybrid:
                head += ctx.t(f" What people do run on such cards is a hybrid, {hybrid}: one user at a time, not "
                              f"{users} at once (each extra user shares the same RAM-bound speed).",
                              f" 这类卡上实际能跑的是内存混合方案：{hybrid}；这是单用户的速度，带不了 {users} 路同时使用（多一个人就分走同样的"
                              "内存带宽）。")
    if smaller:
        head = ctx.t(f"**Not in {smaller[0]}** (the published weights need at least {smaller[1]} GPUs), **but in "
                     f"{smaller[2]} your {n} are enough** without buying more. ",
                     f"**{smaller[0]} 放不下**（官方权重至少要 {smaller[1]} 张），**但用 {smaller[2]} 你现有的 {n} 张就够**，"
                     "不用再买。") + head
    fp8_kv = None
    if users > max_seqs and not req.kv_dtype and not model.mla and r.kv_cache_bytes_per_token and gpu.vendor != "Huawei":
        # 'hold up to 13 of 16': an FP8 KV cache halves the cache on the same GPUs; said when it changes the answer
        fp8_kv = _sequences_held(ctx, model, gpu, n, context, users, fmt, "fp8")
        if fp8_kv and fp8_kv > max_seqs:
            head += " " + ctx.t(f"With an FP8 KV cache (vLLM `--kv-cache-dtype fp8`, half the bytes per token) the same "
                                f"{n} GPUs hold **{fp8_kv}**" + (": enough for your users." if fp8_kv >= users else "."),
                                f"KV cache 用 FP8（vLLM `--kv-cache-dtype fp8`，每 token 字节减半）时同样 {n} 张卡能放 "
                                f"**{fp8_kv}** 路" + ("，够你的并发。" if fp8_kv >= users else "。"))
    if users > max(max_seqs, fp8_kv or 0) and _bits(fmt) >= 16 and not (req.precision and req.full_model):
        # '70B in fp16 on 2x L40S for 64 users': 8-bit weights (FP8 where the card computes it, else INT8) leave the
        # same cards room for the users; said beside the count of more cards
        eight = "fp8" if supported_on("fp8", gpu)[0] else "int8"
        kv8 = None if (req.kv_dtype or model.mla) else "fp8"
        w8 = _sequences_held(ctx, model, gpu, n, context, users, eight, kv8) or 0
        if w8 > max(max_seqs, fp8_kv or 0):
            both = ctx.t(" and an FP8 KV cache", " 加 FP8 KV cache") if kv8 else ""
            head += " " + ctx.t(f"With {eight.upper()} weights{both} the same {n} GPUs hold **{w8}**"
                                + (": enough for your users, no more cards." if w8 >= users else "."),
                                f"权重用 {eight.upper()}{both}，同样 {n} 张卡能放 **{w8}** 路"
                                + ("，够你的并发，不用加卡。" if w8 >= users else "。"))
    mha = _if_full_attention(ctx, model, r, users, context, n) if model.id.startswith("generic-") else ""
    if mha:
        head += "\n\n" + mha
    lines = [head, "", md_table(["", "GB"], [[component_name(k, lang), f"{x:.2f}"] for k, x in r.breakdown_gb.items()])]
    rate_line, rate = ([], None)
    if (not (req.concurrent_users or req.requests_per_s or req.batch) or
            (0 < max_seqs < users and gpu.memory_bandwidth_gbps) or (apple and node_replicas > 1)) and max_seqs:
        # (a load beyond what the machine holds: the rate at what it does hold, beside the 'no')
        if node_replicas > 1:  # each server's replica at its own share, said per server
            ctx.req = req.model_copy(update={"num_gpus": per_node})
            share = min(max_seqs, users if (req.concurrent_users or req.batch) else max_seqs) if apple else max_seqs
            rate_line, rate = _rate_at_capacity(ctx, model, gpu, fmt, context, max(1, -(-share // node_replicas)))
            ctx.req = req
            rate_line = [x if not x else ctx.t(("Each machine: " if apple else "Each server: ") + x[0].lower() + x[1:],
                                               ("每台机器：" if apple else "每台服务器：") + x) for x in rate_line]
        else:
            rate_line, rate = _rate_at_capacity(ctx, model, gpu, fmt, context, max_seqs)
        lines[1:1] = rate_line
        slow = (rate or {}).get("tokens_per_s_per_user_at_capacity")
        if slow is not None and slow < 10 and (req.concurrent_users or req.batch) and r.fits:
            # ('two Mac Studios for 20 people: feasible?'): it holds them, but each gets less than people read
            lines[0] = lines[0].replace("**Yes**:", "**Memory: yes**:", 1).replace("**可以**：", "**显存够**：", 1)
            lines[0] += " " + ctx.t(f"**But too slow for people at that load**: each user gets about {slow:.1f} tokens/s "
                                    "(people read at ~10), and long prompts wait long for the first token; fewer people "
                                    "at once, shorter prompts, a smaller model or GPU servers.",
                                    f"**但这个负载下太慢**：每个用户约 {slow:.1f} token/秒（人的阅读速度约 10），长提示的首 token 要等很久；"
                                    "要么减少同时使用的人、缩短提示、换小模型，要么上 GPU 服务器。")
        target = req.tokens_per_s_per_user or (1000 / req.itl_ms if req.itl_ms else None)
        if target:  # 'how many users at >= 30 tokens/s each?', 'SLA TPOT < 50 ms': the load that keeps the rate
            got = _users_at_rate(ctx, model, gpu, fmt, context, target, max_seqs)
            t = target
            ctx.used |= {"itl_ms", "tokens_per_s_per_user"}
            lines[0] = (ctx.t(f"**Up to {got[0]} concurrent users at ≥ {t:g} tokens/s each** on {n}× {gpu.name} "
                              f"({got[1]:.1f} tokens/s each at {got[0]}; memory alone holds {max_seqs} sequences of "
                              f"{context:,} tokens).",
                              f"**每人 ≥ {t:g} token/秒时最多 {got[0]} 路并发**（{n} 张 {gpu.name}；{got[0]} 路时每人 "
                              f"{got[1]:.1f} token/秒；仅看显存可放 {max_seqs} 路 {context:,} token）。") if got else
                        ctx.t(f"**Not even one user gets {t:g} tokens/s** on {n}× {gpu.name} with this model and format.",
                              f"**{n} 张 {gpu.name} 上单个用户也到不了 {t:g} token/秒**（这个模型和格式）。"))
            if got:
                rate = (rate or {}) | {"users_at_target_rate": got[0]}
                if got[0] < max_seqs:  # the requests a second at the load that keeps the target, not at memory's
                    at_target, rate_t = _rate_at_capacity(ctx, model, gpu, fmt, context, got[0])
                    lines[1:1 + len(rate_line)] = at_target
                    rate = (rate or {}) | {k + "_at_target": v for k, v in (rate_t or {}).items()}
                lines.append(ctx.t(
                    "These are roofline estimates; before committing to a concurrency limit, load-test the real "
                    "prompt mix (vLLM `benchmarks/benchmark_serving.py` or guidellm at rising request rates) and read "
                    "the per-user speed and TTFT at p50 and p95: prefill bursts and long prompts pull both down.",
                    "这些是 roofline 估算；定并发上限前用真实的提示分布压测（vLLM `benchmarks/benchmark_serving.py` 或 guidellm，"
                    "逐步加大请求速率），看 p50 和 p95 的每路速度和首 token：预填充突发和长提示会把两者都拉低。"))
    cites = ctx.deps.search("vLLM KV cache 并发" if ctx.zh else "vLLM KV cache concurrency PagedAttention")
    figures = {"per_gpu_gb": r.per_gpu_gb, "kv_cache_gb": r.kv_cache_total_gb, "kv_pool_tokens": r.vllm_kv_cache_tokens,
               "max_concurrent_sequences": max_seqs, "min_gpus": r.min_gpus, "concurrent_users": users,
               "kv_cache_bytes_per_token": r.kv_cache_bytes_per_token}
    figures |= at_min_count
    if rate:
        figures |= rate
    if fp8_kv:
        figures["fp8_kv_max_concurrent_sequences"] = fp8_kv
    plan_lines, plan = _serve_plan(ctx, model, gpu, fmt, context, users)
    bench = _from_benchmark(ctx, gpu, plan) if (req.measured_concurrency and req.throughput_tokens_per_s and
                                                req.concurrent_users) else []
    if "num_gpus" in req.stated and r.fits and r.min_gpus and n >= 2 * max(r.min_gpus, 1) and re.search(
            r"(?<![a-z])(?:is (?:it|this|that) (?:right|correct|accurate|reasonable)|sizing|sanity|oversized|overkill)"
            r"(?![a-z])|对吗|对不对|合理吗|靠谱吗|是不是多了|配多了", ctx.question.lower()):
        # 'the vendor says it requires 16x H100: is it right?': the load fits on far fewer; the count is oversized
        from tools.infer_memory import tp_ok

        least = next((k for k in (1, 2, 4, 8) if k >= r.min_gpus and tp_ok(model, k)), r.min_gpus)
        bench = [ctx.t(f"**Oversized**: {n}× {gpu.name} hold {max_seqs} such sequences, {max_seqs / max(users, 1):.0f}× the "
                       f"{users} asked; the load fits on **{least}** (memory; the plan below gives the speed at your load).",
                       f"**配多了**：{n} 张 {gpu.name} 能放 {max_seqs} 路，是你要的 {users} 路的 {max_seqs / max(users, 1):.0f} 倍；"
                       f"这个负载 **{least}** 张就放得下（按显存；下面的方案给出这个负载下的速度）。"), ""]
    if re.search(MEMORY_ASK, ctx.question.lower()) or req.memory_asked:
        # 'how much VRAM to serve the 14B at 16k for 8 users?': the memory the load takes, before any card's plan (and
        # in the thread's follow-ups: 'what about FP8?')
        work = sum(x for k, x in r.breakdown_gb.items() if k not in ("weights", "quant_constants", "kv_cache"))
        total = r.weights_total_gb + (r.kv_cache_total_gb or 0) + work
        per = r.kv_cache_bytes_per_token or 0
        plan_lines[1:1] = [ctx.t(
            f"**About {total:,.0f} GB of GPU memory in total**: {r.weights_total_gb:,.1f} GB of {fmt} weights + "
            f"{r.kv_cache_total_gb or 0:,.1f} GB of KV cache ({users} × {context:,} tokens × {per / 1024:,.0f} KiB) + "
            f"{work:,.1f} GB of engine workspace; the card plan follows.",
            f"**总共约 {total:,.0f} GB 显存**：{fmt} 权重 {r.weights_total_gb:,.1f} GB + KV cache "
            f"{r.kv_cache_total_gb or 0:,.1f} GB（{users} × {context:,} token × {per / 1024:,.0f} KiB）+ 引擎工作区 "
            f"{work:,.1f} GB；下面是按卡的方案。"), ""]
    if req.measured_rate_per_gpu and req.measured_model:
        plan_lines += _quoted_rate_check(ctx, model, gpu, plan)
    elif req.throughput_tokens_per_s and not req.measured_concurrency and plan is not None and users > 1:
        plan_lines += _quoted_total(ctx, plan, users)
    if plan is not None:
        figures.update({"serve_total_gpus": plan.total_gpus, "serve_tp": plan.tp, "serve_pp": plan.pp,
                        "serve_replicas": plan.replicas, "serve_ttft_s": plan.ttft_s, "serve_itl_ms": plan.itl_ms,
                        "serve_tokens_per_s_per_gpu": plan.tokens_per_s_per_gpu,
                        "serve_cost_per_million_output_usd": plan.cost_per_million_output_tokens_usd,
                        "serve_cost_per_hour_usd": plan.cost_per_hour_usd, "serve_prefill_share": plan.prefill_share})
        if re.search(r"bottleneck|prefill[- ]?(?:or|vs\.?|versus)[- ]?decode|decode[- ]?(?:or|vs\.?|versus)[- ]?prefill|"
                     r"prefill[- ]?bound|瓶颈|预填充还是解码|解码还是预填充", ctx.question.lower()):
            # 'is prefill or decode the bottleneck?': the plan's own split of GPU time, and what moves the one that binds
            sh = plan.prefill_share
            prefill_bound = sh >= 0.5
            figures["bottleneck"] = "prefill" if prefill_bound else "decode"
            plan_lines.insert(min(1, len(plan_lines)), ctx.t(
                f"**The bottleneck: {'prefill' if prefill_bound else 'decode'}.** At this load prefill takes {sh:.0%} of the "
                f"GPU time and decoding the rest" + (
                    f" ({req.prompt_len or context:,}-token prompts against {req.output_len or 512} output tokens): prefix "
                    "caching of shared context, fewer or shorter retrieved chunks, FP8 (prefill is compute-bound), or "
                    "separate prefill and decode servers (disaggregation) move it; more bandwidth does not." if prefill_bound
                    else ": memory bandwidth and the KV cache read each step set the pace; FP8 weights and an FP8 KV cache, "
                    "or more replicas, move it.") + "\n",
                f"**瓶颈在{'预填充' if prefill_bound else '解码'}。** 这个负载下预填充占 GPU 时间的 {sh:.0%}，其余是解码" + (
                    f"（输入 {req.prompt_len or context:,} token，输出 {req.output_len or 512}）：共享上下文做前缀缓存、减少或缩短检索片段、"
                    "用 FP8（预填充受算力限制），或预填充与解码分离部署，才能缓解；加带宽没用。" if prefill_bound else
                    "：每步的显存带宽和 KV cache 读取决定速度；FP8 权重和 FP8 KV cache，或加副本，能缓解。") + "\n"))
        if not req.num_gpus:  # 'how many GPUs for N users': the plan answers (one GPU count); memory terms follow
            # one GPU's terms in the plan's layout (a TP4 replica holds a quarter of the weights and its share of the
            # users), not one GPU holding the whole model
            per_replica = plan.tp * plan.pp
            ctx.req = req.model_copy(update={"num_gpus": per_replica})
            try:
                rp = _size(ctx, model, gpu, fmt, -(-users // max(plan.replicas, 1)), _engine(ctx, "vllm"), context)
            finally:
                ctx.req = req
            lines[2] = md_table(["", "GB"], [[component_name(k, lang), f"{x:.2f}"] for k, x in rp.breakdown_gb.items()])
            layout = f"TP{plan.tp}" + (f"×PP{plan.pp}" if plan.pp > 1 else "")
            lines[0] = ctx.t(f"{users} sequences of {context:,} tokens hold {r.kv_cache_total_gb:,.1f} GB of KV cache "
                             f"besides the weights; one GPU's terms in the plan's layout ({layout}, "
                             f"{-(-users // max(plan.replicas, 1))} sequences per replica):",
                             f"{users} 路 {context:,} token 的序列共占 {r.kv_cache_total_gb:,.1f} GB KV cache（权重之外）；"
                             f"按方案的布局（{layout}，每个副本 {-(-users // max(plan.replicas, 1))} 路）单卡各项：")
            lines = plan_lines[1:] + _fp8_alternative(ctx, model, gpu, fmt, context, plan) + \
                ["", ctx.t("**Memory**", "**显存**")] + lines
            # the plan's GPUs and memory per GPU (min_gpus stays the fewest that hold the load in memory)
            v = v.model_copy(update={"fits": True, "num_gpus": plan.total_gpus, "per_gpu_gb": plan.per_gpu_gb})
            plan_lines = []
            for text in ("1 GPU", "单卡"):
                if text in ctx.assumed:
                    ctx.assumed.remove(text)
            ctx.applied["num_gpus"] = plan.total_gpus
        else:
            enough = n >= plan.total_gpus
            figures["serve_enough"] = enough
            en_t, zh_t = _targets_text(plan)
            central = _central_at_count(ctx, model, gpu, fmt, context, n, plan) if (
                not enough and r.fits and plan.targets) else None
            t_ttft, t_itl = plan.targets.get("ttft_s"), plan.targets.get("itl_ms")
            if central is not None and (t_ttft is None or central.ttft_s <= t_ttft) and \
                    (t_itl is None or central.itl_ms <= t_itl):
                # the estimate on the user's cards meets the targets; only the band's slow end misses: both said
                figures["serve_central_meets"] = 1
                lines[0] = ctx.t(
                    f"**Likely yes, with little margin**: on {n}× {gpu.name} the estimate is TTFT ≈ {central.ttft_s:.2f} s "
                    f"and ITL ≈ {central.itl_ms:.0f} ms ({central.tokens_per_s_per_user:g} tokens/s per user), within "
                    f"{en_t}; at the slow end of the estimate's band (published measurements of similar set-ups ran up to "
                    f"{band_high(model, 'itl_ms'):.2f}× slower per token) it would miss, and **{plan.total_gpus}** GPUs "
                    "meet the targets even there. Measure on your cards before buying more.",
                    f"**大概率可以，但余量不大**：{n} 张 {gpu.name} 的估计是首 token ≈ {central.ttft_s:.2f} 秒、每 token ≈ "
                    f"{central.itl_ms:.0f} 毫秒（每用户 {central.tokens_per_s_per_user:g} token/秒），在{zh_t}内；按估计区间的慢端"
                    f"（同类公开实测每 token 最多慢 {band_high(model, 'itl_ms'):.2f} 倍）会达不到，要在慢端也达标需要 "
                    f"**{plan.total_gpus}** 张。加卡之前先在你的卡上实测。")
            elif not enough and r.fits:  # the verdict is the latency's (or the load's): memory alone would say yes
                lines[0] = ctx.t(f"**Not within the latency targets**: {n}× {gpu.name} hold the {users} sequences in memory, "
                                 f"but {en_t} at this load take **{plan.total_gpus}** GPUs." if plan.targets else
                                 f"**Not at this load**: {n}× {gpu.name} hold one set of sequences in memory, but running "
                                 f"the load without requests queueing takes **{plan.total_gpus}** GPUs.",
                                 f"**达不到延迟目标**：{n} 张 {gpu.name} 显存放得下 {users} 路，但要在{zh_t}内服务，需要 "
                                 f"**{plan.total_gpus}** 张。" if plan.targets else
                                 f"**扛不住这个负载**：{n} 张 {gpu.name} 放得下模型，但要让请求不排队，需要 **{plan.total_gpus}** 张。")
            if not enough and r.fits:  # the 8-bit route a practitioner tries before more cards, where the card has it
                plan_lines += _fp8_alternative(ctx, model, gpu, fmt, context, plan)
            if plan.targets and central is not None and figures.get("serve_central_meets"):
                pass
            elif plan.targets:
                plan_lines.insert(1, ctx.t(
                    f"**Latency**: {n}× {gpu.name} " + ("also meet the latency targets at this load." if enough else
                                                      f"hold the load in memory but **not within the latency targets**: "
                                                      f"that takes {plan.total_gpus}."),
                    f"**延迟**：{n} 张 {gpu.name} " + ("在这个负载下也满足延迟目标。" if enough else
                                                   f"显存放得下，但**达不到延迟目标**：需要 {plan.total_gpus} 张。")))
    clar = None
    if req.family_flagship and plan is not None and plan.total_gpus > 8 and "num_gpus" not in req.stated and \
            gpu.vendor != "Apple":
        # 'deploy deepseek on 4090s for 20 people': the flagship takes several machines of these cards; which model is
        # meant decides the answer, so it is asked, with the family's models that one card or one machine holds
        family = req.model_text or model.name
        ask_line = ctx.t(f"**Which {family}?** The flagship ({model.name}) takes **{plan.total_gpus}× {gpu.name}** "
                         f"({-(-plan.total_gpus // 8)} machines of 8): rarely what people mean on these cards. The "
                         f"family's smaller models need far less:",
                         f"**是哪个 {family}？** 旗舰（{model.name}）要 **{plan.total_gpus} 张 {gpu.name}**（{-(-plan.total_gpus // 8)} "
                         f"台 8 卡机），在这种卡上很少有人这么部署；同系列的小模型要的卡少得多：")
        one = [x for x in _family_fits(ctx, model, gpu, 1, context) if x]
        box = [x for x in _family_fits(ctx, model, gpu, 8, context) if x]
        lines = [ask_line] + one + box + ["", ctx.t("The flagship's plan, if it is the one:", "如果就是旗舰，方案如下："), ""] \
            + lines
        from assistant.request import Clarification

        clar = Clarification(missing=["model"], question=ask_line.split("**")[1],
                             suggestions=[m.name for m in ctx.deps.catalog.models if m.id.startswith(model.id.split("-")[0])
                                          and "distill" in m.id][-3:] or [model.name])
    lines = bench + lines + plan_lines  # (the user's own benchmark leads; the estimate follows as a cross-check)
    sized_here = [x for x in r.assumptions if not (plan is not None and x.startswith("vLLM: weights + activations")
                                                   and (plan.total_gpus != n or not r.max_batch))]
    # (the pool on the GPUs first sized, when the plan runs another count: the plan's own lines say its memory)
    text = "\n".join(lines) + assumptions_md(lang, ctx.notes + sized_here + (plan.assumptions if plan else [])) \
        + sources_md(lang, cites)
    return Answer(answer=text, lang=lang, intent=req.intent, verdict=v, options=[v], figures=figures, citations=cites,
                  tool_calls=ctx.calls, clarification=clar)


from assistant.readers.cues import HEADROOM_ASK, MEMORY_ASK  # noqa: E402  (one place knows the words; re-exported here)


def _from_benchmark(ctx: Ctx, gpu, plan) -> list[str]:
    """'并发 32 时总吞吐 1100 tokens/s，体验还可以。现在要支持 200 并发，要几张？': replicas of the unit the user measured,
    each at its measured load (tools.serve_measured.replicas_from_benchmark); the estimate's plan follows as a
    cross-check."""
    from tools.serve_measured import BenchUnit, replicas_from_benchmark

    req = ctx.req
    ctx.used |= {"measured_concurrency", "throughput_tokens_per_s", "throughput_scope"}
    unit_gpus = req.measured_num_gpus or (req.num_gpus if "num_gpus" in req.stated else 1) or 1
    owned = req.num_gpus if "num_gpus" in req.stated and unit_gpus != req.num_gpus else None
    tps = req.throughput_tokens_per_s * (unit_gpus if req.throughput_scope == "gpu" else 1)
    args = {"gpus": unit_gpus, "concurrency": req.measured_concurrency, "tokens_per_s": tps,
            "target_users": req.concurrent_users, "gpus_owned": owned,
            "target_tokens_per_s_per_user": req.tokens_per_s_per_user}
    ctx.used.add("tokens_per_s_per_user")
    b = ctx.call("replicas_from_benchmark", args, replicas_from_benchmark(BenchUnit(**args)))
    unit = ctx.t(f"{unit_gpus}× {gpu.name}", f"{unit_gpus} 张 {gpu.name}")
    line = ctx.t(
        f"**From your benchmark: {b.gpus}× {gpu.name}** ({b.units} replica(s) of your {unit}): each held at the "
        f"{req.measured_concurrency} requests in flight you measured ({tps:,.0f} tokens/s, {b.per_user_tokens_per_s:,.1f} per "
        f"user, a latency you found acceptable), {req.concurrent_users:,} ÷ {req.measured_concurrency} = "
        f"{req.concurrent_users / req.measured_concurrency:.2f} → {b.units}; about {b.total_tokens_per_s:,.0f} tokens/s in total.",
        f"**按你的压测：{b.gpus} 张 {gpu.name}**（{b.units} 个副本，每个是你测的 {unit}）：每个副本保持你测的 "
        f"{req.measured_concurrency} 并发（总吞吐 {tps:,.0f} token/秒、每路 {b.per_user_tokens_per_s:,.1f}，延迟你认为可以接受），"
        f"{req.concurrent_users:,} ÷ {req.measured_concurrency} = {req.concurrent_users / req.measured_concurrency:.2f} → "
        f"{b.units} 个；合计约 {b.total_tokens_per_s:,.0f} token/秒。")
    if b.units_at_target and b.units_at_target < b.units:
        t = req.tokens_per_s_per_user
        line += ctx.t(f" At your {t:g} tokens/s per user (below the {b.per_user_tokens_per_s:,.1f} measured), each replica can "
                      f"carry up to {tps / t:,.0f} users if its total holds at {tps:,.0f} tokens/s (it usually does until the "
                      f"KV cache fills): {req.concurrent_users:,} × {t:g} ÷ {tps:,.0f} → **{b.units_at_target * unit_gpus} "
                      f"GPUs**; benchmark that load before buying fewer than {b.gpus}.",
                      f"按你要求的每路 {t:g} token/秒（低于实测的 {b.per_user_tokens_per_s:,.1f}），只要总吞吐保持在 {tps:,.0f} "
                      f"token/秒（KV cache 装满之前通常如此），每个副本最多可带 {tps / t:,.0f} 路：{req.concurrent_users:,} × {t:g} ÷ "
                      f"{tps:,.0f} → **{b.units_at_target * unit_gpus} 张**；买少于 {b.gpus} 张之前先在这个负载下压测一次。")
    if b.enough is not None:
        line += ctx.t(f" Your {owned} GPUs are {'enough' if b.enough else 'not enough'}.",
                      f"你的 {owned} 张{'够' if b.enough else '不够'}。")
    if plan is not None:
        line += ctx.t(f" The estimate below (no benchmark) says {plan.total_gpus}: where they differ, trust your measurement.",
                      f"下面的估算（不看压测）是 {plan.total_gpus} 张：两者不同时以你的实测为准。")
    return [line, ""]


def _sequences_held(ctx: Ctx, model, gpu, n: int, context: int, users: int, fmt: str, kv_dtype: str | None) -> int | None:
    """The sequences of `context` tokens the same `n` GPUs hold under vLLM with weights in `fmt` and the KV cache in
    `kv_dtype` (None: the weights' own), from the memory tool; None when that set-up cannot be sized."""
    from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory

    args = {"num_gpus": n, "context": context, "precision": fmt, "batch": users, "engine": _engine(ctx, "vllm")}
    if kv_dtype:
        args["kv_dtype"] = kv_dtype
    try:
        r = ctx.call("size_infer", {"model": model.id, "gpu": gpu.id, **args},
                     estimate_inference_memory(InferenceMemoryRequest(model=model, gpu=gpu, **args)))
    except (ValueError, LookupError):
        return None
    return r.max_batch or 0


def _quoted_total(ctx: Ctx, plan, users: int) -> list[str]:
    """'a blog shows 12,000 tok/s on one H100; we need 50 users at 30 tok/s each': a quoted rate with no load beside it
    is a total over many streams at full load, not one user's speed; what this load needs in total is set beside it."""
    req = ctx.req
    quoted = req.throughput_tokens_per_s
    ctx.used.add("throughput_tokens_per_s")
    each = req.tokens_per_s_per_user or plan.tokens_per_s_per_user
    need = users * each
    return ["", ctx.t(
        f"**The quoted {quoted:,.0f} tokens/s** is a whole GPU's output summed over many streams at full load, not one "
        f"user's speed. Your load needs {users:,} × {each:g} = **{need:,.0f} tokens/s in total** ({need / quoted:.0%} of the "
        f"quoted figure); the plan above gives ≈ {plan.output_tokens_per_s:,.0f} tokens/s at your load and each user's "
        "speed, which is what to hold a vendor or a benchmark to.",
        f"**引用的 {quoted:,.0f} token/秒**是一张卡满载时很多路加起来的总输出，不是单个用户的速度。你的负载总共需要 "
        f"{users:,} × {each:g} = **{need:,.0f} token/秒**（是引用数字的 {need / quoted:.0%}）；上面的方案在你的负载下约 "
        f"{plan.output_tokens_per_s:,.0f} token/秒，并给出每个用户的速度，拿它去对照厂商或评测的数字。")]


def _quoted_rate_check(ctx: Ctx, model, gpu, plan) -> list[str]:
    """A rate measured or quoted for another model (and card), scaled to this job as a cross-check of the plan
    (tools.serve_measured.scale_quoted_rate); said as the rough ratio it is, never as the job's own rate."""
    from tools.params import count_parameters
    from tools.serve_measured import QuotedRate, scale_quoted_rate
    from tools.serving import DEFAULT_OUTPUT

    req = ctx.req
    ctx.used |= {"measured_model", "measured_rate_per_gpu", "measured_gpu"}
    try:
        old = ctx.deps.catalog.model(req.measured_model)[0]
    except (LookupError, ValueError):
        return []
    old_gpu = ctx.gpu(req.measured_gpu) if req.measured_gpu else gpu
    target = (req.requests_per_s or 0) * (req.output_len or min(DEFAULT_OUTPUT, max(1, _context(ctx) // 4)))
    target = float(f"{target:.3g}") if target else None  # (a rate read as requests/s of default answers: the rate stated)
    args = {"rate_per_gpu": req.measured_rate_per_gpu, "active_params_quoted": float(count_parameters(old).active),
            "active_params_job": float(count_parameters(model).active),
            "bandwidth_quoted_gbps": old_gpu.memory_bandwidth_gbps, "bandwidth_job_gbps": gpu.memory_bandwidth_gbps,
            "target_tokens_per_s": target}
    q = ctx.call("scale_quoted_rate", args, scale_quoted_rate(QuotedRate(**args)))
    a_old, a_new, bw = args["active_params_quoted"], args["active_params_job"], q.bandwidth_ratio
    card = ctx.t(f" x {bw:.2f} (memory bandwidth {gpu.memory_bandwidth_gbps:,.0f} / {old_gpu.memory_bandwidth_gbps:,.0f} GB/s)",
                 f" × {bw:.2f}（显存带宽 {gpu.memory_bandwidth_gbps:,.0f} / {old_gpu.memory_bandwidth_gbps:,.0f} GB/s）") \
        if old_gpu.id != gpu.id else ""
    line = ctx.t(f"**The quoted {req.measured_rate_per_gpu:,.0f} tokens/s per GPU is {old.name}'s, not {model.name}'s.** "
                 f"Scaled by the parameters each token reads ({a_old / 1e9:.1f}B / {a_new / 1e9:.1f}B active){card}, it "
                 f"suggests about **{q.rate_per_gpu:,.0f} tokens/s per GPU** for {model.name}",
                 f"**引用的每卡 {req.measured_rate_per_gpu:,.0f} token/秒是 {old.name} 的，不是 {model.name} 的。**按每个 "
                 f"token 读取的参数量折算（{a_old / 1e9:.1f}B / {a_new / 1e9:.1f}B 激活参数）{card}，{model.name} 约为"
                 f"**每卡 {q.rate_per_gpu:,.0f} token/秒**")
    if q.gpus_for_target:
        line += ctx.t(f": {target:,.0f} output tokens/s ÷ {q.rate_per_gpu:,.0f} ≈ **{q.gpus_for_target} GPUs**" +
                      (f" (the plan above: {plan.total_gpus})" if plan is not None else ""),
                      f"：{target:,.0f} 输出 token/秒 ÷ {q.rate_per_gpu:,.0f} ≈ **{q.gpus_for_target} 张**" +
                      (f"（上面的方案：{plan.total_gpus} 张）" if plan is not None else ""))
    line += ctx.t(". A rough cross-check: the quote's prompt lengths, batch and engine settings are not known here.",
                  "。只是粗略对照：引用数据的输入长度、batch 和引擎参数这里不知道。")
    return ["", line]


def serving_targets(ctx: Ctx) -> dict:
    """The latency targets the user stated: TTFT, ITL, or a per-user decode rate (X tokens/s each = ITL 1000/X ms)."""
    req = ctx.req
    itl = req.itl_ms
    if itl is None and req.tokens_per_s_per_user:
        itl = round(1000 / req.tokens_per_s_per_user, 3)
        ctx.notes.append(ctx.t(f"{req.tokens_per_s_per_user:g} tokens/s per user = an inter-token latency target of {itl:g} ms",
                               f"每用户 {req.tokens_per_s_per_user:g} token/秒 = 每 token 间隔目标 {itl:g} 毫秒"))
    elif itl is not None and req.tokens_per_s_per_user:
        ctx.ignore("tokens_per_s_per_user", "the stated inter-token latency target already sets the decode rate",
                   "已给出每 token 延迟目标，它决定了每用户速度")
    return {"ttft_s": req.ttft_s, "itl_ms": itl}


def _targets_text(plan) -> tuple[str, str]:
    """The stated latency targets of a serving plan, in English and Chinese ('' where none was stated)."""
    t, i = plan.targets.get("ttft_s"), plan.targets.get("itl_ms")
    en = " and ".join(x for x in (f"TTFT ≤ {t:g} s" if t else "", f"ITL ≤ {i:g} ms" if i else "") if x)
    zh = "、".join(x for x in (f"首 token ≤ {t:g} 秒" if t else "", f"每 token ≤ {i:g} 毫秒" if i else "") if x)
    return en, zh


def _serve_args(ctx: Ctx, model, gpu, fmt: str, context: int) -> dict:
    """The serving planner's arguments for the request: lengths, load, stated targets and engine settings."""
    from tools.engines import engine as engine_row
    from tools.serving import DEFAULT_OUTPUT

    req = ctx.req
    out = req.output_len or min(DEFAULT_OUTPUT, max(1, context // 4))
    prompt = req.prompt_len or max(1, context - out)
    engine = engine_row(req.engine or "vllm").id
    args = {"model": model.id, "gpu": gpu.id, "prompt_len": prompt, "output_len": out, "engine": engine,
            "precision": fmt, "kv_dtype": req.kv_dtype, "price_per_gpu_hour": req.price_per_gpu_hour}
    args |= {"users": req.concurrent_users} if req.concurrent_users else {"qps": req.requests_per_s}
    args |= {k: v for k, v in serving_targets(ctx).items() if v is not None}
    if req.gpu_memory_utilization:  # the user's engine settings: the plan runs with them, the launch line shows them
        args["memory_fraction"] = req.gpu_memory_utilization
    if req.max_num_seqs:
        args["max_num_seqs"] = req.max_num_seqs
        ctx.used.add("max_num_seqs")
    if req.tensor_parallel and "num_gpus" in req.stated and req.tensor_parallel <= (req.num_gpus or 0):
        args["tp"] = req.tensor_parallel
    if req.context and req.prompt_len and req.context > prompt + out:
        args["max_model_len"] = req.context
    return args


def band_high(model, metric: str) -> float:
    """How much slower than the estimate the band's slow end runs for this model's kind (dense or MoE)."""
    from tools.serve_bands import BANDS, kind_of

    return max(BANDS[kind_of(model)][metric][1], 1.0)


def _central_at_count(ctx: Ctx, model, gpu, fmt: str, context: int, n: int, plan):
    """The user's own GPU count, run without the targets, in the plan's tensor-parallel shape: its central TTFT and ITL
    (a ServePlan), or None when that count does not make whole replicas of the shape or the load does not fit on it.
    A plan sized at the safe end of the band may need more GPUs than the user has although the central estimate on
    theirs meets the targets: then both are said."""
    args = {k: v for k, v in _serve_args(ctx, model, gpu, fmt, context).items() if k not in ("ttft_s", "itl_ms")}
    tp = args.get("tp") or plan.tp
    if plan.pp > 1 or n % tp:
        return None
    try:
        at_n = _planned(ctx, model, gpu, args | {"tp": tp}, record=False)
    except ValueError:
        return None
    return at_n if at_n.total_gpus <= n else None


def _planned(ctx: Ctx, model, gpu, args: dict, record: bool = True):
    """The serving planner (tools/serving.py) on these arguments, recorded as a tool call unless `record` is False."""
    from tools.serving import ServeRequest, plan_serving

    plan = plan_serving(ServeRequest(model=model, gpu=gpu, prices=ctx.deps.prices(),
                                     **{k: v for k, v in args.items() if k not in ("model", "gpu")}))
    return ctx.call("plan_serve", args, plan) if record else plan


def _shape(plan) -> str:
    """'TP4 × 1', 'TP8 × PP2 × 1': a serving plan's layout and replicas."""
    return f"TP{plan.tp}" + (f" × PP{plan.pp}" if plan.pp > 1 else "") + f" × {plan.replicas}"


def _serve_plan(ctx: Ctx, model, gpu, fmt: str, context: int, users: int):
    """The serving planner for the users (or requests/s) asked about: (answer lines, plan), or a line saying why not."""
    from tools.serving import ServeTargetError

    req = ctx.req
    if not (req.concurrent_users or req.requests_per_s):
        return [], None
    if gpu.memory_bandwidth_gbps is None or gpu.vendor == "Apple":
        return [], None
    args = _serve_args(ctx, model, gpu, fmt, context)
    prompt, out = args["prompt_len"], args["output_len"]
    try:
        plan = _planned(ctx, model, gpu, args)
    except ServeTargetError as e:
        return ["", ctx.t(f"**Latency**: {e}", f"**延迟**：{e}")], None
    except ValueError as e:
        return ["", ctx.t(f"**Serving plan**: {e}", f"**服务规划**：{e}")], None
    n = req.num_gpus or 0
    if "num_gpus" in req.stated and "tp" not in args and plan.tp > 1 and plan.total_gpus < n <= (req.gpus_per_node or 8) \
            and model.num_attention_heads % n == 0:
        # '(c) 4x L40S AWQ': the option is the 4 cards written, one tensor-parallel group over all of them (faster per
        # user than the 2 the load alone needs), not a smaller set the user did not propose
        try:
            pinned = _planned(ctx, model, gpu, args | {"tp": n})
            if pinned.total_gpus == n:
                plan = pinned
                ctx.assume(f"all {n} GPUs you named in one tensor-parallel group (TP{n}); the load alone needs fewer",
                           f"你写的 {n} 张卡组成一个张量并行组（TP{n}）；只看负载用不了这么多")
        except ValueError:
            pass
    load = (ctx.t(f"{req.concurrent_users:,} concurrent users", f"{req.concurrent_users:,} 个并发用户")
            if req.concurrent_users else ctx.t(f"{req.requests_per_s:g} requests/s", f"每秒 {req.requests_per_s:g} 个请求"))
    shape = _shape(plan)
    cost = ("" if plan.cost_per_million_output_tokens_usd is None else
            ctx.t(f"; ${plan.cost_per_hour_usd:,.2f}/hour (${plan.cost_per_hour_usd * 730:,.0f} a month of 730 h), "
                  f"${plan.cost_per_million_output_tokens_usd:g} per 1M output tokens",
                  f"；每小时 {ctx.money(plan.cost_per_hour_usd, 2)}（每月 730 小时约 {ctx.money(plan.cost_per_hour_usd * 730)}），"
                  f"每百万输出 token {ctx.money(plan.cost_per_million_output_tokens_usd, 2)}"))
    en_t, zh_t = _targets_text(plan)
    band = plan.bands
    # the whole service's output rate and the requests it completes: what 'aggregate tok/s' and 'requests/min' ask
    per_min = plan.output_tokens_per_s / out * 60 if out else 0
    agg = (f"; all together ≈ {plan.output_tokens_per_s:,.0f} output tokens/s ≈ {per_min:,.0f} requests completed a minute "
           f"({per_min / 60:,.1f} requests/s)")
    agg_zh = (f"；合计 ≈ 每秒 {plan.output_tokens_per_s:,.0f} 个输出 token ≈ 每分钟完成 {per_min:,.0f} 个请求"
              f"（每秒 {per_min / 60:,.1f} 个）")
    within = (ctx.t(f" within {en_t}", f"在{zh_t}内") if plan.targets and plan.meets_targets else
              ctx.t(f" (**{en_t} not met** at the slow end of the estimate's band)", f"（**{zh_t}达不到**，按估计区间的慢端）")
              if plan.targets else "")
    per = req.gpus_per_node or 8
    boxes = ""
    if (req.gpus_per_node or re.search(r"几台|多少台|台服务器|台机器|整机|" + w(r"servers?|nodes?|boxes|machines"),
                                       ctx.question.lower())) and plan.total_gpus >= per:
        n_box = -(-plan.total_gpus // per)  # 'how many 8-GPU servers?': the count in whole machines
        boxes = ctx.t(f" = **{n_box} server{'s' if n_box > 1 else ''} of {per}**", f" = **{n_box} 台 {per} 卡机**")
    head = ctx.t(
        f"**{plan.total_gpus}× {gpu.name}**{boxes} ({shape} replicas) serve {load} at {prompt:,} prompt + {out:,} output tokens"
        f"{within}: TTFT ≈ {plan.ttft_s:.2f} s (likely {band['ttft_s'][0]:.2f}-{band['ttft_s'][1]:.2f} s), ITL ≈ "
        f"{plan.itl_ms:.0f} ms (likely {band['itl_ms'][0]:.0f}-{band['itl_ms'][1]:.0f} ms; {plan.tokens_per_s_per_user:g} "
        f"tokens/s per user){agg}{cost}.",
        f"**{plan.total_gpus} 张 {gpu.name}**{boxes}（{shape} 副本）{within}服务{load}（输入 {prompt:,} + 输出 {out:,} token）："
        f"首 token ≈ {plan.ttft_s:.2f} 秒（区间 {band['ttft_s'][0]:.2f}-{band['ttft_s'][1]:.2f} 秒），每 token ≈ "
        f"{plan.itl_ms:.0f} 毫秒（区间 {band['itl_ms'][0]:.0f}-{band['itl_ms'][1]:.0f} 毫秒；每用户 "
        f"{plan.tokens_per_s_per_user:g} token/秒）{agg_zh}{cost}。")
    tight = plan.with_default_targets
    if tight and tight.get("total_gpus") and tight["total_gpus"] > 2 * plan.total_gpus:
        tight = None  # (a target nobody set that takes several times the GPUs is noise beside the plan, not advice)
    if tight and not tight.get("same_as_plan"):
        head += "\n\n" + (ctx.t(f"No latency target was stated, so none is imposed; for TTFT ≤ {tight['ttft_s']:g} s and "
                                 f"ITL ≤ {tight['itl_ms']:g} ms it would take **{tight['total_gpus']}** GPUs.",
                                 f"没有给延迟目标，就不强加；若要首 token ≤ {tight['ttft_s']:g} 秒、每 token ≤ "
                                 f"{tight['itl_ms']:g} 毫秒，需要 **{tight['total_gpus']}** 张。") if tight.get("total_gpus") else
                           ctx.t(f"No latency target was stated, so none is imposed; TTFT ≤ {tight['ttft_s']:g} s and "
                                 f"ITL ≤ {tight['itl_ms']:g} ms cannot be promised here: {tight.get('why_not')}.",
                                 f"没有给延迟目标，就不强加；首 token ≤ {tight['ttft_s']:g} 秒、每 token ≤ "
                                 f"{tight['itl_ms']:g} 毫秒在这里无法保证：{_why_not_zh(tight, prompt)}。"))
    if not ctx.one_of_several and re.search(r"客服|上线|线上|生产|对外|用户|客户|(?<![a-z])(?:chatbot|bot|production|customers?|"
                                            r"users|public|service|launch\w*|app|api)(?![a-z])", ctx.question.lower()):
        # ('a chatbot doing ~20 req/s at peak: how many?'): a service sized exactly to its peak has no room for a failure
        unit = plan.tp * plan.pp
        head += "\n\n" + ctx.t(
            f"For a production service add one replica (+{unit} GPU{'s' if unit > 1 else ''}, N+1): sized exactly to the "
            "peak, one failed GPU or a rolling deploy drops you below it.",
            f"线上服务再加一个副本（+{unit} 张卡，N+1）：正好按峰值配的话，坏一张卡或滚动发布时就扛不住峰值了。")
    return ["", head, "", f"`{plan.launch_command}`"], plan


def load_growth(ctx: Ctx) -> Answer:
    """'Users will double next month: do we need 2 more A100s?': the load the GPUs now hold against the grown one. With
    today's load known (users stated now or earlier), the grown load is planned on the GPUs named; without it, what
    the GPUs hold is said, with the rule that decides, and today's peak is asked (the answer hinges on it)."""
    from assistant.request import Clarification

    req = ctx.req
    k = req.load_multiplier
    ctx.used.add("load_multiplier")
    base = req.concurrent_users
    if base:  # the grown load, planned as any load is
        grown = int(round(base * k))
        ctx.req = req.model_copy(update={"concurrent_users": grown, "intent": "serving"})
        ctx.assume(f"{base:,} users × {k:g} = {grown:,} concurrent users", f"{base:,} 个用户 × {k:g} = {grown:,} 个并发用户")
        return serving(ctx)
    model, gpu, n = ctx.job(DEFAULT_SERVING_GPU)
    fmt = _served_format(ctx, model, gpu)
    context = _context(ctx)
    r = _size(ctx, model, gpu, fmt, 1, _engine(ctx, "vllm"), context)
    held = r.max_batch or 0
    rate_line, rate = _rate_at_capacity(ctx, model, gpu, fmt, context, held) if held else ([], None)
    head = ctx.t(
        f"**It depends on how many requests run at once at your peak today (say it and I'll size it).** The rule: "
        f"{n}× {gpu.name} hold up to **{held}** concurrent sequences of {context:,} tokens in {fmt} (the KV pool); "
        f"after the growth your peak is {k:g}× today's. If {k:g}× today's peak stays under {held}, the cards you have "
        f"carry it (each user a little slower); above it, requests queue and you need more cards: {2 * n} of them as "
        f"a second copy of today's set-up hold about {2 * held}.",
        f"**取决于你们现在高峰时同时有多少请求（告诉我就能算）。** 规则：{n} 张 {gpu.name} 用 {fmt} 最多能同时放 **{held}** 路 "
        f"{context:,} token 的请求（KV 池）；增长后峰值是现在的 {k:g} 倍。若现在峰值的 {k:g} 倍仍小于 {held}，现有的卡扛得住（每个"
        f"用户会慢一点）；超过就会排队，需要加卡：再加一套同样的 {n} 张（共 {2 * n} 张）约能放 {2 * held} 路。")
    clar = Clarification(missing=["concurrent_users"],
                         question=ctx.t("How many requests run at once at your peak today?", "你们现在高峰时同时有多少个请求？"),
                         suggestions=[ctx.t(f"{x} concurrent users today", f"现在 {x} 个并发") for x in (10, 30, 60)])
    figures = {"max_concurrent_sequences": held, "load_multiplier": k}
    if rate:
        figures |= rate
    text = "\n\n".join([head] + [x for x in rate_line if x]) + assumptions_md(ctx.lang, ctx.notes + r.assumptions)
    return Answer(answer=text, lang=ctx.lang, intent="serving", figures=figures, tool_calls=ctx.calls,
                  verdict=Verdict(fits=r.fits, gpu=gpu.id, num_gpus=n, method="inference"), clarification=clar)


def _fp8_alternative(ctx: Ctx, model, gpu, fmt: str, context: int, plan) -> list[str]:
    """'How many H100s for 20 users of a 70B?': the published 16-bit weights planned, and FP8 beside them when the card
    computes FP8 natively and it takes fewer GPUs (the format practitioners serve such models in; quality near-lossless
    on published evaluations), never silently chosen."""
    req = ctx.req
    if ctx.one_of_several or req.precision or req.full_model or _bits(fmt) < 16 or not supported_on("fp8", gpu)[0]:
        return []
    args = _serve_args(ctx, model, gpu, "fp8", context)
    try:
        p8 = _planned(ctx, model, gpu, args)
    except ValueError:
        return []
    if p8.total_gpus >= plan.total_gpus:
        return []
    shape = _shape(p8)
    cost = (ctx.t(f", ${p8.cost_per_hour_usd:,.2f}/hour", f"，每小时 {ctx.money(p8.cost_per_hour_usd, 2)}")
            if p8.cost_per_hour_usd else "")
    return ["", ctx.t(
        f"**In FP8: {p8.total_gpus}× {gpu.name}** ({shape} replicas; an FP8 checkpoint or vLLM `--quantization fp8`, "
        f"{gpu.name} computes FP8 natively; quality close to BF16 on published evaluations): ITL ≈ {p8.itl_ms:.0f} ms "
        f"({p8.tokens_per_s_per_user:g} tokens/s per user), TTFT ≈ {p8.ttft_s:.2f} s{cost}.",
        f"**用 FP8：{p8.total_gpus} 张 {gpu.name}**（{shape} 副本；FP8 权重或 vLLM `--quantization fp8`，{gpu.name} 原生支持 FP8；"
        f"公开评测上质量接近 BF16）：每 token ≈ {p8.itl_ms:.0f} 毫秒（每用户 {p8.tokens_per_s_per_user:g} token/秒），"
        f"首 token ≈ {p8.ttft_s:.2f} 秒{cost}。")]


def _why_not_zh(tight: dict, prompt: int) -> str:
    """Why a latency target cannot be met, in Chinese, from the bound the layout search hit (its English text otherwise)."""
    b = tight.get("bound") or {}
    layout = f"TP{b.get('tp', 1)}"
    if b.get("bound") == "ttft":
        return f"一个 {prompt:,} token 的提示即使单独在 {layout} 上预填充也要 {b['best_ttft_s']:.2f} 秒"
    if b.get("bound") == "itl":
        layout += f" × PP{b['pp']}" if (b.get("pp") or 1) > 1 else ""
        return f"即使只有一路，在 {layout} 上每 token 也要 {b['best_itl_ms']:.1f} 毫秒（需要更小的格式、更快的卡或投机解码）"
    return tight.get("why_not") or ""


def batch_job(ctx: Ctx) -> Answer:
    """'How long to run 10M documents of 1k tokens through 8B on 8 H100s?': each replica (the fewest GPUs that hold the
    model, TP inside) runs at full load; requests/s per replica = 1 / (one prompt's prefill + output / the batch's
    tokens/s); time = items / (requests/s x replicas)."""
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed

    req, lang = ctx.req, ctx.lang
    if req.throughput_tokens_per_s and (req.batch_items or req.batch_output_tokens):
        return _measured_batch_job(ctx)
    model, gpu, n = ctx.job(DEFAULT_SERVING_GPU)
    prompt = req.prompt_len or req.context or 1024
    out = req.output_len or 256
    if not (req.prompt_len or req.context):
        ctx.assume(f"{prompt} prompt tokens per item", f"每条输入 {prompt} token")
    if not req.output_len:
        ctx.assume(f"{out} output tokens per item", f"每条输出 {out} token")
    fmt = _speed_format(ctx, model, gpu, 1, prompt + out, n)
    width = _gpus_for_weights(ctx, model, gpu, fmt, 1, prompt + out) if n > 1 else 1
    width = min(width, n)
    replicas = max(1, n // width)
    base = {"num_gpus": width, "precision": fmt, "context": prompt, "output": out, "engine": "vllm"}
    one = ctx.call("time_infer", {"model": model.id, "gpu": gpu.id, **base, "batch": 1},
                   estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, batch=1, **base)))
    seqs = max(1, min(one.max_batch_that_fits or 1, BATCHED_SEQS))
    full = ctx.call("time_infer", {"model": model.id, "gpu": gpu.id, **base, "batch": seqs},
                    estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, batch=seqs, **base)))
    rps = requests_per_s(one.ttft_s, out, full.decode_tokens_per_s_total) * replicas
    if req.batch_output_tokens:  # '总共要生成 50 亿 token': the output in all, at the rate the batch reaches
        return _output_job(ctx, model, gpu, n, prompt, out, rps, replicas, width, seqs, full)
    hours = req.batch_items / rps / 3600
    head = ctx.t(f"**About {hours:,.1f} hours** ({hours / 24:,.1f} days) for {req.batch_items:,} items of {prompt:,} prompt + "
                 f"{out:,} output tokens on {n}× {gpu.name}: {replicas} replica(s) of {width} GPU(s), each at {seqs} sequences "
                 f"at once, about {rps:,.1f} items/s in all ({rps * out:,.0f} output tokens/s).",
                 f"**约 {hours:,.1f} 小时**（{hours / 24:,.1f} 天）：{req.batch_items:,} 条，每条输入 {prompt:,} + 输出 {out:,} "
                 f"token，{n} 张 {gpu.name}：{replicas} 个副本、每个 {width} 张卡、同时 {seqs} 条，合计每秒约 {rps:,.1f} 条"
                 f"（输出 {rps * out:,.0f} token/秒）。")
    gpu_hours = hours * n
    rate = req.price_per_gpu_hour or typical_rate(ctx, gpu.id)
    lines = [head]
    if rate:
        lines.append(ctx.t(f"{gpu_hours:,.0f} GPU-hours; at {rate:,.2f} per GPU-hour about {gpu_hours * rate:,.0f}.",
                           f"共 {gpu_hours:,.0f} 卡时；按每卡时 {rate:,.2f} 约 {gpu_hours * rate:,.0f}。"))
    ctx.notes.append(ctx.t("each item's prompt is prefilled once and its output decoded within the running batch (vLLM "
                           "continuous batching); data loading and retries not counted",
                           "每条的输入预填充一次，输出在运行中的批次里解码（vLLM 连续批处理）；不含数据加载和重试"))
    figures = {"batch_job_hours": round(hours, 3), "items_per_s": round(rps, 3), "replicas": replicas,
               "gpus_per_replica": width, "gpu_hours": round(gpu_hours, 2)}
    text = "\n".join(lines) + assumptions_md(lang, ctx.notes + full.assumptions)
    return Answer(answer=text, lang=lang, intent="inference_speed", tool_calls=ctx.calls, figures=figures,
                  verdict=Verdict(gpu=gpu.id, num_gpus=n, method="inference"))


BATCH_HEADROOM = 0.15  # stragglers, restarts and ramp-up on an offline run: 15% more GPUs than the bare arithmetic


def _measured_batch_job(ctx: Ctx) -> Answer:
    """An offline job with the user's own measured output rate per GPU ('3,100 output tok/s on 1x H100 … 20M docs
    over a weekend (48h): how many H100s?'): output tokens in all / (the measured rate x the hours) = GPUs, rounded up,
    with headroom; without a deadline, the hours on the GPUs stated."""
    req, lang = ctx.req, ctx.lang
    model, gpu, _ = ctx.job(DEFAULT_SERVING_GPU)
    out = req.output_len or 256
    if not req.output_len:
        ctx.assume(f"{out} output tokens per item", f"每条输出 {out} token")
    total = req.batch_output_tokens or (req.batch_items or 0) * out
    per_gpu = req.throughput_tokens_per_s / max(1, req.measured_num_gpus or (req.num_gpus if "num_gpus" in req.stated
                                                                               else 1) or 1) \
        if req.throughput_scope == "total" else req.throughput_tokens_per_s
    hours = req.deadline_hours or req.period_hours
    ctx.used |= {"throughput_tokens_per_s", "batch_items", "batch_output_tokens", "output_len", "prompt_len",
                 "measured_concurrency", "period_hours", "deadline_hours", "num_gpus", "engine", "precision"}
    items = f"{req.batch_items:,} items × {out:,} output tokens = " if req.batch_items else ""
    items_zh = f"{req.batch_items:,} 条 × 每条输出 {out:,} token = " if req.batch_items else ""
    figures: dict[str, Any] = {"batch_output_tokens": total, "measured_tokens_per_s_per_gpu": per_gpu}
    if hours:
        bare = total / (per_gpu * hours * 3600)
        n = math.ceil(bare)
        room = math.ceil(bare * (1 + BATCH_HEADROOM))
        figures |= {"gpus_needed": n, "gpus_with_headroom": room}
        head = ctx.t(f"**{n} × {gpu.name}** at your measured rate ({room} with {BATCH_HEADROOM:.0%} headroom): {items}"
                     f"{total:,.3g} output tokens; one GPU makes {per_gpu:,.0f} tokens/s × {hours:,.0f} h × 3,600 = "
                     f"{per_gpu * hours * 3600:,.3g}; {total:,.3g} / that = {bare:,.1f} → {n}.",
                     f"**按你的实测要 {n} 张 {gpu.name}**（留 {BATCH_HEADROOM:.0%} 余量 {room} 张）：{items_zh}{total:,.3g} 个输出 "
                     f"token；每张卡 {per_gpu:,.0f} token/秒 × {hours:,.0f} 小时 × 3600 = {per_gpu * hours * 3600:,.3g}；"
                     f"{total:,.3g} ÷ 它 = {bare:,.1f} → {n}。")
    else:
        n = req.num_gpus or 1
        h = total / (per_gpu * n) / 3600
        figures["batch_job_hours"] = round(h, 2)
        head = ctx.t(f"**About {h:,.1f} hours on {n} × {gpu.name}** at your measured {per_gpu:,.0f} output tokens/s per GPU: "
                     f"{items}{total:,.3g} output tokens / ({per_gpu:,.0f} × {n}) / 3,600.",
                     f"**按你实测的每卡 {per_gpu:,.0f} 输出 token/秒，{n} 张 {gpu.name} 约 {h:,.1f} 小时**：{items_zh}{total:,.3g} 个"
                     f"输出 token ÷（{per_gpu:,.0f} × {n}）÷ 3600。")
    lines = [head]
    if req.measured_concurrency and req.measured_concurrency < 128:
        lines.append(ctx.t(f"You measured at {req.measured_concurrency} requests in flight; an offline job can run more "
                           "(128-256, memory permitting), which usually raises tokens/s per GPU and cuts the count: measure "
                           "at the higher setting before renting, do not assume it.",
                           f"你是在 {req.measured_concurrency} 并发下测的；离线任务可以开更高（显存允许时 128-256），每卡吞吐通常更高、"
                           "卡数更少：租之前在更高并发下再测一次，别直接假设。"))
    lines.append(ctx.t("Prefill is inside your measurement (it ran with your prompts); keep the prompt mix of the real "
                       "documents, and plan retries and a slow tail.",
                       "预填充已包含在你的实测里（用的是你的输入）；正式跑要保持真实文档的长度分布，并预留重试和拖尾。"))
    ctx.assume(f"{per_gpu:,.0f} output tokens/s per GPU: your measurement, used as the rate (not an estimate)",
               f"每卡 {per_gpu:,.0f} 输出 token/秒：你的实测值，直接作为速率（不用估算）")
    text = "\n\n".join(lines) + assumptions_md(lang, ctx.notes)
    return Answer(answer=text, lang=lang, intent="inference_speed", tool_calls=ctx.calls, figures=figures,
                  verdict=Verdict(gpu=gpu.id, num_gpus=figures.get("gpus_needed") or n, method="inference"))


def _output_job(ctx: Ctx, model, gpu, n: int, prompt: int, out: int, rps: float, replicas: int, width: int, seqs: int,
                full) -> Answer:
    """An offline job given as output tokens in all: hours = tokens / (the set-up's output tokens/s at full load), its
    GPU-hours at the user's (else the table's) rate, and the cost per 1M output tokens; more GPUs of the same kind cut
    the hours, not the cost."""
    req, lang = ctx.req, ctx.lang
    total = req.batch_output_tokens
    tps = rps * out  # output tokens/s of the whole set-up
    hours = total / tps / 3600
    gpu_hours = hours * n
    rate = (req.gpu_rental_prices or {}).get(gpu.id) or req.price_per_gpu_hour or typical_rate(ctx, gpu.id, req.currency)
    ctx.used |= {"batch_output_tokens", "gpu_rental_prices", "price_per_gpu_hour", "currency"}
    sym = "¥" if req.currency == "CNY" else "$"
    mine = (req.gpu_rental_prices or {}).get(gpu.id) or req.price_per_gpu_hour
    lines = [ctx.t(f"**{total:,.3g} output tokens on {n}× {gpu.name}: about {hours:,.1f} hours ({hours / 24:,.1f} days)** at "
                   f"{tps:,.0f} output tokens/s ({replicas} replica(s) of {width} GPU(s), {seqs} sequences at once, "
                   f"{prompt:,} prompt + {out:,} output tokens each).",
                   f"**{n} 张 {gpu.name} 生成 {total:,.3g} 个输出 token：约 {hours:,.1f} 小时（{hours / 24:,.1f} 天）**，满载每秒 "
                   f"{tps:,.0f} 个输出 token（{replicas} 个副本、每个 {width} 张卡、同时 {seqs} 条，每条输入 {prompt:,} + 输出 {out:,}）。")]
    figures = {"batch_job_hours": round(hours, 2), "decode_tokens_per_s_total": round(tps, 1), "gpu_hours": round(gpu_hours, 1),
               "replicas": replicas, "gpus_per_replica": width}
    if rate:
        cost, per_m = gpu_hours * rate, rate * n / (tps * 3600 / 1e6)
        figures |= {"batch_job_cost": round(cost, 2), "cost_per_million_tokens": round(per_m, 4)}
        said = ctx.t("your price" if mine else "typical on-demand rate, price table", "你给的价格" if mine else "价格表典型按需价")
        lines.append(ctx.t(f"{gpu_hours:,.0f} GPU-hours × {sym}{rate:,.2f} ({said}) = **{sym}{cost:,.0f}**, "
                           f"{sym}{per_m:,.3f} per 1M output tokens. More GPUs of this kind cut the hours, not the cost "
                           "(N cards: 1/N the time).",
                           f"{gpu_hours:,.0f} 卡时 × {sym}{rate:,.2f}（{said}）= **{sym}{cost:,.0f}**，每百万输出 token "
                           f"{sym}{per_m:,.3f}。同种卡加到 N 张，时间变成 1/N，总成本不变。"))
    ctx.notes.append(ctx.t("a full-load estimate (vLLM continuous batching); measure one hour on each card before renting "
                           "many: the real rate decides the bill", "满载估算（vLLM 连续批处理）；大批量租之前，每种卡先租一台实测一小时，"
                           "真实吞吐决定账单"))
    text = "\n".join(lines) + assumptions_md(lang, ctx.notes + full.assumptions)
    return Answer(answer=text, lang=lang, intent="inference_speed", tool_calls=ctx.calls, figures=figures,
                  verdict=Verdict(gpu=gpu.id, num_gpus=n, method="inference"))


def inference_speed(ctx: Ctx) -> Answer:
    """Time to first token and decode speed. The format is the one the question fixes, else the best that fits (the
    published checkpoint's when it fits; a smaller one, said, when it does not: a speed for a set-up that cannot
    load helps nobody). A stated TTFT or per-user rate is checked; 'max throughput' is the largest batch that fits."""
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed

    req, lang = ctx.req, ctx.lang
    if req.measured_gpu and req.throughput_tokens_per_s and req.model and req.measured_gpu != req.gpu:
        return measured_speed_moved(ctx)  # (first: a measured set-up carried to another card, llama.cpp's too)
    if _offloads(ctx) and not _unified(ctx):
        return offload(ctx)
    if (req.batch_items or req.batch_output_tokens) and req.model:
        return batch_job(ctx)
    if req.measured_gpu and req.throughput_tokens_per_s and req.model:
        return measured_speed_moved(ctx)
    model, gpu, n = ctx.job(DEFAULT_SERVING_GPU)
    prompt = req.prompt_len or req.context or 2048
    if not (req.prompt_len or req.context):
        ctx.assume("prompt 2048", "输入 2048")
    out = req.output_len or 256
    batch = req.batch or req.concurrent_users or 1
    fixed = weight_format_for(ctx, model, gpu)
    if not req.num_gpus and req.max_throughput and fixed is None:
        n = _gpus_for_native(ctx, model, gpu, batch, prompt + out)  # full load: as many cards as the checkpoint needs
    elif not req.num_gpus and fixed is not None:
        n = _gpus_for_weights(ctx, model, gpu, fixed, batch, prompt + out)  # 'BF16 70B on H100s': TP 2, not one card
    fmt = _speed_format(ctx, model, gpu, batch, prompt + out, n)
    args: dict[str, Any] = {"num_gpus": n, "context": prompt, "output": out, "batch": batch,
                            "precision": fmt, "engine": _speed_engine(ctx, "vllm")}
    if req.kv_dtype:
        args["kv_dtype"] = req.kv_dtype
    if req.interconnect and (req.interconnect.startswith("ethernet") or req.interconnect in ("infiniband", "roce")):
        # 'two 8x 4090 servers over 10GbE': tensor parallelism wider than a server crosses that network
        args["server_link"] = req.interconnect
        ctx.used.add("interconnect")
    if req.gpus_per_node:
        args["gpus_per_node"] = req.gpus_per_node
    if req.pipeline_parallel and req.pipeline_parallel > 1 and n % req.pipeline_parallel == 0:
        args["pipeline"] = req.pipeline_parallel  # 'TP8+PP2': the layout as written
        ctx.used |= {"pipeline_parallel", "tensor_parallel"}
    if req.mfu:  # 'we see about 35% MFU during prefill': the prefill runs at the user's measured share of peak
        args["prefill_mfu"] = req.mfu
        ctx.used.add("mfu")
    r = ctx.call("time_infer", {"model": model.id, "gpu": gpu.id, **args},
                 estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, **args)))
    queued = None
    if req.max_throughput and not req.batch and r.max_batch_that_fits and r.max_batch_that_fits > batch:
        from tools.engines import ENGINES

        cap = getattr(ENGINES.get(args["engine"]), "max_num_seqs", None)
        args["batch"] = batch = min(r.max_batch_that_fits, cap or r.max_batch_that_fits)
        if batch < r.max_batch_that_fits:  # the engine runs at most its running-sequence cap at once, whatever fits
            flag = ENGINES[args["engine"]].max_num_seqs_flag
            ctx.notes.append(ctx.t(f"maximum throughput: {batch} sequences of {prompt + out:,} tokens at once, the engine's "
                                   f"default {flag} {cap} ({r.max_batch_that_fits:,} would fit in memory; raise {flag} "
                                   "for more)", f"最大吞吐：同时 {batch} 条 {prompt + out:,} token 的序列，即引擎默认的 "
                                   f"{flag} {cap}（显存放得下 {r.max_batch_that_fits:,} 条；调大 {flag} 可以更多）"))
        else:
            ctx.notes.append(ctx.t(f"maximum throughput: the largest batch that fits, {batch} sequences of {prompt + out:,} "
                                   "tokens", f"最大吞吐：放得下的最大 batch，{batch} 条 {prompt + out:,} token 的序列"))
        r = ctx.call("time_infer", {"model": model.id, "gpu": gpu.id, **args},
                     estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, **args)))
    elif batch > 1 and r.max_batch_that_fits and 1 <= r.max_batch_that_fits < batch:
        # '20 users on one 4090': only so many sequences fit at once; the engine runs those and queues the rest
        asked = queued = batch
        args["batch"] = batch = r.max_batch_that_fits
        ctx.notes.append(ctx.t(f"{asked} sequences asked, {batch} fit in memory at once: timed at {batch}, the rest wait "
                               "in the engine's queue", f"问的是 {asked} 条序列，显存一次只放得下 {batch} 条：按 {batch} 条计时，"
                               "其余在引擎队列里等"))
        r = ctx.call("time_infer", {"model": model.id, "gpu": gpu.id, **args},
                     estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, **args)))
    rows = [[T(lang, "ttft"), f"{r.ttft_s * 1000:,.0f} ms"],
            [T(lang, "per_seq"), f"{r.decode_tokens_per_s_per_seq:,.1f} tokens/s"],
            [T(lang, "total"), f"{r.decode_tokens_per_s_total:,.0f} tokens/s"], ["bound", r.decode_bound],
            [T(lang, "max_batch"), str(r.max_batch_that_fits)]]
    sized_now = next((c.result for c in reversed(ctx.calls) if c.name == "size_infer"
                      and c.args.get("precision") == fmt), None)
    if sized_now and sized_now.get("max_context"):  # how long a conversation this set-up holds
        rows.append([ctx.t("longest context (one sequence)", "最长上下文（单条）"),
                     f"{sized_now['max_context']:,} tokens" + (ctx.t(f" (the model's limit is {model.max_context:,})",
                                                                      f"（模型上限 {model.max_context:,}）")
                                                               if getattr(model, "max_context", None) and
                                                               sized_now["max_context"] > model.max_context else "")])
    if sized_now and sized_now.get("weights_total_gb"):  # what it takes in memory, beside how fast it goes
        kvb = sized_now.get("kv_cache_bytes_per_token") or 0
        rows.append([ctx.t("memory", "显存"),
                     ctx.t(f"weights {sized_now['weights_total_gb']:,.1f} GB in {fmt}" + (f" over {n} GPUs" if n > 1 else "")
                           + (f"; KV cache {kvb / 1024:,.0f} KiB per token ({kvb * prompt / 1e9:,.2f} GB for one {prompt:,}-token "
                              "prompt)" if kvb else ""),
                           f"{fmt} 权重 {sized_now['weights_total_gb']:,.1f} GB" + (f"（{n} 张卡分摊）" if n > 1 else "")
                           + (f"；KV cache 每 token {kvb / 1024:,.0f} KiB（一条 {prompt:,} token 输入占 {kvb * prompt / 1e9:,.2f} GB）"
                              if kvb else ""))])
    batched = None
    also_many = req.batch == 1 and bool(re.search(r"多少(?:个|路)?(?:并发|用户|人)|能(?:撑|扛|带)多少|" + w(
        r"how many (?:concurrent|simultaneous|parallel)|how many (?:chats|users|sessions|requests)|max(?:imum)? concurren\w*"),
        ctx.question.lower()))  # ('tok/s for a single user, and how many concurrent chats?': both asked)
    if batch == 1 and (not (req.batch or req.concurrent_users or req.max_throughput) or also_many) and \
            gpu.vendor != "Apple" and (r.max_batch_that_fits or 0) > 1:
        # one stream is what a chat user sees; a server's throughput is the batch: both, unless one was asked
        many = min(r.max_batch_that_fits, BATCHED_SEQS)
        batched = ctx.call("time_infer", {"model": model.id, "gpu": gpu.id, **args, "batch": many},
                           estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, **(args | {"batch": many}))))
        rows.append([ctx.t(f"serving {many} sequences at once", f"同时服务 {many} 条序列"),
                     ctx.t(f"{batched.decode_tokens_per_s_total:,.0f} tokens/s in total, "
                           f"{batched.decode_tokens_per_s_per_seq:,.1f} each",
                           f"合计 {batched.decode_tokens_per_s_total:,.0f} token/s，每条 {batched.decode_tokens_per_s_per_seq:,.1f}")])
        ctx.notes.append(ctx.t(f"batched figure: {many} sequences decoded together (the fewer of what fits and vLLM's "
                               f"default --max-num-seqs {BATCHED_SEQS})", f"批量数字：{many} 条序列一起解码（放得下的数量与 "
                               f"vLLM 默认 --max-num-seqs {BATCHED_SEQS} 取小）"))
    checks = _target_checks(ctx, r)
    if req.ttft_s and r.ttft_s <= req.ttft_s:  # 'how many such prompts a second before TTFT goes over 1 s?'
        from tools.serve_load import max_rate_within_ttft

        one = r if batch == 1 else estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, **(args | {"batch": 1})))
        lam = ctx.call("max_rate_within_ttft", {"prefill_s": one.ttft_s, "ttft_s": req.ttft_s},
                       {"prompts_per_s": round(max_rate_within_ttft(one.ttft_s, req.ttft_s), 3)})["prompts_per_s"]
        ctx.used.add("ttft_s")
        checks.append(ctx.t(f"**Up to ~{lam:.1f} such prompts a second** keep the mean TTFT within {req.ttft_s:g} s on this "
                            f"replica (each prefill {one.ttft_s:.2f} s; queueing M/D/1: TTFT = P + ρP/(2(1-ρ)); the "
                            "decode of running requests, which shares the GPUs, lowers it further).",
                            f"**每秒最多约 {lam:.1f} 个这样的请求**，平均首 token 仍在 {req.ttft_s:g} 秒内（每次预填充 {one.ttft_s:.2f} 秒；"
                            "M/D/1 排队：TTFT = P + ρP/(2(1-ρ))；正在解码的请求也占 GPU，实际还会更低）。"))
    elif req.ttft_s and r.ttft_s > req.ttft_s and re.search(
            r"每秒|qps|rps|req(?:uest)?s?\s*/\s*s|requests? (?:per|a) second|" + w(r"how many (?:requests|prompts)"),
            ctx.question.lower()):
        # 'how many req/s per GPU before TTFT blows up?' where one prompt alone already misses it: none as it stands;
        # what FP8 (a faster prefill) would take, where the card computes it
        checks.append(_rate_if_fp8(ctx, model, gpu, args, fmt))
    sized_fmt = next((c.result for c in reversed(ctx.calls) if c.name == "size_infer" and c.args.get("precision") == fmt), None)
    remedy = _standard_fix(ctx, model, gpu, n, fmt, prompt + out, batch) if (
        sized_fmt and not sized_fmt.get("fits") and not queued) else None
    if remedy:  # 'does not fit' under the engine's defaults, but a standard setting makes it fit: that is the answer
        checks.insert(0, remedy)
    elif sized_fmt and sized_fmt.get("fits") and sized_fmt.get("usable_gb") and re.search(
            r"能跑|跑得动|跑得起来|放得下|装得下|够不够|够吗|能不能|可以吗|" + w(r"fits?|run|runs|handle|enough|possible|doable|load"),
            ctx.question.lower()):  # 'can it run X, and how fast?': the fit, said before the speed
        share = (sized_fmt.get("per_gpu_gb") or 0) / sized_fmt["usable_gb"]
        tight = share > TIGHT_SHARE
        checks.insert(0, ctx.t(f"**Fits{', tightly' if tight else ''}**: {fmt} on {n}× {gpu.name} takes "
                               f"{sized_fmt.get('per_gpu_gb', 0):,.1f} GB per GPU of {sized_fmt['usable_gb']:,.1f} GB usable "
                               f"({share:.0%})" + (": little room for longer contexts or more users." if tight else "."),
                               f"**放得下{'，但很紧' if tight else ''}**：{fmt} 在 {n} × {gpu.name} 上每卡占 "
                               f"{sized_fmt.get('per_gpu_gb', 0):,.1f} GB（可用 {sized_fmt['usable_gb']:,.1f} GB，{share:.0%}）"
                               + ("：更长的上下文或更多用户几乎没有余地。" if tight else "。")))
    elif sized_fmt and not sized_fmt.get("fits") and not queued and sized_fmt.get("usable_gb") and \
            (sized_fmt.get("per_gpu_gb") or 0) > 2 * sized_fmt["usable_gb"]:
        # '70B in fp16 on one 4090 at 128k for 100 users': far from loading; a speed for it would be fiction
        kvb = sized_fmt.get("kv_cache_bytes_per_token") or 0
        need = max((sized_fmt.get("per_gpu_gb") or 0) * n,
                   (sized_fmt.get("weights_total_gb") or 0) + kvb * (prompt + out) * max(batch, queued or 0) / 1e9)
        batch = max(batch, queued or 0)
        least = math.ceil(need / (0.9 * sized_fmt["usable_gb"]))
        rows = [row for row in rows if row[0] in (ctx.t("memory", "显存"),)]
        mac = _mac_does_not_hold(ctx, model, gpu, prompt + out) if gpu.vendor == "Apple" else None
        if mac:  # a Mac is one machine: no 'at least 6 such GPUs'; the 4-bit need, the Mac that holds it, smaller models
            checks[:0] = mac
        else:
            checks.insert(0, ctx.t(
                f"**Does not fit on {n}× {gpu.name}, by far**: {fmt} weights and the KV cache of {batch} × "
                f"{prompt + out:,} tokens need about {need:,.0f} GB against {n * sized_fmt['usable_gb']:,.0f} GB usable: at "
                f"least ~{least:,} such GPUs by memory alone (fewer with a shorter context, fewer users at once, FP8/INT4 "
                "weights or an FP8 KV cache). No speed is estimated for a set-up that cannot load.",
                f"**{n} × {gpu.name} 远远放不下**：{fmt} 权重加 {batch} × {prompt + out:,} token 的 KV cache 约需 {need:,.0f} GB，"
                f"可用只有 {n * sized_fmt['usable_gb']:,.0f} GB：仅按显存就至少要约 {least:,} 张这样的卡（缩短上下文、减少同时用户、"
                "用 FP8/INT4 权重或 FP8 KV cache 可以少一些）。装不下的配置不估算速度。"))
    elif sized_fmt and not sized_fmt.get("fits") and not queued:  # said first, not left in the assumptions
        checks.insert(0, ctx.t(f"**Does not fit**: {fmt} needs {sized_fmt.get('per_gpu_gb', 0):,.1f} GB on each of {n} × {gpu.name}"
                               + (f" (at least {sized_fmt['min_gpus']} needed)" if sized_fmt.get("min_gpus") else "")
                               + "; the speeds above are what it would run at if it did.",
                               f"**放不下**：{fmt} 在 {n} × {gpu.name} 上每卡要 {sized_fmt.get('per_gpu_gb', 0):,.1f} GB"
                               + (f"（至少要 {sized_fmt['min_gpus']} 张）" if sized_fmt.get("min_gpus") else "")
                               + "；上面的速度是假如放得下时的数字。"))
    said = sized_fmt and not sized_fmt.get("fits") and not queued  # the fit is said above (a setting, or 'does not fit')
    kept = [x for x in r.assumptions if not (said and x.startswith("this configuration does not fit"))]
    text = (T(lang, "speed_head", model=model.name, n=n, gpu=gpu.name, ctx=prompt) + "\n\n" + md_table(["", ""], rows)
            + ("\n\n" + "\n".join(checks) if checks else "") + assumptions_md(lang, ctx.notes + kept))
    figures = {"ttft_s": r.ttft_s, "decode_tokens_per_s_per_seq": r.decode_tokens_per_s_per_seq,
               "decode_tokens_per_s_total": r.decode_tokens_per_s_total, "max_batch_that_fits": r.max_batch_that_fits,
               "precision": fmt, "batch": batch}
    if sized_now and sized_now.get("max_context"):
        figures["max_context"] = sized_now["max_context"]  # (the room for a conversation: options that tie on speed differ here)
    if batched is not None:
        figures["batched_tokens_per_s_total"] = batched.decode_tokens_per_s_total
        figures["batched_sequences"] = min(r.max_batch_that_fits, BATCHED_SEQS)
    rate = req.price_per_gpu_hour or typical_rate(ctx, gpu.id)
    if rate and r.decode_tokens_per_s_total:
        from tools.rates import RatesRequest, rental_rates

        # cost per million output tokens at this batch: the GPUs' hourly price over the tokens they make in an hour
        rr = ctx.call("rental_rates", {"num_gpus": n, "price_per_gpu_hour": rate, "tokens_per_s": r.decode_tokens_per_s_total},
                      rental_rates(RatesRequest(num_gpus=n, price_per_gpu_hour=rate, tokens_per_s=r.decode_tokens_per_s_total)))
        figures["cost_per_million_tokens"] = rr.cost_per_million_tokens
        figures["price_per_gpu_hour"] = rate
    sized = next((c.result for c in reversed(ctx.calls) if c.name == "size_infer"
                  and c.args.get("precision") == fmt), None)
    if sized:
        figures |= {"fits": int(bool(sized.get("fits"))), "min_gpus": sized.get("min_gpus"), "per_gpu_gb": sized.get("per_gpu_gb")}
    if queued:  # the weights fit; the batch timed is what fits, the rest queue
        figures |= {"fits": 1, "queued_beyond": queued}
    if remedy:  # fits with a standard engine setting (said in the answer)
        figures |= {"fits": 1, "fits_with_setting": 1}
    return Answer(answer=text, lang=lang, intent=req.intent, tool_calls=ctx.calls,
                  verdict=Verdict(gpu=gpu.id, num_gpus=n, method="inference", fits=figures.get("fits"),
                                  min_gpus=figures.get("min_gpus"), per_gpu_gb=figures.get("per_gpu_gb")),
                  figures=figures)


def timed(ctx: Ctx, model, gpu, **args):
    """The speed tool's estimate for one set-up (InferenceSpeedRequest fields as `args`), recorded as a tool call."""
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed

    return ctx.call("time_infer", {"model": model.id, "gpu": gpu.id, **args},
                    estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, **args)))


def measured_speed_moved(ctx: Ctx) -> Answer:
    """Your measured decode speed on one set-up, carried to another card: measured x (the estimate on the new card /
    the estimate on yours), same model, format, GPU count and batch. The measurement keeps what the roofline misses
    (your engine, drivers, sampling); the ratio carries the hardware difference. Each card asked (SXM and PCIe when
    the vendor has not said) is one line; a per-user target is checked on the scaled figure."""
    req, lang = ctx.req, ctx.lang
    model = ctx.model()
    old = ctx.gpu(req.measured_gpu)
    n_old = req.measured_num_gpus or req.num_gpus or 1
    n = req.num_gpus or n_old
    batch = req.batch or req.concurrent_users or req.measured_concurrency or 1  # ('32 并发，输出吞吐 1100': measured at 32)
    per = ctx.t("per sequence", "每序列") if batch == 1 else ctx.t(f"in total at {batch} at once", f"合计（{batch} 路同时）")
    prompt = req.prompt_len or req.context or 1024
    fmt = req.precision or model.native_precision
    args = {"context": prompt, "output": req.output_len or 256, "batch": batch, "precision": fmt,
            "engine": _speed_engine(ctx, "vllm")}
    base = timed(ctx, model, old, num_gpus=n_old, **args)
    ctx.used |= {"throughput_tokens_per_s", "measured_gpu", "measured_num_gpus", "tokens_per_s_per_user", "gpus"}
    measured = req.throughput_tokens_per_s
    lines, figures = [], {}
    target = req.tokens_per_s_per_user
    if batch > 1:
        ctx.used |= {"concurrent_users", "measured_concurrency", "batch"}
        target = None  # (a per-user target is not the measured total's)
    factor = re.search(r"(\d+(?:\.\d+)?)\s*(?:x|×|倍)(?!\s*(?:h100|a100|l40s|4090))|(翻倍|翻一倍|快一倍|double\w*|twice)", ctx.question.lower())
    if factor and not target:  # 'can it double?': the doubled measurement is the bar
        target = measured * (float(factor.group(1)) if factor.group(1) else 2.0)
    ctx.used.add("gpu_counts")
    for gid in [g for g in (req.gpus or [req.gpu]) if g and (g != old.id or n != n_old)]:
        new = ctx.gpu(gid)
        n = (req.gpu_counts or {}).get(gid) or req.num_gpus or n_old  # ('… and to a single H200': each set-up's own count)
        est = timed(ctx, model, new, num_gpus=n, **args)
        ratio = est.decode_tokens_per_s_per_seq / base.decode_tokens_per_s_per_seq
        scaled = measured * ratio
        seq = measured / batch if batch > 1 else measured  # (one stream's rate in the measurement)
        gap = 1 / seq - 1 / base.decode_tokens_per_s_per_seq  # seconds a step took beyond the estimate on your set-up
        fixed = gid == old.id and gap > 0
        if fixed:
            # more of the same card: the step time the estimate misses on your box (engine, all-reduces over PCIe,
            # kernels) is a cost per step that more GPUs do not divide; it is added to the new estimate, not scaled
            new_seq = 1 / (1 / est.decode_tokens_per_s_per_seq + gap)
            scaled = new_seq * (batch if batch > 1 else 1)
            ratio = scaled / measured
        close = bool(target) and abs(scaled / target - 1) < 0.10  # inside the ratio's own error: say so, not a verdict
        verdict = "" if not target else (
            ctx.t(f": **right at** your {target:g} tokens/s (within 10%: too close to call from an estimate; measure it on the "
                  "new card before buying)", f"：**正好卡在**你要的 {target:g} token/s 附近（差距在 10% 以内，估算分不出；买之前在新卡上实测）")
            if close else ctx.t(f": **meets** your {target:g} tokens/s" if scaled >= target else f": **misses** your {target:g} tokens/s",
                                f"：**达到**你要的 {target:g} token/s" if scaled >= target else f"：**达不到**你要的 {target:g} token/s"))
        why_en = (f"memory bandwidth {new.memory_bandwidth_gbps:,.0f} vs {old.memory_bandwidth_gbps:,.0f} GB/s sets most of it"
                  if gid != old.id else f"{n} GPUs read {n_old / n:.2g}× the weights each, but every step's all-reduces "
                  "and fixed engine costs do not shrink: short of linear")
        why_zh = (f"显存带宽 {new.memory_bandwidth_gbps:,.0f} 对 {old.memory_bandwidth_gbps:,.0f} GB/s 决定了大部分差别"
                  if gid != old.id else f"{n} 张卡每张只读 {n_old / n:.2g} 倍的权重，但每步的 all-reduce 和引擎固定开销不会变小，"
                  "所以达不到线性")
        if fixed:
            lines.append(ctx.t(
                f"- **{n}× {new.name}: ~{scaled:,.1f} tokens/s {per}**{verdict}: your measured step is {1000 / seq:,.1f} ms, "
                f"{1000 * gap:,.1f} ms more than the estimate for your {n_old}× {old.name} ({1000 / base.decode_tokens_per_s_per_seq:,.1f} "
                f"ms); that extra is paid every step (engine, all-reduces between the cards, kernels) and more GPUs do not "
                f"divide it, so on {n}: {1000 / est.decode_tokens_per_s_per_seq:,.1f} ms estimated + {1000 * gap:,.1f} ms = "
                f"{1000 / (scaled / (batch if batch > 1 else 1)):,.1f} ms per token ({ratio:.2f}× your speed). More GPUs mainly add "
                "KV-cache room: longer contexts and more users at once.",
                f"- **{n} × {new.name}：{per}约 {scaled:,.1f} token/s**{verdict}：你实测每步 {1000 / seq:,.1f} 毫秒，比你这台 "
                f"{n_old} × {old.name} 的估算（{1000 / base.decode_tokens_per_s_per_seq:,.1f} 毫秒）多 {1000 * gap:,.1f} 毫秒；这部分"
                f"每步都要付（引擎、卡间 all-reduce、kernel），加卡分摊不了，所以 {n} 张时：估算 {1000 / est.decode_tokens_per_s_per_seq:,.1f} "
                f"毫秒 + {1000 * gap:,.1f} 毫秒 = 每 token {1000 / (scaled / (batch if batch > 1 else 1)):,.1f} 毫秒（你现在速度的 "
                f"{ratio:.2f} 倍）。加卡主要是多出 KV cache 空间：更长的上下文、更多并发。"))
        else:
            lines.append(ctx.t(f"- **{n}× {new.name}: ~{scaled:,.1f} tokens/s {per}** = your {measured:g} × "
                               f"{ratio:.2f} (estimate {est.decode_tokens_per_s_per_seq:,.1f} on it / {base.decode_tokens_per_s_per_seq:,.1f} "
                               f"on your {n_old}× {old.name}; {why_en}){verdict}",
                               f"- **{n} × {new.name}：{per}约 {scaled:,.1f} token/s** = 你实测的 {measured:g} × {ratio:.2f}"
                               f"（估算 {est.decode_tokens_per_s_per_seq:,.1f} ÷ 你的 {n_old} × {old.name} 上的 {base.decode_tokens_per_s_per_seq:,.1f}；"
                               f"{why_zh}）{verdict}"))
            claim = re.search(r"(\d+(?:\.\d+)?)\s*(?:x|×|倍)\s*(?:faster|quicker|the (?:speed|performance|throughput)|快|性能|速度)",
                              ctx.question.lower())
            if claim and batch <= 1 and float(claim.group(1)) > ratio * 1.15 and gid != old.id:
                # 'marketing says H200 is 1.9x H100': a throughput figure at large batches (more memory, more sequences);
                # one stream gains about the bandwidth ratio
                bw = new.memory_bandwidth_gbps / old.memory_bandwidth_gbps
                lines.append(ctx.t(f"  The quoted {claim.group(1)}× is not one user's speed: it is a throughput figure at large "
                                   f"batches (more memory holds more sequences at once). One stream is bound by memory "
                                   f"bandwidth, {bw:.2f}× here ({new.memory_bandwidth_gbps:,.0f} vs "
                                   f"{old.memory_bandwidth_gbps:,.0f} GB/s), and the compute is the same.",
                                   f"  引用的 {claim.group(1)} 倍不是单个用户的速度：那是大批量下的吞吐（显存大、同时能跑更多序列）。单路受显存带宽"
                                   f"限制，这里是 {bw:.2f} 倍（{new.memory_bandwidth_gbps:,.0f} 对 {old.memory_bandwidth_gbps:,.0f} GB/s）。"))
        figures.setdefault("decode_tokens_per_s_per_seq", round(scaled, 2))
        figures[f"scaled_tokens_per_s:{gid}"] = round(scaled, 2)
    head = ctx.t(f"**From your measurement ({measured:g} tokens/s {per} on {n_old}× {old.name}), {model.name} in {fmt}:**",
                 f"**按你的实测（{n_old} × {old.name}，{per} {measured:g} token/s），{model.name}（{fmt}）：**")
    ctx.notes.append(ctx.t("the same model, format and batch on each card (each at the GPU count written for it); on "
                           "another card your engine's overheads carry over in the ratio; on more of the same card the "
                           "step time beyond the estimate is carried as a fixed cost per step (an assumption: the same "
                           "engine version and settings)",
                           "每种卡上模型、格式、卡数、batch 都相同；换卡时引擎自身的开销按比例带过去，同一种卡加卡时超出估算的每步时间按固定开销"
                           "带过去（假设引擎版本和参数不变）"))
    share = measured / base.decode_tokens_per_s_per_seq if batch == 1 and base.decode_tokens_per_s_per_seq else None
    if share is not None and share < 0.75:  # a measurement far below what its own box should do: worth a look first
        lines.append(ctx.t(f"Your {measured:g} tokens/s is {share:.0%} of the estimate for your own {n_old}× {old.name} "
                           f"({base.decode_tokens_per_s_per_seq:,.1f}): worth checking before buying (CUDA graphs on, i.e. no "
                           "--enforce-eager; the cards on NVLink; the prompt length and sampling settings); the scaled figures "
                           "carry the same shortfall.",
                           f"你实测的 {measured:g} token/s 只有你这台 {n_old} × {old.name} 估算值（{base.decode_tokens_per_s_per_seq:,.1f}）"
                           f"的 {share:.0%}：买之前值得先查一下（CUDA graphs 是否开启、即没有 --enforce-eager；卡之间是否走 NVLink；"
                           "提示长度和采样设置）；上面换算的数字带着同样的差距。"))
    text = head + "\n" + "\n".join(lines) + assumptions_md(lang, ctx.notes + base.assumptions)
    return Answer(answer=text, lang=lang, intent="inference_speed", tool_calls=ctx.calls, figures=figures,
                  verdict=Verdict(gpu=req.gpu, num_gpus=n, method="inference"))


BATCHED_SEQS = 256  # vLLM's default --max-num-seqs: the batch a served card runs at when the load allows


def _gpus_for_weights(ctx: Ctx, model, gpu, fmt: str, batch: int, context: int) -> int:
    """A format the question fixes, no count stated: one GPU when the weights leave room there, else the fewest GPUs
    (a tensor-parallel width, a power of two, within a node) that hold them, said."""
    one = _size(ctx, model, gpu, fmt, batch, _engine(ctx, "vllm"), context)
    if one.fits or not one.min_gpus or one.weights_total_gb < WEIGHTS_ROOM * one.usable_gb:
        return 1
    return _take_tp_width(ctx, one.min_gpus, one.min_gpus,
                          f"{gpu.name}: the fewest that hold {fmt} weights", f"{gpu.name}：放得下 {fmt} 权重的最少卡数")


def _gpus_for_native(ctx: Ctx, model, gpu, batch: int, context: int) -> int:
    """No GPU count stated, full load asked: the checkpoint's GPUs and about as many again for the KV cache (the usual
    deployment leaves about half the memory to it), as a tensor-parallel width, said; one GPU when it fits there."""
    native = precision_ladder(ctx, model, gpu)[0]
    one = _size(ctx, model, gpu, native, batch, _engine(ctx, "vllm"), context)
    if not one.min_gpus:
        return 1
    want = 2 * one.min_gpus if not one.fits else (2 if one.weights_total_gb > one.usable_gb / 2 else 1)
    return _take_tp_width(ctx, want, one.min_gpus,
                          f"{gpu.name}: the {native} checkpoint needs {one.min_gpus}, and about half the memory is left "
                          "to the KV cache at full load",
                          f"{gpu.name}：{native} 权重需要 {one.min_gpus} 张，满载时约一半显存留给 KV cache")


def _take_tp_width(ctx: Ctx, want: int, least: int, why_en: str, why_zh: str) -> int:
    """The smallest power of two >= `want` within one 8-GPU node, taken as the request's GPU count and said; 1 when
    that is 1 or when even a node holds fewer than `least` (the single-GPU answer then says what would fit)."""
    n = 1
    while n < want and n < 8:
        n *= 2
    if n < least or n == 1:
        return 1
    ctx.assumed[:] = [a for a in ctx.assumed if a not in ("1 GPU", "单卡")]
    ctx.applied["num_gpus"] = n
    ctx.req = ctx.req.model_copy(update={"num_gpus": n})
    ctx.assume(f"{n}× (TP {n}) {why_en}", f"{n} 张（TP {n}）{why_zh}")
    return n


WEIGHTS_ROOM = 0.85  # weights beyond 85% of a card leave no room for the KV cache and activations: a smaller format


def _speed_format(ctx: Ctx, model, gpu, batch: int, context: int, n: int | None = None) -> str:
    """The weight format a speed answer uses: fixed by the question, else the checkpoint's own when it fits on the GPUs
    asked about, else the best smaller one that fits (said); when none fits, the checkpoint's own (the answer says it
    does not fit)."""
    fixed = weight_format_for(ctx, model, gpu)
    engine = _engine(ctx, "vllm")
    if fixed:
        r = _size(ctx, model, gpu, fixed, batch, engine, context)
        if r.fits or ctx.req.exact_format or r.weights_total_gb / (n or ctx.req.num_gpus or 1) < r.usable_gb:
            return fixed  # the format asked for, while its weights can load at all (a tight fit is said by the answer)
        # 'bf16 on one L20, does it run, how fast?': it does not; the speed in the best format that does, said
        for fmt in precision_ladder(ctx, model, gpu):
            if _bits(fmt) < _bits(fixed) and _size(ctx, model, gpu, fmt, batch, engine, context).fits:
                ctx.assume(f"{fmt} weights: {fixed} (asked) does not fit {n or ctx.req.num_gpus or 1}× {gpu.name} "
                           f"({r.weights_total_gb:,.0f} GB of weights); the speed shown is {fmt}'s",
                           f"{fmt} 权重：你问的 {fixed} 放不下 {n or ctx.req.num_gpus or 1} 张 {gpu.name}（权重 "
                           f"{r.weights_total_gb:,.0f} GB）；下面是 {fmt} 的速度")
                return fmt
        return fixed
    ladder = precision_ladder(ctx, model, gpu)
    if gpu.vendor == "Apple" and "q4_k_m" in ladder and not ctx.req.full_model and _bits(ladder[0]) > 8:
        # a Mac runs llama.cpp / Ollama / MLX files, and the usual one is 4-bit: what a Mac user's speed is
        q4 = _size(ctx, model, gpu, "q4_k_m", batch, engine, context)
        if q4.fits:
            ratio = _bits(ladder[0]) / _bits("q4_k_m")
            ctx.assume(f"q4_k_m weights: the usual file on a Mac (llama.cpp / Ollama / MLX 4-bit); {ladder[0]} reads "
                       f"~{ratio:.1f}× the bytes per token, so it decodes ~{ratio:.1f}× slower, and 8-bit (q8_0) about half "
                       "as fast as 4-bit", f"q4_k_m 权重：Mac 上最常用的文件（llama.cpp / Ollama / MLX 4 位）；{ladder[0]} 每个 token "
                       f"读的字节约是它的 {ratio:.1f} 倍，解码约慢 {ratio:.1f} 倍；8 位（q8_0）大约是 4 位速度的一半")
            return "q4_k_m"
    first = _size(ctx, model, gpu, ladder[0], batch, engine, context)
    if first.fits or first.weights_total_gb / (n or ctx.req.num_gpus or 1) < WEIGHTS_ROOM * first.usable_gb:
        # the checkpoint's weights fit: its own format (a context that overflows is said by the answer)
        ctx.assume(f"{ladder[0]} weights (the published checkpoint)", f"{ladder[0]} 权重（官方发布的格式）")
        return ladder[0]
    for fmt in ladder:
        if _size(ctx, model, gpu, fmt, batch, engine, context).fits:
            if fmt == ladder[0]:
                ctx.assume(f"{fmt} weights (the published checkpoint)", f"{fmt} 权重（官方发布的格式）")
            else:
                ctx.assume(f"{fmt} weights: {ladder[0]} does not fit {ctx.req.num_gpus or 1}× {gpu.name}, {fmt} is the best "
                           "format that does", f"{fmt} 权重：{ladder[0]} 放不下 {ctx.req.num_gpus or 1} 张 {gpu.name}，"
                           f"{fmt} 是放得下的最好格式")
            return fmt
    ctx.assume(f"{ladder[0]} weights (the published checkpoint; no format fits)", f"{ladder[0]} 权重（官方格式；都放不下）")
    return ladder[0]


def _rate_if_fp8(ctx: Ctx, model, gpu, args: dict, fmt: str) -> str:
    """One prompt alone misses the TTFT target: no request rate meets it on this set-up; in FP8 (about twice the prefill
    speed where the card computes FP8) the rate that keeps the mean within it, halved for a p95 target."""
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed
    from tools.serve_load import max_rate_within_ttft

    req = ctx.req
    head = ctx.t(f"**No request rate meets TTFT ≤ {req.ttft_s:g} s as it stands**: one {args.get('context', 0):,}-token "
                 "prompt alone takes longer to prefill.", f"**按现在的配置，没有哪个请求速率能守住首 token ≤ {req.ttft_s:g} 秒**："
                 "单个提示自己的预填充就已经超时。")
    if _bits(fmt) < 16 or not supported_on("fp8", gpu)[0]:
        return head + ctx.t(" Tensor parallelism over more GPUs, or shorter prompts (prefix caching of shared context), "
                            "shortens prefill.", " 多卡张量并行，或缩短提示（共享上下文用前缀缓存）能缩短预填充。")
    try:
        f8 = estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, **(args | {"batch": 1, "precision": "fp8"})))
    except ValueError:
        return head
    lam = max_rate_within_ttft(f8.ttft_s, req.ttft_s)
    ctx.call("max_rate_within_ttft", {"prefill_s": f8.ttft_s, "ttft_s": req.ttft_s}, {"prompts_per_s": round(lam, 3)})
    if lam <= 0:
        return head + ctx.t(f" In FP8 one prefill still takes {f8.ttft_s:.2f} s: it needs tensor parallelism or shorter "
                            "prompts.", f" 换 FP8 单次预填充仍要 {f8.ttft_s:.2f} 秒：需要多卡张量并行或更短的提示。")
    return head + ctx.t(f" In FP8 a prefill takes ~{f8.ttft_s:.2f} s, so about **{lam:.1f} prompts a second** keep the mean "
                        f"TTFT within {req.ttft_s:g} s (M/D/1: TTFT = P + ρP/(2(1-ρ))); a p95 target leaves roughly half "
                        f"that, ~{lam / 2:.1f} a second, and decode of running requests lowers it further: load-test at "
                        "your prompt length before committing.",
                        f" 换 FP8 后单次预填充约 {f8.ttft_s:.2f} 秒，每秒约 **{lam:.1f} 个**请求能让平均首 token 守在 {req.ttft_s:g} 秒内"
                        f"（M/D/1：TTFT = P + ρP/(2(1-ρ))）；p95 目标大约只剩一半，约每秒 {lam / 2:.1f} 个，正在解码的请求还会再拉低：上线前按"
                        "你的提示长度压测。")


def _target_checks(ctx: Ctx, r) -> list[str]:
    """The user's stated TTFT / ITL / per-user rate against the estimate: met or missed, by how much."""
    req, out = ctx.req, []
    if req.ttft_s:
        ok = r.ttft_s <= req.ttft_s
        out.append(ctx.t(f"**TTFT target {req.ttft_s:g} s: {'met' if ok else 'missed'}** (estimate {r.ttft_s:.2f} s"
                         + ("" if ok else f", {r.ttft_s / req.ttft_s:.1f}× the target: more GPUs (tensor parallel) or "
                            "FP8 shorten prefill") + ").",
                         f"**首 token 目标 {req.ttft_s:g} 秒：{'达到' if ok else '达不到'}**（估算 {r.ttft_s:.2f} 秒"
                         + ("" if ok else f"，是目标的 {r.ttft_s / req.ttft_s:.1f} 倍：加卡做张量并行或用 FP8 可缩短预填充")
                         + "）。"))
    rate = req.tokens_per_s_per_user or (1000 / req.itl_ms if req.itl_ms else None)
    if rate:
        ok = r.decode_tokens_per_s_per_seq >= rate
        out.append(ctx.t(f"**{rate:g} tokens/s per user: {'met' if ok else 'missed'}** (estimate "
                         f"{r.decode_tokens_per_s_per_seq:,.1f} tokens/s per sequence at batch {r.decode_tokens_per_s_total / max(r.decode_tokens_per_s_per_seq, 1e-9):.0f}).",
                         f"**每用户 {rate:g} token/秒：{'达到' if ok else '达不到'}**（估算每序列 "
                         f"{r.decode_tokens_per_s_per_seq:,.1f} token/秒，batch {r.decode_tokens_per_s_total / max(r.decode_tokens_per_s_per_seq, 1e-9):.0f}）。"))
    return out


CLAIM_BAND = (0.6, 1.5)  # a quoted single-stream speed within this factor of the estimate is plausible (an assumption:
# engines, drivers and prompt lengths move a measured speed this much around a roofline estimate)
def quoted_speed_claim(ctx: Ctx) -> Answer:
    """'Someone says one 4090 runs Llama 3 70B int4 at 30 tok/s — can we buy 4090s on that?': the quoted speed judged.
    First the memory (a set-up that cannot hold the model cannot run it at any speed; part of it in CPU RAM runs at a
    few tokens/s), then one stream's decode estimate on the set-up (or on the fewest GPUs that hold it) and the hard
    ceiling (every byte a token reads, at the full memory bandwidth): above the ceiling the figure is impossible,
    within CLAIM_BAND of the estimate plausible, else optimistic (perhaps a total over many streams) or low."""
    from tools.infer_speed import InferenceSpeedRequest, single_stream_ceiling

    req, lang = ctx.req, ctx.lang
    model, gpu = ctx.model(), ctx.gpu(default=DEFAULT_SERVING_GPU)
    n = req.num_gpus or 1
    if not req.num_gpus:
        ctx.assume_one_gpu()
    claimed = req.claimed_tokens_per_s
    fmt = weight_format_for(ctx, model, gpu) or model.native_precision
    local = req.engine in GGUF_ENGINES or gpu.vendor == "Apple" or fmt.startswith("q")
    engine = "llamacpp" if local else _speed_engine(ctx, "vllm")
    context = min(_context(ctx), 4096)
    ctx.used |= {"claimed_tokens_per_s", "precision"}
    x = fits_on(model, gpu, n, fmt, context)
    lines: list[str] = []
    run_n = n
    if not x.fits:
        least = x.min_gpus if local else serving_count(ctx, model, gpu, x.min_gpus)
        lines.append(ctx.t(
            f"**No: {model.name} in {fmt} does not fit on {n}× {gpu.name}** ({x.weights_total_gb:,.1f} GB of weights; "
            f"{x.per_gpu_gb:,.1f} GB per GPU against {x.usable_gb:,.1f} GB usable), so {claimed:g} tokens/s "
            f"cannot come from {n} of them. With the layers that do not fit in CPU RAM (llama.cpp `-ngl`), each token "
            "crosses PCIe and runs on the CPU: a few tokens/s at best.",
            f"**不靠谱：{model.name} {fmt} 在 {n} 张 {gpu.name} 上放不下**（权重 {x.weights_total_gb:,.1f} GB；每卡要 "
            f"{x.per_gpu_gb:,.1f} GB，可用 {x.usable_gb:,.1f} GB），所以 {claimed:g} token/秒 不可能是 {n} 张卡跑出来的。"
            "放不下的层放到内存里（llama.cpp `-ngl`）的话，每个 token 都要过 PCIe、在 CPU 上算：最多每秒几个 token。"))
        if least:
            run_n = least
            lines.append(ctx.t(f"It needs at least **{least}× {gpu.name}**; there:",
                               f"至少要 **{least} 张 {gpu.name}**；在 {least} 张上："))
    args = {"context": context, "output": 256, "batch": 1, "precision": fmt, "engine": engine}
    if local and run_n > 1:  # llama.cpp splits the layers over the cards: one stream reads them in turn, not in parallel
        args["pipeline"] = run_n
        ctx.notes.append(ctx.t(f"llama.cpp splits the layers over the {run_n} cards (--split-mode layer): one stream reads "
                               "each card's share in turn, so one stream's speed is about one card's bandwidth over all "
                               "the weights, not the cards' bandwidths added",
                               f"llama.cpp 把层切到 {run_n} 张卡上（--split-mode layer）：单路依次读每张卡上的那部分，所以单路速度约等于"
                               "一张卡的带宽读完全部权重，不是几张卡带宽相加"))
    try:
        sp = timed(ctx, model, gpu, num_gpus=run_n, **args)
        ceiling = single_stream_ceiling(InferenceSpeedRequest(model=model, gpu=gpu, num_gpus=run_n, **args))[1]
    except ValueError as e:
        lines.append(str(e))
        return Answer(answer="\n\n".join(lines), lang=lang, intent="inference_speed", tool_calls=ctx.calls,
                      verdict=Verdict(fits=x.fits, gpu=gpu.id, num_gpus=n, min_gpus=x.min_gpus, method="inference"))
    est = sp.decode_tokens_per_s_per_seq
    lo, hi = CLAIM_BAND
    if x.fits:
        if claimed > ceiling:
            verdict = ctx.t(f"**No: {claimed:g} tokens/s is above what {n}× {gpu.name} can do for one stream** — every token "
                            f"reads the weights it uses, and at the card's full bandwidth that caps one stream at "
                            f"{ceiling:,.0f} tokens/s; the estimate is **{est:,.0f} tokens/s**. A figure that high is a total "
                            "over many concurrent streams, or a smaller model or format.",
                            f"**不靠谱：{claimed:g} token/秒 超过了 {n} 张 {gpu.name} 单路的上限**——每个 token 都要读一遍用到的权重，"
                            f"按满带宽算单路最多 {ceiling:,.0f} token/秒；估算约 **{est:,.0f} token/秒**。这么高的数只能是多路并发的"
                            "总吞吐，或者是更小的模型、更小的格式。")
        elif est * lo <= claimed <= est * hi:
            verdict = ctx.t(f"**Plausible**: the estimate for one stream on {n}× {gpu.name} is **{est:,.0f} tokens/s** "
                            f"(ceiling {ceiling:,.0f}); {claimed:g} is within the range measurements land in.",
                            f"**说得通**：{n} 张 {gpu.name} 单路估算约 **{est:,.0f} token/秒**（上限 {ceiling:,.0f}）；"
                            f"{claimed:g} 在实测通常的范围内。")
        elif claimed > est * hi:
            verdict = ctx.t(f"**Optimistic**: the estimate for one stream on {n}× {gpu.name} is **{est:,.0f} tokens/s** "
                            f"(ceiling {ceiling:,.0f}); {claimed:g} is more likely a short prompt, speculative decoding, or a "
                            "total over several streams. Plan on the estimate.",
                            f"**偏乐观**：{n} 张 {gpu.name} 单路估算约 **{est:,.0f} token/秒**（上限 {ceiling:,.0f}）；"
                            f"{claimed:g} 多半是短提示、投机解码，或者几路加起来的总数。按估算值规划。")
        else:
            verdict = ctx.t(f"**Low**: the estimate for one stream on {n}× {gpu.name} is **{est:,.0f} tokens/s**; "
                            f"{claimed:g} suggests a slow engine or settings (no CUDA graphs, CPU offload, a long prompt).",
                            f"**偏低**：{n} 张 {gpu.name} 单路估算约 **{est:,.0f} token/秒**；{claimed:g} 说明引擎或设置偏慢"
                            "（没开 CUDA graph、部分卸载到 CPU、提示很长）。")
        lines.insert(0, verdict)
        if claimed > est * hi and not local:
            lines.insert(1, _claim_as_a_total(ctx, model, gpu, run_n, args, claimed))
    else:
        lines.append(ctx.t(f"one stream decodes at about **{est:,.0f} tokens/s** (ceiling {ceiling:,.0f})"
                           + (f", so {claimed:g} tokens/s is plausible on {run_n} cards, not on {n}." if est * lo <= claimed
                              <= est * hi else f"; {claimed:g} tokens/s is {'above the ceiling' if claimed > ceiling else 'not what they reach'}."),
                           f"单路解码约 **{est:,.0f} token/秒**（上限 {ceiling:,.0f}）"
                           + (f"，所以 {claimed:g} token/秒 在 {run_n} 张上说得通，{n} 张不行。" if est * lo <= claimed <= est * hi
                              else f"；{claimed:g} token/秒 {'超过上限' if claimed > ceiling else '达不到'}。")))
    other = req.quoted_tokens_per_s
    if other:  # the other figure in the message: a single stream cannot pass the ceiling, so it is a total
        lines.append(ctx.t(f"The {other:,.0f} tokens/s you saw quoted "
                           + (f"is above one stream's ceiling ({ceiling:,.0f}): it is a total over many concurrent "
                              "requests (a batched benchmark), not what one user gets." if other > ceiling else
                              f"is within one stream's ceiling ({ceiling:,.0f})."),
                           f"你看到的 {other:,.0f} token/秒"
                           + (f"超过了单路上限（{ceiling:,.0f}）：那是很多并发请求加起来的总吞吐（批量压测），不是单个用户的速度。"
                              if other > ceiling else f"在单路上限（{ceiling:,.0f}）以内。")))
    if re.search(r"买|采购|buy|purchas|order", ctx.question.lower()):
        lines.append(ctx.t(f"To buy on it: plan on **{run_n}× {gpu.name}** per copy of the model and the estimate, not the "
                           "figure you were given; measure on one rented set before ordering more.",
                           f"要照这个买卡：每份模型按 **{run_n} 张 {gpu.name}**、按估算速度规划，别按引用的数字；先租一套实测再批量采购。"))
    ctx.notes.append(ctx.t(f"{claimed:g} tokens/s is read as one stream's decode speed (batch 1); plausible within "
                           f"{lo:g}-{hi:g}× of the estimate", f"{claimed:g} token/秒 按单路解码速度（batch 1）理解；在估算值的 {lo:g}-{hi:g} 倍内算说得通"))
    text = "\n\n".join(lines) + assumptions_md(lang, ctx.notes + sp.assumptions)
    figures = {"claimed_tokens_per_s": claimed, "estimated_tokens_per_s": round(est, 1),
               "ceiling_tokens_per_s": round(ceiling, 1), "fits": x.fits, "min_gpus": x.min_gpus, "gpus_estimated": run_n}
    return Answer(answer=text, lang=lang, intent="inference_speed", figures=figures, tool_calls=ctx.calls,
                  verdict=Verdict(fits=x.fits, gpu=gpu.id, num_gpus=n, min_gpus=x.min_gpus, method="inference"))


CLAIM_BATCH_CONTEXT = 1024  # batched benchmarks quoted online run short prompts (~1k tokens in flight each; an assumption)


def _claim_as_a_total(ctx: Ctx, model, gpu, n: int, args: dict, claimed: float) -> str:
    """A speed beyond one stream, read as a total over many streams: the estimate at full load (short prompts, as batched
    benchmarks run them, up to 256 in flight or what memory holds), and whether the figure fits under it."""
    try:
        one = timed(ctx, model, gpu, num_gpus=n, **(args | {"context": CLAIM_BATCH_CONTEXT}))
        batch = max(1, min(256, one.max_batch_that_fits or 1))
        full = timed(ctx, model, gpu, num_gpus=n, **(args | {"context": CLAIM_BATCH_CONTEXT, "batch": batch}))
    except ValueError:
        return ""
    total = full.decode_tokens_per_s_total
    ok = claimed <= total * CLAIM_BAND[1]
    return ctx.t(f"**As a total over many streams** ({batch} in flight, ~{CLAIM_BATCH_CONTEXT:,}-token contexts, as batched "
                 f"benchmarks run): the estimate is **{total:,.0f} tokens/s** on {n}× {gpu.name}, so {claimed:g} is "
                 + ("plausible as a whole-card total (each user then gets a small share of it; long prompts lower it)."
                    if ok else "still above it: more likely a smaller model, a lower-bit format, or input tokens counted too."),
                 f"**如果是多路并发的总吞吐**（同时 {batch} 路、每路约 {CLAIM_BATCH_CONTEXT:,} token 上下文，批量压测通常这样测）："
                 f"{n} 张 {gpu.name} 估算约 **{total:,.0f} token/秒**，所以 {claimed:g} "
                 + ("作为整卡总吞吐说得通（分到每个用户只是一小份；提示越长越低）。" if ok else
                    "仍然偏高：更可能是更小的模型、更低位宽的格式，或者把输入 token 也算进去了。"))


_TIER_SIZES = (24, 32, 48, 80, 96, 141)  # the usual single-card memory classes, GB as marketed


def memory_tiers(ctx: Ctx, answer: Answer) -> Answer:
    """'70B 能单卡跑吗？要量化到几 bit？' with no card named: which format fits turns on the card's memory, so it is asked,
    with the formats against the usual single-card memory sizes (weights + one 4k sequence's KV + ~2 GB of runtime,
    within 92% of the card); the sizing on the default card stays below."""
    from assistant.request import Clarification
    from tools.format_weights import FormatWeightsRequest, weights_by_format
    from tools.infer_memory import kv_cache_bytes

    model = ctx.model()
    formats = [f for f in (model.native_precision if model.native_precision in ("bf16", "fp16") else "bf16", "fp8", "awq",
                           "q4_k_m", "q3_k_m", "q2_k")]
    try:
        rows = weights_by_format(FormatWeightsRequest(model=model, formats=formats)).rows
        kv = kv_cache_bytes(model, "bf16", 4096) / 1e9
    except (ValueError, LookupError):
        return answer
    classes = memory_classes(ctx)
    # each class against its smallest card's capacity as the driver reports it (GB): a 48 GB L40S reports 48.3 GB
    tiers = []
    for gb in _TIER_SIZES:
        # the class's full-size cards first (a 24 GB RTX 4090 before a 22.5 GiB L4), three named; the column holds
        # what the smallest named one reports, in GB
        named = [g for g in sorted(classes.get(gb, []), key=lambda g: -g.memory_bytes) if "unofficial" not in g.name][:3]
        if named:
            tiers.append((gb, min(g.memory_bytes for g in named) / 1e9, " / ".join(short_card_name(g) for g in named)))
    n = ctx.req.num_gpus or 1
    each = f"{n}× " if n > 1 else ""
    head = [ctx.t("format", "格式"), ctx.t("weights GB", "权重 GB")] + [f"{each}{gb} GB" for gb, _, _ in tiers]
    table = []
    for r in rows:
        need = (r.weights_gb + kv) / n + 2.0  # (split over the cards; each keeps its own ~2 GB of runtime)
        cell = lambda cap: "✓" if need <= cap * 0.90 else ctx.t("tight", "很紧") if need <= cap * 0.97 else "✗"  # noqa: E731
        table.append([r.name, f"{r.weights_gb:,.0f}"] + [cell(cap) for _, cap, _ in tiers])
    cards = "; ".join(f"{gb} GB: {names}" for gb, _, names in tiers)
    text = ctx.t(f"**Which card (how much memory)?** On {'one card' if n == 1 else f'{n} cards'} it turns on that: each format against the usual sizes "
                 f"(weights + one 4,096-token sequence's KV cache + ~2 GB of runtime, within 90% of the card's memory, "
                 f"'tight' to 97%; {cards}):",
                 f"**用哪张卡（显存多大）？** {'单卡' if n == 1 else f'{n} 张卡'}能不能跑取决于它：各格式对常见显存档位（权重 + 一条 4,096 token 的 KV cache + 约 2 GB "
                 f"运行开销，不超过显存的 90%，到 97% 记为“很紧”；{cards}）：") + "\n\n" + md_table(head, table) + "\n\n" + ctx.t(
        "Below 4-bit (Q3, Q2) the quality loss is clear; below, the sizing on a default card.",
        "低于 4 位（Q3、Q2）质量损失明显；下面是按默认卡的计算。")
    clar = Clarification(missing=["gpu"], question=ctx.t("Which card, and how much memory does it have?",
                                                          "用的是哪张卡、显存多大？"), suggestions=[])
    body = answer.answer
    first, sep, rest = body.partition("\n\n")
    return answer.model_copy(update={"answer": first + "\n\n" + text + (sep + rest if sep else ""),
                                     "status": "needs_clarification", "clarification": clar})


MAX_BATCH_ASK = (r"(?:max(?:imum)?|largest|biggest)\s+batch|how (?:big|large) (?:a|of a|can the) batch|batch size (?:can|could) "
                 r"(?:i|we)|最大\s*(?:的)?\s*batch|batch\s*(?:size)?\s*(?:最大|能开多大|能开到多少|最多)|能开多大的?\s*batch")


def batch_by_length(ctx: Ctx, answer: Answer) -> Answer:
    """'What's the max batch size I can run on an H100 for Llama 3.1 8B?' with no length: the batch the KV cache holds
    is inversely proportional to each sequence's length, so it is asked, with the batch at the usual lengths (vLLM's
    KV pool; BF16 and FP8 KV) meanwhile."""
    from assistant.request import Clarification

    req = ctx.req
    model, gpu = ctx.model(), ctx.gpu()
    fmt = req.precision or model.native_precision
    rows = []
    for length in (1024, 2048, 4096, 8192, 32768):
        try:
            r = _size(ctx, model, gpu, fmt, 1, "vllm", length)
            saved, ctx.req = ctx.req, req.model_copy(update={"kv_dtype": "fp8"})
            try:
                r8 = _size(ctx, model, gpu, fmt, 1, "vllm", length)
            finally:
                ctx.req = saved
        except ValueError:
            continue
        if r.max_batch:
            rows.append([f"{length:,}", f"{r.max_batch:,}", f"{r8.max_batch:,}" if r8.max_batch else "-"])
    if not rows:
        return answer
    table = md_table([ctx.t("tokens per sequence (prompt + output)", "每条序列 token（输入 + 输出）"),
                      ctx.t("sequences at once, BF16 KV", "同时的序列数（BF16 KV）"), ctx.t("FP8 KV", "FP8 KV")], rows)
    text = ctx.t(f"**How long are your sequences (prompt + output)?** The batch is what the KV cache holds, and it halves "
                 f"each time the length doubles; on {req.num_gpus or 1}× {gpu.name} in {fmt.upper()} (vLLM's pool, 90% of "
                 "memory; a running batch also caps at `--max-num-seqs`, 256 by default):",
                 f"**每条序列多长（输入 + 输出）？** 能开多大的 batch 由 KV cache 决定，长度翻倍、batch 减半；{req.num_gpus or 1} 张 "
                 f"{gpu.name}、{fmt.upper()} 权重（vLLM 的 KV 池，显存的 90%；运行中的 batch 还受 `--max-num-seqs` 限制，默认 256）：") \
        + "\n\n" + table + "\n\n" + ctx.t("A large batch raises the total throughput but lowers each sequence's speed; for "
                                         "training the batch is set by activations instead (say if it is training).",
                                         "batch 越大总吞吐越高，但每条的速度越慢；如果是训练，batch 由激活值决定（请说明）。")
    clar = Clarification(missing=["context"], question=ctx.t("How many tokens per sequence (prompt + output), and is it "
                                                              "inference or training?", "每条序列多少 token（输入 + 输出）？"
                                                              "是推理还是训练？"), suggestions=[])
    return answer.model_copy(update={"answer": text + "\n\n" + answer.answer, "status": "needs_clarification",
                                     "clarification": clar})
