"""GPU memory per device for training and fine-tuning: full, LoRA and QLoRA.

Model states follow ZeRO (Rajbhandari et al. 2020, arXiv 1910.02054): with mixed-precision Adam
each parameter costs 2 (bf16 weight) + 2 (bf16 gradient) + 4 (fp32 master) + 8 (fp32 moments)
= 16 bytes, sharded over the data-parallel ranks by stage (1: optimizer states and master
weights, 2: + gradients, 3: + weights). Activations follow tools/activations.py (Korthikanti et
al. 2022); the overheads are the named constants of tools/overheads.py.
"""
from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from knowledge.schemas import GPU, ModelSpec
from tools import overheads as oh
from tools.activations import layer_bytes_per_token, lora_extra_bytes_per_token
from tools.memory import Term, rounded_gb, term, usable_bytes, weight_bytes
from tools.params import count_parameters, linear_layers
from tools.states import full_factored_vectors, lora_shapes, optimizer_state_bytes
from tools.units import GB

Method = Literal["full", "lora", "qlora"]
Optimizer = Literal["adamw", "adamw-8bit", "paged-adamw-8bit", "sgd", "adafactor"]
Recompute = Literal["none", "selective", "full"]

DEFAULT_SEQ_LEN = 2048
DEFAULT_MICRO_BATCH = 1
DEFAULT_LORA_RANK = 16
MAX_GPUS = 131072


def layout_problem(m: ModelSpec, tp: int, pp: int, num_gpus: int) -> str | None:
    """Why a tensor/pipeline layout cannot run this model, or None (shared by the memory and time estimators)."""
    if m.num_attention_heads % tp:
        return f"--tp {tp} must divide the {m.num_attention_heads} attention heads of {m.id}"
    if tp > 1 and m.num_kv_heads % tp and tp % m.num_kv_heads:
        return f"--tp {tp} and the {m.num_kv_heads} KV heads of {m.id}: one must divide the other"
    if pp > m.num_layers:
        return f"--pp {pp} exceeds the {m.num_layers} layers of {m.id}"
    if num_gpus % (tp * pp):
        return f"--num-gpus {num_gpus} must be a multiple of tp x pp = {tp * pp}"
    return None


class TrainingMemoryRequest(BaseModel):
    """What to size: a model, a method and the parallel layout. None means 'use the default'."""

    model_config = ConfigDict(extra="forbid")
    model: ModelSpec
    gpu: GPU | None = None
    method: Method = "full"
    precision: Literal["mixed", "bf16", "fp32"] = "mixed"
    optimizer: Optimizer = "adamw"
    grad_dtype: Literal["bf16", "fp32"] | None = Field(None, description="default: fp32 for fp32 precision, else bf16")
    master_weights: Literal["fp32", "none"] | None = Field(None, description="default: fp32 for mixed precision")
    zero: int | None = Field(None, ge=0, le=3, description="default: 3 when more than one GPU or offloading, else 0")
    offload: Literal["none", "optimizer", "all"] = "none"
    num_gpus: int = Field(1, ge=1, le=MAX_GPUS)
    tp: int = Field(1, ge=1)
    pp: int = Field(1, ge=1)
    ep: int | None = Field(None, ge=1, description="expert parallelism (MoE): each GPU holds 1/ep of every MoE layer's "
                           "routed experts; default: the largest count that divides the experts and is at most the "
                           "data-parallel GPUs (Megatron-LM / DeepSpeed-MoE); 1 = every GPU holds all experts")
    micro_batch: int | None = Field(None, ge=1, le=4096)
    seq_len: int | None = Field(None, ge=1, le=10_000_000)
    recompute: Recompute | None = None
    flash_attention: bool = True
    lora_rank: int | None = Field(None, ge=1, le=4096)
    lora_targets: list[str] | None = Field(None, description="module names such as q_proj; None = all linear layers")
    lora_dropout: bool = Field(False, description="lora_dropout > 0 (PEFT default 0.0; many recipes use 0.05)")
    double_quant: bool = True
    optimizer_in_backward: bool = Field(False, description="step each parameter inside backward (torchtune)")
    loss: Literal["hf", "chunked"] = "hf"

    @model_validator(mode="after")
    def _layout(self) -> TrainingMemoryRequest:
        m = self.model
        problem = layout_problem(m, self.tp, self.pp, self.num_gpus)
        if problem:
            raise ValueError(problem)
        if self.offload == "all" and self.zero not in (None, 3):
            raise ValueError("--offload all (parameters to CPU) needs ZeRO-3; use --zero 3 or --offload optimizer")
        if self.offload != "none" and self.zero == 0:
            raise ValueError("CPU offload needs ZeRO stage 1-3; use --zero 2 or 3")
        if self.ep is not None and self.ep > 1:
            if m.moe is None:
                raise ValueError(f"--ep {self.ep}: {m.id} is dense; expert parallelism needs an MoE model")
            dp = self.num_gpus // (self.tp * self.pp)
            if m.moe.routed_experts % self.ep or dp % self.ep:
                raise ValueError(f"--ep {self.ep} must divide the {m.moe.routed_experts} routed experts of {m.id} and the "
                                 f"{dp} data-parallel GPUs")
        if self.optimizer_in_backward and (self.zero or 0) > 0:
            raise ValueError("optimizer-in-backward works without ZeRO sharding (single-device recipes)")
        if self.method != "full" and self.lora_targets is not None:
            names = {lin.name.split(".")[-1] for lin in linear_layers(m)}
            bad = [t for t in self.lora_targets if t not in names]
            if bad:
                raise ValueError(f"LoRA target(s) {', '.join(bad)} not in {m.id}; its linear layers: {', '.join(sorted(names))}")
        return self


