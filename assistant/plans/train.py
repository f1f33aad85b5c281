"""Training answers: memory per GPU for each fine-tune method, and training time (with its on-demand cost)."""
from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

from assistant.answer import Answer, Verdict
from assistant.zh import component_name
from assistant.compose import T, md_table
from assistant.context import TIGHT_SHARE, USES, Ctx, assumptions_md, sources_md
from assistant.readers import slots

FINETUNE_METHODS = ("qlora", "lora", "full")
DEFAULT_GPU = "a100-80gb"

USES["training_memory"] = {"model", "method", "methods", "gpu", "gpus", "num_gpus", "gpus_per_node", "nodes", "precision",
                           "seq_len", "micro_batch", "optimizer", "zero", "offload", "recompute", "lora_rank", "lora_targets",
                           "largest_model", "ram_gb", "loss"}  # (host RAM: checked against what offloading puts there)
USES["training_time"] = {"model", "method", "methods", "gpu", "gpus", "num_gpus", "gpus_per_node", "nodes", "interconnect",
                         "measured_tokens", "measured_model", "measured_gpu", "measured_num_gpus",
                         "precision", "seq_len", "global_batch", "tokens", "epochs", "zero", "recompute",
                         "price_per_gpu_hour", "currency", "deadline_hours", "budget", "mfu", "peak_tflops",
                         "throughput_tokens_per_s", "throughput_scope", "checkpoint_stall", "time_lost"}
USES["training_time"] = USES["training_time"] | {"gpu_rental_prices", "sample_len", "packing"}  # (prices via the records;
# the samples' length is the tokens' derivation, and with packing off the step's size)



def _one_method(ctx: Ctx) -> str:
    """The method a single figure is sized for: the one asked, 'full' when several or none are."""
    methods = _methods(ctx)
    return methods[0] if len(methods) == 1 else "full"


def memory_at(ctx: Ctx, model, gpu, n: int | None = None, extra: dict[str, Any] | None = None):
    """The job's training memory (tools.train_memory) on `gpu` for _one_method, at `n` GPUs (the request's count when
    None), with `extra` TrainingMemoryRequest fields on top; the request is left as it was."""
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    saved = ctx.req
    try:
        if n is not None:
            ctx.req = saved.model_copy(update={"num_gpus": n})
        return estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, **(
            _memory_args(ctx, _one_method(ctx)) | (extra or {}))))
    finally:
        ctx.req = saved


def _methods(ctx: Ctx) -> list[str]:
    req = ctx.req
    if req.methods:
        return list(req.methods)
    if req.method in FINETUNE_METHODS:
        return [req.method]
    if req.method == "pretrain":
        return ["full"]
    if req.precision in ("int4", "nf4"):  # '4-bit fine-tune' is QLoRA
        return ["qlora"]
    return list(FINETUNE_METHODS)


def _memory_args(ctx: Ctx, method: str) -> dict[str, Any]:
    """TrainingMemoryRequest fields from the request (None where the tool's default applies)."""
    req = ctx.req
    precision = {"fp32": "fp32", "bf16": "mixed", "fp16": "mixed"}.get(req.precision or "", None)
    return {k: v for k, v in {
        "method": method, "num_gpus": req.num_gpus or 1, "precision": precision, "optimizer": req.optimizer,
        "zero": req.zero, "offload": req.offload, "micro_batch": req.micro_batch, "seq_len": req.seq_len, "loss": req.loss,
        "recompute": req.recompute, "lora_rank": req.lora_rank if method != "full" else None,
        "lora_targets": req.lora_targets if method != "full" else None, "ep": _stated_ep(ctx)}.items() if v is not None}


def _stated_ep(ctx: Ctx) -> int | None:
    """The expert parallelism the user runs ('EP8'), when the model is an MoE whose routed experts and the GPUs it
    divides; one that does not is said and left to the default."""
    req = ctx.req
    ep = req.expert_parallel
    if not ep:
        return None
    model = ctx.model() if req.model else None
    n = req.num_gpus or 1
    dp = max(1, n // ((req.tensor_parallel or 1) * (req.pipeline_parallel or 1)))
    if model is None or model.moe is None or model.moe.routed_experts % ep or dp % ep:
        ctx.ignore("expert_parallel", "expert parallelism needs an MoE model whose routed experts and data-parallel GPUs "
                   "it divides", "专家并行要求 MoE 模型，且 EP 能整除路由专家数和数据并行卡数")
        return None
    ctx.used.add("expert_parallel")
    return ep


def _stated_layout(ctx: Ctx) -> dict[str, int]:
    """The tensor/pipeline layout the user runs ('Megatron TP=8, PP=4, DP=2 on 64 GPUs'), when it divides the GPUs:
    the weights, gradients and states split over TP x PP as Megatron splits them."""
    req = ctx.req
    tp, pp, n = req.tensor_parallel or 1, req.pipeline_parallel or 1, req.num_gpus or 1
    if tp * pp == 1 or n % (tp * pp):
        return {}
    ctx.used |= {"tensor_parallel", "pipeline_parallel"}
    return {"tp": tp, "pp": pp}


def largest_sizes(ctx: Ctx, gpu, labels: list[str], fits_for) -> dict[str, float | None]:
    """{label: largest parameter count that fits} by bisection over generic dense decoders (tools/largest_model)."""
    from tools.largest_model import largest_fitting

    out = {}
    for label in labels:
        def fits(n: float, label=label) -> bool:
            size = f"{n / 1e9:.4f}".rstrip("0").rstrip(".") + "b"
            return bool(fits_for(label, ctx.deps.catalog.model(size)[0]))

        best = largest_fitting(fits)
        out[label] = ctx.call("largest_model", {"gpu": gpu.id, "num_gpus": ctx.req.num_gpus or 1, "for": label},
                              {"params": best})["params"]
    if ctx.req.family:
        ctx.notes.append(family_line(ctx, out))
    ctx.notes.append(ctx.t("sizes are generic dense decoders shaped like Llama 3 (an MoE of the same total size needs the "
                           "same weight memory); found by bisection to 1%",
                           "按 Llama 3 形状的通用稠密模型计算（同样总参数量的 MoE 权重显存相同）；二分搜索，精度 1%"))
    return out


def family_line(ctx: Ctx, sizes: dict[str, float | None]) -> str:
    """'In the Qwen family: Qwen2.5-14B (lora) ...': the family's catalog models at or under each largest size."""
    from knowledge.catalog import FAMILY_FLAGSHIPS

    exact = [m for m in ctx.deps.catalog.models if m.family == ctx.req.family]  # 'Gemma 3', 'Qwen3': that version only
    stem = FAMILY_FLAGSHIPS.get(ctx.req.family, ctx.req.family).split("-")[0].rstrip("0123456789.")
    members = [m for m in (exact or [m for m in ctx.deps.catalog.models if m.id.startswith(stem)]) if "distill" not in m.id]
    parts = []
    for label, best in sizes.items():
        if not best:
            continue
        fit = [m for m in members if m.params_total <= best]
        if fit:
            top = max(fit, key=lambda m: (m.params_total, m.id))
            parts.append(f"{label}: {top.hf_repo.split('/')[-1] if top.hf_repo else top.name}")
    return (ctx.t(f"in the {ctx.req.family} family, the largest that fits: ", f"{ctx.req.family} 系列里放得下的最大型号：")
            + ("; ".join(parts) if parts else ctx.t("none", "没有")))


def _largest_trainable(ctx: Ctx, gpu, n: int) -> Answer:
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    sizes = largest_sizes(ctx, gpu, _methods(ctx), lambda method, spec: estimate_training_memory(
        TrainingMemoryRequest(model=spec, gpu=gpu, **_memory_args(ctx, method))).fits)
    rows = [[m.upper() if m != "full" else T(ctx.lang, "full"), "-" if v is None else f"{v / 1e9:.3g}B"] for m, v in sizes.items()]
    head = ctx.t(f"**Largest model that fits {n}× {gpu.name}, by method:**", f"**{n} 张 {gpu.name} 能训的最大模型（按方法）：**")
    text = head + "\n\n" + md_table([T(ctx.lang, "method"), ctx.t("largest model", "最大模型")], rows) + \
        assumptions_md(ctx.lang, ctx.notes)
    figures = {f"largest_{m}_params_b": None if v is None else round(v / 1e9, 2) for m, v in sizes.items()}
    return Answer(answer=text, lang=ctx.lang, intent=ctx.req.intent, figures=figures, tool_calls=ctx.calls,
                  verdict=Verdict(gpu=gpu.id, num_gpus=n))


_FIDELITY = ("full", "lora", "qlora")  # most faithful first: all weights trained; 16-bit base; 4-bit base


HOST_RAM_USABLE = 0.85  # of a machine's RAM, what offloaded training states can take beside the OS and data loaders


def _pick_method(ctx: Ctx, options, host_gb: dict | None = None) -> str:
    """Several methods asked about: the most faithful one that fits on the GPUs alone, else the most faithful that
    fits with states offloaded to host RAM (an offloaded step moves the optimizer over PCIe: several times slower),
    and what the others trade."""
    host_gb = host_gb or {}

    from tools.memory import usable_bytes
    from tools.units import GB

    usable = usable_bytes(ctx.gpu()) / GB if ctx.req.gpu else None

    def tight(o) -> bool:  # 'fits' at 91-99% of the memory: the first longer batch is an OOM
        return bool(usable and o.per_gpu_gb and o.per_gpu_gb > TIGHT_SHARE * usable)
    fitting = sorted((o for o in options if o.fits), key=lambda o: (host_gb.get(o.method, 0) > 0, tight(o),
                                                                   _FIDELITY.index(o.method)))
    if not fitting:
        least = min(options, key=lambda o: o.per_gpu_gb)
        return ctx.t(f"**Pick**: none fits this hardware; {least.method} needs the least ({least.per_gpu_gb:.1f} GB per GPU, "
                     f"{least.min_gpus or '-'} GPUs).",
                     f"**选择**：这套硬件都放不下；{least.method} 最省（每卡 {least.per_gpu_gb:.1f} GB，需 {least.min_gpus or '-'} 张）。")
    pick = fitting[0]
    offloaded = [o for o in fitting[1:] if host_gb.get(o.method, 0) > 0 and _FIDELITY.index(o.method) < _FIDELITY.index(pick.method)]
    why = {"full": ("every weight is trained (the most capacity to learn), at the most memory",
                    "训练全部权重（学习能力最强），显存最多"),
           "lora": ("the base stays in 16-bit (no quantization error) and steps are faster than QLoRA's (no dequantization)",
                    "底座保持 16 位（没有量化误差），每步比 QLoRA 快（不用反量化）"),
           "qlora": ("the 4-bit base is the only way it fits; expect slower steps and a small quality cost",
                     "只有 4 位底座放得下；每步更慢，质量略有损失")}[pick.method]
    squeezed = [o for o in fitting[1:] if tight(o) and _FIDELITY.index(o.method) < _FIDELITY.index(pick.method)]
    if squeezed:  # ('LoRA or QLoRA on two A100s for 72B?'): the 16-bit route fits only at the edge of memory
        o = squeezed[0]
        share = o.per_gpu_gb / usable
        why = (f"{o.method} also fits, but at {share:.0%} of memory, where a longer sequence or fragmentation is an OOM; "
               "the 4-bit base leaves room, at slower steps" if pick.method == "qlora" else
               f"{o.method} also fits, but at {share:.0%} of memory (an OOM risk)",
               f"{o.method} 也放得下，但占显存的 {share:.0%}，序列稍长或碎片就会 OOM；4 位底座留有余量，代价是每步更慢"
               if pick.method == "qlora" else f"{o.method} 也放得下，但占显存的 {share:.0%}（有 OOM 风险）")
    others = [o for o in options if o is not pick]
    saving = "; ".join(ctx.t(f"{o.method}: {o.per_gpu_gb:.1f} GB ({o.per_gpu_gb / pick.per_gpu_gb:.2f}× the memory)",
                             f"{o.method}：{o.per_gpu_gb:.1f} GB（显存是它的 {o.per_gpu_gb / pick.per_gpu_gb:.2f} 倍）") for o in others)
    text = ctx.t(f"**Pick: {pick.method}**, {pick.per_gpu_gb:.1f} GB per GPU fits: {why[0]}. Beside it: {saving}.",
                 f"**选 {pick.method}**：每卡 {pick.per_gpu_gb:.1f} GB 放得下；{why[1]}。对比：{saving}。")
    if pick.method in ("lora", "qlora") and any(o.method == "full" for o in options):
        # what the full fine-tune would buy: the published comparison, by task and data size
        n_ex = ctx.req.samples
        if n_ex:
            ctx.used.add("samples")
            text += ctx.t(f" Your {n_ex:,.0f} examples are a LoRA-sized dataset: at this size LoRA matches full "
                          "fine-tuning on most tasks, at a fraction of the memory.",
                          f" 你们的 {n_ex:,.0f} 条数据正是 LoRA 的量级：这个规模下 LoRA 在多数任务上和全参效果相当，显存只要一小部分。") \
                if n_ex <= 300_000 else ""
        text += ctx.t(" LoRA or full, by the task: on instruction following, classification and extraction with up to a "
                      "few hundred thousand examples LoRA comes within about a point of full fine-tuning and forgets less "
                      "of the base model; full fine-tuning pays off on large data that teaches new knowledge (code, maths, "
                      "a new language or domain corpus) (Biderman et al. 2024, 'LoRA Learns Less and Forgets Less').",
                      "LoRA 还是全参，看任务：指令跟随、分类、信息抽取这类、数据在几十万条以内时，LoRA 与全参微调的效果通常只差约 1 个点，"
                      "而且对底座能力的遗忘更少；数据量很大、要学新知识（代码、数学、新语言或领域语料）时全参才明显更好"
                      "（Biderman 等 2024，《LoRA Learns Less and Forgets Less》）。")
    if any(o.method == "qlora" for o in options) and any(o.method == "lora" for o in options):
        # ('听说 QLoRA 掉点挺多的'): the published comparison, and the check that settles it for the user's task
        text += ctx.t(" On quality: QLoRA (NF4 base, double quantization) matched 16-bit LoRA and full fine-tuning on the "
                      "QLoRA paper's benchmarks (Dettmers et al. 2023, MMLU within about a point); the losses people "
                      "report mostly come from merging adapters into a quantized base or serving it in 4-bit. Train both "
                      "on a small slice and compare on your own held-out set if it matters.",
                      " 关于质量：QLoRA（NF4 底座、双重量化）在 QLoRA 论文的评测上与 16 位 LoRA、全参微调基本持平（Dettmers 等 2023，"
                      "MMLU 差约 1 个点以内）；大家说的“掉点”多来自把适配器合并进量化底座、或用 4 位部署。介意的话用一小份数据两种都训，"
                      "在自己的验证集上比。")
    for o in offloaded:
        text += ctx.t(f" {o.method} fits only by offloading {host_gb[o.method]:,.0f} GB of optimizer states to host RAM: every "
                      "step moves them over PCIe and runs the optimizer on the CPU, typically several times slower per step, "
                      f"so {pick.method} is the practical choice here.",
                      f"{o.method} 只有把 {host_gb[o.method]:,.0f} GB 优化器状态卸载到内存才放得下：每步都要经 PCIe 搬运、在 CPU 上跑优化器，"
                      f"通常每步慢好几倍，所以这里实际该选 {pick.method}。")
    return text


PCIE_GBPS = 25.0  # PCIe 4.0 x16 sustained host-to-device, per card (datasheet 32 GB/s per direction)
# DeepSpeed's CPU-Adam updates about a billion fp32 parameters in a quarter of a second on a server CPU (Ren et al.
# 2021, ZeRO-Offload, USENIX ATC: CPU-Adam 5-7x faster than PyTorch's CPU Adam); desktop CPUs are slower
CPU_ADAM_S_PER_BILLION = 0.25


def _offload_cost(ctx: Ctx, model, gpu, n: int, r) -> str:
    """'开 ZeRO-3 offload 需要多少内存，会慢多少': the host RAM the offloaded states take and what each optimizer step adds:
    bf16 gradients down and bf16 weights back over PCIe (4 bytes a parameter, split over the cards' links) and the
    Adam update on the CPU, against the step's own compute at micro-batch 1 (larger batches spread it thinner)."""
    if not r.host_ram_gb or not gpu.bf16_dense_tflops:
        return ""
    from tools import efficiency as eff

    p = r.total_params
    move_s = 4 * p / (PCIE_GBPS * 1e9 * n)
    adam_s = CPU_ADAM_S_PER_BILLION * p / 1e9
    tokens = (ctx.req.seq_len or 2048) * (ctx.req.micro_batch or 1) * n
    mfu = eff.default_mfu(gpu, "bf16").point
    step_s = 6 * p * tokens / (n * gpu.bf16_dense_tflops * 1e12 * mfu)
    extra = move_s + adam_s
    return ctx.t(
        f"**Offload's cost**: {r.host_ram_gb:,.0f} GB of host RAM for the offloaded states; each optimizer step adds "
        f"~{extra:,.1f} s ({4 * p / 1e9:,.0f} GB of bf16 gradients and weights over PCIe at ~{PCIE_GBPS:g} GB/s per card: "
        f"{move_s:,.1f} s; Adam on the CPU: ~{adam_s:,.1f} s) to a compute step of ~{step_s:,.1f} s at micro-batch 1: "
        f"about **{(step_s + extra) / step_s:,.1f}× slower** per step, less with gradient accumulation (the offload cost "
        "is paid once per optimizer step).",
        f"**卸载的代价**：卸载的状态占 {r.host_ram_gb:,.0f} GB 主机内存；每个优化器步多花约 {extra:,.1f} 秒（bf16 梯度和权重 "
        f"{4 * p / 1e9:,.0f} GB 经 PCIe 往返，每卡约 {PCIE_GBPS:g} GB/s：{move_s:,.1f} 秒；CPU 上跑 Adam：约 {adam_s:,.1f} 秒），"
        f"而 micro-batch 1 时一步计算约 {step_s:,.1f} 秒：每步约**慢 {(step_s + extra) / step_s:,.1f} 倍**；用梯度累积会摊薄"
        "（卸载开销每个优化器步只付一次）。")
OFFLOAD_PASSES = 3  # frozen weights cross PCIe for the forward, the recomputed forward and the backward


def _offload_routes(ctx: Ctx, model, gpu, n: int, results: dict) -> tuple[list[str], dict[str, float]]:
    """LoRA / QLoRA that does not fit the cards asked about: the route people take on small cards, FSDP (or ZeRO-3)
    with the frozen base weights offloaded to CPU RAM (Answer.AI fsdp_qlora --use_cpu_offload; ms-swift's 'qlora_fsdp'
    example trains Llama 2 70B on 2 x 24 GB at 2,048 tokens this way), sized, with what it costs: host RAM, and the
    weights crossing PCIe on every pass."""
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    out, figs = [], {}
    for method in ("qlora", "lora"):
        r = results.get(method)
        if r is None or r.fits:
            continue
        args = _memory_args(ctx, method) | {"offload": "all"}
        if args.get("zero") not in (None, 3):
            continue
        args.pop("zero", None)
        off = ctx.call("size_train", {"model": model.id, "gpu": gpu.id, **args},
                       estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, **args)))
        if not off.fits:
            continue
        weights_gb = off.host_ram_gb or 0.0  # what lives in host RAM: the frozen base, sent to the GPUs each pass
        step_s = OFFLOAD_PASSES * weights_gb / (PCIE_GBPS * 0.8)
        out.append("- " + ctx.t(
            f"**Route that fits**: {method} with FSDP and the frozen weights offloaded to CPU RAM (Answer.AI fsdp_qlora "
            f"`--use_cpu_offload`, or DeepSpeed ZeRO-3 `offload_param`): **{off.per_gpu_gb:.1f} GB per GPU** on {n} × "
            f"{gpu.name}, about {weights_gb:,.0f} GB of host RAM; the cost is speed: the weights cross PCIe on every pass, "
            f"~{step_s:,.1f} s per step ({OFFLOAD_PASSES} passes × {weights_gb:,.0f} GB at ~{PCIE_GBPS * 0.8:g} GB/s), partly "
            "hidden behind compute.",
            f"**能跑的路线**：{method} + FSDP，冻结的底座权重卸载到 CPU 内存（Answer.AI fsdp_qlora `--use_cpu_offload`，或 "
            f"DeepSpeed ZeRO-3 `offload_param`）：{n} 张 {gpu.name} **每卡 {off.per_gpu_gb:.1f} GB**，主机内存约 "
            f"{weights_gb:,.0f} GB；代价是速度：每个 pass 权重都要走 PCIe，每步约 {step_s:,.1f} 秒（{OFFLOAD_PASSES} 次 × "
            f"{weights_gb:,.0f} GB，约 {PCIE_GBPS * 0.8:g} GB/s），部分能被计算掩盖。"))
        figs |= {f"{method}_offload_per_gpu_gb": off.per_gpu_gb, f"{method}_offload_host_ram_gb": off.host_ram_gb}
        break
    return out, figs


class Fix(NamedTuple):
    change: dict[str, Any]  # TrainingMemoryRequest fields, on top of the changes before it
    said: tuple[str, str]  # how the timed answer names it (en, zh)


