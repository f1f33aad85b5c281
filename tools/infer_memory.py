"""GPU memory per device for inference: weights, KV cache, prefill workspace and overheads.

KV cache per token = 2 (K and V) x layers x KV heads x head dim x bytes for MHA/GQA/MQA; MLA
(DeepSeek-V2/V3) caches one compressed latent per layer, (kv_lora_rank + rope head dim) x bytes,
as vLLM, SGLang and DeepSeek's own inference code do. Two engines:
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
from tools.memory import Term, rounded_gb, term, usable_bytes, weight_bytes
from tools.params import count_parameters
from tools.units import GB, dtype_bytes

WeightFormat = Literal["bf16", "fp16", "fp8", "int8", "int4", "nf4"]
DEFAULT_CONTEXT = 4096
MAX_GPUS = 1024
MAX_CONTEXT_SEARCH = 1 << 27


class InferenceMemoryRequest(BaseModel):
    """What to serve: a model, a weight format, context and concurrency, and optionally the hardware."""

    model_config = ConfigDict(extra="forbid")
    model: ModelSpec
    gpu: GPU | None = None
    num_gpus: int = Field(1, ge=1, le=MAX_GPUS)
    precision: WeightFormat = "bf16"
    kv_dtype: Literal["bf16", "fp16", "fp8"] | None = Field(None, description="default: fp16 for fp16 weights, else bf16")
    context: int | None = Field(None, ge=1, le=MAX_CONTEXT_SEARCH, description="tokens per sequence (prompt + output)")
    prompt_len: int | None = Field(None, ge=1, le=MAX_CONTEXT_SEARCH, description="tokens prefilled at once; default = context")
    batch: int = Field(1, ge=1, le=100_000, description="concurrent sequences")
    engine: Literal["hf", "vllm"] = "hf"
    gpu_memory_utilization: float = Field(oh.VLLM_GPU_MEMORY_UTILIZATION, gt=0, le=1)
    split: Literal["auto", "tp", "layers"] = "auto"
    quantize_embeddings: bool = Field(False, description="quantize embeddings and LM head too (pure params x bytes)")

    @model_validator(mode="after")
    def _check(self) -> InferenceMemoryRequest:
        if self.prompt_len and self.context and self.prompt_len > self.context:
            raise ValueError(f"--prompt-len {self.prompt_len} exceeds --context {self.context}")
        if self.split == "tp" and not _tp_ok(self.model, self.num_gpus):
            raise ValueError(f"tensor parallel {self.num_gpus} needs a degree that divides the "
                             f"{self.model.num_attention_heads} heads and fits the {self.model.num_kv_heads} KV heads")
        if self.split == "layers" and self.num_gpus > self.model.num_layers:
            raise ValueError(f"{self.num_gpus} GPUs exceed the {self.model.num_layers} layers to split")
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
    kv_cache_bytes_per_token: int = Field(description="whole model, all layers, one token")
    kv_cache_gb: float = Field(description="KV cache of the requested sequences on one GPU")
    kv_cache_total_gb: float = Field(description="KV cache of the requested sequences, whole model (all GPUs)")
    weights_total_gb: float = Field(description="all weights in the requested format, whole model (all GPUs)")
    max_context: int | None = Field(description="longest single sequence that fits the given hardware")
    max_batch: int | None = Field(description="most concurrent sequences of --context tokens that fit")
    vllm_kv_cache_tokens: int | None = None
    terms: list[Term]
    assumptions: list[str]


def _tp_ok(spec: ModelSpec, t: int) -> bool:
    if spec.num_attention_heads % t:
        return False
    return spec.mla is not None or spec.num_kv_heads % t == 0 or t % spec.num_kv_heads == 0


def kv_cache_bytes_per_token(spec: ModelSpec, kv_dtype: str) -> int:
    """KV-cache bytes per token for the whole model."""
    b = dtype_bytes(kv_dtype)
    if spec.mla is not None:
        return int(spec.num_layers * (spec.mla.kv_lora_rank + spec.mla.qk_rope_head_dim) * b)
    return int(2 * spec.num_layers * spec.num_kv_heads * spec.head_dim * b)


class _Layout(BaseModel):
    split: str
    tp: int
    stages: int


def _layout(req: InferenceMemoryRequest, n: int) -> _Layout | None:
    if n == 1:
        return _Layout(split="single", tp=1, stages=1)
    if req.split in ("auto", "tp") and _tp_ok(req.model, n):
        return _Layout(split="tp", tp=n, stages=1)
    if req.split in ("auto", "layers") and n <= req.model.num_layers:
        return _Layout(split="layers", tp=1, stages=n)
    return None


def _terms(req: InferenceMemoryRequest, lay: _Layout, context: int, batch: int, gpu: GPU | None) -> tuple[list[Term], dict]:
    spec = req.model
    counts = count_parameters(spec)
    kv_dtype = req.kv_dtype or ("fp16" if req.precision == "fp16" else "bf16")
    q, rest, consts = weight_bytes(counts, req.precision, quantize_embeddings=req.quantize_embeddings,
                                   double_quant=False)
    total_w = q + rest + consts
    L = spec.num_layers
    if lay.split == "layers":
        embed_b = (counts.embedding + counts.lm_head) * (2.0 if not req.quantize_embeddings else dtype_bytes(req.precision))
        per_layer_w = (total_w - embed_b) / L
        layers_here = math.ceil(L / lay.stages)
        w_gpu = layers_here * per_layer_w + embed_b / (1 if spec.tie_embeddings else 2)
        kv_share = layers_here / L
        ws_div = 1
    else:
        w_gpu = total_w / lay.tp
        layers_here = L
        kv_heads_here = 1 if spec.mla is not None else max(1, spec.num_kv_heads // lay.tp) / spec.num_kv_heads
        kv_share = 1.0 if spec.mla is not None else kv_heads_here
        ws_div = lay.tp
    bpt = kv_cache_bytes_per_token(spec, kv_dtype)
    bpt_gpu = bpt * kv_share
    prompt = min(req.prompt_len or context, context)
    terms: list[Term] = [term("weights", w_gpu - consts / (lay.tp if lay.split != "layers" else lay.stages),
                              f"{counts.total / 1e9:.2f}e9 parameters in {req.precision}"
                              + ("" if dtype_bytes(req.precision) >= 2 or req.quantize_embeddings else
                                 " (embeddings and LM head kept in 16-bit)"))]
    if consts:
        terms.append(term("quant_constants", consts / (lay.tp if lay.split != "layers" else lay.stages),
                          "per-group scales and zero points" if req.precision == "int4" else "NF4 block constants"))
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
    info = {"bpt": bpt, "bpt_gpu": bpt_gpu, "kv_dtype": kv_dtype, "prompt": prompt, "vllm_tokens": None}
    need_kv = bpt_gpu * context * batch
    if req.engine == "vllm":
        terms.append(term("cuda_graphs", oh.VLLM_CUDA_GRAPHS.point, "CUDA graph capture",
                          low=oh.VLLM_CUDA_GRAPHS.low, high=oh.VLLM_CUDA_GRAPHS.high, allocated=False))
        if gpu is not None:
            budget = req.gpu_memory_utilization * usable_bytes(gpu)
            pool = max(0.0, budget - sum(t.bytes for t in terms))
            info["vllm_tokens"] = int(pool // bpt_gpu) if bpt_gpu else None
            info["pool_ok"] = pool >= need_kv and pool > 0
            terms.append(term("kv_cache", pool, f"pre-allocated KV pool: {req.gpu_memory_utilization:g} x capacity "
                              f"less the rest = {info['vllm_tokens']:,} tokens"))
            return terms, info
        terms.append(term("kv_cache", need_kv, f"{context} tokens x {batch} sequence(s) x {bpt_gpu:,.0f} B/token"))
        return terms, info
    terms.append(term("kv_cache", need_kv, f"{context} tokens x {batch} sequence(s) x {bpt_gpu:,.0f} B/token ({kv_dtype})"))
    dynamic = need_kv + act
    fr = oh.ALLOCATOR_FRAGMENTATION
    terms.append(term("allocator_fragmentation", dynamic * fr.point,
                      f"caching-allocator gap, {fr.point:.0%} of KV cache + activations",
                      low=dynamic * fr.low, high=dynamic * fr.high, allocated=False))
    return terms, info


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
    gpu = req.gpu
    if gpu is not None:
        fits = _fits(req, lay, context, req.batch, gpu)
        for n in range(1, MAX_GPUS + 1):
            cand = _layout(req.model_copy(update={"split": "auto"}), n)
            if cand is not None and _fits(req, cand, context, req.batch, gpu):
                min_gpus = n
                break
        if req.engine == "vllm":
            tokens = info["vllm_tokens"] or 0
            max_context = tokens or None
            max_batch = tokens // context or None
        else:
            max_context = _largest(lambda c: _fits(req.model_copy(update={"prompt_len": None}), lay, c, 1, gpu),
                                   MAX_CONTEXT_SEARCH)
            max_batch = _largest(lambda b: _fits(req, lay, context, b, gpu), 100_000)
    return InferenceMemory(
        model=spec.id, gpu=gpu.id if gpu else None, num_gpus=req.num_gpus, engine=req.engine,
        layout={"split": lay.split, "tp": lay.tp, "stages": lay.stages, "context": context, "batch": req.batch,
                "kv_dtype": info["kv_dtype"]},
        per_gpu_gb=per_gpu, breakdown_gb=breakdown,
        range_gb=(round(sum(t.low_bytes for t in terms) / GB, 2), round(sum(t.high_bytes for t in terms) / GB, 2)),
        allocated_gb=round(sum(t.bytes for t in terms if t.allocated) / GB, 4),
        usable_gb=round(usable_bytes(gpu) / GB, 2) if gpu else None,
        fits=fits, min_gpus=min_gpus, kv_cache_bytes_per_token=info["bpt"],
        kv_cache_gb=round(info["bpt_gpu"] * context * req.batch / GB, 4),
        kv_cache_total_gb=round(info["bpt"] * context * req.batch / GB, 4),
        weights_total_gb=round(sum(weight_bytes(count_parameters(spec), req.precision,
                                                quantize_embeddings=req.quantize_embeddings, double_quant=False)) / GB, 3),
        max_context=max_context, max_batch=max_batch, vllm_kv_cache_tokens=info["vllm_tokens"],
        terms=terms, assumptions=_assumptions(req, lay, context, info, max_context),
    )


def _assumptions(req: InferenceMemoryRequest, lay: _Layout, context: int, info: dict, max_context: int | None) -> list[str]:
    spec = req.model
    out: list[str] = []
    if req.context is None:
        out.append(f"context {context} tokens per sequence (default; --context)")
    out.append(f"{req.batch} concurrent sequence(s) (--batch); prefill of {info['prompt']} tokens at once"
               + (" (default: the whole context; --prompt-len)" if req.prompt_len is None else ""))
    out.append(f"weights in {req.precision}, KV cache in {info['kv_dtype']}"
               + ("" if req.kv_dtype else " (default)"))
    if req.precision == "int4":
        out.append("int4 = AWQ/GPTQ with group size 128: fp16 scale + 4-bit zero per group (+3.9%)")
    if req.precision == "fp8" and req.gpu is not None and req.gpu.fp8_dense_tflops is None:
        out.append(f"{req.gpu.name} has no FP8 tensor cores: FP8 checkpoints run there as weight-only W8A16 (e.g. "
                   "vLLM's Marlin kernel): the memory is as computed, the compute stays 16-bit")
    if req.precision == "nf4":
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
    if req.gpu is not None:
        out.append(f"{req.gpu.name}: {usable_bytes(req.gpu) / GB:.1f} GB usable of {req.gpu.memory_bytes / GB:.1f} GB reported")
    return out
