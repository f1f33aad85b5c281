"""GPU memory per device for inference: weights, KV cache, prefill workspace and overheads.

KV cache per token = 2 (K and V) x layers x KV heads x head dim x bytes for MHA/GQA/MQA; MLA
(DeepSeek-V2/V3) caches one compressed latent per layer, (kv_lora_rank + rope head dim) x bytes,
as vLLM, SGLang and DeepSeek's own inference code do. Sliding-window layers (Gemma 2/3, gpt-oss,
Mistral 7B v0.1) hold at most `window` tokens and Llama 4's chunked layers at most one chunk; hybrid
models' linear-attention layers (Qwen3-Next) hold a fixed state per sequence, whatever the context:
vLLM's hybrid allocator pages each layer group this way, while Hugging Face's DynamicCache keeps full
K/V for every layer unless the model's own cache class trims it (Gemma's HybridCache does). Two engines:
- hf: Hugging Face transformers generate(): memory as allocated while it runs.
- vllm: vLLM pre-allocates gpu_memory_utilization x capacity and fills what the weights and the
  profiled activations leave with KV-cache blocks.
"""
from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from knowledge.schemas import GPU, ModelSpec
from tools import overheads as oh
from tools.activations import inference_workspace_bytes_per_token
from tools.formats import FormatName, kv_default, precision_ladder, weight_format
from tools.memory import Term, rounded_gb, term, usable_bytes, weight_bytes
from tools.params import count_parameters
from tools.units import GB, dtype_bytes
DEFAULT_CONTEXT = 4096
MAX_GPUS = 1024
MAX_CONTEXT_SEARCH = 1 << 27