# The usual changes on the same GPUs, each on top of the ones before it (_standard_fixes): what a time asked beside a
# memory that does not fit is computed with, when one of them makes it fit (planner)
_MB1 = {"micro_batch": 1}
_CHUNKED = _MB1 | {"loss": "chunked"}
_RECOMPUTE = _CHUNKED | {"recompute": "full"}
FIXES: dict[str, Fix] = {
    "mb1": Fix(_MB1, ("micro-batch 1, accumulation making up the batch", "micro-batch 1，梯度累积补足")),
    "chunked": Fix(_CHUNKED, ("micro-batch 1, accumulation making up the batch, chunked cross-entropy",
                              "micro-batch 1，梯度累积补足，分块交叉熵")),
    "qlora": Fix(_CHUNKED | {"method": "qlora"}, ("QLoRA, micro-batch 1", "QLoRA、micro-batch 1")),
    "recompute": Fix(_RECOMPUTE, ("micro-batch 1, chunked loss, full recomputation", "micro-batch 1、分块交叉熵、完整重计算")),
    "zero3": Fix({"zero": 3}, ("ZeRO-3 (the weights sharded over the GPUs)", "ZeRO-3（权重切分到各卡）")),
    "adam8": Fix(_RECOMPUTE | {"optimizer": "adamw-8bit"}, ("micro-batch 1, chunked loss, full recomputation, 8-bit AdamW",
                                                           "micro-batch 1、分块交叉熵、完整重计算、8-bit AdamW")),
}


MAX_SEQ_ASK = (r"最长(?:的)?(?:序列|上下文|seq)|序列(?:最长|最大)|能开多长|能训多长|" +
               r"(?<![a-z])(?:max(?:imum)? seq(?:uence)?(?:[\s_-]*len(?:gth)?)?|longest seq(?:uence)?|max(?:imum)? "
               r"context (?:we|i) (?:can|could)|how long (?:a )?(?:sequence|context) (?:can|could))(?![a-z])")


def _longest_sequence(ctx: Ctx, model, gpu, method: str) -> int | None:
    """The longest training sequence that fits the request's GPUs and settings at micro-batch 1 (bisection over
    the training-memory tool, 256 tokens to the model's context limit)."""
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    def fits(seq: int) -> bool:
        args = _memory_args(ctx, method) | _stated_layout(ctx) | {"seq_len": seq, "micro_batch": 1}
        try:
            return bool(estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, **args)).fits)
        except ValueError:
            return False

    top = max(model.max_context_extended or 0, model.max_context or 0) or 131072
    if not fits(256):
        return None
    if fits(top):
        return top
    lo, hi = 1, top // 256  # in steps of 256 tokens: lo fits, hi does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid * 256) else (lo, mid)
    return lo * 256


def _fix_tries(ctx: Ctx, method: str) -> list[tuple[str, dict[str, Any], str]]:
    """The usual changes for this method that the request has not already made, in the order practitioners try
    them, each as (key, TrainingMemoryRequest change on top of the ones before it, label)."""
    req = ctx.req
    mb = req.micro_batch or 1
    tries = []
    if (req.num_gpus or 1) > 1 and req.zero is not None and req.zero < 3 and not req.offload:
        # 'deepspeed zero2 on 4 GPUs': ZeRO-1/2 keep every weight on every GPU; ZeRO-3 shards them, the first change
        tries.append(("zero3", FIXES["zero3"].change,
                      ctx.t(f"ZeRO-3 in place of ZeRO-{req.zero}: ZeRO-{req.zero} keeps the whole model's weights on every "
                            "GPU; ZeRO-3 (FSDP full shard) splits them over the GPUs",
                            f"把 ZeRO-{req.zero} 换成 ZeRO-3：ZeRO-{req.zero} 每张卡都放整份权重；ZeRO-3（FSDP full shard）把权重切到各卡")))
    if mb > 1:
        tries.append(("mb1", FIXES["mb1"].change, ctx.t(f"micro-batch 1 with gradient accumulation ×{mb} more (same global "
                                                        "batch, more steps of work per update)",
                                                        f"micro-batch 改 1，梯度累积乘 {mb}（全局 batch 不变，每次更新多算几步）")))
    tries.append(("chunked", FIXES["chunked"].change,
                  ctx.t("micro-batch 1 + a chunked cross-entropy (Liger `FusedLinearCrossEntropy`, torchtune chunked "
                        "loss): the vocabulary's logits are never all held", "micro-batch 1 + 分块交叉熵（Liger 的 "
                        "FusedLinearCrossEntropy 或 torchtune 分块 loss）：词表 logits 不再一次性全放显存")))
    if method == "lora" and "precision" not in req.stated:  # ('16-bit LoRA': the user's precision is kept)
        tries.append(("qlora", FIXES["qlora"].change,
                      ctx.t("…and QLoRA (the frozen base in 4-bit NF4)", "……再换 QLoRA（冻结底座用 4-bit NF4）")))
    if method == "full" and req.recompute != "full":
        tries.append(("recompute", FIXES["recompute"].change,
                      ctx.t("…and full activation recomputation (Megatron `--recompute-granularity full`, HF "
                            "`gradient_checkpointing`): only each layer's input is kept, the forward runs twice "
                            "(~+33% compute)", "……再开完整重计算（Megatron `--recompute-granularity full`，HF "
                            "`gradient_checkpointing`）：每层只留输入，前向算两遍（计算量约 +33%）")))
    if method == "full" and (req.optimizer or "adamw") == "adamw" and "optimizer" not in req.stated:
        # ('bf16 w/ AdamW': the optimizer the user chose is kept; the answer is the GPUs it needs)
        tries.append(("adam8", FIXES["adam8"].change,
                      ctx.t("…and an 8-bit AdamW (bitsandbytes `adamw_bnb_8bit`): the two moments in 1 byte each, "
                            "6 bytes per parameter less", "……再换 8-bit AdamW（bitsandbytes `adamw_bnb_8bit`）：两个动量各 "
                            "1 字节，每参数省 6 字节")))
    return tries


def _sized_fixes(ctx: Ctx, model, gpu, method: str) -> list[tuple[str, str, Any]]:
    """Each usual change sized on the request's GPUs: (key, label, TrainingMemory)."""
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    out = []
    for key, change, label in _fix_tries(ctx, method):
        args = _memory_args(ctx, method) | _stated_layout(ctx) | change
        try:
            r = ctx.call("size_train", {"model": model.id, "gpu": gpu.id, **args},
                         estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, **args)))
        except ValueError:
            continue
        out.append((key, label, r))
    return out


def _standard_fixes(ctx: Ctx, model, gpu, n: int, results: dict) -> tuple[list[str], dict[str, float]]:
    """The changes a practitioner tries first on the same GPUs before any offload, each sized: micro-batch 1 with the
    gradient accumulation raised to keep the global batch, then a chunked (fused) cross-entropy so the vocabulary's
    logits are never all in memory (Liger / torchtune), then QLoRA's 4-bit base for a LoRA; for a full fine-tune,
    full recomputation and then an 8-bit optimizer."""
    method = next((m for m in ("lora", "qlora", "full") if m in results and not results[m].fits), None)
    if method is None:
        return [], {}
    from tools.memory import usable_bytes

    room = usable_bytes(gpu) / 1e9
    out, figs = [], {}
    for key, label, r in _sized_fixes(ctx, model, gpu, method):
        figs[f"fix_{key}_per_gpu_gb"] = r.per_gpu_gb
        tight = r.fits and r.per_gpu_gb > TIGHT_SHARE * room
        if r.fits and ("fix_fits" not in figs or not tight):
            figs["fix_fits"] = key  # the first usual change that fits with room (else the first that fits at all):
            # what a time asked beside it is computed for
        out.append(f"  - {label}: **{r.per_gpu_gb:.1f} GB** " + (
            ctx.t("— fits, with little room to spare", "—— 放得下，但余量很小") if tight else
            ctx.t("— fits", "—— 放得下") if r.fits else ctx.t("— still too much", "—— 仍放不下")))
        if r.fits and not tight:  # (a fit within 10% of the card: the next change buys headroom, shown too)
            break
    if figs.get("fix_fits") and figs[f"fix_{figs['fix_fits']}_per_gpu_gb"] > TIGHT_SHARE * room:
        figs["fix_tight"] = 1  # only a tight fit: the offload route stays beside it
    if method == "full" and not figs.get("fix_fits") and "lora" not in results:
        # ('can we full-fine-tune Llama 3.1 70B on a DGX?'): no usual change saves a full fine-tune here; LoRA on the same
        # GPUs is what a practitioner runs instead
        from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

        def sized(m: str):
            try:
                args = _memory_args(ctx, m) | _stated_layout(ctx)
                return ctx.call("size_train", {"model": model.id, "gpu": gpu.id, **args},
                                estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, **args)))
            except ValueError:
                return None

        lo = sized("lora")
        if lo is not None and lo.fits:
            figs["lora_per_gpu_gb"] = lo.per_gpu_gb
            out.append(ctx.t(f"  - **LoRA instead, on the same {n} GPUs: {lo.per_gpu_gb:.1f} GB per GPU — fits**; close to full "
                             "fine-tuning on most instruction and domain tuning, with checkpoints of a few hundred MB",
                             f"  - **改用 LoRA，同样 {n} 张卡：每卡 {lo.per_gpu_gb:.1f} GB —— 放得下**；大多数指令/领域微调上效果接近全参，"
                             "检查点只有几百 MB"))
        elif lo is not None:
            q = sized("qlora")  # ('8B full fine-tune on a 16 GB card? if not what can i do'): the 16-bit base is too big too
            if q is not None and q.fits:
                figs |= {"lora_per_gpu_gb": lo.per_gpu_gb, "qlora_per_gpu_gb": q.per_gpu_gb}
                out.append(ctx.t(f"  - LoRA instead: {lo.per_gpu_gb:.1f} GB per GPU — still too much (the 16-bit base alone is "
                                 f"{model.params_total * 2 / 1e9:.0f} GB); **QLoRA (the base in 4-bit NF4): "
                                 f"{q.per_gpu_gb:.1f} GB per GPU — fits** on the same {n} GPU(s): the usual route on a card "
                                 "this size, at some speed cost (each layer dequantized every step)",
                                 f"  - 改用 LoRA：每卡 {lo.per_gpu_gb:.1f} GB —— 仍放不下（16 位底座本身就 "
                                 f"{model.params_total * 2 / 1e9:.0f} GB）；**QLoRA（底座 4-bit NF4）：每卡 {q.per_gpu_gb:.1f} GB —— "
                                 f"放得下**，同样 {n} 张卡：这种显存的卡上常用的做法，代价是速度（每步都要反量化）"))
    if out:
        out.insert(0, "- " + ctx.t(f"**On the same {n} × {gpu.name}, the usual changes first:**",
                                   f"**同样 {n} 张 {gpu.name}，先试常规改法：**"))
        ctx.used |= {"micro_batch"}
    return out, figs


# 'what batch/seq can we do?', '能开多大 batch、多长序列': the micro-batch each sequence length allows
BATCH_SEQ_ASK = (r"(?<![a-z])(?:what|which|how (?:big|large|much)|max(?:imum)?)\s+(?:micro[\s-]?)?batch|batch\s*/\s*seq|"
                 r"batch (?:size )?(?:and|&|/) ?seq|(?:多大|最大)(?:的)?\s*(?:micro[\s-]?)?batch|batch\s*(?:能|可以)?(?:开|设)(?:多大|到多少)")
BATCH_LENGTHS = (2048, 4096, 8192, 16384)
BATCH_SIZES = (1, 2, 4, 8, 16, 32)


def _batch_by_length(ctx: Ctx, model, gpu, method: str) -> str:
    """The largest micro-batch per GPU that fits at each common sequence length for `method` (the same settings
    otherwise), as a table; a length where even one sequence does not fit says so."""
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    rows = []
    for seq in BATCH_LENGTHS:
        best = None
        for b in BATCH_SIZES:
            try:
                args = _memory_args(ctx, method) | _stated_layout(ctx) | {"seq_len": seq, "micro_batch": b}
                r = estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, **args))
            except ValueError:
                break
            if not r.fits:
                break
            best = (b, r.per_gpu_gb)
        rows.append([f"{seq:,}", str(best[0]) if best else ctx.t("none", "放不下"), f"{best[1]:.1f}" if best else "-"])
    return ctx.t(f"**Micro-batch per GPU that fits** ({method}, the same settings otherwise; reach a larger global batch "
                 "with gradient accumulation):", f"**每卡能放下的 micro-batch**（{method}，其余设置不变；更大的全局 batch 用梯度累积）：") + \
        "\n\n" + md_table([ctx.t("sequence length", "序列长度"), ctx.t("largest micro-batch", "最大 micro-batch"),
                             ctx.t("GB per GPU", "每卡 GB")], rows)


def _headroom(ctx: Ctx, model, gpu, method: str, per_gpu_gb: float) -> str:
    """A tight fit's way to headroom: each usual change not yet made, with what it saves per GPU."""
    saves, prev = [], per_gpu_gb
    for _, label, r in _sized_fixes(ctx, model, gpu, method):  # each change on top of the ones before: its own saving
        saves.append((label.lstrip("…").lstrip("……"), prev - r.per_gpu_gb))
        prev = min(prev, r.per_gpu_gb)
    saves = [(label.split(":")[0].split("：")[0], gb) for label, gb in saves if gb >= 0.3]
    if not saves:
        return ctx.t("keep headroom: a shorter sequence or one more GPU", "要留余量：缩短序列或再加一张卡")
    return ctx.t("headroom from the usual changes (each on top of the last): ", "留余量的常规改法（逐项叠加，各自省下）：") + "; ".join(
        ctx.t(f"{label} −{gb:.1f} GB", f"{label} 省 {gb:.1f} GB") for label, gb in saves)


