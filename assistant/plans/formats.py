"""'Q4_K_M, AWQ, GPTQ, FP8, NF4: how much memory do the weights alone take for Qwen2.5-72B, and which run in
vLLM?': one row per format named (every one, none dropped), from tools/format_weights.py."""
from __future__ import annotations

import re

from assistant.answer import Answer, Verdict
from assistant.compose import md_table
from assistant.context import USES, Ctx, assumptions_md
from assistant.readers.slots import w

USES["format_weights"] = {"model", "precision", "engine", "checkpoint_format", "exact_format"}

# the weights alone asked ('光权重各占多少', 'the weights alone', 'how big are the weights in each')
WEIGHTS_ONLY = (r"光(?:是|看)?权重|仅权重|只(?:算|看)?权重|权重(?:本身|部分|文件)?\s*(?:各|分别)?\s*(?:占|要|需要|有|是)?\s*(?:多大|多少)|"
                r"(?:分别|各自|各)(?:有|是|占)?\s*多大|权重[^，。？?]{0,6}(?:占|要|需要)[^，。？?]{0,4}(?:多大|多少)|"
                r"各自[^，。？?]{0,10}(?:多大|多少)|" + w(r"how big (?:is )?each|sizes? of each|each (?:one'?s )?size") + "|" +
                w(r"weights? (?:alone|only)|just the weights|only the weights|(?:size|footprint) of the weights|"
                  r"how (?:big|large) (?:are|is) the (?:weights?|files?|checkpoints?)|weights? (?:take|need|use|occupy)|"
                  r"weight (?:size|memory|footprint)s?"))
# which formats vLLM serves ('哪些能用 vLLM 正常跑', 'which of these run in vLLM?')
VLLM_ASK = (r"(?:哪些|哪个|哪种|能不能|能否|是否|可以|可不可以)[^。？?]{0,12}vllm|vllm[^。？?]{0,12}(?:支持|能跑|能用|跑得了|跑不了|兼容)|" +
            w(r"(?:which|can|does|do|will)[^.?]{0,40}(?:run|work|load|serve|supported)[^.?]{0,16}(?:in|on|with|by) vllm|"
              r"vllm (?:can |will |could )?(?:serve|run|load|handle|support)s?|vllm support\w*|supported (?:in|by) vllm"))


_VLLM_ZH = (("yes on Blackwell", "能（仅 Blackwell）"), ("yes: native FP8", "能（Ada/Hopper/Blackwell 原生 FP8；A100 等 Ampere 仅权重 FP8）"),
            ("yes", "能"), ("slow", "能加载，但很慢（bitsandbytes）"), ("experimental", "实验性（GGUF 插件，未优化）"))


def asked(question: str, formats: list[str], req) -> bool:
    """Several formats named, with the weights alone asked, or which of them vLLM serves with no card or load to
    size (a card or a load makes it a serving question, answered per format by the alternatives)."""
    low = question.lower()
    if len(formats) < 2 or not req.model:
        return False
    if re.search(WEIGHTS_ONLY, low):
        return True
    return bool(re.search(VLLM_ASK, low)) and not (req.gpu or req.concurrent_users or req.requests_per_s)