class TrainingMemory(BaseModel):
    """Per-GPU memory for one configuration, term by term, with the answer to 'does it fit'."""

    model: str
    method: Method
    gpu: str | None
    num_gpus: int
    layout: dict[str, int | str]
    per_gpu_gb: float
    breakdown_gb: dict[str, float]
    range_gb: tuple[float, float]
    allocated_gb: float = Field(description="the part PyTorch's memory counters see (no CUDA context, NCCL or allocator gap)")
    usable_gb: float | None
    fits: bool | None
    min_gpus: int | None
    host_ram_gb: float
    host_breakdown_gb: dict[str, float]
    states_total_gb: float | None = Field(None, description="full training: weights, gradients, master weights and "
                                          "optimizer states of the whole model before any sharding (GB)")
    trainable_params: int
    total_params: int
    terms: list[Term]
    assumptions: list[str]


class _Plan(BaseModel):
    """A request with every default filled in."""

    req: TrainingMemoryRequest
    num_gpus: int
    zero: int
    seq_len: int
    micro_batch: int
    recompute: Recompute
    lora_rank: int
    ep: int
    grad_bytes: float
    master_bytes: float
    weight_bytes: float
    state_dtype_bytes: float


def default_ep(spec: ModelSpec, dp: int) -> int:
    """Expert parallelism for an MoE model on `dp` data-parallel GPUs: the largest count that divides the routed
    experts and is at most the GPUs (every GPU then holds experts/ep of each MoE layer, none gathered whole). Frameworks
    also want it to divide the GPUs; an odd count runs as the nearest one below, which memory does not tell apart."""
    if spec.moe is None or dp <= 1:
        return 1
    e = spec.moe.routed_experts
    return max(d for d in range(1, min(e, dp) + 1) if e % d == 0)