def training_memory(ctx: Ctx) -> Answer:
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

    req, lang = ctx.req, ctx.lang
    if req.largest_model and not req.model:
        if not req.seq_len:
            ctx.assume("seq 2048", "序列 2048")
        gpu = ctx.gpu()
        if not req.num_gpus:
            ctx.assume_one_gpu()
        return _largest_trainable(ctx, gpu, req.num_gpus or 1)
    model, gpu, n = ctx.job(DEFAULT_GPU)
    if not req.seq_len:
        ctx.assume("seq 2048", "序列 2048")
    if req.precision in ("int8", "fp8"):
        ctx.ignore("precision", "training memory is sized for 16-bit LoRA, NF4 QLoRA or mixed-precision full training",
                   "训练显存按 16 位 LoRA、NF4 QLoRA 或混合精度全参计算")
    if req.lora_rank and set(_methods(ctx)) == {"full"}:
        ctx.ignore("lora_rank", "a full fine-tune has no LoRA rank", "全参微调没有 LoRA rank")
    results, options = {}, []
    for method in _methods(ctx):
        args = _memory_args(ctx, method) | _stated_layout(ctx)
        r = ctx.call("size_train", {"model": model.id, "gpu": gpu.id, **args},
                     estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, **args)))
        results[method] = r
        fits = r.fits
        if fits and req.ram_gb and r.host_ram_gb > req.ram_gb * HOST_RAM_USABLE:
            fits = False  # the GPUs hold it, the host does not: the offloaded states need more RAM than the machine has
            ctx.notes.append(ctx.t(f"{method}: the offloaded states need {r.host_ram_gb:,.0f} GB of host RAM; you have "
                                   f"{req.ram_gb:g} GB ({HOST_RAM_USABLE:.0%} usable beside the OS and data loaders)",
                                   f"{method}：卸载到内存的状态要 {r.host_ram_gb:,.0f} GB 主机内存；你有 {req.ram_gb:g} GB"
                                   f"（除去系统和数据加载，约 {HOST_RAM_USABLE:.0%} 可用）"))
        options.append(Verdict(fits=fits, gpu=gpu.id, num_gpus=n, min_gpus=r.min_gpus, method=method,
                               per_gpu_gb=r.per_gpu_gb))
    if req.ram_gb and not any(r.host_ram_gb for r in results.values()):
        ctx.ignore("ram_gb", "nothing is offloaded to host RAM in this plan, so its size does not limit it",
                   "这个方案没有卸载到主机内存，内存大小不构成限制")
    offload = None
    if "full" in results and not results["full"].fits and req.offload is None:
        offload = None
        from tools.params import count_parameters

        own_holds = 2 * count_parameters(model).total / 1e9 < n * gpu.memory_gb  # (bf16 weights alone on the user's cards)
        for n_off in dict.fromkeys([n, 8] if n == 1 and own_holds else [8] if n == 1 else [n]):
            # (on the user's own cards first: one card with its optimizer in host RAM is a route people run; else 8)
            args = _memory_args(ctx, "full") | {"num_gpus": n_off, "offload": "optimizer"}
            args.pop("zero", None) if args.get("zero") == 0 else None
            offload = ctx.call("size_train", {"model": model.id, "gpu": gpu.id, **args},
                               estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, **args)))
            if offload.fits:
                break
    nothing_fits = not any(r.fits for r in results.values())  # a route is named when no asked method fits as is
    routes, route_figs = _offload_routes(ctx, model, gpu, n, results) if req.offload is None and nothing_fits else ([], {})
    fixes: list[str] = []
    if nothing_fits and req.offload in (None, "none"):  # what to change before offloading anything (or without it)
        fixes, fix_figs = _standard_fixes(ctx, model, gpu, n, results)
        route_figs = route_figs | fix_figs
    fix_fits = route_figs.get("fix_fits")
    single = req.method in FINETUNE_METHODS or (len(options) == 1)
    main = options[0] if single else next((o for o in options if o.fits), options[-1])
    lines = [T(lang, "tm_head", model=model.name, n=n, gpu=gpu.name)]
    from assistant.readers.slots import COUNT_ASK

    if "num_gpus" not in req.stated and main.min_gpus and main.min_gpus > n and \
            re.search(COUNT_ASK + r"|(?<![a-z])how many(?![a-z])", ctx.question.lower()):
        # 'how many 3090s do we need?': the count leads, with its memory per GPU; the one-GPU terms follow
        k = main.min_gpus
        args = _memory_args(ctx, main.method) | {"num_gpus": k}
        at_k = ctx.call("size_train", {"model": model.id, "gpu": gpu.id, **args},
                        estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, **args)))
        tight = at_k.usable_gb and at_k.per_gpu_gb / at_k.usable_gb > TIGHT_SHARE
        roomy = None
        if tight:  # the fewest that hold it at 93-99% of a card: the count with headroom is the one to plan on
            standard = [c for c in (2, 4, 8) if c > k] + [8 * m for m in range(2, 129) if 8 * m > k]
            for k2 in [c for c in standard if c <= 2 * k + 8]:  # whole servers past 8: 16, 24, 32 ...
                a2 = _memory_args(ctx, main.method) | {"num_gpus": k2}
                x2 = estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, **a2))
                if x2.usable_gb and x2.per_gpu_gb / x2.usable_gb <= TIGHT_SHARE:
                    roomy = (k2, x2.per_gpu_gb)
                    break
        extra = ctx.t(f"; **tight** ({at_k.per_gpu_gb / at_k.usable_gb:.0%} of usable)" + (
            f": plan on {roomy[0]} ({roomy[1]:.1f} GB each)" if roomy else ""), f"；**很紧**（可用显存的 "
            f"{at_k.per_gpu_gb / at_k.usable_gb:.0%}）" + (f"：按 {roomy[0]} 张规划（每卡 {roomy[1]:.1f} GB）" if roomy else "")) \
            if tight else ""
        per = req.gpus_per_node if "gpus_per_node" in req.stated and req.gpus_per_node else None
        if per:  # 'how many 8-card boxes?': the count in whole boxes, the GPUs beside it
            plan_k = roomy[0] if roomy else k
            boxes = -(-plan_k // per)
            route_figs = route_figs | {"servers": boxes, "gpus_per_server": per}
            ctx.used.add("gpus_per_node")
            lines.insert(0, ctx.t(f"**{boxes} × {per}-GPU servers ({boxes * per} × {gpu.name})** for {main.method}: "
                                  f"{k} GPUs is the fewest that hold it ({at_k.per_gpu_gb:.1f} GB each"
                                  + (f", {at_k.per_gpu_gb / at_k.usable_gb:.0%} of usable: too tight; {roomy[0]} keep it "
                                     f"under 90%" if roomy else "") + ").",
                                  f"**{boxes} 台 {per} 卡服务器（{boxes * per} 张 {gpu.name}）**（{main.method}）：最少 {k} 张"
                                  f"放得下（每卡 {at_k.per_gpu_gb:.1f} GB"
                                  + (f"，占可用的 {at_k.per_gpu_gb / at_k.usable_gb:.0%}，太紧；{roomy[0]} 张能压到 90% 以下"
                                     if roomy else "") + "）。") + "\n")
        lines.insert(1 if per else 0, ctx.t(f"**{k}× {gpu.name}** for {main.method}: about {at_k.per_gpu_gb:.1f} GB per GPU "
                                            f"(the fewest that hold it{extra}; the terms on one GPU follow).",
                              f"**{k} 张 {gpu.name}**（{T(lang, 'full') if main.method == 'full' else main.method}）：每卡约 "
                              f"{at_k.per_gpu_gb:.1f} GB（放得下的最少卡数{extra}；下面是单卡的各项）。") + "\n")
    for o in options:
        r_o = results[o.method]
        if not o.fits and r_o.fits and req.ram_gb:  # the GPUs hold it; the host RAM does not
            lines.append("- " + ctx.t(f"{o.method}: the GPUs hold it ({o.per_gpu_gb:.1f} GB per GPU), but the offloaded states "
                                      f"need **{r_o.host_ram_gb:,.0f} GB of host RAM**, more than the ~{req.ram_gb * HOST_RAM_USABLE:,.0f} "
                                      f"GB usable of your {req.ram_gb:,.0f} GB (the OS and data loaders need the rest): **does not fit**",
                                      f"{T(lang, 'full') if o.method == 'full' else o.method}：显卡放得下（每卡 {o.per_gpu_gb:.1f} GB），"
                                      f"但卸载的状态要 **{r_o.host_ram_gb:,.0f} GB 主机内存**，超过你 {req.ram_gb:,.0f} GB 里可用的约 "
                                      f"{req.ram_gb * HOST_RAM_USABLE:,.0f} GB（系统和数据加载要占一部分）：**放不下**"))
            continue
        key = "tm_fits" if o.fits else ("tm_nofit" if o.min_gpus else
                                        "tm_nofit_unsharded" if req.zero in (0, 1, 2) and (req.tensor_parallel or 1) == 1
                                        else "tm_nofit_any")
        lines.append("- " + T(lang, key, method=T(lang, "full") if (ctx.zh and o.method == "full") else o.method,
                              gb=o.per_gpu_gb, min=o.min_gpus, n=n))
        if not o.fits and fix_fits and o.method == main.method:  # the usual change that makes it fit leads the way out
            en, zh = FIXES[fix_fits].said
            lines[-1] += ctx.t(f" as configured — but **it fits on {'this GPU' if n == 1 else f'these {n}'} with a usual change ({en}): "
                               f"{route_figs[f'fix_{fix_fits}_per_gpu_gb']:.1f} GB per GPU** (below); more GPUs are "
                               "not needed for memory",
                               f"（按现在的配置）——但**用常规改法（{zh}）这 {n} 张就放得下：每卡 "
                               f"{route_figs[f'fix_{fix_fits}_per_gpu_gb']:.1f} GB**（见下），不必为显存加卡")
        usable = getattr(r_o, "usable_gb", None)
        if o.fits and usable and o.per_gpu_gb / usable > TIGHT_SHARE:  # 'fits' at 91-99%: the first spike is an OOM
            lines[-1] += ctx.t(f" — **tight** ({o.per_gpu_gb / usable:.0%} of {usable:.1f} GB usable): a longer sequence, a "
                               "bigger micro-batch or allocator fragmentation pushes it over (OOM risk); ",
                               f" —— **很紧**（可用 {usable:.1f} GB 的 {o.per_gpu_gb / usable:.0%}）：序列更长、micro-batch 更大或"
                               "显存碎片都会让它放不下（有 OOM 风险）；") + _headroom(ctx, model, gpu, o.method, o.per_gpu_gb)
    if fix_fits:  # a change on the same GPUs that fits comes before moving states to the CPU
        lines += fixes
    if req.offload in ("optimizer", "all"):
        for o in options:
            line = _offload_cost(ctx, model, gpu, n, results[o.method]) if o.fits else ""
            if line:
                lines.append("- " + line)
    if offload is not None:
        short = bool(req.ram_gb and offload.host_ram_gb > req.ram_gb * HOST_RAM_USABLE)  # the host cannot hold it
        lines.append("- " + T(lang, "tm_offload", gb=offload.per_gpu_gb, host=offload.host_ram_gb / 1000,
                              fits=T(lang, "yes") if offload.fits and not short else T(lang, "no")).replace(
                                  " 8 ", f" {offload.num_gpus} ")
                     + (ctx.t(f": more than the ~{req.ram_gb * HOST_RAM_USABLE:,.0f} GB usable of your {req.ram_gb:g} GB "
                              "of RAM, so **offloading is not an option here**",
                              f"：超过你 {req.ram_gb:g} GB 内存里可用的约 {req.ram_gb * HOST_RAM_USABLE:,.0f} GB，"
                              "**这台机器卸载不了**") if short else ""))
        if short:  # (the RAM decided it: not an input left unused)
            ctx.used.add("ram_gb")
            ctx.ignored = [x for x in ctx.ignored if not x.startswith("ram_gb=")]
        elif offload.fits and offload.num_gpus == n:  # the route on the user's own cards: what it costs
            cost = _offload_cost(ctx, model, gpu, n, offload)
            if cost:
                lines.append("  " + cost)
        if offload.num_gpus == n and n <= 2 and "optimizer" not in req.stated:
            # on one or two cards: the lighter optimizer people try before offloading (never in place of one stated)
            try:
                args8 = _memory_args(ctx, "full") | {"num_gpus": n, "optimizer": "adamw-8bit"} | _RECOMPUTE
                r8 = estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, **args8))
            except ValueError:
                r8 = None
            if r8 is not None:
                lines.append("- " + ctx.t(
                    f"full fine-tune with 8-bit AdamW (bitsandbytes; its two moments in 1 byte each), full recomputation: "
                    f"{r8.per_gpu_gb:.1f} GB per GPU — " + ("**fits**" if r8.fits else "does not fit either"),
                    f"全参微调改用 8-bit AdamW（bitsandbytes，两个动量各 1 字节）、完整重计算：每卡 {r8.per_gpu_gb:.1f} GB —— "
                    + ("**放得下**" if r8.fits else "也放不下")))
    lines += [] if fix_fits and not route_figs.get("fix_tight") else routes if fix_fits else fixes + routes
    if results.get("full") and results["full"].states_total_gb:  # the figure 'how much memory does full FT need' asks
        full = results["full"]
        per = full.states_total_gb * 1e9 / full.total_params
        lines.append(ctx.t(f"Full training in total, before it is split over GPUs: model states {per:.0f} bytes × "
                           f"{full.total_params / 1e9:.2f}B parameters = **{full.states_total_gb:,.0f} GB** (weights, "
                           "gradients, master weights and optimizer states; see the assumptions), plus activations on each GPU.",
                           f"全参训练总共（分到各卡之前）：模型状态 {per:.0f} 字节 × {full.total_params / 1e9:.2f}B 参数 = "
                           f"**{full.states_total_gb:,.0f} GB**（权重、梯度、主权重和优化器状态，见假设），另加每卡的激活值。"))
    rows = [[o.method.upper() if o.method != "full" else T(lang, "full"), T(lang, "yes") if o.fits else T(lang, "no"),
             f"{o.per_gpu_gb:.1f}", str(o.min_gpus or "-")] for o in options]
    lines += ["", md_table([T(lang, "method"), T(lang, "fits_q"), "GB/GPU", T(lang, "min_gpus")], rows)]
    if len(req.methods) >= 2:
        lines += ["", _pick_method(ctx, options, {m: r.host_ram_gb for m, r in results.items()})]
    if not req.gpu and single:
        from assistant.context import smallest_cards

        def holds(g, method=main.method):
            x = estimate_training_memory(TrainingMemoryRequest(model=model, gpu=g, **(_memory_args(ctx, method)
                                                                                    | {"num_gpus": 1})))
            return bool(x.fits), x.per_gpu_gb
        line = smallest_cards(ctx, holds)
        if line:
            lines += ["", line]
    if re.search(MAX_SEQ_ASK, ctx.question.lower()):  # 'what's the max seq len we could push?': by bisection
        longest = _longest_sequence(ctx, model, gpu, main.method)
        if longest:
            figures_extra = {"longest_seq_len": longest}
            lines += ["", ctx.t(f"**Longest sequence that fits** ({main.method}, micro-batch 1, on {n}× {gpu.name}): "
                                f"**{longest:,} tokens** (the same settings; sequence parallelism or more recomputation "
                                "goes further)",
                                f"**能放下的最长序列**（{main.method}，micro-batch 1，{n} 张 {gpu.name}）：**{longest:,} token**"
                                "（其余设置不变；序列并行或更多重计算还能更长）")]
            ctx.used.add("seq_len")
        else:
            figures_extra = {}
    else:
        figures_extra = {}
    if re.search(BATCH_SEQ_ASK, ctx.question.lower()):  # 'what batch/seq can we do?': the micro-batch at each length
        fit = next((o for o in options if o.fits), None)
        if fit is not None:
            table = _batch_by_length(ctx, model, gpu, fit.method)
            if table:
                lines += ["", table]
                ctx.used |= {"seq_len", "micro_batch"}
    adapters = [(m, r) for m, r in results.items() if m in ("lora", "qlora")]
    if adapters:  # what LoRA trains: the adapter's parameters, a sliver of the model's
        m, r = adapters[0]
        rank = req.lora_rank or 16
        on = ", ".join(req.lora_targets) if req.lora_targets else ctx.t("all linear layers", "所有线性层")
        lines += ["", ctx.t(f"Trainable parameters ({m.upper()} rank {rank} on {on}): **{r.trainable_params:,}** "
                            f"({r.trainable_params / r.total_params:.2%} of {r.total_params / 1e9:.2f}B); the rest stay frozen.",
                            f"可训练参数（{m.upper()} rank {rank}，作用于 {on}）：**{r.trainable_params:,}**"
                            f"（占 {r.total_params / 1e9:.2f}B 的 {r.trainable_params / r.total_params:.2%}），其余冻结。")]
    best = results[main.method]
    lines += ["", T(lang, "breakdown", method=main.method),
              md_table(["", "GB"], [[component_name(k, lang), f"{v:.2f}"] for k, v in best.breakdown_gb.items()])]
    cites = ctx.deps.search(f"{model.name} {main.method} {gpu.id} 显存" if ctx.zh else f"{main.method} memory {model.name} {gpu.id}")
    figures: dict[str, Any] = {f"{o.method}_per_gpu_gb": o.per_gpu_gb for o in options}
    figures |= {f"{m}_trainable_params": r.trainable_params for m, r in results.items()}
    figures |= {f"{o.method}_min_gpus": o.min_gpus for o in options}
    if "full" in results and req.offload in ("optimizer", "all"):
        figures["full_offload_host_ram_gb"] = results["full"].host_ram_gb
    figures |= {f"{m}_host_ram_gb": r.host_ram_gb for m, r in results.items()}
    if results.get("full") and results["full"].states_total_gb:
        figures["full_states_total_gb"] = results["full"].states_total_gb
    figures |= route_figs | figures_extra
    if offload is not None:
        figures["full_offload_host_ram_gb"] = offload.host_ram_gb
        figures["full_offload_per_gpu_gb"] = offload.per_gpu_gb
    if re.search(SMALLER_ASK, ctx.question.lower()):
        smaller = _smaller_models(ctx, model, gpu, n, [o.method for o in options])
        if smaller:
            lines += ["", smaller]
    text = "\n".join(lines) + assumptions_md(lang, ctx.notes + best.assumptions) + sources_md(lang, cites)
    return Answer(answer=text, lang=lang, intent=ctx.req.intent, verdict=main, options=options, figures=figures,
                  citations=cites, tool_calls=ctx.calls)


SMALLER_ASK = (r"换(?:个|成)?小(?:一点|一些|点)?的?模型|小一点的模型|更小的模型|换小模型|小模型|" +
               r"(?<![a-z])(?:a |go with a |switch to a |use a )?smaller (?:model|one|size|variant)(?![a-z])")
# families trained with much Chinese data (their model cards' C-Eval / CMMLU results): a Chinese task's smaller
# alternative is taken from Qwen2.5 when the model named is from another family
_CHINESE_FIRST = ("qwen", "deepseek", "glm", "yi", "internlm", "baichuan", "kimi")


def _smaller_models(ctx: Ctx, model, gpu, n: int, methods: list[str]) -> str:
    """'LoRA or QLoRA, or a smaller model?': the same fine-tune of the family's smaller sizes (and, for a Chinese task on
    a family not trained mainly on Chinese, Qwen2.5's) on the same GPUs, each method's memory, and the largest that
    fits with room."""
    cat = ctx.deps.catalog
    m = re.match(r"(.*?-)(\d+(?:\.\d+)?)b$", model.id)
    picks = []
    if m:
        picks = [x for x in cat.models if re.fullmatch(re.escape(m.group(1)) + r"\d+(?:\.\d+)?b", x.id)
                 and x.params_total < model.params_total * 0.7]
    chinese = ctx.zh or re.search(r"中文|chinese|mandarin", ctx.question.lower())
    if chinese and not model.id.startswith(_CHINESE_FIRST):
        picks += [cat.model(i)[0] for i in ("qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b")]
    picks = sorted({x.id: x for x in picks}.values(), key=lambda x: x.params_total)[-5:]
    if not picks:
        return ""
    methods = [x for x in methods if x in ("lora", "qlora", "full")] or ["lora"]
    saved, rows, fits = ctx.req, [], []
    for x in picks:
        cells = []
        for method in methods:
            try:
                ctx.req = saved.model_copy(update={"num_gpus": n, "methods": [method], "method": method})
                r = memory_at(ctx, x, gpu)
            except (ValueError, LookupError):
                cells.append("-")
                continue
            finally:
                ctx.req = saved
            share = r.per_gpu_gb / r.usable_gb if r.usable_gb else 9
            cells.append(f"{r.per_gpu_gb:,.1f}" + (" ✓" if r.fits else " ✗"))
            if r.fits and share <= TIGHT_SHARE:
                fits.append((x, method, r.per_gpu_gb))
        rows.append([x.name] + cells)
    head = [ctx.t("model", "模型")] + [f"{x.upper()} GB/GPU" for x in methods]
    best = max(fits, key=lambda f: (f[0].params_total, f[1] != "qlora")) if fits else None
    lead = ctx.t(f"**A smaller model instead**, the same fine-tune on {n}× {gpu.name} (✓ fits):",
                 f"**换小模型**：同样的微调放在 {n} 张 {gpu.name} 上（✓ 放得下）：")
    tail = ""
    if best:
        tail = ctx.t(f"The largest that fits with room: **{best[0].name} with {best[1].upper()}** ({best[2]:,.1f} GB per GPU)"
                     + (" — and for a Chinese task, Qwen2.5 is trained on far more Chinese than Llama, so its 14-32B "
                        "sizes are the usual choice over a 70B squeezed onto one card" if chinese and
                        not model.id.startswith(_CHINESE_FIRST) else "")
                     + ". A smaller model at a good fine-tune often beats a larger one trained in 4-bit with tiny "
                     "batches and short sequences; try it on your evaluation set first.",
                     f"有余量的最大一档：**{best[0].name} 用 {best[1].upper()}**（每卡 {best[2]:,.1f} GB）"
                     + ("；中文任务上 Qwen2.5 的中文训练数据远多于 Llama，14-32B 通常比硬塞进一张卡的 70B 更合适" if chinese and
                        not model.id.startswith(_CHINESE_FIRST) else "")
                     + "。小模型好好微调，常常胜过 4-bit、小 batch、短序列硬训的大模型；先在你们的评测集上比一比。")
    return lead + "\n\n" + md_table(head, rows) + ("\n\n" + tail if tail else "")


def time_args(ctx: Ctx, model, gpu, tokens: float) -> dict[str, Any]:
    """TrainingTimeRequest fields from the request."""
    req = ctx.req
    method = _one_method(ctx)
    seq, batch_tokens = req.seq_len, (req.global_batch * (req.seq_len or 2048)) if req.global_batch else None
    if req.packing is False and req.sample_len:
        # 'packing off': each sample is its own sequence, so a step holds global-batch samples of ~sample_len tokens
        # (padding to the longest in a batch is extra compute, not counted: length-grouped batches keep it small)
        seq = min(req.sample_len, req.seq_len or req.sample_len)
        batch_tokens = req.global_batch * seq if req.global_batch else None
        ctx.used |= {"packing", "sample_len"}
        line = ctx.t(f"packing off: each step holds {req.global_batch or 'the global batch of'} samples of ~{seq:,} tokens "
                     "(the average), so the steps count samples; padding to each batch's longest sample is extra compute "
                     "not counted here (group by length to keep it small)",
                     f"不打包：每步是 {req.global_batch or '全局 batch 个'} 条样本、每条约 {seq:,} token（平均），步数按样本算；"
                     "补齐到每个 batch 最长样本的 padding 会多算一些，这里没计（按长度分组可以减少）")
        ctx.note(line)
    elif req.packing:
        ctx.used.add("packing")
    if req.peak_tflops:
        ctx.used.add("peak_tflops")  # (the user's peak is the one the time is computed on)
    return {k: v for k, v in {
        "model": model, "gpu": gpu, "num_gpus": req.num_gpus or 1, "tokens": tokens, "method": method,
        "precision": "fp8" if req.precision == "fp8" else None, "seq_len": seq, "zero": req.zero,
        "recompute": req.recompute, "global_batch_tokens": batch_tokens,
        "interconnect": req.interconnect, "gpus_per_node": req.gpus_per_node, "mfu": req.mfu,
        "peak_tflops": req.peak_tflops, "ep": _stated_ep(ctx)}.items() if v is not None} | \
        (_stated_layout(ctx) if req.num_gpus else {})


def run_hours(ctx: Ctx) -> float | None:
    """The wall-clock hours of the training run the request describes (its model, tokens and stated GPUs), or None when
    it describes none: what a bill for the run ('电费多少') is priced over, instead of a default year."""
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    req = ctx.req
    if not (req.tokens and req.model and req.num_gpus and req.gpu) or req.method in ("inference",):
        return None
    model, gpu = ctx.model(), ctx.gpu()
    args = time_args(ctx, model, gpu, training_tokens(ctx))
    try:
        r = estimate_training_time(TrainingTimeRequest(**args))
    except ValueError:
        return None
    ctx.call("time_train", {k: (v.id if hasattr(v, "id") else v) for k, v in args.items()}, r)
    return r.wall_hours


def _does_not_fit_line(ctx: Ctx, model, gpu, n: int) -> str | None:
    """The training memory of the job on the GPUs stated: when they cannot hold it (full fine-tune states beyond all
    their memory), a line saying so, with what does: the fewest GPUs, or optimizer offload, or LoRA."""
    method = _one_method(ctx)
    try:
        r = memory_at(ctx, model, gpu, extra=_stated_layout(ctx))
    except ValueError:
        return None
    ctx.used |= {k for k in ("lora_rank", "lora_targets", "optimizer", "micro_batch", "offload", "zero", "recompute",
                             "seq_len", "loss") if k in ctx.req.stated}  # (the memory check ran with them)
    if r.fits:
        return None
    if r.min_gpus and r.min_gpus <= n:
        r = r.model_copy(update={"min_gpus": None})  # (more of these GPUs would not help: what each holds is the limit)
    ctx.call("size_train", {"model": model.id, "gpu": gpu.id, "num_gpus": n, "method": method}
             | {k: v for k, v in _memory_args(ctx, method).items() if k not in ("num_gpus", "method")}, r)
    states = ctx.t(f"{r.states_total_gb:,.0f} GB of model states", f"{r.states_total_gb:,.0f} GB 模型状态") \
        if getattr(r, "states_total_gb", None) else ctx.t(f"{r.per_gpu_gb:,.0f} GB per GPU", f"每卡 {r.per_gpu_gb:,.0f} GB")
    return ctx.t(f"**Does not fit on {n}× {gpu.name}**: {method} training needs {states} "
                 f"({r.per_gpu_gb:,.1f} GB per GPU of {r.usable_gb:,.1f} usable); "
                 + (f"it takes at least **{r.min_gpus}** GPUs, or optimizer offload to CPU RAM"
                    + (", or LoRA/QLoRA." if method == "full" else ", or a lower LoRA rank and a shorter sequence.")
                    if r.min_gpus else "no GPU count holds it at this micro-batch and length: lower the micro-batch "
                                       "(raise the accumulation) first.") + " The time below is what it would take if it ran.",
                 f"**{n} 张 {gpu.name} 放不下**：{method} 训练要 {states}（每卡 {r.per_gpu_gb:,.1f} GB，可用 {r.usable_gb:,.1f}）；"
                 + (f"至少要 **{r.min_gpus}** 张卡，或把优化器卸载到内存" + ("，或改用 LoRA/QLoRA。" if method == "full" else
                                                                      "，或降低 LoRA rank、缩短序列。") if r.min_gpus else
                    "这个 micro-batch 和长度下加多少卡都放不下：先调小 micro-batch（加大梯度累积）。") + "下面的时间是假如能跑时的时间。")


RATIO_TOKENS = 1e10  # a GPU-vs-GPU time ratio hardly depends on the job; this one is stated when used


SAMPLE_TOKENS = 1000  # an instruction sample's tokens (prompt + response) when only the samples are counted: a common
# SFT average (chat and instruction sets run ~500-2,000); said whenever it is used