def format_weights(ctx: Ctx, formats: list[str]) -> Answer:
    from tools.format_weights import FormatWeightsRequest, weights_by_format

    model = ctx.model()
    args = FormatWeightsRequest(model=model, formats=formats)
    res = ctx.call("weights_by_format", {"model": model.id, "formats": formats}, weights_by_format(args))
    ctx.used |= {"precision", "checkpoint_format", "exact_format", "engine"}
    ctx.applied |= {"precision": None, "checkpoint_format": None}  # (the formats are the table's rows, not one setting)
    zh = ctx.zh
    vllm_asked = bool(re.search(VLLM_ASK, ctx.question.lower()))
    head = ctx.t(f"**{model.name} ({res.params_total / 1e9:,.1f}B parameters): the weights alone in each format**",
                 f"**{model.name}（{res.params_total / 1e9:,.1f}B 参数）各格式光权重占用**")
    rows = []
    for r in res.rows:
        kept = (f"{r.kept_16bit_params / 1e9:,.2f}B" if r.kept_16bit_params else "-")
        support = r.vllm if not zh else next((z for k, z in _VLLM_ZH if r.vllm.startswith(k)), r.vllm)
        rows.append([r.name, f"{r.bits_per_weight:.2f}", f"**{r.weights_gb:,.1f}**", f"{r.weights_gib:,.1f}", kept, support,
                     r.engines])
    table = md_table([ctx.t("format", "格式"), ctx.t("bits/weight", "每权重位数"), "GB", "GiB",
                      ctx.t("kept in 16-bit", "保留 16 位的参数"), "vLLM", ctx.t("runs in", "常用引擎")], rows)
    lines = [head, table]
    if ctx.req.gpu:  # '哪个能放进 4060Ti 16G 并跑 8k 上下文？': each format on the card, at the context asked
        lines += _fits_each(ctx, model, res.rows)
    if vllm_asked:
        yes = [r.name for r in res.rows if r.vllm.startswith("yes")]
        slow = [r.name for r in res.rows if r.vllm.startswith("slow")]
        exp = [r.name for r in res.rows if r.vllm.startswith("experimental")]
        lines.append(ctx.t(
            "**In vLLM**: " + "; ".join(x for x in [
                f"served normally: {', '.join(yes)}" if yes else "",
                f"loads but slow: {', '.join(slow)} (bitsandbytes; use AWQ/GPTQ to serve)" if slow else "",
                f"experimental only: {', '.join(exp)} (GGUF belongs to llama.cpp / Ollama)" if exp else ""] if x) + ".",
            "**vLLM 能否正常跑**：" + "；".join(x for x in [
                f"能正常跑：{'、'.join(yes)}" if yes else "",
                f"能加载但慢：{'、'.join(slow)}（bitsandbytes；上线用 AWQ/GPTQ）" if slow else "",
                f"只是实验性支持：{'、'.join(exp)}（GGUF 用 llama.cpp / Ollama 跑）" if exp else ""] if x) + "。"))
    lines.append(ctx.t("These are the weights alone; serving adds the KV cache (grows with context and concurrency) and "
                       "each GPU's runtime (about 1-3 GB), so plan for more than the figure above.",
                       "以上只是权重；推理还要加 KV cache（随上下文和并发增长）和每张卡的运行时开销（约 1-3 GB），实际显存要比上表多。"))
    notes = [ctx.t(f"{r.name}: {r.source}", f"{r.name}：{r.source}") for r in res.rows] + [
        ctx.t("GB = 10^9 bytes, GiB = 2^30; quantized formats keep the embedding, LM head and norms in 16-bit "
              "(GGUF files count every tensor at the file's average bits per weight)",
              "GB = 10^9 字节，GiB = 2^30；量化格式把 embedding、LM head 和 norm 保留为 16 位（GGUF 按整个文件的平均位数计）")]
    if vllm_asked:
        notes.append(ctx.t(f"vLLM support: {res.vllm_source}", f"vLLM 支持情况：{res.vllm_source}"))
    figures = {f"weights_gb_{r.format}": r.weights_gb for r in res.rows}
    return Answer(answer="\n\n".join(lines) + assumptions_md(ctx.lang, notes), lang=ctx.lang, intent="inference_memory",
                  figures=figures, tool_calls=ctx.calls, verdict=Verdict(gpu=None, num_gpus=None))


def _fits_each(ctx: Ctx, model, rows) -> list[str]:
    """Each format on the card named at the context asked (one sequence; llama.cpp for GGUF, vLLM for the rest, as
    they are served), and which hold it."""
    from assistant.plans.infer import fits_on

    req = ctx.req
    gpu, n = ctx.gpu(), req.num_gpus or 1
    context = req.context or req.prompt_len or 4096
    ctx.used |= {"gpu", "num_gpus", "context"}
    out, ok = [], []
    for r in rows:
        engine = "hf" if r.format.startswith(("q", "iq")) or r.format == "nf4" else "vllm"  # (llama.cpp / bnb allocate as they go)
        try:
            m = fits_on(model, gpu, n, r.format, context, 1, engine=engine)
        except ValueError:
            continue
        need = m.per_gpu_gb if engine == "hf" else (m.weights_total_gb / n + (m.kv_cache_gb or 0) / n + 1.0)
        ctx.call("size_infer", {"model": model.id, "gpu": gpu.id, "precision": r.format, "context": context,
                                "num_gpus": n, "engine": engine}, m)
        out.append([r.name, f"{need:,.1f}", ("✅ " + ctx.t("fits", "放得下")) if m.fits else ("❌ " + ctx.t("no", "放不下"))])
        if m.fits:
            ok.append(r.name)
    if not out:
        return []
    who = f"{n}× {gpu.name}" if n > 1 else gpu.name
    head = ctx.t(f"**On {who} at {context:,} tokens** (one sequence; GGUF in llama.cpp, the rest in vLLM): "
                 + (f"fits: {', '.join(ok)}." if ok else "none of these fits."),
                 f"**在 {who} 上跑 {context:,} token**（单条；GGUF 用 llama.cpp，其余用 vLLM）："
                 + (f"放得下的：{'、'.join(ok)}。" if ok else "都放不下。"))
    return [head, md_table([ctx.t("format", "格式"), ctx.t("GB per GPU", "每卡 GB"), ctx.t("fits", "放得下")], out)]
