"""Partial offload for local inference (llama.cpp / Ollama): which layers or experts live on the GPU, which in
system RAM, and the decode speed that split allows.

Two ways to split, as llama.cpp offers them:
- layers (`-ngl N`): the first N transformer layers and their KV cache on the GPU, the rest on the CPU; the
  token embedding always stays in RAM (llama.cpp looks rows up on the CPU) and the output layer joins the GPU
  only when every layer is there;
- experts (`--n-cpu-moe N`, or `-ot ".ffn_.*_exps.=CPU"` for all): an MoE model keeps attention, shared experts,
  the output layer and the KV cache on the GPU and the routed experts of N layers in RAM. A token reads only the
  experts it is routed to, so RAM holds most of the bytes but serves few of them.
Decode is memory-bound at batch 1: each token reads the active weights and the KV cache once, so its time is
GPU bytes / GPU bandwidth + RAM bytes / RAM bandwidth, each at the sustained share of its peak.
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


class OffloadRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: ModelSpec
    gpu: GPU
    precision: FormatName | None = Field(None, description="weight format (GGUF q4_k_m, q8_0...); default: the checkpoint's own")
    context: int = Field(8192, ge=1, le=10_000_000, description="tokens of context (llama.cpp -c)")
    mode: Literal["auto", "layers", "experts"] = Field("auto", description="auto: experts for MoE models, else layers")
    ram_gb: float | None = Field(None, gt=0, le=100_000, description="system RAM, GB (checks that the rest fits)")
    ram_bandwidth_gbps: float = Field(DEFAULT_RAM_BANDWIDTH_GBPS, gt=0, le=10_000, description="system RAM bandwidth, GB/s")

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
    gpu_layers: int = Field(description="llama.cpp -ngl (layers on the GPU)")
    cpu_moe_layers: int = Field(0, description="llama.cpp --n-cpu-moe (layers whose routed experts stay in RAM)")
    gpu_gb: float
    ram_gb: float = Field(description="model bytes kept in system RAM (plus what the OS and programs need)")
    fits_gpu: bool
    fits_ram: bool | None
    decode_tokens_per_s: float = Field(description="batch-1 decode bound from GPU and RAM bandwidth")
    gpu_share_of_time: float = Field(description="share of each token's time spent reading GPU memory")
    all_on_gpu_tokens_per_s: float | None = Field(description="the same bound with everything on one such GPU")
    command: str
    assumptions: list[str]


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
    kv_dtype = kv_default(fmt.id)
    kv_layer = kv_cache_bytes(spec, kv_dtype, req.context) / L
    reserve = oh.CUDA_CONTEXT.point + COMPUTE_BUFFER_GB[1] * GB
    room = usable_bytes(gpu) - reserve
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
        command = f"llama-server -m MODEL.gguf -c {req.context} -ngl {ngl if ngl < L else 999}"
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
                   + (f"--n-cpu-moe {cpu_moe}" if cpu_moe < n_moe else '-ot ".ffn_.*_exps.=CPU"'))
        notes.append(f"routed experts of {cpu_moe} of {n_moe} MoE layers in RAM; a token reads {moe.experts_per_token} of "
                     f"{moe.routed_experts} experts per layer, so RAM serves {active_share:.1%} of the expert bytes it holds")
    gpu_bw = gpu.memory_bandwidth_gbps * GB * eff.DECODE_BANDWIDTH_EFFICIENCY
    ram_bw = req.ram_bandwidth_gbps * GB * RAM_BANDWIDTH_EFFICIENCY
    t = gpu_read / gpu_bw + cpu_read / ram_bw
    all_gpu = (gpu_read + cpu_read) / gpu_bw
    fits_gpu = gpu_b + reserve <= usable_bytes(gpu)
    fits_ram = None if req.ram_gb is None else ram_b <= req.ram_gb * GB * 0.85
    notes += [
        f"weights in {fmt.name} ({per_param:.3g} B per parameter on average), KV cache in {kv_dtype} at {req.context:,} tokens",
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
    if req.ram_gb is not None:
        notes.append(f"RAM: {ram_b / GB:.1f} GB of model data in {req.ram_gb:g} GB "
                     + ("fits (85% of RAM left for it)" if fits_ram else "does NOT fit (leave ~15% for the OS): use a "
                        "smaller format"))
    return OffloadPlan(
        model=spec.id, gpu=gpu.id, precision=fmt.id, mode=mode, total_layers=L, gpu_layers=ngl, cpu_moe_layers=cpu_moe,
        gpu_gb=round((gpu_b + reserve) / GB, 2), ram_gb=round(ram_b / GB, 2), fits_gpu=fits_gpu, fits_ram=fits_ram,
        decode_tokens_per_s=round(1 / t, 2) if t > 0 else 0.0, gpu_share_of_time=round((gpu_read / gpu_bw) / t, 3) if t else 1.0,
        all_on_gpu_tokens_per_s=round(1 / all_gpu, 2) if all_gpu else None, command=command, assumptions=notes)