def training_tokens(ctx: Ctx) -> float:
    req = ctx.req
    if req.tokens is None and req.samples:
        # '~20k instruction samples, 3 epochs: compare the options': times compared need a length; a typical one, said
        ctx.used.add("samples")
        ctx.assume(f"{SAMPLE_TOKENS:,} tokens per sample (a typical instruction sample; give yours): {req.samples:,} × "
                   f"{SAMPLE_TOKENS:,} = {req.samples * SAMPLE_TOKENS / 1e6:,.0f}M tokens",
                   f"每条样本 {SAMPLE_TOKENS:,} token（常见的指令样本长度；可给出你的）：{req.samples:,} × {SAMPLE_TOKENS:,} = "
                   f"{req.samples * SAMPLE_TOKENS / 1e6:,.0f}M token")
        return req.samples * SAMPLE_TOKENS * (req.epochs or 1)
    if req.tokens is None:
        ctx.assume(f"{RATIO_TOKENS:.0e} tokens (the ratio does not depend on it)", f"{RATIO_TOKENS:.0e} token（倍数与它无关）")
        return RATIO_TOKENS
    if not req.epochs and req.method in ("full", "lora", "qlora") and not req.measured_tokens:
        # a fine-tune's data once, said: SFT often runs 2-3 epochs, and the time scales with them
        ctx.assume("1 epoch (the data once; fine-tunes often run 2-3, and the time scales with them)",
                   "1 个 epoch（数据过一遍；微调常跑 2-3 个，时间按倍数增加）")
    return req.tokens * (req.epochs or 1)


def gpus_that_hold(ctx: Ctx, model, gpu) -> int:
    """No GPU count stated for a training time: one GPU when the job fits there, else the fewest that hold it (a power
    of two within a node, whole 8-GPU servers beyond), said; a time on a card the job cannot load helps nobody."""
    method = _one_method(ctx)
    r = memory_at(ctx, model, gpu)
    if r.fits or not r.min_gpus:
        ctx.assume_one_gpu()
        return 1
    n = 1
    while n < r.min_gpus:
        n *= 2
    n = n if n <= 8 else math.ceil(r.min_gpus / 8) * 8
    ctx.applied["num_gpus"] = n
    ctx.req = ctx.req.model_copy(update={"num_gpus": n})
    fewest = n
    if ctx.req.tokens:  # a pre-training-scale job on the fewest cards would take years: a cluster that ends it in ~2 months
        from tools.train_time import TrainingTimeRequest, estimate_training_time

        tokens = ctx.req.tokens * (ctx.req.epochs or 1)
        hours = lambda k: estimate_training_time(TrainingTimeRequest(**(time_args(ctx, model, gpu, tokens)
                                                                        | {"num_gpus": k}))).wall_hours
        if hours(n) > LONGEST_DEFAULT_DAYS * 24:
            k = max(8, n)
            while hours(k) > TARGET_DAYS * 24 and k < 16_384:
                k *= 2
            n = k
            ctx.applied["num_gpus"] = n
            ctx.req = ctx.req.model_copy(update={"num_gpus": n})
    if n != fewest:
        ctx.assume(f"{n} GPUs (no count given): the fewest that hold this {method} job, {fewest}, would take over "
                   f"{LONGEST_DEFAULT_DAYS} days; {n} finish it in about {TARGET_DAYS} days or less (GPU-hours barely "
                   "change with the count; give yours)",
                   f"{n} 张卡（未给卡数）：放得下的最少卡数 {fewest} 张要超过 {LONGEST_DEFAULT_DAYS} 天；{n} 张约 {TARGET_DAYS} 天"
                   "以内跑完（卡时几乎不随卡数变；可给出你的卡数）")
    else:
        ctx.assume(f"{n} GPUs: one does not hold this {method} job ({r.per_gpu_gb:,.0f} GB); {n} is the fewest that do",
                   f"{n} 张卡：单卡放不下这个{method}任务（{r.per_gpu_gb:,.0f} GB），{n} 张是放得下的最少卡数")
    return n


LONGEST_DEFAULT_DAYS = 90  # a job longer than this on the fewest GPUs is sized on a cluster instead (said)
TARGET_DAYS = 60


FEASIBLE_ASK = (r"够不够|够吗|够用|放得下|放不放得下|装得下|能不能跑|跑得动|可行|会不会\s*oom|爆显存|" +
                r"(?<![a-z])(?:feasible|doable|possible|fit|fits|enough (?:memory|vram)|oom|run out of memory|will it work)(?![a-z])")


def _memory_verdict(ctx: Ctx, model, gpu, n: int) -> str | None:
    """'Fits: 19.5 GB per GPU of 25.3 usable' for the job timed, on one card and count (tools.train_memory)."""
    method = _one_method(ctx)
    try:
        m = memory_at(ctx, model, gpu, n)
    except (ValueError, LookupError):
        return None
    share = m.per_gpu_gb / m.usable_gb if m.usable_gb else 0
    ok_en = "fits" + (", tight" if share > TIGHT_SHARE else "") if m.fits else f"does not fit (needs at least {m.min_gpus})"
    ok_zh = ("放得下" + ("，很紧" if share > TIGHT_SHARE else "")) if m.fits else f"放不下（至少要 {m.min_gpus} 张）"
    return ctx.t(f"**Memory on {n}× {gpu.name}: {m.per_gpu_gb:.1f} GB per GPU of {m.usable_gb:.1f} usable — {ok_en}** "
                 f"({method}, {ctx.req.seq_len or 2048}-token sequences, micro-batch {ctx.req.micro_batch or 1}).",
                 f"**{n} 张 {gpu.name} 的显存：每卡 {m.per_gpu_gb:.1f} GB / 可用 {m.usable_gb:.1f} GB —— {ok_zh}**"
                 f"（{method}，序列 {ctx.req.seq_len or 2048}，micro-batch {ctx.req.micro_batch or 1}）。")


def _per_card_pick(ctx: Ctx, model, results, per_card: dict[str, int], figures: dict) -> str:
    """'H100 or H200, and how many?' for a training job: each card at its own count, its hours, GPU-hours and on-demand
    cost (the price table's typical rate); the pick is the cheapest that meets the deadline (the faster one where
    costs are within 10%)."""
    from assistant.plans.money import typical_rate

    req = ctx.req
    code = req.currency or ("CNY" if ctx.zh else "USD")  # (a Chinese question is priced in yuan unless told)
    cur = "¥" if code == "CNY" else "$"
    rows, opts = [], []
    for r in results:
        g = ctx.gpu(r.gpu)
        rate = typical_rate(ctx, r.gpu, code)
        cost = r.gpu_hours * rate if rate else None
        ok = not req.deadline_hours or r.wall_hours <= req.deadline_hours
        opts.append((r, g, cost, ok))
        mem = memory_at(ctx, model, g, per_card[r.gpu])
        share = mem.per_gpu_gb / mem.usable_gb if mem.usable_gb else None
        room = "" if share is None else f" ({share:.0%}" + (ctx.t(", tight", "，很紧") if share > TIGHT_SHARE else "") + ")"
        rows.append([g.name, f"{per_card[r.gpu]}", f"{mem.per_gpu_gb:,.1f}{room}", f"{r.wall_hours:,.1f}",
                     f"{r.gpu_hours:,.0f}", f"{cur}{cost:,.0f}" if cost else "—", "✓" if ok else "✗"])
        figures[f"{r.gpu}_num_gpus"] = per_card[r.gpu]
    head = [ctx.t("GPU", "GPU"), ctx.t("GPUs", "卡数"), ctx.t("GB/GPU (of usable)", "每卡 GB（占可用）"), ctx.t("hours", "小时"), ctx.t("GPU-hours", "卡时"),
            ctx.t("on-demand cost", "按需租金"), ctx.t("meets deadline" if req.deadline_hours else "runs", "赶得上" if
                                                     req.deadline_hours else "可行")]
    good = [o for o in opts if o[3]] or opts
    priced = [o for o in good if o[2]]
    if priced:
        cheapest = min(priced, key=lambda o: o[2])
        near = [o for o in priced if o[2] <= cheapest[2] * 1.1]
        best = min(near, key=lambda o: o[0].wall_hours)
        why_en = "the lowest cost" + (" (within 10%), and the faster of those" if len(near) > 1 else "")
        why_zh = "成本最低" + ("（相差 10% 以内时取更快的）" if len(near) > 1 else "")
    else:
        best = min(good, key=lambda o: o[0].wall_hours)
        why_en, why_zh = "the fastest (no price on record to compare)", "最快（没有可比的价格记录）"
    r, g, cost, _ = best
    figures |= {"pick_gpu": r.gpu, "pick_num_gpus": per_card[r.gpu]}
    pick = ctx.t(f"**Pick {per_card[r.gpu]}× {g.name}**: {r.wall_hours:,.1f} h" + (
        f", about {cur}{cost:,.0f} rented on demand" if cost else "") + f" — {why_en}" + (
        f" among the options that finish within {req.deadline_hours:,.0f} h" if req.deadline_hours else "") + ".",
        f"**选 {per_card[r.gpu]} 张 {g.name}**：{r.wall_hours:,.1f} 小时" + (f"，按需租约 {cur}{cost:,.0f}" if cost else "") +
        f"——{why_zh}" + (f"（在 {req.deadline_hours:,.0f} 小时内能完成的选项里）" if req.deadline_hours else "") + "。")
    note = ctx.t("Each card at the fewest GPUs that hold the job" + (" and finish by the deadline" if req.deadline_hours
                                                                     else "") + " (whole 8-GPU servers past one):",
                 "每种卡按放得下任务" + ("并赶得上截止时间" if req.deadline_hours else "") + "的最少卡数（超过一台按整台 8 卡）：")
    vendors = {o[1].vendor for o in opts}
    if "geforce" in g.name.lower() and per_card[r.gpu] > 8:
        # ('3 个月预训练 1.5B：H800 还是 4090 集群？' → 24 × 4090): desk cards across several machines
        pick += ctx.t(f" Mind the cluster: {per_card[r.gpu]} desk cards are {-(-per_card[r.gpu] // 8)} machines joined by "
                      "Ethernet (no NVLink, no peer-to-peer): gradient traffic between them is the bottleneck unless the "
                      "network is 100 Gb/s or more, 24 GB per card leaves little room (sharded optimizer states, small "
                      "micro-batches), and the time above assumes the MFU holds; one 8-GPU data-centre server avoids all "
                      "of it.",
                      f"注意集群：{per_card[r.gpu]} 张消费卡是 {-(-per_card[r.gpu] // 8)} 台机器靠以太网连起来（没有 NVLink，4090 也没有 "
                      "P2P）：除非网络在 100 Gb/s 以上，机器间的梯度同步会成为瓶颈；每卡 24 GB 余量很小（要切分优化器状态、micro-batch 小）；"
                      "上面的时间假设 MFU 守得住。一台 8 卡数据中心服务器没有这些问题。")
    if g.vendor in ("Huawei", "AMD") and len(vendors) > 1:  # the pick leaves CUDA: the stack is part of the cost
        pick += ctx.t(" Mind the stack: " + ("Ascend runs on CANN with MindSpeed / MindSpeed-LLM (PyTorch via torch_npu), "
                                             "not CUDA: porting and validating a from-scratch run takes weeks and "
                                             "brings its own stability work" if g.vendor == "Huawei" else
                                             "ROCm, not CUDA: kernels and images differ") +
                      (f"; under a hard {req.deadline_hours / 24:,.0f}-day deadline, plan that time in or take the CUDA "
                       "option" if req.deadline_hours else "") + ".",
                      " 注意软件栈：" + ("昇腾用 CANN + MindSpeed / MindSpeed-LLM（PyTorch 经 torch_npu），不是 CUDA：从头预训练的"
                                        "迁移和验证要几周，稳定性也要额外投入" if g.vendor == "Huawei" else "ROCm 不是 CUDA：内核和镜像都不同")
                      + (f"；有 {req.deadline_hours / 24:,.0f} 天的硬期限时，要把这段时间算进去，或者选 CUDA 方案"
                         if req.deadline_hours else "") + "。")
    return note + "\n\n" + md_table(head, rows) + "\n\n" + pick


# 'which card?' for a training job with none named: the cards people rent for it (the China market's own where the
# question is Chinese: A800/H800 are what Chinese clouds list)
WHICH_CARD = (r"什么卡|哪种卡|哪款卡|用啥卡|租啥|选什么卡|选哪种|" +
              r"(?<![a-z])(?:which|what) (?:gpus?|cards?|hardware)(?: should| to| would| do)?(?![a-z])")
# The cards compared when a training question asks which to rent and names none: the three data-centre cards most
# listed for rent in the price table's markets (knowledge/data/prices.yaml), the China-market cuts for a Chinese question.
RENTAL_CHOICES = {"en": ("a100-80gb", "h100", "h200"), "zh": ("a800", "h800", "rtx-4090")}
DEADLINE_SLACK = 0.15  # a deadline's count leaves this much of the time to spare: restarts, evaluation, a slower MFU


def _gpus_for_deadline(ctx: Ctx, model, gpu, tokens: float) -> int:
    """'How many GPUs to finish in 30 days?': the GPU-hours of the job (timed on one 8-GPU server) over the deadline,
    rounded up to whole 8-GPU servers, then checked at that size (efficiency changes with scale) and grown until it
    finishes in time; said as an assumption."""
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    req = ctx.req
    held = memory_at(ctx, model, gpu)
    least = max(8, math.ceil((held.min_gpus or 1) / 8) * 8) if not held.fits else 8
    # (the deadline's count never below the whole servers that hold the job: 72B full SFT on 64 GB 910Bs needs ~24)
    probe = ctx.req = req.model_copy(update={"num_gpus": least})
    r = estimate_training_time(TrainingTimeRequest(**time_args(ctx, model, gpu, tokens)))
    room = req.deadline_hours / (1 + DEADLINE_SLACK)  # (restarts, evaluation and a slower MFU than assumed)
    n = max(least, math.ceil(r.gpu_hours / room / 8) * 8)
    for _ in range(8):
        ctx.req = probe.model_copy(update={"num_gpus": n})
        r = estimate_training_time(TrainingTimeRequest(**time_args(ctx, model, gpu, tokens)))
        if r.wall_hours <= room:
            break
        n = max(n + 8, math.ceil(n * r.wall_hours / room / 8) * 8)
    ctx.applied["num_gpus"] = n
    ctx.req = req.model_copy(update={"num_gpus": n})
    if n == least and least > 8 and r.wall_hours < req.deadline_hours / 2:
        ctx.assume(f"{n} GPUs: memory, not time, sets the count: the fewest whole 8-GPU servers that hold the job "
                   f"({held.min_gpus} GPUs by memory), which finish well within {req.deadline_hours:,.0f} h",
                   f"{n} 张卡：卡数由显存决定，不是时间：放得下这个任务的最少整台 8 卡服务器（按显存至少 {held.min_gpus} 张），"
                   f"远在 {req.deadline_hours:,.0f} 小时内跑完")
    else:
        ctx.assume(f"{n} GPUs: the fewest whole 8-GPU servers that hold the job and finish within {req.deadline_hours:,.0f} h "
                   f"with {DEADLINE_SLACK:.0%} to spare for restarts, evaluation and a slower MFU ({r.gpu_hours:,.0f} "
                   "GPU-hours)", f"{n} 张卡：放得下、并在 {req.deadline_hours:,.0f} 小时内完成且留 {DEADLINE_SLACK:.0%} 余量"
                   f"（故障重启、评测、MFU 不及预期）所需的最少整台 8 卡服务器（{r.gpu_hours:,.0f} 卡时）")
    return n


def _measured_on_other_cards(ctx: Ctx, results, figures: dict, ratio_below: bool = False) -> str:
    """'Our run took 10 days on 8x A100; on 8x H100?': the measured length scaled by the estimator's speed ratio for
    the same job on each card (or the user's stated speedup), with each card's cost when prices are known.
    `ratio_below`: the ratio's basis is shown after the comparison, not before it."""
    from assistant.plans.scaling import Option, baseline_index, compare_job, stated_speeds
    from tools.pricing import on_demand_rate

    req = ctx.req
    gpus = [r.gpu for r in results]
    base = baseline_index(gpus, req.speedup_gpu)
    if req.speedup:
        speeds = stated_speeds(gpus, req.speedup, req.speedup_gpu, base)
        source = (f"{req.speedup:g}× as you stated", f"按你说的快 {req.speedup:g} 倍")
    else:
        speeds = [results[base].wall_hours / r.wall_hours for r in results]
        where = ("below", "下面") if ratio_below else ("above", "上面")
        source = (f"the speed ratio estimated {where[0]} for the same job: dense peak × MFU per card; measured speedups "
                  "of this kind usually land within ±20% of it", f"按{where[1]}估算的同一任务速度比：各卡稠密峰值 × MFU；"
                  "实测加速比通常在其 ±20% 以内")
    n = req.num_gpus or 1
    cur = req.currency or "USD"
    options = []
    for r in results:
        rate = on_demand_rate(ctx.deps.prices(), r.gpu, cur)
        price = req.price_per_gpu_hour if (req.price_per_gpu_hour and r is results[base]) else None
        options.append(Option(label=f"{n}× {ctx.gpu(r.gpu).name}", gpu=r.gpu, num_gpus=n,
                              price_per_gpu_hour=price or (rate.typical if rate else None)))
    hours = req.period_hours
    said_en = f"your measured {hours:,.0f} h"
    said_zh = f"你实测的 {hours:,.0f} 小时"
    if req.measured_step_s and req.measured_tokens and req.tokens:
        # ('8.5 s/step, global batch 64 × 2048 … 3 epochs over 400M tokens on the H100s?'): the measured step carried to
        # the whole job on the measured card (steps = the job's tokens / a step's tokens), then to the others
        job = req.tokens * (req.epochs or 1)
        hours = req.measured_step_s * job / req.measured_tokens / 3600
        said_en = (f"your measured {req.measured_step_s:g} s a step × {job / req.measured_tokens:,.0f} steps "
                   f"({job:.3g} tokens / {req.measured_tokens:,.0f} a step) = {hours:,.1f} h")
        said_zh = (f"你实测的每步 {req.measured_step_s:g} 秒 × {job / req.measured_tokens:,.0f} 步（{job:.3g} token ÷ 每步 "
                   f"{req.measured_tokens:,.0f}）= {hours:,.1f} 小时")
    text, figs, _ = compare_job(options, speeds, base, hours, ctx.zh, "¥" if cur == "CNY" else "$", source, ctx.calls)
    figures |= {f"measured_{k}": v for k, v in figs.items()}
    ctx.assume(f"{said_en} is on {options[base].label}; the other cards' hours are it over "
               "the speed ratio (prices not given are the table's typical on-demand rates)",
               f"{said_zh}是在 {options[base].label} 上；其他卡的小时数 = 它 ÷ 速度比（未给的价格按"
               "价格表按需典型价）")
    return "\n" + ctx.t("**From your measured run**: ", "**按你的实测时长**：") + text + "\n"


# 'about the same wall clock as them, right?', '跟他们差不多时间吧': the user's run judged against the quoted one's duration
SAME_TIME_CLAIM = (r"(?<![a-z])(?:(?:about |roughly |basically )?the same (?:wall[\s-]*clock|time|duration|timeline|"
                   r"training time)|as (?:fast|quick(?:ly)?|long) as (?:them|they did|theirs|deepseek|meta))(?![a-z])|"
                   r"(?:跟|和|与)(?:他们|它们|人家|官方)[^，。？?]{0,8}(?:差不多|一样|相同)(?:久|时间|长)?|时间(?:也)?(?:差不多|一样)")


def _same_time_as_run(ctx: Ctx, hours: float, n: int, figures: dict) -> str | None:
    """The claim that the user's run takes about as long as a published one it quotes: the published wall clock
    (its GPU-hours over its GPUs) against the estimate on the user's GPUs, and the verdict."""
    from knowledge.runs import find_run, load_training_runs

    import unicodedata

    low = unicodedata.normalize("NFKC", ctx.question).lower()
    if not re.search(SAME_TIME_CLAIM, low):
        return None
    run = find_run(low) or next((r for r in load_training_runs() if r.model and r.model == ctx.req.model), None)
    # ('DeepSeek said V3 cost …': the published run of the model the job is sized as)
    if run is None or not run.gpu_hours or not run.num_gpus:
        return None
    theirs = run.gpu_hours / run.num_gpus  # the GPU-hours spread over the GPUs the run used
    ratio = hours / theirs
    figures |= {"published_wall_hours": round(theirs, 1), "wall_ratio_to_published": round(ratio, 2)}
    near = 0.8 <= ratio <= 1.25
    head = (ctx.t("**Yes, about the same**", "**对，差不多**") if near else ctx.t("**No**", "**不对**"))
    return ctx.t(f"{head}: {run.name} took about {theirs:,.0f} h ({theirs / 24:,.0f} days: {run.gpu_hours:,.0f} GPU-hours "
                 f"over {run.num_gpus:,} GPUs); this run on {n:,} GPUs takes about {hours:,.0f} h ({hours / 24:,.0f} days), "
                 f"**{ratio:.1f}×** as long" + ("" if near else f": the same work on {run.num_gpus / n:.1f}× fewer GPUs takes "
                                                 "that much longer, even at the same cost") + ".",
                 f"{head}：{run.name} 约 {theirs:,.0f} 小时（{theirs / 24:,.0f} 天：{run.gpu_hours:,.0f} 卡时 ÷ {run.num_gpus:,} "
                 f"张卡）；这次 {n:,} 张卡约 {hours:,.0f} 小时（{hours / 24:,.0f} 天），是它的 **{ratio:.1f} 倍**"
                 + ("" if near else f"：同样的活摊到少 {run.num_gpus / n:.1f} 倍的卡上，花的钱差不多，时间却长这么多") + "。")


