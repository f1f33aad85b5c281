"""Partial offload for local inference (llama.cpp / Ollama): which layers or experts live on the GPU, which in
system RAM, and the decode speed that split allows.

Two ways to split, as llama.cpp offers them:
- layers (`-ngl N`): the first N transformer layers and their KV cache on the GPU, the rest on the CPU; the
  token embedding always stays in RAM (llama.cpp looks rows up on the CPU) and the output layer joins the GPU
  only when every layer is there;
- experts (`--n-cpu-moe N`, or `-ot ".ffn_.*_exps.=CPU"` for all): an MoE model keeps attention, shared experts,
  the output layer and the KV cache on the GPU and the routed experts of N layers in RAM. A token reads only the
  experts it is routed to, so RAM holds most of the bytes but serves few of them.
Several GPUs (`--split-mode layer`, the default with more than one card): layers are spread over the cards in
proportion to their free memory (`--tensor-split`), each card keeping its own CUDA context and compute buffer; a
token passes the cards one after another, so decode time is the same sum of bytes over one card's bandwidth, plus a
small hand-off per card boundary.
Decode is memory-bound at batch 1: each token reads the active weights and the KV cache once, so its time is
GPU bytes / GPU bandwidth + RAM bytes / RAM bandwidth, each at the sustained share of its peak.
KV cache types (`--cache-type-k/-v`): f16 (2 B per value), q8_0 (34 B per 32 values) and q4_0 (18 B per 32), as
ggml's block formats store them; a quantized V cache needs flash attention (`-fa`).
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from knowledge.schemas import GPU, ModelSpec
from tools import efficiency as eff
from tools import overheads as oh
from tools.formats import FormatName, kv_default, weight_format
from tools.infer_memory import kv_cache_bytes
from tools.memory import usable_bytes, weight_bytes
from tools.params import count_parameters
from tools.units import GB

DEFAULT_RAM_BANDWIDTH_GBPS = 89.6  # dual-channel DDR5-5600: 2 x 64 bit x 5600 MT/s = 89.6 GB/s theoretical
RAM_BANDWIDTH_EFFICIENCY = 0.6  # what CPU decode sustains of theoretical DRAM bandwidth (llama.cpp CPU runs)
COMPUTE_BUFFER_GB = (0.5, 1.0, 2.0)  # llama.cpp's CUDA compute buffer: grows with -ub and context (low, point, high)
KV_TYPE_BYTES = {"f16": 2.0, "q8_0": 34 / 32, "q4_0": 18 / 32}  # ggml block sizes: bytes per stored value
HANDOFF_S = 0.1e-3  # one card passing the hidden state to the next over PCIe, per token


class OffloadRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: ModelSpec
    gpu: GPU
    precision: FormatName | None = Field(None, description="weight format (GGUF q4_k_m, q8_0...); default: the checkpoint's own")
    context: int = Field(8192, ge=1, le=10_000_000, description="tokens of context (llama.cpp -c)")
    mode: Literal["auto", "layers", "experts"] = Field("auto", description="auto: experts for MoE models, else layers")
    ram_gb: float | None = Field(None, gt=0, le=100_000, description="system RAM, GB (checks that the rest fits)")
    ram_bandwidth_gbps: float = Field(DEFAULT_RAM_BANDWIDTH_GBPS, gt=0, le=10_000, description="system RAM bandwidth, GB/s")
    num_gpus: int = Field(1, ge=1, le=16, description="identical cards the layers are split over (--split-mode layer)")
    kv_cache_type: Literal["f16", "q8_0", "q4_0"] | None = Field(None, description="llama.cpp --cache-type-k/-v; "
                                                                 "default f16 (the weights' own 16-bit for non-GGUF)")

    @field_validator("gpu")
    @classmethod
    def _discrete(cls, g: GPU) -> GPU:
        if g.usable_share is not None:
            raise ValueError(f"{g.name} has unified memory: there is nothing to offload to; size it with `size infer`")
        if g.memory_bandwidth_gbps is None:
            raise ValueError(f"{g.name} has no memory bandwidth: give it as --gpu 24GB:936 (GB/s)")
        return g


class OffloadPlan(BaseModel):
    model: str
    gpu: str
    precision: str
    mode: str
    total_layers: int
    num_gpus: int = 1
    gpu_layers: int = Field(description="llama.cpp -ngl (layers on the GPUs)")
    cpu_moe_layers: int = Field(0, description="llama.cpp --n-cpu-moe (layers whose routed experts stay in RAM)")
    gpu_gb: float = Field(description="all cards together")
    per_gpu_gb: float = Field(description="the fullest card")
    ram_gb: float = Field(description="model bytes kept in system RAM (plus what the OS and programs need)")
    fits_gpu: bool
    fits_ram: bool | None
    decode_tokens_per_s: float = Field(description="batch-1 decode bound from GPU and RAM bandwidth")
    gpu_share_of_time: float = Field(description="share of each token's time spent reading GPU memory")
    all_on_gpu_tokens_per_s: float | None = Field(description="the same bound with everything on one such GPU")
    command: str
    assumptions: list[str]


def _split_flags(n_gpu: int, kv: str) -> str:
    out = f" --split-mode layer --tensor-split {','.join(['1'] * n_gpu)}" if n_gpu > 1 else ""
    if kv in ("q8_0", "q4_0"):
        out += f" -fa --cache-type-k {kv} --cache-type-v {kv}"
    return out


def plan_offload(req: OffloadRequest) -> OffloadPlan:
    spec, gpu = req.model, req.gpu
    fmt = weight_format(req.precision or spec.native_precision)
    counts = count_parameters(spec)
    q, rest, consts = weight_bytes(counts, fmt.id, double_quant=False)
    total_w = q + rest + consts
    per_param = total_w / counts.total
    L = spec.num_layers
    emb_bpp = fmt.bytes if fmt.bits >= 16 or fmt.scope == "all" else 2.0  # embeddings stay 16-bit unless GGUF
    embed_b = counts.embedding * emb_bpp
    head_b = counts.lm_head * emb_bpp
    layer_w = (total_w - embed_b - head_b) / L
    kv_dtype = req.kv_cache_type or kv_default(fmt.id)
    kv_layer = kv_cache_bytes(spec, "fp16", req.context) / L * KV_TYPE_BYTES.get(kv_dtype, 2.0) / 2
    n_gpu = req.num_gpus
    reserve = oh.CUDA_CONTEXT.point + COMPUTE_BUFFER_GB[1] * GB  # on each card
    room = n_gpu * (usable_bytes(gpu) - reserve)
    moe = spec.moe
    mode = req.mode if req.mode != "auto" else ("experts" if moe else "layers")
    if mode == "experts" and moe is None:
        raise ValueError(f"{spec.name} has no experts: use --mode layers")
    notes: list[str] = []
    expert_bpp = fmt.bytes if fmt.bits < 16 else 2.0 * fmt.bits / 16  # experts are held in the format itself
    expert_layer = counts.experts / moe.moe_layers(L) * expert_bpp if moe else 0.0
    active_share = moe.experts_per_token / moe.routed_experts if moe else 1.0

    if mode == "layers":
        ngl = 0
        for n in range(L, -1, -1):
            need = n * (layer_w + kv_layer) + (head_b if n == L else 0.0)
            if need <= room:
                ngl = n
                break
        cpu_moe = 0
        gpu_b = ngl * (layer_w + kv_layer) + (head_b if ngl == L else 0.0)
        ram_b = (L - ngl) * (layer_w + kv_layer) + embed_b + (head_b if ngl < L else 0.0)
        # bytes each token reads: active weights of each layer, its KV, the output layer
        layer_active = layer_w - expert_layer * (1 - active_share) * (moe.moe_layers(L) / L if moe else 0)
        gpu_read = ngl * (layer_active + kv_layer) + (head_b if ngl == L else 0.0)
        cpu_read = (L - ngl) * (layer_active + kv_layer) + (head_b if ngl < L else 0.0)
        command = f"llama-server -m MODEL.gguf -c {req.context} -ngl {ngl if ngl < L else 999}" + _split_flags(n_gpu, kv_dtype)
    else:
        n_moe = moe.moe_layers(L)
        base_gpu = L * (layer_w - expert_layer * n_moe / L + kv_layer) + head_b
        if base_gpu > room:
            raise ValueError(f"attention, shared layers and KV cache of {spec.name} alone take {base_gpu / GB:.1f} GB, "
                             f"more than the {room / GB:.1f} GB free on {gpu.name}: use --mode layers or a shorter context")
        cpu_moe = 0
        for k in range(0, n_moe + 1):  # move the experts of k layers to RAM until the rest fits
            if base_gpu + (n_moe - k) * expert_layer <= room:
                cpu_moe = k
                break
        ngl = L
        gpu_b = base_gpu + (n_moe - cpu_moe) * expert_layer
        ram_b = cpu_moe * expert_layer + embed_b
        non_expert_read = L * (layer_w + kv_layer) - n_moe * expert_layer + head_b
        gpu_read = non_expert_read + (n_moe - cpu_moe) * expert_layer * active_share
        cpu_read = cpu_moe * expert_layer * active_share
        command = (f"llama-server -m MODEL.gguf -c {req.context} -ngl 999 "
                   + (f"--n-cpu-moe {cpu_moe}" if cpu_moe < n_moe else '-ot ".ffn_.*_exps.=CPU"') + _split_flags(n_gpu, kv_dtype))
        notes.append(f"routed experts of {cpu_moe} of {n_moe} MoE layers in RAM; a token reads {moe.experts_per_token} of "
                     f"{moe.routed_experts} experts per layer, so RAM serves {active_share:.1%} of the expert bytes it holds")
    gpu_bw = gpu.memory_bandwidth_gbps * GB * eff.DECODE_BANDWIDTH_EFFICIENCY
    ram_bw = req.ram_bandwidth_gbps * GB * RAM_BANDWIDTH_EFFICIENCY
    hand = (n_gpu - 1) * HANDOFF_S
    t = gpu_read / gpu_bw + cpu_read / ram_bw + hand
    all_gpu = (gpu_read + cpu_read) / gpu_bw + hand
    fits_gpu = gpu_b + n_gpu * reserve <= n_gpu * usable_bytes(gpu)
    fits_ram = None if req.ram_gb is None else ram_b <= req.ram_gb * GB * 0.85
    notes += [
        f"weights in {fmt.name} ({per_param:.3g} B per parameter on average), KV cache in {kv_dtype} at {req.context:,} tokens"
        + ("" if req.kv_cache_type else " (default; --kv-cache-type q8_0 halves it, q4_0 quarters it, with -fa)"),
        f"GPU reserve: CUDA context {oh.CUDA_CONTEXT.point / GB:.1f} GB + llama.cpp compute buffer ~{COMPUTE_BUFFER_GB[1]:g} GB "
        f"({COMPUTE_BUFFER_GB[0]:g}-{COMPUTE_BUFFER_GB[2]:g} GB with -ub and context)",
        "the token embedding stays in RAM (llama.cpp looks it up on the CPU); the output layer is on the GPU only "
        "when every layer is" if mode == "layers" else "all layers' attention and KV cache on the GPU (-ngl 999)",
        f"decode bound at batch 1: GPU reads at {eff.DECODE_BANDWIDTH_EFFICIENCY:.0%} of {gpu.memory_bandwidth_gbps:g} GB/s, "
        f"RAM at {RAM_BANDWIDTH_EFFICIENCY:.0%} of {req.ram_bandwidth_gbps:g} GB/s"
        + (" (default: dual-channel DDR5-5600; --ram-bandwidth for yours, e.g. 8-channel server DDR5 ~ 300-400)"
           if req.ram_bandwidth_gbps == DEFAULT_RAM_BANDWIDTH_GBPS else "")
        + "; CPU compute and PCIe transfers are not modelled (they slow prompt processing more than decode)",
    ]
    if mode == "layers" and ngl < L and req.kv_cache_type is None:
        q8 = plan_offload(req.model_copy(update={"kv_cache_type": "q8_0"}))
        if q8.gpu_layers > ngl:
            notes.append(f"with --kv-cache-type q8_0 (and -fa) {q8.gpu_layers} of {L} layers fit on the GPU"
                         + (" (all of them)" if q8.gpu_layers == L else "") + f": {q8.decode_tokens_per_s:.1f} tok/s")
    if n_gpu > 1:
        notes.append(f"layers split over {n_gpu} x {gpu.name} (--split-mode layer): each card keeps its own CUDA context "
                     f"and compute buffer; a token passes the cards in turn, so speed is one card's bandwidth (plus "
                     f"{HANDOFF_S * 1e3:g} ms per card boundary), not {n_gpu}x")
    if req.ram_gb is not None:
        notes.append(f"RAM: {ram_b / GB:.1f} GB of model data in {req.ram_gb:g} GB "
                     + ("fits (85% of RAM left for it)" if fits_ram else "does NOT fit (leave ~15% for the OS): use a "
                        "smaller format"))
    return OffloadPlan(
        model=spec.id, gpu=gpu.id, precision=fmt.id, mode=mode, total_layers=L, gpu_layers=ngl, cpu_moe_layers=cpu_moe,
        num_gpus=n_gpu, gpu_gb=round((gpu_b + n_gpu * reserve) / GB, 2),
        per_gpu_gb=round((gpu_b / n_gpu + reserve) / GB, 2), ram_gb=round(ram_b / GB, 2), fits_gpu=fits_gpu, fits_ram=fits_ram,
        decode_tokens_per_s=round(1 / t, 2) if t > 0 else 0.0, gpu_share_of_time=round((gpu_read / gpu_bw) / t, 3) if t else 1.0,
        all_on_gpu_tokens_per_s=round(1 / all_gpu, 2) if all_gpu else None, command=command, assumptions=notes)