def _plan(req: TrainingMemoryRequest, num_gpus: int) -> _Plan:
    zero = req.zero if req.zero is not None else (3 if num_gpus > 1 or req.offload != "none" else 0)
    default_recompute: Recompute = "selective" if (req.method == "full" and req.tp > 1) else "full"
    fp32 = req.precision == "fp32"
    grad = req.grad_dtype or ("fp32" if fp32 else "bf16")
    master = req.master_weights or ("fp32" if req.precision == "mixed" else "none")
    return _Plan(
        req=req, num_gpus=num_gpus, zero=zero, ep=(math.gcd(req.ep, max(1, num_gpus // (req.tp * req.pp))) if req.ep
                                                else default_ep(req.model, num_gpus // (req.tp * req.pp))),
        seq_len=req.seq_len or DEFAULT_SEQ_LEN, micro_batch=req.micro_batch or DEFAULT_MICRO_BATCH,
        recompute=req.recompute or default_recompute, lora_rank=req.lora_rank or DEFAULT_LORA_RANK,
        grad_bytes=4.0 if grad == "fp32" else 2.0,
        master_bytes=4.0 if (master == "fp32" and not fp32) else 0.0,
        weight_bytes=4.0 if fp32 else 2.0,
        state_dtype_bytes=2.0 if req.precision == "bf16" else 4.0,
    )


_INPUT_ROLES = {"q_proj": "qkv", "k_proj": "qkv", "v_proj": "qkv", "q_a_proj": "qkv", "kv_a_proj_with_mqa": "qkv",
                "gate_proj": "mlp_in", "up_proj": "mlp_in", "down_proj": "down_in"}


def _frozen_inputs(req: TrainingMemoryRequest) -> frozenset[str]:
    """Matrix inputs that no adapter needs: frozen weights need no input for their (absent) gradient."""
    if req.lora_targets is None:
        return frozenset()
    needed = {_INPUT_ROLES.get(t) for t in req.lora_targets}
    return frozenset({"qkv", "mlp_in", "down_in"} - needed)


def _terms(p: _Plan) -> tuple[list[Term], int, list[str]]:
    """(terms, trainable parameters, notes) for a plan."""
    req, spec = p.req, p.req.model
    counts = count_parameters(spec)
    mp = req.tp * req.pp
    dp = p.num_gpus // mp
    local = counts.total / mp
    shard = lambda stage: dp if p.zero >= stage else 1
    # expert parallelism: a GPU holds experts/ep of each MoE layer, sharded further over the dp/ep GPUs that hold the
    # same experts; the rest of the model is sharded over all dp (ep = 1: the plain ZeRO arithmetic)
    experts = counts.experts / mp

    def held(stage: int) -> float:
        """Parameters of one state a GPU holds when that state is sharded from ZeRO stage `stage` on."""
        if p.ep == 1:
            return local / shard(stage)
        return (local - experts) / shard(stage) + experts / p.ep / (dp / p.ep if p.zero >= stage else 1)
    offload = req.offload != "none"
    notes: list[str] = []
    terms: list[Term] = []
    host: list[Term] = []
    h = spec.hidden_size

    def put(t: Term, on_host: bool) -> None:
        (host if on_host else terms).append(t.model_copy(update={"place": "host"}) if on_host else t)

    # --- model states ---------------------------------------------------------------
    if req.method == "full":
        trainable = counts.total
        w = term("weights", held(3) * p.weight_bytes,
                 f"{counts.total / 1e9:.2f}e9 parameters x {p.weight_bytes:g} B" + (f" / {mp} (TP x PP)" if mp > 1 else "")
                 + (f" / {dp} (ZeRO-3)" if p.zero >= 3 and dp > 1 else "")
                 + (f"; the {counts.experts / 1e9:.2f}e9 routed-expert parameters / {p.ep} (EP)" if p.ep > 1 else ""))
        put(w, req.offload == "all")
        if req.optimizer_in_backward:
            largest = max(counts.largest_linear, counts.embedding) / req.tp
            terms.append(term("gradients", largest * p.grad_bytes,
                              "optimizer step inside backward: only the largest tensor's gradient lives at once"))
        else:
            put(term("gradients", held(2) * p.grad_bytes, f"{p.grad_bytes:g} B per parameter"
                     + (f", sharded over {dp} ranks (ZeRO-{p.zero})" if p.zero >= 2 and dp > 1 else "")), offload)
        if p.master_bytes:
            put(term("master_weights", held(1) * p.master_bytes, "fp32 master copy for the optimizer step"),
                offload)
        opt = optimizer_state_bytes(req.optimizer, held(1), p.state_dtype_bytes,
                                    full_factored_vectors(spec) / mp / shard(1))
        paged = req.optimizer == "paged-adamw-8bit"  # bitsandbytes: CUDA unified memory, outside torch's counters
        put(term("optimizer_states", opt, f"{req.optimizer} states" + (" (CUDA unified memory)" if paged else ""),
                 allocated=not paged), offload)
    else:
        lora = lora_shapes(spec, req.lora_targets, p.lora_rank)
        adapter = lora.params
        trainable = adapter
        if req.method == "lora":
            base = term("weights", held(3) * p.weight_bytes,
                        f"frozen base in {'fp32' if p.weight_bytes == 4 else 'bf16'}")
        else:
            q, rest, consts = weight_bytes(counts, "nf4", double_quant=req.double_quant)
            base = term("weights", (q + rest) / mp / shard(3),
                        f"{counts.linear / 1e9:.2f}e9 layer weights in NF4 (0.5 B) + "
                        f"{(counts.total - counts.linear) / 1e9:.2f}e9 embedding/head/norm parameters in bf16")
        put(base, req.offload == "all")
        if req.method == "qlora":
            put(term("quant_constants", consts / mp / shard(3),
                     "NF4 block constants" + (" with double quantization" if req.double_quant else "")),
                req.offload == "all")
            terms.append(term("dequant_buffer", counts.largest_linear * 2 / req.tp,
                              "one layer's weight dequantized to bf16 for its matmul"))
        a_bytes = 2.0 if req.precision == "bf16" else 4.0
        terms.append(term("lora_adapter", adapter * 2 * a_bytes / mp / shard(3),
                          f"{adapter / 1e6:.1f}e6 adapter parameters (rank {p.lora_rank}) and their gradients, "
                          f"{'bf16' if a_bytes == 2 else 'fp32'}"))
        terms.append(term("lora_optimizer_states",
                          optimizer_state_bytes(req.optimizer, adapter, p.state_dtype_bytes, lora.factored_vectors)
                          / mp / shard(1),
                          f"{req.optimizer} states of the adapters", allocated=req.optimizer != "paged-adamw-8bit"))

    # --- communication and gather buffers -------------------------------------------------
    w_bytes = p.weight_bytes if req.method != "qlora" else 2.0
    moe_layers = spec.moe.moe_layers(spec.num_layers) if spec.moe is not None else 0
    remote = counts.experts / moe_layers * (1 - 1 / p.ep) if moe_layers else 0.0  # other GPUs' experts: never gathered
    unit = max(counts.largest_layer - remote, counts.embedding) / req.tp
    if (p.zero >= 3 and dp > 1) or req.offload == "all":
        # DeepSpeed (the default): the module being computed, gathered whole, and at most stage3_max_live_parameters
        # (1e9) kept for reuse: max(unit, 1e9 params). FSDP prefetches the next unit while one computes: two units.
        one_unit = unit * w_bytes
        live = max(one_unit, min(oh.ZERO3_MAX_LIVE_PARAMETERS, local) * w_bytes)
        two_units = (unit + (counts.largest_layer - remote) / req.tp) * w_bytes
        terms.append(term("zero3_gather_buffers", live,
                          "ZeRO-3: the module being computed, gathered whole, and what DeepSpeed keeps live for reuse "
                          "(stage3_max_live_parameters 1e9); FSDP's prefetch of the next unit: up to the high end",
                          low=min(one_unit, live), high=max(live, two_units)))
    if req.method == "full" and not req.optimizer_in_backward:
        if p.zero >= 3 and dp > 1:
            terms.append(term("gradient_buckets", unit * p.grad_bytes, "one layer's full gradients before reduce-scatter"))
        elif (dp > 1 and p.zero in (1, 2)) or offload:
            terms.append(term("gradient_buckets", min(oh.ZERO_REDUCE_BUCKET_ELEMENTS, local) * p.grad_bytes,
                              "DeepSpeed reduce bucket (5e8 elements)"))
    if offload and req.method == "full":
        host.append(term("cpu_adam_fp32_grads", 4 * min(oh.ZERO_OFFLOAD_SUBGROUP_ELEMENTS, local / dp), place="host",
                         why="fp32 copy of one sub-group's gradients for the CPU Adam step (sub_group_size 1e9)"))

    # --- activations and logits -----------------------------------------------------------
    tokens = p.micro_batch * p.seq_len
    keep_core = p.recompute == "none" and not req.flash_attention
    per_layer = layer_bytes_per_token(spec, seq_len=p.seq_len, attention_core=keep_core,
                                      frozen=_frozen_inputs(req) if req.method != "full" else frozenset())
    if req.method != "full":
        per_layer += lora_extra_bytes_per_token(lora.in_features_per_token, lora.rank_elements_per_token,
                                                req.lora_dropout)
    layers_held = math.ceil(spec.num_layers / req.pp) * req.pp  # 1F1B: the first stage holds pp micro-batches
    if p.recompute == "full":
        act = (layers_held * 2 * h + per_layer) * tokens
        how = "full recomputation: each layer's input kept, one layer recomputed at a time"
    else:
        act = layers_held * per_layer * tokens
        how = ("selective recomputation (attention core recomputed)" if p.recompute == "selective"
               else "no recomputation") + (", FlashAttention" if req.flash_attention else ", eager attention")
    act = (act + 2 * 2 * h * tokens) / req.tp  # + the gradient flowing back through the residual stream
    f = oh.ACTIVATION_FACTOR
    terms.append(term("activations", act, f"{how}; {p.micro_batch} x {p.seq_len} tokens"
                      + (f", sequence-parallel over TP {req.tp}" if req.tp > 1 else ""),
                      low=act * f.low, high=act * f.high))
    lb = oh.LOGITS_BYTES_PER_ELEMENT[req.loss]
    n_logits = tokens * spec.vocab_size / req.tp
    terms.append(term("logits", n_logits * lb.point,
                      f"{tokens} tokens x {spec.vocab_size} vocab x {lb.point:g} B ({req.loss} loss)",
                      low=n_logits * lb.low, high=n_logits * lb.high))

    # --- overheads --------------------------------------------------------------------------
    dynamic = sum(t.bytes for t in terms if t.name in (
        "activations", "logits", "zero3_gather_buffers", "gradient_buckets", "dequant_buffer"))
    fr = oh.ALLOCATOR_FRAGMENTATION
    terms += [
        term("cuda_context", oh.CUDA_CONTEXT.point, "CUDA context per process", low=oh.CUDA_CONTEXT.low,
             high=oh.CUDA_CONTEXT.high, allocated=False),
        term("cublas_workspace", oh.CUBLAS_WORKSPACE.point, "cuBLAS/cuDNN workspaces", low=oh.CUBLAS_WORKSPACE.low,
             high=oh.CUBLAS_WORKSPACE.high),
    ]
    if p.num_gpus > 1:
        terms.append(term("nccl_buffers", oh.NCCL_BUFFERS.point, "NCCL communicator buffers",
                          low=oh.NCCL_BUFFERS.low, high=oh.NCCL_BUFFERS.high, allocated=False))
    terms.append(term("allocator_fragmentation", dynamic * fr.point,
                      f"caching-allocator gap, {fr.point:.0%} of the memory allocated and freed each step",
                      low=dynamic * fr.low, high=dynamic * fr.high, allocated=False))

    if req.optimizer == "paged-adamw-8bit" and req.gpu is not None:
        on_gpu = sum(t.bytes for t in terms)
        if on_gpu > usable_bytes(req.gpu):
            for name in ("optimizer_states", "lora_optimizer_states"):
                moved = [t for t in terms if t.name == name]
                if moved:
                    terms.remove(moved[0])
                    host.append(moved[0].model_copy(update={"place": "host"}))
                    notes.append(f"paged 8-bit optimizer: the states ({moved[0].bytes / GB:.1f} GB) do not fit beside "
                                 "the rest and are paged out to host RAM (slower steps)")
    return terms + host, trainable, notes


def _fits(terms: list[Term], gpu: GPU) -> bool:
    return sum(t.bytes for t in terms if t.place == "gpu") <= usable_bytes(gpu)


def min_gpus_for(req: TrainingMemoryRequest) -> int | None:
    """The least GPU count (a multiple of tp x pp) at which the request fits `req.gpu`."""
    assert req.gpu is not None
    step = req.tp * req.pp
    ok = lambda n: _fits(_terms(_plan(req, n))[0], req.gpu)
    for k in range(1, 9):  # small counts one by one (1 -> 2 adds NCCL buffers; not monotone there)
        if ok(k * step):
            return k * step
    lo, hi = 8, 16
    while not ok(hi * step):
        lo, hi = hi, hi * 2
        if hi * step > MAX_GPUS:
            return None
    while hi - lo > 1:  # beyond 8, memory per GPU only falls as GPUs are added
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid * step) else (mid, hi)
    return hi * step


def estimate_training_memory(req: TrainingMemoryRequest) -> TrainingMemory:
    """Per-GPU memory, breakdown, fit and minimum GPU count for a training request."""
    p = _plan(req, req.num_gpus)
    terms, trainable, notes = _terms(p)
    gpu_terms = [t for t in terms if t.place == "gpu"]
    host_terms = [t for t in terms if t.place == "host"]
    breakdown, per_gpu = rounded_gb(gpu_terms)
    host_parts = {t.name: round(t.bytes * p.num_gpus / GB, 4) for t in host_terms}
    fits = _fits(terms, req.gpu) if req.gpu else None
    min_gpus = min_gpus_for(req) if req.gpu else None
    total = count_parameters(req.model).total
    return TrainingMemory(
        model=req.model.id, method=req.method, gpu=req.gpu.id if req.gpu else None, num_gpus=p.num_gpus,
        layout={"dp": p.num_gpus // (req.tp * req.pp), "tp": req.tp, "pp": req.pp, "ep": p.ep, "zero": p.zero,
                "offload": req.offload, "recompute": p.recompute},
        per_gpu_gb=per_gpu, breakdown_gb=breakdown,
        range_gb=(round(sum(t.low_bytes for t in gpu_terms) / GB, 2), round(sum(t.high_bytes for t in gpu_terms) / GB, 2)),
        allocated_gb=round(sum(t.bytes for t in gpu_terms if t.allocated) / GB, 4),
        usable_gb=round(usable_bytes(req.gpu) / GB, 2) if req.gpu else None,
        fits=fits, min_gpus=min_gpus, host_ram_gb=round(sum(host_parts.values()), 2), host_breakdown_gb=host_parts,
        trainable_params=trainable, total_params=total, terms=terms,
        states_total_gb=round((total * (p.weight_bytes + p.grad_bytes + p.master_bytes) + optimizer_state_bytes(
            req.optimizer, total, p.state_dtype_bytes, full_factored_vectors(req.model))) / GB, 2)
        if req.method == "full" else None,
        assumptions=_assumptions(p, notes, min_gpus),
    )


def _assumptions(p: _Plan, notes: list[str], min_gpus: int | None) -> list[str]:
    req = p.req
    out: list[str] = []
    if p.ep > 1:
        moe = req.model.moe
        out.append(f"expert parallelism EP {p.ep}: each GPU holds {moe.routed_experts // p.ep} of the {moe.routed_experts} "
                   "routed experts of every MoE layer, their states sharded over the GPUs holding the same experts"
                   + (" (default: the largest count dividing the experts, at most the data-parallel GPUs, as Megatron-LM "
                      "and DeepSpeed-MoE run MoE training; --ep 1 gathers all experts)" if req.ep is None else ""))
    if req.seq_len is None:
        out.append(f"sequence length {DEFAULT_SEQ_LEN} tokens (default; --seq-len)")
    if req.micro_batch is None:
        out.append(f"micro-batch {DEFAULT_MICRO_BATCH} sequence per GPU (default; --micro-batch)")
    if req.recompute is None:
        if p.recompute == "full":
            out.append("activation recomputation: full (default; with ZeRO/FSDP data parallelism the frameworks "
                       "checkpoint whole layers; --recompute selective|none to change)")
        else:
            out.append("activation recomputation: selective (default for full training with tensor parallelism)")
    if req.zero is None:
        out.append(f"ZeRO stage {p.zero} (default: 3 when more than one GPU or offloading, else 0; --zero)")
    if req.method != "full" and req.lora_rank is None:
        out.append(f"LoRA rank {DEFAULT_LORA_RANK} (default; --lora-rank)")
    if req.method != "full":
        out.append("LoRA on " + (", ".join(req.lora_targets) if req.lora_targets else "all linear layers (default)")
                   + (", lora_dropout > 0" if req.lora_dropout else ""))
    if req.method == "full":
        w, g, m = p.weight_bytes, p.grad_bytes, p.master_bytes
        s = 2 * p.state_dtype_bytes if req.optimizer == "adamw" else None
        if s is not None:
            out.append(f"{req.precision} precision AdamW: weights {w:g} + gradients {g:g} + master {m:g} + moments {s:g} "
                       f"= {w + g + m + s:g} bytes/parameter of model states")
        else:
            out.append(f"{req.precision} precision, {req.optimizer}: weights {w:g} + gradients {g:g} + master {m:g} "
                       "bytes/parameter + optimizer states")
    elif req.method == "qlora":
        out.append("QLoRA: layer weights in NF4 (bitsandbytes, 64-value blocks"
                   + (", double quantization" if req.double_quant else "") + "); embeddings and LM head in bf16; "
                   "adapters in " + ("bf16" if req.precision == "bf16" else "fp32 (PEFT default)"))
    else:
        out.append("16-bit LoRA: frozen base weights in " + ("fp32" if req.precision == "fp32" else "bf16")
                   + "; adapters in " + ("bf16" if req.precision == "bf16" else "fp32 (PEFT default)"))
    if req.offload == "optimizer":
        out.append("optimizer offload (DeepSpeed ZeRO-Offload): fp32 master weights and Adam moments (12 B/param) "
                   f"and the {'fp32' if p.grad_bytes == 4 else 'bf16'} gradient partitions live in host RAM; "
                   "CPU Adam upcasts one 1e9-element sub-group at a time")
    elif req.offload == "all":
        out.append("full offload (ZeRO-3 with parameter offload): weights, gradients and optimizer states in host RAM")
    if req.tp > 1 or req.pp > 1:
        out.append(f"tensor parallel {req.tp} (sequence parallelism assumed), pipeline parallel {req.pp} (1F1B schedule); "
                   "model states split evenly over tp x pp")
    attention = "FlashAttention" if req.flash_attention else "eager attention"
    out.append(f"activations after Korthikanti et al. 2022 (16-bit), {attention}"
               + f"; logits held at {oh.LOGITS_BYTES_PER_ELEMENT[req.loss].point:g} B per element ({req.loss} loss)")
    if req.gpu is not None:
        out.append(f"{req.gpu.name}: {usable_bytes(req.gpu) / GB:.1f} GB usable of {req.gpu.memory_bytes / GB:.1f} GB "
                   f"reported (nvidia-smi) less {oh.GPU_RESERVED_BYTES / 2**20:.0f} MiB driver reservation")
        if min_gpus is None and req.zero == 0 and req.tp == 1 and req.pp == 1:
            out.append("no GPU count fits without sharding: with ZeRO stage 0 (plain data parallelism) every GPU holds all "
                       "the model states; try --zero 3, --offload optimizer or an 8-bit optimizer")
        elif min_gpus is None:
            out.append("no GPU count fits: the per-GPU terms that do not shrink with more GPUs (activations, logits, "
                       "buffers) exceed one GPU; try --recompute full, a smaller --micro-batch or --seq-len, or --tp")
    out.append("overheads: CUDA context, cuBLAS workspace, NCCL buffers (>1 GPU) and allocator fragmentation as named terms")
    return out + notes