def _published_efficiency(ctx: Ctx, model, gpu_id: str, tokens: float, n: int, figures: dict) -> list[str]:
    """A published run named beside the user's own job (same card): its GPU-hours scaled to the user's tokens and GPUs
    at its own efficiency, next to the estimate."""
    from assistant.plans.facts import at_their_efficiency, gpu_counts_named
    from assistant.readers import slots
    from knowledge.runs import find_run, load_training_runs

    import unicodedata

    low = unicodedata.normalize("NFKC", ctx.question).lower()
    if not ctx.req.scale_run and not re.search(r"卡时|gpu\s*小时|(?:gpu|[a-z]\d{2,4}|card|node)[\s-]*hours|技术报告|论文|报告|paper|"
                                                r"report|model card|reference|参考", low):
        return []  # a model named is not a run quoted: 'Llama 3.1 8B' alone brings no published figures ('hours or
        # days?' asks a duration, it quotes nothing)
    if not ctx.req.scale_run and ctx.req.method in ("lora", "qlora"):
        return []  # a pre-training run's efficiency says nothing about an adapter fine-tune's
    run = find_run(low)
    if run is None and ctx.req.scale_run:  # ('文章说 V3 只花了 557.6 万美元 … 用类似方法': the run the reader found quoted)
        run = next((r for r in load_training_runs() if r.id == ctx.req.scale_run), None)
    if run is None and re.search(slots.THEIR_YARDSTICK, low):
        from knowledge.runs import run_for

        run = run_for(low, model.id)  # ('DeepSeek said V3 took 2.788M H800 GPU-hours … at their efficiency, how long
        # for us?': the model's published run, named by the model the job is about)
    quoted = slots.quoted_run_figures(low)
    if ctx.req.measured_model and not quoted:
        return []  # the user's own measured run is the reference ('8B at 2,800 tok/s … 70B?'), not a published one
    if run is None and quoted:
        run = _run_from_quote(ctx, quoted)  # a run the record does not hold, as the user quotes it
    if run is None:
        return []
    if quoted and (quoted[0] != run.gpu_hours or quoted[1] != run.tokens):  # the figures the user quotes are used
        ctx.notes.append(ctx.t(f"{run.name}: your quoted {quoted[0]:,.0f} GPU-hours for {quoted[1]:.3g} tokens are used "
                               f"(the record has {run.gpu_hours or 0:,.0f} for {run.tokens or 0:.3g}, {run.gpu_hours_scope})",
                               f"{run.name}：用你引用的 {quoted[0]:,.0f} 卡时 / {quoted[1]:.3g} token（记录里是 "
                               f"{run.gpu_hours or 0:,.0f} / {run.tokens or 0:.3g}，{run.gpu_hours_scope}）"))
        run = run.model_copy(update={"gpu_hours": quoted[0], "tokens": quoted[1]})
    lines, figs = at_their_efficiency(ctx, run, model, gpu_id, tokens, gpu_counts_named(ctx.question) or [n])
    figures |= figs
    if lines:
        ctx.used |= {"scale_run", "scale_run_tokens"}  # (the quoted run is used here, beside the estimate)
    return lines


def _run_from_quote(ctx: Ctx, quoted: tuple[float, float, str]):
    """A published run the record lacks, built from the sentence that quotes it: its GPU-hours and tokens, the model
    size and the GPU written there ('the 405B took 30.84M H100 GPU-hours to pretrain on ~15T tokens'); None when the
    sentence names no size or GPU."""
    from assistant.readers import slots
    from assistant.readers.names import find_names
    from knowledge.schemas import TrainingRun

    hours, tokens, sentence = quoted
    names, work = find_names(sentence, ctx.deps.catalog)
    size, _ = slots.model_size(work)
    model = names.models[0] if names.models else size
    if not model or not names.gpus:
        return None
    spec = ctx.deps.catalog.model(model)[0]
    return TrainingRun(id="quoted", name=ctx.t(f"the quoted {spec.name} run", f"你引用的 {spec.name}"),
                       model=spec.id if names.models else model,
                       params=int(spec.params_total), gpu=names.gpus[0], gpu_hours=hours, gpu_hours_scope="as you quote it",
                       tokens=tokens, source="your message", source_kind="secondary", as_of="as quoted")


def _micro_split(ctx: Ctx, layout: dict, gbt: int) -> str | None:
    """How a step's sequences split on each data-parallel GPU (micro-batch x gradient accumulation), when asked or
    when a micro-batch is stated: sequences per step / data-parallel GPUs, rounded to a whole number each."""
    req = ctx.req
    seq, dp = req.seq_len or 2048, max(1, int(layout.get("dp") or 1))  # ('TP8 x PP4 on 512': the layout's DP 16)
    from assistant.readers.asks import SPLIT_ASK

    if not (req.micro_batch or re.search(SPLIT_ASK, ctx.question.lower())) or not gbt:
        return None
    seqs = gbt / seq
    lo = max(1, math.floor(seqs / dp))  # a whole number per GPU; of the two nearest, the one micro-batches divide best
    each = max((lo, lo + 1) if seqs / dp > lo else (lo,), key=lambda k: (k & -k, -abs(k - seqs / dp)))
    lines = []
    if abs(seqs / dp - each) > 1e-6:  # 977 sequences over 64 GPUs: 15.3 each; a step takes a whole number per GPU
        lines.append(ctx.t(f"{seqs:,.0f} sequences of {seq:,} per step over {dp} data-parallel GPUs is {seqs / dp:.1f} "
                           f"each: round the global batch to {each * dp:,} sequences ({each * dp * seq:,} tokens), "
                           f"{each} per GPU",
                           f"每步 {seqs:,.0f} 条 {seq:,} token 的序列分到 {dp} 个数据并行卡上是每卡 {seqs / dp:.1f} 条：把 "
                           f"global batch 取整到 {each * dp:,} 条（{each * dp * seq:,} token），每卡 {each} 条"))
    else:
        lines.append(ctx.t(f"{each} sequences per GPU per step ({seqs:,.0f} over {dp} data-parallel GPUs)",
                           f"每卡每步 {each} 条序列（{seqs:,.0f} 条分到 {dp} 个数据并行卡）"))
    if req.micro_batch:
        ga = each / req.micro_batch
        lines.append(ctx.t(f"micro-batch {req.micro_batch} x gradient accumulation {ga:g}",
                           f"micro batch {req.micro_batch} × 梯度累积 {ga:g}"))
    else:
        micro = max(m for m in (1, 2, 4) if each % m == 0)
        lines.append(ctx.t(f"micro-batch x gradient accumulation = {each}, e.g. {micro} x {each // micro} (take the largest "
                           "micro-batch whose activations fit: `gpu-advisor size train --micro-batch N`; fewer "
                           "accumulation steps run faster)",
                           f"micro batch × 梯度累积 = {each}，例如 {micro} × {each // micro}（micro batch 取激活放得下的最大值："
                           "`gpu-advisor size train --micro-batch N`；累积步数越少越快）"))
    return ctx.t("**Per GPU**: " + "; ".join(lines) + ".", "**每卡**：" + "；".join(lines) + "。")


def _steps_and_measured(ctx: Ctx, r, tokens: float, n: int, figures: dict) -> list[str]:
    """The optimizer steps (tokens / tokens per step) and the time each takes; and with a measured training
    throughput, the time it gives and the MFU it implies (model FLOPs per token x tokens/s / peak)."""
    req = ctx.req
    out = []
    gbt = (r.layout or {}).get("global_batch_tokens")
    if gbt:
        steps = tokens / gbt
        rate = (req.throughput_tokens_per_s or 0) * (n if req.throughput_scope == "gpu" else 1)
        per_step = gbt / rate if rate else (r.wall_hours * 3600 / steps if steps else 0)  # measured rate first
        figures |= {"optimizer_steps": round(steps), "seconds_per_step": round(per_step, 3), "tokens_per_step": gbt}
        out.append(ctx.t(f"Steps: {tokens:.3g} tokens / {gbt:,} tokens per step = **{steps:,.0f} optimizer steps**, "
                         f"{per_step:,.2f} s each.",
                         f"步数：{tokens:.3g} token ÷ 每步 {gbt:,} token = **{steps:,.0f} 步**，每步 {per_step:,.2f} 秒。"))
        split = _micro_split(ctx, r.layout or {}, gbt)
        if split:
            out.append(split)
    tps = req.throughput_tokens_per_s
    if tps:
        total = tps * (n if req.throughput_scope == "gpu" else 1)
        hours = tokens / total / 3600
        flops_per_token = r.total_flops / tokens
        mfu = flops_per_token * total / (n * r.peak_tflops * 1e12)
        figures |= {"measured_wall_hours": round(hours, 2), "measured_mfu": round(mfu, 4)}
        out.append(ctx.t(f"**From your measured {tps:,.0f} tokens/s{' per GPU' if req.throughput_scope == 'gpu' else ''}**: "
                         f"{tokens:.3g} / ({total:,.0f} tokens/s) = **{hours:,.1f} h ({hours / 24:,.1f} days)**; that rate is an "
                         f"MFU of **{mfu:.0%}** ({flops_per_token:.3g} FLOPs per token × {total:,.0f} / ({n} × "
                         f"{r.peak_tflops:g} TFLOPS)).",
                         f"**按你实测的 {tps:,.0f} token/秒{'（每卡）' if req.throughput_scope == 'gpu' else ''}**：{tokens:.3g} ÷ "
                         f"{total:,.0f} token/秒 = **{hours:,.1f} 小时（{hours / 24:,.1f} 天）**；这个速度相当于 MFU **{mfu:.0%}**"
                         f"（每 token {flops_per_token:.3g} FLOPs × {total:,.0f} ÷（{n} × {r.peak_tflops:g} TFLOPS））。"))
        if mfu > 1:  # more work a second than the cards' peak: the figure, or what it was measured on, is not this job
            from assistant.request import Clarification

            figures["measured_impossible"] = 1
            out.insert(0, ctx.t(
                f"**That measurement cannot be this job**: {total:,.0f} tokens/s of {r.method} training on {n} × "
                f"{ctx.gpu(r.gpu).name} would be {mfu:.0%} of the cards' peak compute (no run exceeds ~60%). It was most "
                "likely a smaller model, LoRA/QLoRA, inference tokens/s, or a rate counted over all the GPUs of a bigger "
                "cluster; the figures below use it only to show the mismatch. What exactly ran (model, method, tokens/s "
                "total or per GPU)?",
                f"**这个实测不可能是这个任务的**：{n} 张 {ctx.gpu(r.gpu).name} 做 {r.method} 训练跑 {total:,.0f} token/秒，相当于显卡峰值"
                f"算力的 {mfu:.0%}（任何训练都到不了 ~60% 以上）。多半是更小的模型、LoRA/QLoRA、推理的 token/秒，或是更大集群所有卡的合计；"
                "下面的数字只用来说明对不上。实际跑的是什么（模型、方法、token/秒是合计还是每卡）？"))
            ctx.clarify = Clarification(missing=["throughput_tokens_per_s"], question=ctx.t(
                "What exactly ran: the model, the method, and tokens/s in total or per GPU?",
                "实际跑的是什么：模型、方法、token/秒是合计还是每卡？"),
                suggestions=[ctx.t("it was LoRA", "是 LoRA"), ctx.t("it was a 7B model", "其实是 7B 模型"),
                             ctx.t("that was inference tokens/s", "那是推理的 token/秒")])
    return out


CHINCHILLA_TOKENS_PER_PARAM = 20  # Hoffmann et al. 2022 (arXiv:2203.15556): compute-optimal D ≈ 20·N


def compute_line(ctx: Ctx, model, tokens: float, total_flops: float, method: str, figures: dict) -> str:
    """The run's total compute, written out (6·N·D, plus attention), and for pre-training, how the data compares with
    the Chinchilla compute-optimal amount (about 20 tokens per parameter)."""
    from tools.params import count_parameters

    counts = count_parameters(model)
    n_params = counts.active if counts.active < counts.total else counts.total
    mult = 6 if method in ("full", "pretrain") else 4
    figures["total_flops"] = total_flops
    line = ctx.t(f"Compute: **{total_flops:.3g} FLOPs** ({mult} × {n_params:.3g} parameters × {tokens:.3g} tokens = "
                 f"{mult * n_params * tokens:.3g}, plus attention)" + ("" if mult == 6 else " (LoRA: no weight gradients, 4·N·D)"),
                 f"计算量：**{total_flops:.3g} FLOPs**（{mult} × {n_params:.3g} 参数 × {tokens:.3g} token = "
                 f"{mult * n_params * tokens:.3g}，另加注意力）" + ("" if mult == 6 else "（LoRA 不算权重梯度，4·N·D）"))
    if ctx.req.method == "pretrain" or re.search(r"chinchilla|compute[\s-]*optimal|最优|龙猫", ctx.question.lower()):
        optimal = CHINCHILLA_TOKENS_PER_PARAM * counts.total
        ratio = tokens / optimal
        figures |= {"chinchilla_optimal_tokens": optimal, "chinchilla_ratio": round(ratio, 3)}
        side = (ctx.t(f"{ratio:.1f}× over it: deliberate over-training, as Llama and Qwen do, buys a better small model for "
                      "inference at extra training compute", f"是它的 {ratio:.1f} 倍：有意多训（Llama、Qwen 都这样），多花训练算力"
                      "换一个推理更划算的小模型") if ratio > 1.5 else
                ctx.t(f"{ratio:.2f}× of it: under-trained for its size; a smaller model on the same data, or more data, would "
                      "use the compute better", f"只有它的 {ratio:.2f} 倍：对这个规模训练不足；同样数据换更小的模型或加数据更省算力")
                if ratio < 0.67 else ctx.t(f"{ratio:.2f}× of it: about compute-optimal", f"是它的 {ratio:.2f} 倍：大致是算力最优"))
        line += ctx.t(f". Chinchilla-optimal data for {counts.total / 1e9:.3g}B parameters ≈ 20 tokens/parameter = "
                      f"{optimal:.3g} tokens; {tokens:.3g} is {side}",
                      f"。{counts.total / 1e9:.3g}B 参数的 Chinchilla 最优数据量 ≈ 每参数 20 token = {optimal:.3g} token；"
                      f"{tokens:.3g} {side}")
    return line + ctx.t(".", "。")


def _from_measured_run(ctx: Ctx, model, tokens: float, job, figures: dict) -> str:
    """'Our 8B LoRA took 6.5 h on 4x A100 for 300M tokens; the 70B on 1.2B tokens on 8x H100?': the measured hours x
    (the estimate for the job / the estimate for the measured run), so the run's own efficiency carries over and only
    the change (model, tokens, cards, count) is estimated."""
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    req = ctx.req
    old_model = ctx.deps.catalog.model(req.measured_model)[0] if req.measured_model else model
    old_gpu = ctx.gpu(req.measured_gpu) if req.measured_gpu else ctx.gpu(job.gpu)
    old_n = req.measured_num_gpus or job.num_gpus
    old_tokens = req.measured_tokens or tokens
    # (one measured step holds a few hundred thousand tokens, whose estimate rounds to 0 h: it is timed at a billion
    # tokens and scaled back, the rate being the same)
    scale = max(1.0, 1e9 / old_tokens)
    args = time_args(ctx, old_model, old_gpu, old_tokens * scale) | {"num_gpus": old_n}
    args.pop("global_batch_tokens", None) if "global_batch" not in req.stated else None
    then = ctx.call("time_train", {k: (v.id if hasattr(v, "id") else v) for k, v in args.items()},
                    estimate_training_time(TrainingTimeRequest(**args)))
    then_hours = then.wall_hours / scale
    ratio = job.wall_hours / then_hours
    h = req.period_hours * ratio
    was = f"{old_model.name}, {old_tokens / 1e9:,.3g}B tokens, {old_n}× {old_gpu.name}"
    implied = then.mfu * then_hours / req.period_hours  # the MFU the measured run must have reached
    figures["measured_implied_mfu"] = round(implied, 3)
    if implied > 1.0:  # '140% MFU, 3,200 tokens/s/GPU': no run computes faster than its card's dense peak
        figures["measured_run_rejected"] = 1
        rate = old_tokens / (req.period_hours * 3600) / old_n
        if req.measured_step_s:
            steps = math.ceil(tokens / old_tokens)
            at = steps * req.measured_step_s / 3600
            return ctx.t(f"**Your {req.measured_step_s:g} s per step is not used**: {old_tokens:,.0f} tokens per step in "
                         f"{req.measured_step_s:g} s on {old_n}× {old_gpu.name} is {rate:,.0f} tokens/s per GPU, MFU "
                         f"**{implied:.0%}** of the dense peak, and no run exceeds 100% (published runs reach ~40-55%). "
                         "Check the step's size: a per-GPU batch read as global, or the time of one micro-batch (not the "
                         f"whole step with accumulation), would explain it. Were it right: {steps:,} steps × "
                         f"{req.measured_step_s:g} s = {at:,.1f} h. The estimate below stands on its own.",
                         f"**你实测的每步 {req.measured_step_s:g} 秒没有采用**：{old_n}× {old_gpu.name} 上每步 {old_tokens:,.0f} "
                         f"token 只用 {req.measured_step_s:g} 秒，相当于每卡 {rate:,.0f} token/s、MFU **{implied:.0%}**（按稠密峰值），"
                         "任何训练都不可能超过 100%（公开训练约 40-55%）。请核对一步的大小：把每卡 batch 当成了全局 batch，或量的是一个 "
                         f"micro-batch（不含梯度累积）的时间，都会这样。假如它是对的：{steps:,} 步 × {req.measured_step_s:g} 秒 = "
                         f"{at:,.1f} 小时。下面只用估算。")
        return ctx.t(f"**Your measured run is not used**: {rate:,.0f} tokens/s per GPU ({req.period_hours:,.1f} h for {was}) "
                     f"means MFU **{implied:.0%}** "
                     f"of the cards' dense peak, and no run exceeds 100% (the best published large runs reach ~40-55%). "
                     "Likely a typo, sparse-FLOPS peak, or tokens counted per node rather than per GPU; the estimate below "
                     "stands on its own.",
                     f"**你的实测数据没有采用**：每卡 {rate:,.0f} token/s（{was} 用 {req.period_hours:,.1f} 小时），相当于 MFU "
                     f"**{implied:.0%}**（按显卡稠密峰值），"
                     "任何训练都不可能超过 100%（公开的大规模训练约 40-55%）。可能是笔误、按稀疏算力算的峰值，或把每台机器的 token 数"
                     "当成了每张卡；下面只用估算。") + ctx.t(
            f" Were it right, this job would take {req.period_hours:,.1f} h × {ratio:,.2f} (the estimates' ratio, this job "
            f"over that run) = {h:,.1f} h ({h / 24:,.1f} days); check the run's tokens or length first.",
            f"假如那个数字是对的，这次要 {req.period_hours:,.1f} 小时 × {ratio:,.2f}（两次估算之比）= {h:,.1f} 小时"
            f"（{h / 24:,.1f} 天）；请先核对那次的 token 数或时长。")
    figures |= {"measured_scaled_hours": round(h, 2), "measured_ratio": round(ratio, 4),
                "measured_run_estimate_hours": then_hours}
    now = f"{model.name}, {tokens / 1e9:,.3g}B tokens, {job.num_gpus}× {ctx.gpu(job.gpu).name}"
    eff = then_hours / req.period_hours
    if req.measured_step_s and not (req.measured_model or req.measured_gpu or req.measured_num_gpus):
        # the user's own step on the job's own cards: steps × seconds, nothing estimated
        steps = math.ceil(tokens / req.measured_tokens)
        h = steps * req.measured_step_s / 3600
        figures |= {"measured_scaled_hours": round(h, 2), "measured_steps": steps}
        return ctx.t(f"**From your measured step**: {tokens:,.3g} tokens / {req.measured_tokens:,.0f} per step = {steps:,} steps "
                     f"× {req.measured_step_s:g} s = **{h:,.1f} h ({h / 24:,.1f} days)** on {job.num_gpus}× "
                     f"{ctx.gpu(job.gpu).name}. That step runs at {eff:.0%} of the estimate's speed (MFU about "
                     f"{then.mfu * eff:.0%}); the estimate alone follows.",
                     f"**按你实测的每步时间**：{tokens:,.3g} token ÷ 每步 {req.measured_tokens:,.0f} = {steps:,} 步 × "
                     f"{req.measured_step_s:g} 秒 = **{h:,.1f} 小时（{h / 24:,.1f} 天）**，{job.num_gpus}× {ctx.gpu(job.gpu).name}。"
                     f"这个步速是估算的 {eff:.0%}（MFU 约 {then.mfu * eff:.0%}）；下面是单纯的估算。")
    if req.measured_step_s:  # the user's step on other cards (or another model): scaled by the estimates' ratio
        steps = math.ceil(tokens / req.measured_tokens)
        step_now = h * 3600 / steps
        return ctx.t(f"**From your measured step**: {req.measured_step_s:g} s per {req.measured_tokens:,.0f}-token step on "
                     f"{old_n}× {old_gpu.name} ({old_model.name}) × {ratio / steps:,.3f} (this setup's estimated step over "
                     f"that one's) = {step_now:,.2f} s per step; {steps:,} steps = **{h:,.1f} h ({h / 24:,.1f} days)** for {now}. "
                     f"That step ran at {eff:.0%} of the estimate's speed; that efficiency is carried over (the estimate "
                     "alone follows).",
                     f"**按你实测的每步时间**：{old_n}× {old_gpu.name}（{old_model.name}）上每步 {req.measured_tokens:,.0f} token 用 "
                     f"{req.measured_step_s:g} 秒 × {ratio / steps:,.3f}（这套配置与那套的估算步时之比）= 每步 {step_now:,.2f} 秒；"
                     f"{steps:,} 步 = **{h:,.1f} 小时（{h / 24:,.1f} 天）**，{now}。那次的步速是估算的 {eff:.0%}，按这个效率折算"
                     "（下面是单纯的估算）。")
    return ctx.t(f"**From the measured run**: {req.period_hours:,.1f} h ({was}) × {ratio:,.2f} (the estimated time of this job "
                 f"over that of your run: {job.wall_hours:,.1f} h / {then_hours:,.1f} h) = **{h:,.1f} h ({h / 24:,.1f} days)** "
                 f"for {now}. That run went at {eff:.0%} of the estimate's speed; that efficiency is carried over "
                 "(the estimate alone follows).",
                 f"**按实测的那次**：{req.period_hours:,.1f} 小时（{was}）× {ratio:,.2f}（这次任务与那次的估算时间之比："
                 f"{job.wall_hours:,.1f} / {then_hours:,.1f} 小时）= **{h:,.1f} 小时（{h / 24:,.1f} 天）**，{now}。"
                 f"那次的实际速度是估算的 {eff:.0%}，按这个效率折算（下面是单纯的估算）。")