class InferenceMemoryRequest(BaseModel):
    """What to serve: a model, a weight format, context and concurrency, and optionally the hardware."""

    model_config = ConfigDict(extra="forbid")
    model: ModelSpec
    gpu: GPU | None = None
    num_gpus: int = Field(1, ge=1, le=MAX_GPUS)
    precision: FormatName | None = Field(None, description="weight format (tools.formats id: bf16, fp8, awq, mxfp4, "
                                  "q4_k_m...); default: the checkpoint's own (model.native_precision)")
    kv_dtype: Literal["bf16", "fp16", "fp8"] | None = Field(None, description="default: fp16 for fp16 weights, else bf16")
    context: int | None = Field(None, ge=1, le=MAX_CONTEXT_SEARCH, description="tokens per sequence (prompt + output)")
    prompt_len: int | None = Field(None, ge=1, le=MAX_CONTEXT_SEARCH, description="tokens prefilled at once; default = context")
    batch: int = Field(1, ge=1, le=100_000, description="concurrent sequences")
    engine: Literal["hf", "vllm"] = "hf"
    gpu_memory_utilization: float = Field(oh.VLLM_GPU_MEMORY_UTILIZATION, gt=0, le=1)
    split: Literal["auto", "tp", "layers"] = "auto"
    pipeline: int = Field(1, ge=1, le=64, description="pipeline stages (layers split, e.g. one per node); with "
                          "num_gpus > pipeline, each stage is tensor-parallel over num_gpus / pipeline GPUs")
    quantize_embeddings: bool = Field(False, description="quantize embeddings and LM head too (pure params x bytes)")
    speculative: Literal["draft", "eagle", "mtp"] | None = Field(None, description="speculative decoding: a draft "
                                                                  "model, an EAGLE head, or the model's MTP layers")
    draft_model: ModelSpec | None = Field(None, description="the draft model (speculative='draft')")
    mtp_layers: int = Field(1, ge=1, le=8, description="MTP / EAGLE layers (DeepSeek-V3: num_nextn_predict_layers 1)")
    max_loras: int = Field(0, ge=0, le=1024, description="LoRA adapters resident at once (vLLM --max-loras); 0: no LoRA")
    max_lora_rank: int = Field(16, ge=1, le=1024, description="vLLM --max-lora-rank: slots are allocated at this rank")

    @property
    def fmt(self) -> str:
        """The weight format in use: the one asked for, else the checkpoint's own."""
        return self.precision or self.model.native_precision

    @model_validator(mode="after")
    def _check(self) -> InferenceMemoryRequest:
        if self.prompt_len and self.context and self.prompt_len > self.context:
            raise ValueError(f"--prompt-len {self.prompt_len} exceeds --context {self.context}")
        if self.split == "tp" and not tp_ok(self.model, self.num_gpus):
            raise ValueError(f"tensor parallel {self.num_gpus} needs a degree that divides the "
                             f"{self.model.num_attention_heads} heads and fits the {self.model.num_kv_heads} KV heads")
        if self.split == "layers" and self.num_gpus > self.model.num_layers:
            raise ValueError(f"{self.num_gpus} GPUs exceed the {self.model.num_layers} layers to split")
        if self.speculative == "draft" and self.draft_model is None:
            raise ValueError("speculative='draft' needs the draft model (e.g. --draft-model llama-3.2-1b)")
        if self.pipeline > 1:
            if self.num_gpus % self.pipeline:
                raise ValueError(f"{self.num_gpus} GPUs do not divide into {self.pipeline} pipeline stages")
            if self.pipeline > self.model.num_layers:
                raise ValueError(f"{self.pipeline} pipeline stages exceed the {self.model.num_layers} layers")
            if not tp_ok(self.model, self.num_gpus // self.pipeline):
                raise ValueError(f"tensor parallel {self.num_gpus // self.pipeline} per stage needs a degree that "
                                 f"divides the {self.model.num_attention_heads} heads")
        return self


class InferenceMemory(BaseModel):
    """Per-GPU memory for serving, term by term, with fit, minimum GPUs and the limits that fit."""

    model: str
    gpu: str | None
    num_gpus: int
    engine: str
    layout: dict[str, int | str]
    per_gpu_gb: float
    breakdown_gb: dict[str, float]
    range_gb: tuple[float, float]
    allocated_gb: float
    usable_gb: float | None
    fits: bool | None
    min_gpus: int | None
    native_precision: str = Field(description="the checkpoint's own weight format")
    precision: str = Field(description="the weight format this estimate used")
    precision_options: list[dict] = Field(default_factory=list, description="{precision, per_gpu_gb, fits, note} for "
                                          "each format worth trying on the given GPUs, best first")
    kv_cache_bytes_per_token: int = Field(description="whole model, one more token of context: every layer whose "
                                          "cache grows with the context (all layers unless windowed or hybrid)")
    kv_cache_bytes_per_sequence: int = Field(0, description="one sequence at the requested context, whole model, "
                                             "windowed layers and linear-attention state included")
    kv_cache_gb: float = Field(description="KV cache of the requested sequences on one GPU")
    kv_cache_total_gb: float = Field(description="KV cache of the requested sequences, whole model (all GPUs)")
    weights_total_gb: float = Field(description="all weights in the requested format, whole model (all GPUs)")
    max_context: int | None = Field(description="longest single sequence that fits the given hardware")
    max_batch: int | None = Field(description="most concurrent sequences of --context tokens that fit")
    vllm_kv_cache_tokens: int | None = None
    terms: list[Term]
    assumptions: list[str]


def tp_ok(spec: ModelSpec, t: int) -> bool:
    """Whether vLLM / SGLang can split the model's attention over `t` GPUs: the heads divide, and the KV heads divide
    or are replicated (an MLA latent is held whole on every GPU)."""
    if spec.num_attention_heads % t:
        return False
    return spec.mla is not None or spec.num_kv_heads % t == 0 or t % spec.num_kv_heads == 0


def kv_layer_bytes_per_token(spec: ModelSpec, kv_dtype: str) -> float:
    """One attention layer's KV-cache bytes per token (the MLA latent, or K and V of every KV head)."""
    b = dtype_bytes(kv_dtype)
    if spec.mla is not None:
        return (spec.mla.kv_lora_rank + spec.mla.qk_rope_head_dim) * b
    return 2 * spec.num_kv_heads * spec.head_dim * b


def kv_cache_bytes_per_token(spec: ModelSpec, kv_dtype: str) -> int:
    """KV-cache bytes per extra token of context, whole model: the layers whose cache grows with the context."""
    return int(spec.full_attention_layers * kv_layer_bytes_per_token(spec, kv_dtype))


def linear_state_bytes(spec: ModelSpec, kv_dtype: str) -> int:
    """Hybrid models: the fixed per-sequence state of the linear-attention layers (recurrent state of
    value heads x key dim x value dim, plus the causal convolution's last kernel-1 inputs), in the KV dtype
    (vLLM's default for Qwen3-Next's state)."""
    la = spec.linear_attention
    if la is None:
        return 0
    per_layer = la.num_value_heads * la.key_head_dim * la.value_head_dim + la.conv_dim * (la.conv_kernel - 1)
    return int(la.layers * per_layer * dtype_bytes(kv_dtype))


def kv_cache_bytes(spec: ModelSpec, kv_dtype: str, context: int) -> int:
    """KV cache (and linear-attention state) of one sequence of `context` tokens, whole model."""
    layer = kv_layer_bytes_per_token(spec, kv_dtype)
    out = spec.full_attention_layers * layer * context + linear_state_bytes(spec, kv_dtype)
    if spec.sliding_window is not None:
        out += spec.sliding_window.layers * layer * min(context, spec.sliding_window.window)
    return int(out)


class _Layout(BaseModel):
    split: str
    tp: int
    stages: int


def _layout(req: InferenceMemoryRequest, n: int) -> _Layout | None:
    if req.pipeline > 1 and n == req.num_gpus:
        tp = n // req.pipeline
        return _Layout(split="layers" if tp == 1 else "tp+pp", tp=tp, stages=req.pipeline)
    if n == 1:
        return _Layout(split="single", tp=1, stages=1)
    if req.split in ("auto", "tp") and tp_ok(req.model, n):
        return _Layout(split="tp", tp=n, stages=1)
    if req.split in ("auto", "layers") and n <= req.model.num_layers:
        return _Layout(split="layers", tp=1, stages=n)
    return None


def _terms(req: InferenceMemoryRequest, lay: _Layout, context: int, batch: int, gpu: GPU | None) -> tuple[list[Term], dict]:
    spec = req.model
    counts = count_parameters(spec)
    fmt = weight_format(req.fmt)
    kv_dtype = req.kv_dtype or kv_default(fmt.id)
    q, rest, consts = weight_bytes(counts, fmt.id, quantize_embeddings=req.quantize_embeddings, double_quant=False)
    total_w = q + rest + consts
    L = spec.num_layers
    if lay.stages > 1:  # layers split over stages, each stage tensor-parallel over lay.tp GPUs
        held = fmt.bits >= 16 or fmt.scope == "all" or req.quantize_embeddings  # embeddings in the format itself
        embed_b = (counts.embedding + counts.lm_head) * (fmt.bytes if held else 2.0)
        per_layer_w = (total_w - embed_b) / L
        layers_here = math.ceil(L / lay.stages)
        w_gpu = (layers_here * per_layer_w + embed_b / (1 if spec.tie_embeddings else 2)) / lay.tp
        kv_share = layers_here / L * (1.0 if spec.mla is not None or lay.tp == 1 else
                                      max(1, spec.num_kv_heads // lay.tp) / spec.num_kv_heads)
        ws_div = lay.tp
    else:
        w_gpu = total_w / lay.tp
        layers_here = L
        kv_heads_here = 1 if spec.mla is not None else max(1, spec.num_kv_heads // lay.tp) / spec.num_kv_heads
        kv_share = 1.0 if spec.mla is not None else kv_heads_here
        ws_div = lay.tp
    extra_terms, extra_bpt = _engine_extras(req, counts, fmt, kv_dtype, lay)
    bpt = kv_cache_bytes_per_token(spec, kv_dtype) + extra_bpt
    bpt_gpu = bpt * kv_share
    seq_gpu = (kv_cache_bytes(spec, kv_dtype, context) + extra_bpt * context) * kv_share  # one sequence on this GPU
    plain = spec.sliding_window is None and spec.linear_attention is None
    prompt = min(req.prompt_len or context, context)
    split_over = lay.tp * lay.stages
    terms: list[Term] = [term("weights", w_gpu - consts / split_over,
                              f"{counts.total / 1e9:.2f}e9 parameters in {fmt.name}" + _kept_16bit(fmt, spec, req))]
    if consts:
        terms.append(term("quant_constants", consts / split_over,
                          f"{fmt.name}: block scales / zero points"))
    terms += extra_terms
    ws = inference_workspace_bytes_per_token(spec) / ws_div
    if req.engine == "vllm":
        step_tokens = min(oh.VLLM_MAX_NUM_BATCHED_TOKENS, max(prompt * batch, 1))
        act = ws * oh.VLLM_MAX_NUM_BATCHED_TOKENS
        logits = oh.VLLM_MAX_NUM_SEQS * spec.vocab_size * 4 / ws_div
        act_why = f"profiled forward of {oh.VLLM_MAX_NUM_BATCHED_TOKENS} tokens (chunked prefill; this step {step_tokens})"
    else:
        act = ws * prompt * batch
        logits = batch * spec.vocab_size * (2 + 4)
        act_why = f"prefill of {prompt} tokens x {batch} sequence(s): widest block's intermediates"
    f = (0.7, 1.5)
    terms.append(term("activations", act, act_why, low=act * f[0], high=act * f[1]))
    terms.append(term("logits", logits, "last-position logits (bf16 + fp32 for sampling)" if req.engine == "hf"
                      else f"sampler logits for up to {oh.VLLM_MAX_NUM_SEQS} sequences, fp32"))
    terms.append(term("cuda_context", oh.CUDA_CONTEXT.point, "CUDA context per process",
                      low=oh.CUDA_CONTEXT.low, high=oh.CUDA_CONTEXT.high, allocated=False))
    terms.append(term("cublas_workspace", oh.CUBLAS_WORKSPACE.point, "cuBLAS/cuDNN workspaces",
                      low=oh.CUBLAS_WORKSPACE.low, high=oh.CUBLAS_WORKSPACE.high))
    if lay.tp > 1 or lay.stages > 1:
        terms.append(term("nccl_buffers", oh.NCCL_BUFFERS.point, "NCCL communicator buffers",
                          low=oh.NCCL_BUFFERS.low, high=oh.NCCL_BUFFERS.high, allocated=False))
    info = {"bpt": bpt, "bpt_gpu": bpt_gpu, "seq": seq_gpu / kv_share if kv_share else 0, "share": kv_share,
            "kv_dtype": kv_dtype,
            "prompt": prompt, "vllm_tokens": None}
    need_kv = seq_gpu * batch
    info["need_kv"] = need_kv
    kv_why = (f"{context} tokens x {batch} sequence(s) x {bpt_gpu:,.0f} B/token" if plain else
              f"{batch} sequence(s) x {seq_gpu:,.0f} B at {context} tokens ({_kv_layers_why(spec)})")
    if req.engine == "vllm":
        terms.append(term("cuda_graphs", oh.VLLM_CUDA_GRAPHS.point, "CUDA graph capture",
                          low=oh.VLLM_CUDA_GRAPHS.low, high=oh.VLLM_CUDA_GRAPHS.high, allocated=False))
        if gpu is not None:
            budget = req.gpu_memory_utilization * usable_bytes(gpu)
            pool = max(0.0, budget - sum(t.bytes for t in terms))
            if plain:
                info["vllm_tokens"] = int(pool // bpt_gpu) if bpt_gpu else None
            else:  # windows and states do not grow with the context: count whole sequences of this context
                info["vllm_tokens"] = int(pool // seq_gpu) * context if seq_gpu else None
            info["pool_ok"] = pool >= need_kv and pool > 0
            terms.append(term("kv_cache", pool, f"pre-allocated KV pool: {req.gpu_memory_utilization:g} x capacity "
                              f"less the rest = {info['vllm_tokens']:,} tokens"))
            return terms, info
        terms.append(term("kv_cache", need_kv, kv_why))
        return terms, info
    terms.append(term("kv_cache", need_kv, f"{kv_why} ({kv_dtype})"))
    dynamic = need_kv + act
    fr = oh.ALLOCATOR_FRAGMENTATION
    terms.append(term("allocator_fragmentation", dynamic * fr.point,
                      f"caching-allocator gap, {fr.point:.0%} of KV cache + activations",
                      low=dynamic * fr.low, high=dynamic * fr.high, allocated=False))
    return terms, info


def _engine_extras(req: InferenceMemoryRequest, counts, fmt, kv_dtype: str, lay: _Layout) -> tuple[list[Term], float]:
    """Memory engines add and nobody sizes: speculative decoding (draft weights or EAGLE/MTP layers, and their KV
    cache in the same pool) and multi-LoRA slots (vLLM allocates max_loras slots at max_lora_rank for every
    wrapped linear at start). Returns (terms per GPU, extra KV bytes per token for the whole model)."""
    from tools.params import attention_linears, mlp_linears

    spec = req.model
    split = lay.tp * lay.stages
    out: list[Term] = []
    extra_bpt = 0.0
    h = spec.hidden_size
    if req.speculative == "draft":
        d = req.draft_model
        dc = count_parameters(d)
        out.append(term("speculative_draft", dc.total * 2 / split,
                        f"draft model {d.id}: {dc.total / 1e9:.2f}e9 parameters in 16-bit, sharded like the target"))
        extra_bpt = kv_cache_bytes_per_token(d, kv_dtype)
    elif req.speculative in ("eagle", "mtp"):
        per_layer = counts.largest_layer if req.speculative == "mtp" else (
            (counts.attention // max(1, spec.num_layers)) + 3 * h * spec.intermediate_size)
        params = req.mtp_layers * (per_layer + 2 * h * h + 2 * h)  # + the fc/eh_proj joining embedding and hidden
        size = fmt.bytes if req.speculative == "mtp" and fmt.bits < 16 else 2.0
        what = (f"{req.mtp_layers} MTP layer(s) of {spec.id} (one decoder layer + 2h x h projection each)"
                if req.speculative == "mtp" else f"EAGLE head: {req.mtp_layers} dense decoder layer(s) + 2h x h fc")
        out.append(term("speculative_layers", params * size / split, f"{what}: {params / 1e9:.2f}e9 parameters; "
                        "embeddings and LM head shared with the target"))
        extra_bpt = req.mtp_layers * kv_layer_bytes_per_token(spec, kv_dtype)
    if req.max_loras:
        r = req.max_lora_rank
        per_slot = sum(r * (lin.in_features + lin.out_features) * lin.per_layer * lin.layers
                       for lin in attention_linears(spec) + mlp_linears(spec) if not lin.expert)
        out.append(term("lora_slots", req.max_loras * per_slot * 2 / lay.tp,
                        f"{req.max_loras} LoRA slot(s) x rank {r} on every attention and dense MLP projection: "
                        f"{per_slot / 1e6:.1f}M parameters per slot, 16-bit (vLLM allocates them at start)"))
    return out, extra_bpt


def _kept_16bit(fmt, spec: ModelSpec, req: InferenceMemoryRequest) -> str:
    if fmt.bits >= 16:
        return ""
    if fmt.scope == "all":
        return " (whole-file average, embeddings included; norms in F32)"
    if fmt.scope == "experts" and spec.moe is not None:
        return " (MoE experts; attention, embeddings, router and norms kept in 16-bit)"
    return "" if req.quantize_embeddings else " (embeddings and LM head kept in 16-bit)"


def _kv_layers_why(spec: ModelSpec) -> str:
    parts = []
    if spec.full_attention_layers:
        parts.append(f"{spec.full_attention_layers} full-attention layers grow with the context")
    if spec.sliding_window is not None:
        sw = spec.sliding_window
        parts.append(f"{sw.layers} layers hold at most {sw.window:,} tokens ({'chunked' if sw.kind == 'chunked' else 'sliding window'})")
    if spec.linear_attention is not None:
        parts.append(f"{spec.linear_attention.layers} linear-attention layers hold a fixed state")
    return "; ".join(parts)


def _fits(req: InferenceMemoryRequest, lay: _Layout, context: int, batch: int, gpu: GPU) -> bool:
    terms, info = _terms(req, lay, context, batch, gpu)
    if req.engine == "vllm":
        return bool(info["pool_ok"])
    return sum(t.bytes for t in terms) <= usable_bytes(gpu)


def _largest(ok, hi: int) -> int | None:
    """Largest x in [1, hi] with ok(x), for monotone ok; None if ok(1) is false."""
    if not ok(1):
        return None
    lo = 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid - 1)
    return lo


def estimate_inference_memory(req: InferenceMemoryRequest) -> InferenceMemory:
    """Per-GPU serving memory with fit, minimum GPU count, longest context and largest batch."""
    spec = req.model
    context = req.context or min(DEFAULT_CONTEXT, spec.max_context)
    lay = _layout(req, req.num_gpus)
    if lay is None:
        raise ValueError(f"{req.num_gpus} GPUs can split {spec.id} neither by tensor parallelism "
                         f"({spec.num_attention_heads} heads) nor by layers ({spec.num_layers})")
    terms, info = _terms(req, lay, context, req.batch, req.gpu)
    breakdown, per_gpu = rounded_gb(terms)
    fits = min_gpus = max_context = max_batch = None
    notes_extra: list[str] = []
    gpu = req.gpu
    if gpu is not None:
        fits = _fits(req, lay, context, req.batch, gpu)
        for n in range(1, MAX_GPUS + 1 if gpu.vendor != "Apple" else 2):  # a Mac has one GPU
            cand = _layout(req.model_copy(update={"split": "auto"}), n)
            if cand is not None and _fits(req, cand, context, req.batch, gpu):
                min_gpus = n
                break
        if min_gpus is None and gpu.vendor != "Apple":
            # beyond the layouts searched: the total over what each GPU can hold, a lower bound (said)
            total = sum(weight_bytes(count_parameters(spec), req.fmt, quantize_embeddings=req.quantize_embeddings,
                                     double_quant=False)) + info["seq"] * req.batch
            min_gpus = max(MAX_GPUS + 1, math.ceil(total / (0.9 * usable_bytes(gpu))))
            notes_extra.append(f"at least {min_gpus:,} GPUs: more than the {MAX_GPUS:,} whose layouts are checked, so this "
                               "is the weights and KV cache over 90% of each GPU's usable memory (a lower bound)")
        if req.engine == "vllm":
            tokens = info["vllm_tokens"] or 0
            max_context = tokens or None
            max_batch = tokens // context or None
        else:
            # a prompt prefilled in chunks (prompt_len set) keeps its chunk at every length; else the whole context
            max_context = _largest(lambda c: _fits(req, lay, c, 1, gpu), MAX_CONTEXT_SEARCH)
            max_batch = _largest(lambda b: _fits(req, lay, context, b, gpu), 100_000)
    return InferenceMemory(
        native_precision=spec.native_precision, precision=req.fmt,
        precision_options=precision_options(req) if gpu is not None else [],
        kv_cache_bytes_per_sequence=int(info["seq"]),
        model=spec.id, gpu=gpu.id if gpu else None, num_gpus=req.num_gpus, engine=req.engine,
        layout={"split": lay.split, "tp": lay.tp, "stages": lay.stages, "context": context, "batch": req.batch,
                "kv_dtype": info["kv_dtype"]},
        per_gpu_gb=per_gpu, breakdown_gb=breakdown,
        range_gb=(round(sum(t.low_bytes for t in terms) / GB, 2), round(sum(t.high_bytes for t in terms) / GB, 2)),
        allocated_gb=round(sum(t.bytes for t in terms if t.allocated) / GB, 4),
        usable_gb=round(usable_bytes(gpu) / GB, 2) if gpu else None,
        fits=fits, min_gpus=min_gpus, kv_cache_bytes_per_token=info["bpt"],
        kv_cache_gb=round(info["seq"] * info["share"] * req.batch / GB, 4),
        kv_cache_total_gb=round(info["seq"] * req.batch / GB, 4),
        weights_total_gb=round(sum(weight_bytes(count_parameters(spec), req.fmt,
                                                quantize_embeddings=req.quantize_embeddings, double_quant=False)) / GB, 3),
        max_context=max_context, max_batch=max_batch, vllm_kv_cache_tokens=info["vllm_tokens"],
        terms=terms, assumptions=_assumptions(req, lay, context, info, max_context) + notes_extra,
    )


def precision_options(req: InferenceMemoryRequest) -> list[dict]:
    """The weight formats worth trying on these GPUs, best first, each with its per-GPU memory and fit."""
    out = []
    for fmt_id, note in precision_ladder(req.model.native_precision, req.gpu, req.precision):
        alt = req.model_copy(update={"precision": fmt_id})
        lay = _layout(alt, alt.num_gpus)
        if lay is None:
            continue
        terms, info = _terms(alt, lay, alt.context or min(DEFAULT_CONTEXT, alt.model.max_context), alt.batch, alt.gpu)
        # what the request needs (a pre-allocating engine's pool is counted at the KV cache it must hold)
        need = sum(t.bytes for t in terms if t.name != "kv_cache") + info["need_kv"]
        out.append({"precision": fmt_id, "per_gpu_gb": round(need / GB, 2),
                    "fits": _fits(alt, lay, alt.context or min(DEFAULT_CONTEXT, alt.model.max_context), alt.batch, alt.gpu),
                    "native": fmt_id == req.model.native_precision, "note": note})
    return out


def _assumptions(req: InferenceMemoryRequest, lay: _Layout, context: int, info: dict, max_context: int | None) -> list[str]:
    spec = req.model
    out: list[str] = []
    if req.context is None:
        out.append(f"context {context} tokens per sequence (default; --context)")
    out.append(f"{req.batch} concurrent sequence(s) (--batch); prefill of {info['prompt']} tokens at once"
               + (" (default: the whole context; --prompt-len)" if req.prompt_len is None else ""))
    fmt = weight_format(req.fmt)
    out.append(f"weights in {fmt.name}" + (f" (the checkpoint's own format; --precision)" if req.precision is None
                                           and spec.native_precision != "bf16" else "" if req.precision else
                                           " (the checkpoint's own; --precision)")
               + f", KV cache in {info['kv_dtype']}" + ("" if req.kv_dtype else " (default)"))
    if fmt.id in ("int4", "awq", "gptq"):
        out.append(f"{fmt.id} = 4-bit with group size 128: fp16 scale + 4-bit zero per group (+3.9%)")
    if fmt.family == "gguf":
        out.append(f"{fmt.name}: {fmt.bits:g} bits per weight, the published whole-file average ({fmt.source.split(';')[0]})")
    if fmt.id in ("mxfp4", "nvfp4"):
        out.append(f"{fmt.name}: {fmt.bits:g} bits per weight incl. block scales ({fmt.source.split(':')[0]})")
    if fmt.id == "fp8" and req.gpu is not None and req.gpu.fp8_dense_tflops is None:
        out.append(f"{req.gpu.name} has no FP8 tensor cores: FP8 checkpoints run there as weight-only W8A16 (e.g. "
                   "vLLM's Marlin kernel): the memory is as computed, the compute stays 16-bit")
    if fmt.id == "nf4":
        out.append("nf4 = bitsandbytes 4-bit, 64-value blocks, no double quantization (its default)")
    if spec.mla is not None:
        out.append("MLA: the compressed latent (kv_lora_rank + rope dim) is cached, as in vLLM/SGLang; Hugging Face "
                   "transformers caches decompressed K and V, ~70x more per token; under TP every GPU holds the full latent")
    if spec.moe is not None:
        out.append("MoE: every expert's weights are resident; compute uses the active parameters only")
    if lay.split == "tp":
        out.append(f"tensor parallel over {lay.tp} GPUs (divides the {spec.num_attention_heads} heads)"
                   + ("; KV heads replicated where TP exceeds them" if lay.tp > spec.num_kv_heads and spec.mla is None else ""))
    elif lay.split == "layers":
        out.append(f"layers split over {lay.stages} GPUs (as HF device_map='auto' or vLLM pipeline parallelism); "
                   "the busiest GPU is reported")
    elif lay.split == "tp+pp":
        out.append(f"{lay.stages} pipeline stages of {lay.tp}-way tensor parallelism (TP within a node, PP across "
                   "nodes); the busiest GPU is reported")
    if req.engine == "hf":
        out.append("Hugging Face generate(): logits for the last position only (transformers >= 4.45); older versions "
                   "materialised fp32 logits for the whole prompt")
    else:
        out.append(f"vLLM: pre-allocates {req.gpu_memory_utilization:g} x capacity; activation profile of "
                   f"{oh.VLLM_MAX_NUM_BATCHED_TOKENS} batched tokens; the rest becomes KV-cache blocks")
        if req.gpu is not None:
            tokens = info["vllm_tokens"] or 0
            budget = req.gpu_memory_utilization * usable_bytes(req.gpu) / GB
            if tokens <= 0:
                out.append(f"vLLM: weights + activations exceed its {budget:.1f} GB budget per GPU: no room for KV cache")
            else:
                out.append(f"vLLM: weights + activations fit its {budget:.1f} GB budget per GPU; the KV pool holds "
                           f"{tokens:,} tokens = {tokens // context:,} sequence(s) of {context:,} tokens")
    if max_context and max_context > spec.max_context:
        out.append(f"the hardware holds {max_context:,} tokens but {spec.name} is trained for {spec.max_context:,}")
    if req.gpu is not None and req.gpu.usable_share is not None:
        out.append(f"{req.gpu.name}: {usable_bytes(req.gpu) / GB:.1f} GB of {req.gpu.memory_bytes / GB:.1f} GB unified memory "
                   f"usable by the GPU ({req.gpu.usable_share:.0%}, macOS's default wired limit; `sudo sysctl "
                   "iogpu.wired_limit_mb=N` raises it, then pass --gpu NGB)")
    elif req.gpu is not None:
        out.append(f"{req.gpu.name}: {usable_bytes(req.gpu) / GB:.1f} GB usable of {req.gpu.memory_bytes / GB:.1f} GB reported")
    return out


class Capacity(BaseModel):
    """How many sequences one serving layout holds at once, without searching other GPU counts."""

    layout: dict[str, int | str]
    sequences: int = Field(description="concurrent sequences of `context` tokens that fit (0: the model does not fit)")
    kv_pool_tokens: int | None = Field(description="pre-allocating engines: tokens the KV pool holds, whole model")
    per_gpu_gb: float = Field(description="memory per GPU at that many sequences (pre-allocating: the engine's share)")
    breakdown_gb: dict[str, float]
    terms: list[Term]


def serving_capacity(req: InferenceMemoryRequest) -> Capacity:
    """Concurrent sequences of req.context tokens that req.num_gpus GPUs hold in req's layout (vllm: the pool
    after weights, profiled activations and graphs; hf: the largest batch that fits)."""
    if req.gpu is None:
        raise ValueError("serving capacity needs a GPU")
    lay = _layout(req, req.num_gpus)
    if lay is None:
        raise ValueError(f"{req.num_gpus} GPUs cannot split {req.model.id}")
    context = req.context or min(DEFAULT_CONTEXT, req.model.max_context)
    if req.engine == "vllm":
        terms, info = _terms(req, lay, context, 1, req.gpu)
        tokens = info["vllm_tokens"] or 0
        seqs = tokens // context if info["seq"] else 0
    else:
        seqs = _largest(lambda b: _fits(req, lay, context, b, req.gpu), 100_000) or 0
        terms, info = _terms(req, lay, context, max(seqs, 1), req.gpu)
        tokens = None
    breakdown, per_gpu = rounded_gb(terms)
    return Capacity(layout={"split": lay.split, "tp": lay.tp, "stages": lay.stages, "context": context},
                    sequences=int(seqs), kv_pool_tokens=tokens, per_gpu_gb=per_gpu, breakdown_gb=breakdown, terms=terms)