def _deadline_line(ctx: Ctx, r, n: int, figures: dict) -> str:
    """Whether the run meets the user's deadline on their GPU count, the MFU it would need to, and (when that is beyond
    any published run) the GPU count it needs at the assumed MFU."""
    from tools.efficiency import BEST_PUBLISHED_MFU
    from tools.train_time import mfu_for_deadline

    d = ctx.req.deadline_hours
    ok = r.wall_hours <= d
    need = mfu_for_deadline(r, d)
    figures |= {"meets_deadline": int(ok), "mfu_needed": round(need, 4)}
    line = ctx.t(f"Deadline {d:,.0f} h: {'met' if ok else 'missed'} on {n} GPUs at MFU {r.mfu:.0%}; finishing in {d:,.0f} h "
                 f"on {n} GPUs needs **MFU {need:.1%}** (= {r.mfu:.0%} × {r.wall_hours:,.1f} h / {d:,.0f} h).",
                 f"期限 {d:,.0f} 小时：MFU {r.mfu:.0%} 时 {n} 张卡{'来得及' if ok else '来不及'}；{n} 张卡要在 {d:,.0f} 小时内跑完，"
                 f"需要 **MFU {need:.1%}**（= {r.mfu:.0%} × {r.wall_hours:,.1f} 小时 / {d:,.0f} 小时）。")
    if need > BEST_PUBLISHED_MFU:
        gpus = math.ceil(r.gpu_hours / d / 8) * 8
        figures["gpus_for_deadline"] = gpus
        why = ctx.t("impossible: MFU is a share of peak and cannot pass 100%" if need > 1 else
                    f"beyond any published run (the best reach about {BEST_PUBLISHED_MFU:.0%})",
                    "不可能：MFU 是峰值算力的占比，不会超过 100%" if need > 1 else
                    f"超过了所有公开训练的水平（最好的约 {BEST_PUBLISHED_MFU:.0%}）")
        line += ctx.t(f" That is {why}. At MFU {r.mfu:.0%} the deadline takes about **{gpus:,} GPUs** "
                      f"({r.gpu_hours:,.0f} GPU-hours / {d:,.0f} h, in whole 8-GPU servers), or more time, fewer tokens "
                      "or a smaller model.",
                      f"这{why}。按 MFU {r.mfu:.0%}，要按期完成约需 **{gpus:,} 张卡**（{r.gpu_hours:,.0f} 卡时 / {d:,.0f} 小时，"
                      "按整台 8 卡服务器），或者放宽时间、减少 token、换更小的模型。")
    if not ok and ctx.req.tokens:
        # what the stated GPUs do get through by the deadline: the scale of job that fits it
        done = ctx.req.tokens * d / r.wall_hours
        figures["tokens_by_deadline"] = round(done)
        line += ctx.t(f" In {d:,.0f} h {f'these {n} GPUs get' if n > 1 else 'this GPU gets'} through about **{_tokens_said(done)} tokens** "
                      f"(= {ctx.req.tokens:,.3g} × {d:,.0f} h / {r.wall_hours:,.1f} h).",
                      f"这 {n} 张卡 {d:,.0f} 小时能跑约 **{_tokens_said(done)} token**（= {ctx.req.tokens:,.3g} × {d:,.0f} 小时 / "
                      f"{r.wall_hours:,.1f} 小时）。")
    return line


def _tokens_said(v: float) -> str:
    """'4.1M', '230k', '1.2B': a count of tokens in the unit people write."""
    for div, unit in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if v >= div:
            return f"{v / div:,.3g}{unit}"
    return f"{v:,.0f}"


# A run longer than three days: the time lost to failures and restarts, checkpoint writes and evaluations (Llama 3's
# 54-day run had 466 interruptions yet kept >90% effective training time, Meta 2024; OPT-175B's logbook shows far worse)
RUN_ALLOWANCE_AFTER_H = 72.0
RUN_ALLOWANCE = (0.05, 0.15)


def training_time(ctx: Ctx) -> Answer:
    from knowledge.prices import is_session_override
    from tools.pricing import on_demand_rate
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    req, lang = ctx.req, ctx.lang
    if not req.model:
        ctx.assume("Llama-3.1-8B", "Llama-3.1-8B（未指定模型）")
    model = ctx.model() if req.model else ctx.deps.catalog.model("llama-3.1-8b")[0]
    gpus = req.gpus if len(req.gpus) > 1 else [req.gpu or DEFAULT_GPU]
    if not req.gpu and re.search(WHICH_CARD, ctx.question.lower()) and not req.num_gpus:
        # ('租什么卡、租几张合适？', 'which GPUs should we rent?'): the usual rental cards of the market, each at its own
        # count, with a pick, not one default card
        gpus = list(RENTAL_CHOICES["zh" if ctx.zh else "en"])
        ctx.req = req = req.model_copy(update={"gpus": gpus, "gpu": gpus[0]})
        ctx.assume("cards compared: " + ", ".join(ctx.gpu(g).name for g in gpus) + " (the usual rentals; name yours to "
                   "replace them)", "对比的卡：" + "、".join(ctx.gpu(g).name for g in gpus) + "（常见的租用卡；可指定）")
    elif not req.gpu:
        ctx.assume("A100 80GB", "A100 80GB（未指定 GPU）")
    tokens = training_tokens(ctx)
    dense = ctx.gpu(gpus[0]).bf16_dense_tflops
    if req.peak_tflops and dense and req.peak_tflops > 1.5 * dense:
        # 'assume the H100 does 2,000 TFLOPS BF16': that is its 2:4-sparse BF16 (or dense FP8) figure
        ctx.notes.append(ctx.t(f"{req.peak_tflops:g} TFLOPS is not {ctx.gpu(gpus[0]).name}'s dense BF16 peak ({dense:g}); it matches "
                               "the sparse (2:4) or FP8 figure, which training does not reach: timed on the dense figure",
                               f"{req.peak_tflops:g} TFLOPS 不是 {ctx.gpu(gpus[0]).name} 的稠密 BF16 峰值（{dense:g}），而是稀疏（2:4）或 FP8 "
                               "的数字，训练用不上：按稠密峰值计时"))
        ctx.req = req = req.model_copy(update={"peak_tflops": None})
        ctx.used.add("peak_tflops")
    claimed_mfu = None
    if req.mfu:
        from tools.efficiency import BEST_PUBLISHED_MFU

        if req.mfu > BEST_PUBLISHED_MFU:  # 'MFU 80%': beyond any published run; the estimate stands on the card's usual
            claimed_mfu = req.mfu         # figure and the claimed one is shown beside it
            ctx.req = req = req.model_copy(update={"mfu": None})
            ctx.used.add("mfu")
    if not req.num_gpus and req.deadline_hours and len(gpus) == 1:
        _gpus_for_deadline(ctx, model, ctx.gpu(gpus[0]), tokens)
        req = ctx.req
    elif not req.num_gpus and len(gpus) == 1:
        gpus_that_hold(ctx, model, ctx.gpu(gpus[0]))
        req = ctx.req
    per_card: dict[str, int] = {}
    if not req.num_gpus and len(gpus) > 1:
        # 'H100 or H200, and how many?': each card at its own count (the fewest that hold the job, and finish by the
        # deadline when one is set), not all on one GPU the job may not even load on
        for gid in gpus:
            ctx.req = req
            per_card[gid] = _gpus_for_deadline(ctx, model, ctx.gpu(gid), tokens) if req.deadline_hours else \
                gpus_that_hold(ctx, model, ctx.gpu(gid))
        ctx.req = req = req.model_copy(update={"num_gpus": per_card[gpus[0]]})
        if len(set(per_card.values())) > 1:
            ctx.applied["num_gpus"] = per_card[gpus[0]]
    if req.precision in ("nf4", "int4") and req.method == "qlora":
        ctx.used.add("precision")  # ('QLoRA … NF4': the base's storage, which the memory check uses; the math is BF16)
    elif req.precision and req.precision not in ("bf16", "fp16", "fp8"):
        ctx.ignore("precision", "training time is computed for BF16 or FP8 tensor math",
                   "训练时间按 BF16 或 FP8 算力计算")
    if req.precision == "fp8":
        # ('如果上 FP8 训练能省多少？'): the speed-up is real, the recipe is not free
        ctx.note(ctx.t("FP8 training needs a validated recipe: Transformer Engine (or torchao) with per-tensor or "
                       "finer-grained scaling, BF16 kept for the sensitive layers, and a loss-parity check against BF16 "
                       "on a short run before the long one; the speed-up on real runs is ~1.3-1.5×, not the 2× of the "
                       "peak figures (DeepSeek-V3 trained in FP8 with fine-grained scaling)",
                       "FP8 训练需要验证过的方案：Transformer Engine（或 torchao）按张量或更细粒度缩放、敏感层保留 BF16，"
                       "正式开训前用一段短训练和 BF16 对比 loss 是否一致；实际提速约 1.3-1.5 倍，不是峰值算力的 2 倍"
                       "（DeepSeek-V3 用细粒度缩放做了 FP8 训练）"))
    results = []
    for gid in gpus:
        gpu = ctx.gpu(gid)
        if per_card:
            ctx.req = req.model_copy(update={"num_gpus": per_card[gid]})
        args = time_args(ctx, model, gpu, tokens)
        r = ctx.call("time_train", {k: (v.id if hasattr(v, "id") else v) for k, v in args.items()},
                     estimate_training_time(TrainingTimeRequest(**args)))
        results.append(r)
    ctx.req = req
    n = req.num_gpus or 1
    lines = [T(lang, "tt_head", model=model.name, n=n, tokens=tokens, method=results[0].method)]
    per = req.gpus_per_node if "gpus_per_node" in req.stated and "num_gpus" not in req.stated else None
    if per and n >= per:  # ('minimum number of 8x H100 nodes?'): the count in whole nodes first
        nodes = math.ceil(n / per)
        lines.insert(0, ctx.t(f"**{nodes} × {per}-GPU nodes ({nodes * per} GPUs)**: the count this job is sized on (why: see "
                              "the assumptions); the time on them below.",
                              f"**{nodes} 台 {per} 卡机（{nodes * per} 张卡）**：这个任务按这么多卡估算（原因见假设）；"
                              "下面是在这些卡上的时间。"))
    if per_card and len(set(per_card.values())) > 1:
        lines[0] = T(lang, "tt_head", model=model.name, n="/".join(str(per_card[g]) for g in gpus), tokens=tokens,
                     method=results[0].method)
    figures: dict[str, Any] = {f"{r.gpu}_wall_hours": r.wall_hours for r in results}
    figures |= {f"{r.gpu}_gpu_hours": r.gpu_hours for r in results}
    first = results[0]
    figures |= {"wall_hours": first.wall_hours, "wall_days": first.wall_days, "gpu_hours": first.gpu_hours, "mfu": first.mfu,
                "wall_hours_low": first.wall_hours_range[0], "wall_hours_high": first.wall_hours_range[1]}
    if len(results) >= 2:
        slow, fast = max(results[:2], key=lambda r: r.wall_hours), min(results[:2], key=lambda r: r.wall_hours)
        figures["time_ratio"] = round(slow.wall_hours / fast.wall_hours, 2)
        claimed = re.search(r"(\d+)\s*%\s*(?:-|–|~|到|至|to)\s*(\d+)\s*%|(\d+)\s*%", ctx.question)
        claim = "" if not claimed else ctx.t(f" (not {claimed.group(0)} longer)", f"（不是只多 {claimed.group(0)}）")
        # (the contrast only where the question claimed a percentage: 'only 20-30% more time, right?')
        if per_card:
            lines.append(_per_card_pick(ctx, model, results, per_card, figures))
        elif figures["time_ratio"] < 1.05:  # (H100 and H200: the same dense BF16 peak)
            lines.append(ctx.t(f"{ctx.gpu(slow.gpu).name} and {ctx.gpu(fast.gpu).name} train about as fast here (the "
                               "same dense compute; the bigger card's memory buys room, not speed).",
                               f"{ctx.gpu(slow.gpu).name} 和 {ctx.gpu(fast.gpu).name} 在这里训练速度差不多（稠密算力相同；"
                               "显存大的卡换来的是余量，不是速度）。"))
        else:
            lines.append(T(lang, "tt_ratio", a=slow.gpu, b=fast.gpu, ratio=figures["time_ratio"], claim=claim))
        from assistant.claims import equal_claim_verdict, equal_speed_claim

        same = equal_speed_claim(ctx.question, ctx.deps.catalog)
        if same and {slow.gpu, fast.gpu} == set(same):  # '销售说 H20 训练跟 H100 一样快': judged first
            lines.insert(0, equal_claim_verdict(same, slow.wall_hours / fast.wall_hours, True, ctx.zh))
        if req.period_hours and "period_hours" in req.stated:
            # 'our estimate is 200 h on 8x A100: rent that, or 8x H100 at $2.40? which is cheaper?' (no tokens): the
            # user's hours on their card, the others' by the speed ratio; the job behind the ratio is no figure of theirs
            job_only = req.tokens is None and not req.samples
            lines.append(_measured_on_other_cards(ctx, results, figures, ratio_below=job_only))
            if job_only:
                return _job_on_other_cards_answer(ctx, results, lines, figures, n)
    if len(results) == 1 and req.period_hours and "period_hours" in req.stated and (
            req.measured_tokens or req.measured_model or req.measured_gpu or req.measured_num_gpus):
        lines.append(_from_measured_run(ctx, model, tokens, first, figures))
    if "measured_cheapest" in figures or any(k.startswith("measured_hours_") for k in figures):
        lines.append(ctx.t("The reference job the ratio was computed on (not yours):", "计算速度比用的参考任务（不是你的任务）："))
    years = ctx.t(f", {first.wall_days / 365:,.1f} years", f"，{first.wall_days / 365:,.1f} 年") if first.wall_days > 365 else ""
    gpu_days = first.gpu_hours / 24
    gd = f"{gpu_days:,.0f}" if gpu_days >= 10 else f"{gpu_days:,.2g}"  # ('4 GPU-hours = 0.17 GPU-days', never '= 0')
    gpu_s = "GPU" if n == 1 else "GPUs"
    lines.append(ctx.t(f"**{first.wall_hours:,.1f} hours ({first.wall_days:,.1f} days{years}) on {n} {gpu_s}, "
                       f"{first.gpu_hours:,.0f} GPU-hours = {gd} GPU-days** (band {first.wall_hours_range[0]:,.1f}-{first.wall_hours_range[1]:,.1f} h).",
                       f"**{n} 张卡约 {first.wall_hours:,.1f} 小时（{first.wall_days:,.1f} 天{years}），共 {first.gpu_hours:,.0f} 卡时"
                       f" = {gd} 卡·天**"
                       f"（区间 {first.wall_hours_range[0]:,.1f}-{first.wall_hours_range[1]:,.1f} 小时）。"))
    if claimed_mfu:  # the stated MFU, beyond any published run: shown beside the estimate, not in its place
        from tools.efficiency import BEST_PUBLISHED_MFU

        at = first.wall_hours * first.mfu / claimed_mfu
        figures["hours_at_claimed_mfu"] = round(at, 1)
        lines.append(ctx.t(f"**Your MFU {claimed_mfu:.0%} is beyond any published run** (the best reach about "
                           f"{BEST_PUBLISHED_MFU:.0%}; typical is {first.mfu:.0%} on this card): the estimate above uses "
                           f"{first.mfu:.0%}. At {claimed_mfu:.0%} it would be {at:,.1f} h ({at / 24:,.1f} days); check how the "
                           "log computes it (a sparse or FP8 peak, or FLOPs counted twice, inflate it).",
                           f"**你给的 MFU {claimed_mfu:.0%} 超过了所有公开训练**（最好的约 {BEST_PUBLISHED_MFU:.0%}；这张卡常见 "
                           f"{first.mfu:.0%}）：上面的估算按 {first.mfu:.0%}。按 {claimed_mfu:.0%} 算是 {at:,.1f} 小时（{at / 24:,.1f} 天）；"
                           "请核对日志的算法（按稀疏或 FP8 峰值、或 FLOPs 算重了，都会虚高）。"))
    elif not req.mfu and model.moe is not None and len(results) == 1 and first.mfu:
        # an MoE run: the default MFU is the dense runs'; routing, expert all-to-all and grouped GEMMs usually cost more
        low = round(first.mfu * 0.6, 2)
        at = first.wall_hours * first.mfu / low
        figures["hours_at_moe_mfu"] = round(at, 1)
        lines.append(ctx.t(
            f"**MoE caveat**: the MFU above ({first.mfu:.0%}) is what dense runs reach; routing, the experts' all-to-all "
            f"and grouped GEMMs usually cost MoE training more. At {low:.0%} the run takes {at:,.0f} h ({at / 24:,.1f} days); "
            "plan between the two until a short run of your own measures it.",
            f"**MoE 提醒**：上面的 MFU（{first.mfu:.0%}）是稠密模型训练的水平；MoE 的路由、专家 all-to-all 通信和分组 GEMM 通常会让它更低。"
            f"按 {low:.0%} 算要 {at:,.0f} 小时（{at / 24:,.1f} 天）；在自己的小规模实测之前，按两者之间做计划。"))
    elif req.mfu and "mfu" in req.stated and len(results) == 1 and (re.search(
            r"靠谱|现实|可信|合理|能到|做得到|达得到|(?<![a-z])(?:realistic|reasonable|achievable|plausible|doable|reachable|"
            r"legit|believable|really get|actually get)(?![a-z])", ctx.question.lower()) or re.search(
            slots.QUOTE_CUE, ctx.question.lower())):
        # (also 'Llama 3 论文里说 MFU 38%-43% … 按 40% 算': a figure from someone else's cards and stack)
        # '按 MFU 50% 算要多久？这个 50% 靠谱吗？': the time at the stated MFU, and at the card's usual band beside it
        from tools.efficiency import default_mfu

        band = default_mfu(ctx.gpu(first.gpu), req.precision or "bf16")
        at = lambda m: first.wall_hours * req.mfu / m  # noqa: E731
        figures |= {"hours_at_typical_mfu": round(at(band.point), 1), "typical_mfu": band.point}
        verdict_en = ("at the top of what is published for this card" if req.mfu >= band.high else
                      "within what is published for this card" if req.mfu >= band.low else "below what is usual for this card")
        verdict_zh = ("已是这张卡公开数据的上限" if req.mfu >= band.high else "在这张卡的公开范围内" if req.mfu >= band.low
                      else "低于这张卡的常见水平")
        lines.append(ctx.t(
            f"**Your {req.mfu:.0%} MFU is {verdict_en}** ({band.low:.0%}-{band.high:.0%}, usually {band.point:.0%}: "
            f"{band.basis}); a figure measured on other cards, another model or a tuned stack does not carry over. At "
            f"{band.point:.0%} the run takes {at(band.point):,.0f} h ({at(band.point) / 24:,.0f} days), at {band.low:.0%} "
            f"{at(band.low):,.0f} h ({at(band.low) / 24:,.0f} days); add 5-15% for restarts, and measure MFU on a short run "
            "of your own before committing.",
            f"**你给的 MFU {req.mfu:.0%}{verdict_zh}**（{band.low:.0%}-{band.high:.0%}，常见 {band.point:.0%}：{band.basis}）；"
            f"别的卡、别的模型或专门调优过的框架上测到的数字不能直接套用。按 {band.point:.0%} 要 {at(band.point):,.0f} 小时"
            f"（{at(band.point) / 24:,.0f} 天），按 {band.low:.0%} 要 {at(band.low):,.0f} 小时（{at(band.low) / 24:,.0f} 天）；"
            "再留 5-15% 给故障重启，正式开训前先用小规模实测自己的 MFU。"))
    unfit = _does_not_fit_line(ctx, model, ctx.gpu(first.gpu), n) if req.num_gpus and not ctx.applied.get("num_gpus") \
        and len(results) == 1 else None
    if unfit:  # 'full fine-tune of a 32B on 4 A100s: how long?': a time for a job the GPUs cannot hold, said first
        lines.insert(1, unfit)
        figures["fits"] = 0
    elif re.search(FEASIBLE_ASK, ctx.question.lower()) or (n == 1 and len(results) == 1 and
                                                           req.method in ("lora", "qlora", "full")):
        # 'single A100 80GB. feasible? how long?', '24G 显存够不够？': the memory verdict on each card timed, beside the time
        # (a fine-tune timed on one card: whether it fits there is said too)
        lines[1:1] = [x for x in (_memory_verdict(ctx, model, ctx.gpu(r.gpu), (figures.get(f"{r.gpu}_num_gpus") or n))
                                  for r in results) if x]
    if req.checkpoint_stall or req.time_lost:  # the user's own overheads: the wall clock they asked for
        from tools.train_time import with_overheads

        stall, lost = req.checkpoint_stall or 0.0, req.time_lost or 0.0
        args = {"wall_hours": first.wall_hours, "num_gpus": n, "checkpoint_stall": stall, "time_lost": lost}
        total = ctx.call("with_overheads", args, with_overheads(**args)).wall_hours
        ctx.used |= {"checkpoint_stall", "time_lost"}
        figures |= {"wall_hours_with_overheads": round(total, 1), "gpu_hours_with_overheads": round(total * n)}
        parts_en = ([f"blocking checkpoints +{stall:.1%} (compute × {1 + stall:.3f})"] if stall else []) + \
            ([f"{lost:.0%} of the time lost to failures and restarts (÷ {1 - lost:.2f})"] if lost else [])
        parts_zh = ([f"阻塞式 checkpoint +{stall:.1%}（计算时间 × {1 + stall:.3f}）"] if stall else []) + \
            ([f"故障和重启损失 {lost:.0%} 的时间（÷ {1 - lost:.2f}）"] if lost else [])
        lines.append(ctx.t(f"**With your overheads: {total:,.1f} hours ({total / 24:,.1f} days), {total * n:,.0f} GPU-hours** — "
                           + "; ".join(parts_en) + ".",
                           f"**算上你给的损耗：{total:,.1f} 小时（{total / 24:,.1f} 天），{total * n:,.0f} 卡时**——"
                           + "；".join(parts_zh) + "。"))
    if tokens > 1e14:  # '1,000,000B tokens': more than any corpus; the likely meaning said beside it
        h1 = first.wall_hours * 1e12 / tokens
        figures["hours_if_1t_tokens"] = round(h1, 1)
        lines.append(ctx.t(f"{tokens:.3g} tokens is far beyond any training corpus (the largest public runs use ~15-36T); "
                           f"if 1T tokens was meant: **{h1:,.0f} h ({h1 / 24:,.0f} days, {h1 / 8760:,.1f} years)** on {n} GPUs.",
                           f"{tokens:.3g} 个 token 远超任何训练语料（最大的公开训练约 15-36T）；如果指的是 1T token："
                           f"{n} 张卡约 **{h1:,.0f} 小时（{h1 / 24:,.0f} 天，{h1 / 8760:,.1f} 年）**。"))
    if req.deadline_hours:  # the user's own target: said right after the estimate it is judged on
        lines.append(_deadline_line(ctx, first, n, figures))
    tps = tokens / (first.wall_hours * 3600) if first.wall_hours else 0
    figures |= {"tokens_per_s": round(tps), "tokens_per_s_per_gpu": round(tps / n)}
    lines.append(compute_line(ctx, model, tokens, first.total_flops, first.method, figures))
    published = _published_efficiency(ctx, model, first.gpu, tokens, n, figures)
    yardstick = False  # the quoted run's scaled GPU-hours lead (and are what a stated price bills)
    if published and "scaled_gpu_hours" in figures and re.search(
            r"same (?:setup|recipe|efficiency|way)|同样|一样|按这个|参考|" + slots.THEIR_YARDSTICK, ctx.question.lower()):
        if len(lines) > 1 and lines[1].startswith("**"):
            lines[1] = ctx.t("Cross-check from FLOPs at the assumed MFU: ", "按 FLOPs 和假设的 MFU 交叉核对：") + lines[1]
        lines[1:1] = published  # 'with the same setup': the quoted run's efficiency answers; the estimate follows
        yardstick = True
    else:
        lines += published
    from assistant.readers.asks import SCALE_CHECK

    if published and re.search(SCALE_CHECK, ctx.question.lower()) and first.wall_hours:
        # '是不是按 token 比例算就行？': not by tokens alone: parameters too, and what the published hours include
        lines.append(ctx.t(
            "**Scale by tokens alone?** No: compute goes with parameters × tokens (6·N·D; for an MoE, the active "
            "parameters), so a run of another size is scaled by both (done above); and a published total also holds "
            "work outside your job (context extension, post-training, restarts, ablations) and the lab's own stack and "
            f"precision. Use the FLOPs estimate ({first.wall_hours:,.0f} h here) as the plan and the scaled figure as a "
            "cross-check.",
            "**按 token 比例算就行吗？** 不行：算力随参数量 × token 数变（6·N·D；MoE 按激活参数），换了模型大小要两者一起折算"
            "（上面已折算）；公开的总卡时还包含你的任务没有的部分（长上下文扩展、后训练、重启、消融实验），以及对方自己的框架和精度"
            f"（如 FP8）。计划按 FLOPs 估算（这里 {first.wall_hours:,.0f} 小时），折算值作交叉核对。"))
    own_figure = bool(published and req.period_hours and "period_hours" in req.stated and not (
        req.measured_tokens or req.measured_model or req.measured_gpu or req.measured_num_gpus or req.deadline_hours))
    h = req.period_hours or 0.0
    theirs = figures.get("scaled_gpu_hours", 0) / n
    if own_figure and theirs and 0.8 <= h / theirs <= 1.25:
        # ('1.46M × 50/15000 ≈ 4.9k GPU-hours → ~12.7 days on 16 H100s. sound right?'): the user already scaled the run
        lines.append(ctx.t(
            f"**Your {h:,.0f} h ({h / 24:,.1f} days) is the run scaled to your job**, the same as above ({theirs:,.0f} h): "
            f"right as the pessimistic bound (the published hours hold the lab's restarts, evaluations and post-training). "
            f"At a usual MFU your run is {first.wall_hours:,.0f} h ({first.wall_hours / 24:,.1f} days): plan between the two.",
            f"**你算的 {h:,.0f} 小时（{h / 24:,.1f} 天）就是把那次训练按你的任务折算**，和上面一致（{theirs:,.0f} 小时）：作为保守上限"
            f"是对的（公开卡时含对方的重启、评测和后训练）。按常见 MFU 你的任务约 {first.wall_hours:,.0f} 小时"
            f"（{first.wall_hours / 24:,.1f} 天）：按两者之间做计划。"))
        ctx.used.add("period_hours")
    elif own_figure and theirs and h < 3 * theirs:
        # ('… by my ratio 7.1万卡时, 46 days?'): the user's own scaling, set against both figures
        lines.append(ctx.t(
            f"**Your {h:,.0f} h ({h / 24:,.1f} days)** against: {theirs:,.0f} h at the run's own efficiency scaled to your "
            f"job (tokens and active parameters, above), {first.wall_hours:,.0f} h at a usual MFU. The scaled figure is the "
            "pessimistic bound; plan between the two.",
            f"**你算的 {h:,.0f} 小时（{h / 24:,.1f} 天）**对照：按那次训练自己的效率折算到你的任务（token 和激活参数，见上）是 "
            f"{theirs:,.0f} 小时，按常见 MFU 是 {first.wall_hours:,.0f} 小时。折算值是保守上限，按两者之间做计划。"))
        ctx.used.add("period_hours")
    elif own_figure:
        # ('… took 1.46M GPU-hours; we have 64 GPUs, so 1.46M/64 ≈ 22,800 h??'): the user's own division, checked
        lines.append(ctx.t(
            f"**Your {h:,.0f} h ({h / 24:,.0f} days) is the published run's whole GPU-hours spread over your GPUs**: that "
            f"run's model and tokens, not your job. Yours is {h / first.wall_hours:,.0f}× shorter at the assumed MFU "
            f"({first.wall_hours:,.0f} h)" + (f", {theirs:,.0f} h at the run's own efficiency scaled to your job (above)" if theirs
                                              else "") + ".",
            f"**你算的 {h:,.0f} 小时（{h / 24:,.0f} 天）是把那次公开训练的全部卡时摊到你的卡上**：那是它的模型和 token 量，"
            f"不是你的任务。按假设的 MFU，你的任务只要它的 1/{h / first.wall_hours:,.0f}（{first.wall_hours:,.0f} 小时）；"
            + (f"按那次自己的效率折算到你的任务是 {theirs:,.0f} 小时（见上）。" if theirs else "")))
        ctx.used.add("period_hours")
    same = _same_time_as_run(ctx, first.wall_hours, n, figures)
    if same:  # 'about the same wall clock as them, right?': judged first
        lines.insert(1, same)
    measured = _steps_and_measured(ctx, first, tokens, n, figures)
    if req.throughput_tokens_per_s:  # the user's own measurement leads; the estimate follows as a cross-check
        lines[1:1] = measured
    else:
        lines += measured
    lines.append(ctx.t(f"Throughput: {tps:,.0f} tokens/s in total, {tps / n:,.0f} per GPU (tokens / wall-clock seconds).",
                       f"吞吐：合计 {tps:,.0f} token/秒，每卡 {tps / n:,.0f} token/秒（token 数 / 墙钟秒数）。"))
    if req.price_per_gpu_hour:
        billed = figures.get("gpu_hours_with_overheads") or first.gpu_hours  # (stalled and lost hours are paid too)
        sym = "¥" if req.currency == "CNY" else "$"
        if yardstick and figures.get("scaled_gpu_hours"):  # the quoted run's GPU-hours answer: they are what is billed
            billed = figures["scaled_gpu_hours"]
        cost = req.price_per_gpu_hour * billed
        figures["cost_at_your_price"] = round(cost, 2)
        lines.append(ctx.t(f"At your price of {sym}{req.price_per_gpu_hour:g} per GPU-hour: **{sym}{cost:,.0f}**"
                           + (f" for the {billed:,.0f} GPU-hours above (the FLOPs cross-check: "
                              f"{sym}{req.price_per_gpu_hour * first.gpu_hours:,.0f})." if yardstick and billed != first.gpu_hours
                              else f" ({billed:,.0f} GPU-hours with the overheads)." if billed != first.gpu_hours else "."),
                           f"按你给的 {sym}{req.price_per_gpu_hour:g}/卡时：**{sym}{cost:,.0f}**"
                           + (f"（按上面的 {billed:,.0f} 卡时；FLOPs 交叉核对为 {sym}{req.price_per_gpu_hour * first.gpu_hours:,.0f}）。"
                              if yardstick and billed != first.gpu_hours else
                              f"（含损耗共 {billed:,.0f} 卡时）。" if billed != first.gpu_hours else "。")))
        if req.deadline_hours and req.num_gpus and first.wall_hours < req.deadline_hours:
            # 'renting 8x H100 for a week … is a week enough, and what does it cost?': the run's bill, and the whole
            # rental the user means to book, which they pay whether the run ends early or not
            whole = req.price_per_gpu_hour * req.num_gpus * req.deadline_hours
            figures["cost_whole_period"] = round(whole, 2)
            lines.append(ctx.t(
                f"Renting the {req.num_gpus} GPUs for the whole {req.deadline_hours:,.0f} h: {req.num_gpus} × "
                f"{req.deadline_hours:,.0f} h × {sym}{req.price_per_gpu_hour:g} = **{sym}{whole:,.0f}**; the run needs "
                f"{first.wall_hours:,.1f} h of it, so renting only as long as the run (plus a margin for set-up and a "
                "failed start) pays the smaller figure.",
                f"{req.num_gpus} 张卡整段 {req.deadline_hours:,.0f} 小时都租：{req.num_gpus} × {req.deadline_hours:,.0f} 小时 × "
                f"{sym}{req.price_per_gpu_hour:g} = **{sym}{whole:,.0f}**；训练只用其中 {first.wall_hours:,.1f} 小时，"
                "按训练时长（加上准备和重跑的余量）租就只付较小的那个数。"))
    rate = on_demand_rate(ctx.deps.prices(), first.gpu)
    if rate is not None:
        figures["cost_usd"] = round(rate.typical * first.gpu_hours, 0)
        given = all(map(is_session_override, rate.records))
        lines.append(T(lang, "tt_cost_given" if given else "tt_cost", cost=ctx.money(figures["cost_usd"]),
                       rate=ctx.money(rate.typical, 2), low=ctx.money(rate.low * first.gpu_hours),
                       high=ctx.money(rate.high * first.gpu_hours)))
    if req.budget and "cost_usd" in figures:
        from tools.pricing import CNY_PER_USD

        usd = req.budget / CNY_PER_USD if req.currency == "CNY" else req.budget
        lines.append(ctx.t(f"Budget ${usd:,.0f}: {'enough' if usd >= figures['cost_usd'] else 'not enough'} at on-demand prices.",
                           f"预算约 {ctx.money(usd)}：按需租用{'够' if usd >= figures['cost_usd'] else '不够'}。"))
    if first.wall_hours > RUN_ALLOWANCE_AFTER_H and len(results) == 1:
        # a multi-day run loses time no estimate of steady steps holds: plan on it
        lo, hi = (first.wall_hours * (1 + a) for a in RUN_ALLOWANCE)
        figures["wall_hours_with_allowance"] = round(hi, 1)
        lines.append(ctx.t(f"Plan on {lo:,.0f}-{hi:,.0f} h ({lo / 24:,.1f}-{hi / 24:,.1f} days): a multi-day run loses "
                           f"{RUN_ALLOWANCE[0]:.0%}-{RUN_ALLOWANCE[1]:.0%} to node failures and restarts from checkpoints, "
                           "checkpoint writes and evaluations, which the steady-step estimate above leaves out.",
                           f"按 {lo:,.0f}-{hi:,.0f} 小时（{lo / 24:,.1f}-{hi / 24:,.1f} 天）做计划：多天的训练会有 "
                           f"{RUN_ALLOWANCE[0]:.0%}-{RUN_ALLOWANCE[1]:.0%} 的时间花在节点故障和从检查点重启、写检查点和评测上，上面按稳定步速的估算没算这部分。"))
    rows = [[r.gpu, f"{r.peak_tflops:g}", f"{r.mfu:.2f}", f"{r.wall_hours:,.1f}", f"{r.gpu_hours:,.0f}"] for r in results]
    lines += ["", md_table(["GPU", "TFLOPS (dense)", "MFU", T(lang, "hours"), "GPU-h"], rows)]
    cites = ctx.deps.search("H100 A100 BF16 989 312 训练时间" if ctx.zh else "training time MFU GPU hours")
    text = "\n".join(lines) + assumptions_md(lang, ctx.notes + first.assumptions) + sources_md(lang, cites)
    return Answer(answer=text, lang=lang, intent=req.intent, figures=figures, citations=cites, tool_calls=ctx.calls,
                  verdict=Verdict(gpu=first.gpu, num_gpus=n, method=first.method), clarification=ctx.clarify)


def _job_on_other_cards_answer(ctx: Ctx, results, lines: list[str], figures: dict, n: int) -> Answer:
    """The user's job length on one card carried to the others (the comparison first), with the speed ratio's basis:
    each card's dense peak and MFU; no reference-job hours or bills, which are not the user's."""
    ctx.used |= {"period_hours", "price_per_gpu_hour", "gpu_rental_prices", "price_kind", "server", "currency"}
    comparison = lines[-1].strip()
    head = re.sub(r"^\*\*[^*]+\*\*[:：]\s*", "", comparison)
    ctx.assumed[:] = [a for a in ctx.assumed if "ratio does not depend" not in a and "倍数与它无关" not in a]
    rows = [[r.gpu, f"{r.peak_tflops:g}", f"{r.mfu:.2f}", f"{results[0].wall_hours / r.wall_hours:.2f}×"] for r in results]
    stems = {r.gpu.split("-")[0] for r in results}
    known = stems == {"a100", "h100"}  # (the pair with many published BF16 training speedups)
    basis = ctx.t(f"Speed ratio per card: the time estimator's for the same job on {n} GPUs each: dense BF16 peak × a "
                  "typical MFU for the card's generation, plus the gradient traffic over its links (cards without NVLink "
                  "pay more)" + ("; published A100→H100 speedups for BF16 training run about 2-3×" if known else "") +
                  ". If yours differs, say it (e.g. 'the second is 2.2x faster') and the costs follow.",
                  f"各卡速度比：时间估算器对同一任务（各 {n} 张）的结果：稠密 BF16 峰值 × 该代卡的典型 MFU，加上梯度在卡间链路上的"
                  "通信（没有 NVLink 的卡更慢）"
                  + ("；公开的 A100→H100 BF16 训练加速比约 2-3 倍" if known else "") +
                  "。你的实测不同的话直接说（如“第二种快 2.2 倍”），成本随之重算。")
    table = md_table(["GPU", "TFLOPS (dense)", "MFU", ctx.t("speed", "速度")], rows)
    text = "\n\n".join([ctx.t("**Cost of your job on each option**: ", "**你的任务在各方案上的花费**：") + head, basis, table])
    return Answer(answer=text + assumptions_md(ctx.lang, ctx.notes), lang=ctx.lang, intent=ctx.req.intent,
                  figures=figures, tool_calls=ctx.calls,
                  verdict=Verdict(gpu=results[0].gpu, num_gpus=n, method=results[0].method))


def scaled_published_run(ctx: Ctx) -> Answer:
    """'Meta says 405B took 30.84M H100 GPU-hours; using their number, how many for 100B tokens, and the cost?': the
    quoted run's GPU-hours per token and parameter carried to the job (tools.run_scaling), on the job's GPUs and at
    its price, with what the published figure covers and why the same efficiency is an assumption."""
    from knowledge.runs import load_training_runs
    from tools.run_scaling import RunScalingRequest, scale_run

    req = ctx.req
    run = next(r for r in load_training_runs() if r.id == req.scale_run)
    ctx.used |= {"scale_run", "tokens", "model", "method"}
    if req.model:
        model = ctx.model()
        from tools.params import count_parameters

        params_job = float(count_parameters(model).active)
        name = model.name
    else:  # '按同样效率训 14.8T tokens': the job is the run's own model, said
        params_job = float(run.active_params or run.params)
        name = run.name
        ctx.assume(f"the model is {run.name} (the run you quoted)", f"模型按你引用的 {run.name} 算")
    params_run = float(run.active_params or run.params)
    if req.model and abs(params_job / params_run - 1) < 0.05:
        params_job = params_run  # (the same model: its nominal size, as the run states it)
    old_gpu = ctx.gpu(run.gpu)
    gpu = ctx.gpu() if req.gpu else old_gpu
    if not req.gpu:
        ctx.assume(f"on {old_gpu.name}, the run's card", f"按原报告的 {old_gpu.name} 算")
    price = req.price_per_gpu_hour
    if price:
        ctx.used.add("price_per_gpu_hour")
    if req.num_gpus:
        ctx.used.add("num_gpus")
    tokens_run = req.scale_run_tokens or run.tokens  # (the run's tokens as the user quoted them, else as published)
    ctx.used.add("scale_run_tokens")
    args = {"gpu_hours_run": run.gpu_hours, "tokens_run": tokens_run, "params_run": params_run, "tokens_job": req.tokens,
            "params_job": params_job, "peak_tflops_run": old_gpu.bf16_dense_tflops, "peak_tflops_job": gpu.bf16_dense_tflops,
            "num_gpus": req.num_gpus, "price_per_gpu_hour": price}
    r = ctx.call("scale_run", args, scale_run(RunScalingRequest(**args)))
    sym = "¥" if req.currency == "CNY" else "$"
    steps = ctx.t(f"{run.gpu_hours / 1e6:g}M GPU-hours × ({req.tokens:.3g} / {tokens_run:.3g} tokens)",
                  f"{run.gpu_hours / 1e6:g}M 卡时 × ({req.tokens:.3g} / {tokens_run:.3g} token)")
    if params_job != params_run:
        steps += f" × ({params_job / 1e9:,.1f}B / {params_run / 1e9:,.1f}B " + ctx.t("parameters)", "参数)")
    if gpu.id != old_gpu.id:
        steps += f" × ({old_gpu.bf16_dense_tflops:g} / {gpu.bf16_dense_tflops:g} TFLOPS)"
    lines = [ctx.t(f"**At {run.name}'s published rate: {r.gpu_hours:,.0f} GPU-hours** on {gpu.name}: {steps} = "
                   f"{r.gpu_hours:,.0f} GPU-hours.",
                   f"**按 {run.name} 公开的效率：{r.gpu_hours:,.0f} 卡时**（{gpu.name}）：{steps} = {r.gpu_hours:,.0f} 卡时。")]
    if r.wall_hours:
        lines.append(ctx.t(f"On your {req.num_gpus:,} GPUs: **{r.wall_hours:,.0f} hours ≈ {r.wall_hours / 24:,.0f} days** "
                           f"({r.gpu_hours:,.0f} / {req.num_gpus:,}), if they keep the run's efficiency.",
                           f"你的 {req.num_gpus:,} 张卡：**约 {r.wall_hours:,.0f} 小时 ≈ {r.wall_hours / 24:,.0f} 天**"
                           f"（{r.gpu_hours:,.0f} ÷ {req.num_gpus:,}），前提是保持同样的效率。"))
    if r.cost:
        lines.append(ctx.t(f"At {sym}{price:g} per GPU-hour: **{sym}{r.cost:,.0f}**.",
                           f"按每卡时 {sym}{price:g}：**{sym}{r.cost:,.0f}**。"))
        if req.budget:  # '预算 500 万人民币够吗': the budget against the scaled run's bill, with what it buys
            ctx.used.add("budget")
            ok = req.budget >= r.cost
            buys = req.budget / price
            lines.insert(0, ctx.t(
                f"**Budget {sym}{req.budget:,.0f}: {'enough' if ok else 'not enough'}** for this run at the published "
                f"efficiency ({sym}{r.cost:,.0f}); it buys {buys:,.0f} GPU-hours, {buys / r.gpu_hours:.0%} of the "
                f"{r.gpu_hours:,.0f} needed" + ("" if ok else f" (about {req.tokens * buys / r.gpu_hours / 1e12:.2g}T "
                                                         "tokens at that rate)") + ".",
                f"**预算 {sym}{req.budget:,.0f}：{'够' if ok else '不够'}**（按公开效率这次训练要 {sym}{r.cost:,.0f}）；它能买 "
                f"{buys:,.0f} 卡时，是所需 {r.gpu_hours:,.0f} 卡时的 {buys / r.gpu_hours:.0%}"
                + ("" if ok else f"（按这个效率约够训 {req.tokens * buys / r.gpu_hours / 1e12:.2g}T token）") + "。"))
    pre = (run.gpu_hours_breakdown or {}).get("pre-training")
    if pre and pre < run.gpu_hours:
        lines.append(ctx.t(f"The {run.gpu_hours / 1e6:g}M covers {run.gpu_hours_scope}; pre-training alone was "
                           f"{pre / 1e6:g}M ({r.gpu_hours * pre / run.gpu_hours:,.0f} GPU-hours at your size).",
                           f"{run.gpu_hours / 1e6:g}M 的范围：{run.gpu_hours_scope}；其中预训练 {pre / 1e6:g}M"
                           f"（按你的规模约 {r.gpu_hours * pre / run.gpu_hours:,.0f} 卡时）。"))
    else:
        lines.append(ctx.t(f"What the {run.gpu_hours / 1e6:g}M covers: {run.gpu_hours_scope}.",
                           f"{run.gpu_hours / 1e6:g}M 包含的范围：{run.gpu_hours_scope}。"))
    if re.search(r"can (?:we|i) (?:just )?scale|is (?:it|that) (?:valid|ok|fine|right) to scale|(?:valid|ok) to scale|"
                 r"能不能(?:直接)?按比例|可以(?:直接)?按比例|按比例.{0,6}(?:行吗|可以吗|对吗|靠谱吗)", ctx.question.lower()):
        # 'can we just scale that by 70/405?': yes to first order, said as a verdict (compute is 6 x params x tokens)
        lines.insert(0, ctx.t("**Yes, to first order**: training compute is about 6 × parameters × tokens, so at the same "
                              "tokens, hardware and efficiency the GPU-hours scale with the (active) parameters.",
                              "**可以，一阶近似成立**：训练算力约为 6 × 参数 × token，token 数、硬件和效率相同时，卡时按（激活）参数"
                              "量成比例。"))
    sized = [x for x in load_training_runs() if x.id != run.id and x.gpu_hours and x.tokens and not x.active_params
             and abs(float(x.params) / params_job - 1) < 0.1] if params_job != params_run and not run.active_params else []
    near = next((x for x in reversed(sized) if x.gpu == run.gpu), sized[-1] if sized else None)  # (the run's card, newest)
    if near is not None:  # a published run of a model the job's size: what the scaling gives against what was spent
        at_tokens = near.gpu_hours * req.tokens / near.tokens
        lines.append(ctx.t(f"Cross-check: {near.name} itself took {near.gpu_hours / 1e6:g}M {ctx.gpu(near.gpu).name} GPU-hours "
                           f"for {near.tokens:.3g} tokens ({at_tokens / 1e6:,.2f}M at your tokens): smaller runs often run at "
                           "lower efficiency than the flagship's, so plan for the higher figure.",
                           f"对照：{near.name} 自己用了 {near.gpu_hours / 1e6:g}M {ctx.gpu(near.gpu).name} 卡时训 {near.tokens:.3g} token"
                           f"（按你的 token 数约 {at_tokens / 1e6:,.2f}M）：规模小的训练效率常比旗舰低，按较高的那个数做预算更稳。"))
    lines.append(ctx.t("Caveats: the same efficiency is an assumption (their cluster, kernels and FP8/BF16 recipe; a "
                       "smaller job or another stack often runs below it); research, ablations, failed runs and staff are "
                       "not in a published GPU-hour figure.",
                       "注意：同样的效率只是假设（他们的集群、算子和 FP8/BF16 方案；规模小或换一套框架常常达不到）；公开的卡时不含研究、"
                       "消融实验、失败重跑和人力。"))
    ctx.note(ctx.t(f"{run.name}: {run.source} (as of {run.as_of})", f"{run.name}：{run.source}（截至 {run.as_of}）"))
    figures = {"gpu_hours": r.gpu_hours, "scale_factor": r.factor, "wall_hours": r.wall_hours, "cost": r.cost}
    return Answer(answer="\n\n".join(lines) + assumptions_md(ctx.lang, ctx.notes), lang=ctx.lang, intent="training_time",
                  figures=figures, tool_calls=ctx.calls)


def compute_optimal(ctx: Ctx) -> Answer:
    """'We have 256 H100s for 30 days: the biggest dense model we can train Chinchilla-optimally, on how many tokens?':
    the compute budget C = GPUs × dense peak × MFU × seconds; Chinchilla (Hoffmann et al. 2022) puts the optimum at
    D ≈ 20·N with C ≈ 6·N·D = 120·N², so N = sqrt(C / 120) and D = 20·N; the MFU band gives the range."""
    from tools import efficiency as eff

    req = ctx.req
    gpu = ctx.gpu(default="h100")
    n = req.num_gpus or 1
    hours = req.period_hours or req.deadline_hours
    precision = "fp8" if req.precision == "fp8" and gpu.fp8_dense_tflops else "bf16"
    peak = (gpu.fp8_dense_tflops if precision == "fp8" else gpu.bf16_dense_tflops or gpu.fp16_dense_tflops) or 0
    band = eff.default_mfu(gpu, precision)
    mfu = req.mfu or band.point
    ctx.used |= {"num_gpus", "gpu", "period_hours", "deadline_hours", "largest_model", "mfu", "precision"}
    budget = lambda m: n * peak * 1e12 * m * hours * 3600  # noqa: E731
    c = budget(mfu)
    size = lambda c_: math.sqrt(c_ / 120)  # noqa: E731
    big, lo_n, hi_n = size(c), size(budget(band.low)), size(budget(band.high))
    figures = {"compute_budget_flops": float(f"{c:.3g}"), "optimal_params": float(f"{big:.3g}"),
               "optimal_tokens": float(f"{20 * big:.3g}"), "mfu": mfu}
    lines = [ctx.t(
        f"**Compute budget**: {n:,} × {gpu.name} × {peak:g} dense {precision.upper()} TFLOPS × MFU {mfu:.0%} × "
        f"{hours:,.0f} h × 3,600 = **{c:.2e} FLOPs**.",
        f"**算力预算**：{n:,} 张 {gpu.name} × 稠密 {precision.upper()} {peak:g} TFLOPS × MFU {mfu:.0%} × {hours:,.0f} 小时 × 3600 = "
        f"**{c:.2e} FLOPs**。"),
        ctx.t(f"**Chinchilla-optimal**: D ≈ 20·N and C ≈ 6·N·D = 120·N², so N = √(C / 120) ≈ **{big / 1e9:,.0f}B parameters** "
              f"on D = 20·N ≈ **{20 * big / 1e12:,.2f}T tokens** (MFU {band.low:.0%}-{band.high:.0%}: {lo_n / 1e9:,.0f}B-"
              f"{hi_n / 1e9:,.0f}B on {20 * lo_n / 1e12:,.2f}-{20 * hi_n / 1e12:,.2f}T).",
              f"**Chinchilla 最优**：D ≈ 20·N，C ≈ 6·N·D = 120·N²，所以 N = √(C / 120) ≈ **{big / 1e9:,.0f}B 参数**，"
              f"训练 D = 20·N ≈ **{20 * big / 1e12:,.2f}T token**（MFU {band.low:.0%}-{band.high:.0%}：{lo_n / 1e9:,.0f}B-"
              f"{hi_n / 1e9:,.0f}B，{20 * lo_n / 1e12:,.2f}-{20 * hi_n / 1e12:,.2f}T token）。"),
        ctx.t("**What it leaves out**: Chinchilla minimises training compute, not the cost of serving the model; most teams "
              "now train a smaller model on many more tokens (Llama 3 8B: 15T) because it is cheaper to run. It also needs "
              f"~{20 * big / 1e12:,.1f}T tokens of good data, and restarts and evaluations take 5-15% of the time (at 10% lost, "
              f"N is ~{size(c * 0.9) / 1e9:,.0f}B).",
              "**没算进去的**：Chinchilla 最优是让训练算力最省，不是让推理最省；现在多数团队用更多 token 训更小的模型"
              f"（Llama 3 8B 用了 15T），因为部署便宜。还需要约 {20 * big / 1e12:,.1f}T 的高质量数据；故障重启和评测通常占 5-15% 的时间"
              f"（损失 10% 时 N 约 {size(c * 0.9) / 1e9:,.0f}B）。")]
    ctx.note(ctx.t(f"MFU {mfu:.0%}, band {band.low:.0%}-{band.high:.0%} ({band.basis})" + ("" if not req.mfu else " (yours)"),
                   f"MFU {mfu:.0%}，区间 {band.low:.0%}-{band.high:.0%}（{band.basis}）" + ("" if not req.mfu else "（你给的）")))
    return Answer(answer="\n\n".join(lines) + assumptions_md(ctx.lang, ctx.notes), lang=ctx.lang, intent="training_time",
                  figures=figures)


def tokens_in_window(ctx: Ctx) -> Answer:
    """'13B 基座，128 张 H800、3 个月，最多能喂多少 token？按 Chinchilla 够不够？': the compute the GPUs give in the window
    (GPUs × dense peak × MFU × seconds, the time estimate's MFU band), over the model's FLOPs a token (the training-time
    tool's 6·N plus attention), against Chinchilla's 20 tokens a parameter."""
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    req = ctx.req
    model, gpu = ctx.model(), ctx.gpu(default="h100")
    n, hours = req.num_gpus, req.period_hours or req.deadline_hours
    probe = 1e10
    t = ctx.call("time_train", {"model": model.id, "gpu": gpu.id, "num_gpus": n, "tokens": probe, "method": "full"},
                 estimate_training_time(TrainingTimeRequest(model=model, gpu=gpu, num_gpus=n, tokens=probe,
                                                            method="full")))
    tokens = probe * hours / t.wall_hours
    lo, hi = probe * hours / t.wall_hours_range[1], probe * hours / t.wall_hours_range[0]
    from tools.params import count_parameters

    p = count_parameters(model).total
    opt = 20 * p
    ctx.used |= {"num_gpus", "gpu", "period_hours", "deadline_hours", "model", "method"}
    verdict = (ctx.t(f"**{tokens / opt:,.1f}× the Chinchilla-optimal {opt / 1e9:,.0f}B tokens** (20 a parameter): enough "
                     "for a compute-optimal run, and room to over-train as Llama and Qwen do (a better model to serve at the "
                     "same size).",
                     f"**是 Chinchilla 最优（每参数 20 个 token，{opt / 1e9:,.0f}B）的 {tokens / opt:,.1f} 倍**：按算力最优够了，"
                     "还能像 Llama、Qwen 那样多喂数据（同样大小、推理时更好的模型）。")
               if tokens >= opt else
               ctx.t(f"**Short of Chinchilla's {opt / 1e9:,.0f}B tokens** (20 a parameter): {tokens / opt:.0%} of it; a "
                     "smaller model or more GPU time would be compute-optimal.",
                     f"**不到 Chinchilla 最优的 {opt / 1e9:,.0f}B token**（每参数 20 个）：只有 {tokens / opt:.0%}；要算力最优，"
                     "换小一点的模型或加卡时。"))
    lines = [ctx.t(f"**About {tokens / 1e12:,.2f}T tokens** ({lo / 1e12:,.2f}-{hi / 1e12:,.2f}T over the MFU band) in "
                   f"{hours:,.0f} h on {n:,} × {gpu.name}: the time estimate runs {probe / 1e9:,.0f}B tokens of "
                   f"{model.name} in {t.wall_hours:,.1f} h at MFU {t.mfu:.0%} ({t.total_flops / probe:,.3g} FLOPs a token, "
                   f"6 × {p / 1e9:,.1f}B parameters plus attention), so the window holds {hours:,.0f} / "
                   f"{t.wall_hours:,.1f} × {probe / 1e9:,.0f}B.",
                   f"**约 {tokens / 1e12:,.2f}T token**（MFU 区间对应 {lo / 1e12:,.2f}-{hi / 1e12:,.2f}T）：{n:,} 张 {gpu.name}、"
                   f"{hours:,.0f} 小时；时间估算里 {model.name} 训 {probe / 1e9:,.0f}B token 要 {t.wall_hours:,.1f} 小时（MFU "
                   f"{t.mfu:.0%}，每 token {t.total_flops / probe:,.3g} FLOPs = 6 × {p / 1e9:,.1f}B 参数另加注意力），所以 "
                   f"{hours:,.0f} ÷ {t.wall_hours:,.1f} × {probe / 1e9:,.0f}B。"),
             verdict,
             ctx.t("Plan on 5-15% of the window lost to restarts, evaluation and checkpoints, and on having that much good "
                   "data (deduplicated; repeating it more than ~4 epochs stops helping).",
                   "计划时留出 5-15% 的时间给故障重启、评测和存检查点；还要有这么多高质量数据（去重后；重复超过约 4 遍收益就很小）。")]
    figures = {"tokens_in_window": float(f"{tokens:.3g}"), "tokens_low": float(f"{lo:.3g}"), "tokens_high": float(f"{hi:.3g}"),
               "chinchilla_optimal_tokens": opt, "mfu": t.mfu}
    return Answer(answer="\n\n".join(lines) + assumptions_md(ctx.lang, ctx.notes + list(t.assumptions)), lang=ctx.lang,
                  intent="training_time", figures=figures)


_OWN_MODEL_SCENARIOS = (  # (label en, label zh, model, method, tokens, GPUs): what "our own LLM" usually turns out to be
    ("fine-tune an open 7B (LoRA, 100M tokens)", "微调开源 7B（LoRA，1 亿 token）", "qwen2.5-7b", "lora", 1e8, 8),
    ("fine-tune an open 72B (LoRA, 100M tokens)", "微调开源 72B（LoRA，1 亿 token）", "qwen2.5-72b", "lora", 1e8, 8),
    ("continue pre-training a 7B (100B tokens)", "在 7B 上继续预训练（1000 亿 token）", "qwen2.5-7b", "full", 1e11, 64),
    ("pre-train a 7B from scratch (2T tokens)", "从零预训练 7B（2 万亿 token）", "qwen2.5-7b", "full", 2e12, 256),
)


def own_model_scenarios(ctx: Ctx) -> Answer:
    """'训练一个我们自己的大模型需要多少张卡、多长时间？预算 500 万': nothing fixed but the money; what 'our own model' usually
    means, each timed and priced on rented cards (GPUs, days, GPU-hours, rent), what the budget buys in GPU-hours and the
    largest model it pre-trains compute-optimally; and the choice asked: from scratch or on an open model, which size,
    how many tokens."""
    from assistant.plans.money import typical_rate
    from assistant.request import Clarification
    from tools import efficiency as eff
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    req = ctx.req
    gid = req.gpu or ("h800" if ctx.zh else "h100")
    gpu = ctx.gpu(gid)
    cur = req.currency or ("CNY" if ctx.zh else "USD")
    sym = "¥" if cur == "CNY" else "$"
    rate = typical_rate(ctx, gpu.id, cur)
    rows = []
    own = req.num_gpus if "num_gpus" in req.stated else None  # ('8 卡 A800 要训多久？'): every row on the user's cards
    for en, zh, mid, method, tokens, n in _OWN_MODEL_SCENARIOS:
        n = own or n
        try:
            model = ctx.deps.catalog.model(mid)[0]
            t = estimate_training_time(TrainingTimeRequest(model=model, gpu=gpu, num_gpus=n, tokens=tokens, method=method))
        except (ValueError, LookupError):
            continue
        when = (ctx.t(f"{t.wall_hours / 24:,.1f} days", f"{t.wall_hours / 24:,.1f} 天") if t.wall_hours >= 24 else
                ctx.t(f"{t.wall_hours:,.1f} h", f"{t.wall_hours:,.1f} 小时"))
        rows.append([ctx.t(en, zh), f"{n}", when, f"{t.gpu_hours:,.0f}",
                     f"{sym}{t.gpu_hours * rate:,.0f}" if rate else "-"])
    head = [ctx.t("what 'our own model' is", "“自己的大模型”指什么"), ctx.t("GPUs", "卡数"), ctx.t("time", "时间"),
            ctx.t("GPU-hours", "卡时"), ctx.t("rent", "租用费用")]
    lines = [ctx.t(f"**It turns on what the model is**: most teams fine-tune an open model; pre-training from scratch costs "
                   f"thousands of times more. Timed on {gpu.name} at the usual MFU, rented at {sym}{rate:,.2f} per GPU-hour "
                   "(price table):" if rate else f"**It turns on what the model is**; timed on {gpu.name}:",
                   f"**取决于“自己的大模型”是什么**：多数团队是在开源模型上微调；从零预训练要贵成千上万倍。按 {gpu.name}、常见 MFU 计时，"
                   f"租价每卡时 {sym}{rate:,.2f}（价格表）：" if rate else f"**取决于“自己的大模型”是什么**；按 {gpu.name} 计时："),
             "", md_table(head, rows)]
    figures: dict = {}
    if req.budget and rate:
        ctx.used.add("budget")
        gpu_h = req.budget / rate
        band = eff.default_mfu(gpu, "bf16")
        c = gpu_h * 3600 * (gpu.bf16_dense_tflops or 0) * 1e12 * band.point
        n_opt = math.sqrt(c / 120) if c else 0
        figures |= {"budget_gpu_hours": round(gpu_h), "budget_optimal_params": float(f"{n_opt:.3g}")}
        lines += ["", ctx.t(
            f"**Your {sym}{req.budget:,.0f} buys ~{gpu_h:,.0f} GPU-hours** of rented {gpu.name} (before storage, data and "
            f"staff): {c:.1e} FLOPs at {band.point:.0%} MFU, enough to pre-train about a **{n_opt / 1e9:,.1f}B** model "
            f"compute-optimally (on {20 * n_opt / 1e9:,.0f}B tokens), or to fine-tune open models many times over.",
            f"**{sym}{req.budget:,.0f} 能租约 {gpu_h:,.0f} 卡时** {gpu.name}（不含存储、数据和人力）：按 MFU {band.point:.0%} 是 {c:.1e} FLOPs，"
            f"够按算力最优从零训一个约 **{n_opt / 1e9:,.1f}B** 的模型（{20 * n_opt / 1e9:,.0f}B token），或者把开源模型微调很多遍。")]
    clar = Clarification(missing=["model", "tokens", "method"], question=ctx.t(
        "From scratch or on an open model, how large, and on how many tokens?",
        "从零训练还是在开源模型上微调/继续预训练？多大参数？多少 token 数据？"), suggestions=[])
    lines.insert(0, "**" + clar.question + "**" + ctx.t(" The cost turns on it:", "费用取决于这些："))
    return Answer(answer="\n".join(lines) + assumptions_md(ctx.lang, ctx.notes), lang=ctx.lang, intent="training_time",
                  status="needs_clarification", clarification=clar, figures=figures)
