"""Inference speed by roofline: prefill is compute-bound, decode reads weights and KV cache per step.

Per GPU (tensor parallelism splits weights, KV heads and FLOPs over tp GPUs):
- prefill (time to first token) = 2·N_active·prompt·batch + attention FLOPs, over peak x efficiency;
- a decode step reads the weights (MoE: the experts the batch touches) and every sequence's KV
  cache: bytes / (bandwidth x efficiency); its FLOPs are 2·N_active·batch + attention; the step
  takes the longer of the two (the roofline), plus a per-layer launch overhead of the engine and,
  with TP, two all-reduces of the hidden state per layer over the interconnect.
"""
from __future__ import annotations

import re

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from knowledge.schemas import GPU, ModelSpec
from tools import efficiency as eff
from tools.formats import FormatName, kv_default, weight_format
from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory, kv_cache_bytes
from tools.memory import weight_bytes
from tools.params import count_parameters
from tools.units import GB

NVLINK_LATENCY_S = 8e-6  # one small all-reduce over NVLink
PCIE_LATENCY_S = 25e-6
STAGE_HANDOFF_S = 30e-6  # pipeline stages: one hidden-state send to the next stage (same node or across nodes)


class InferenceSpeedRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: ModelSpec
    gpu: GPU
    num_gpus: int = Field(1, ge=1, le=1024)
    precision: FormatName | None = Field(None, description="weight format (tools.formats id); default: the checkpoint's own")
    kv_dtype: Literal["bf16", "fp16", "fp8"] | None = None
    context: int = Field(2048, ge=1, le=10_000_000, description="prompt tokens per sequence")
    output: int = Field(256, ge=1, le=1_000_000, description="generated tokens per sequence")
    batch: int = Field(1, ge=1, le=100_000)
    engine: Literal["hf", "vllm", "llamacpp"] = Field("vllm", description="hf: eager PyTorch generate() (launch overhead "
                                                    "per layer); vllm: CUDA graphs; llamacpp: llama.cpp / Ollama (graphs "
                                                    "like vLLM, memory allocated as it goes like hf)")
    prefill_mfu: float | None = Field(None, gt=0, le=1, description="share of dense peak the prefill reaches, when "
                                      "measured (default: the calibrated efficiency)")
    server_link: Literal["ethernet-1g", "ethernet-10g", "ethernet-25g", "ethernet-100g", "ethernet-200g", "ethernet-400g",
                         "infiniband", "roce"] | None = Field(
        None, description="the network between servers, which tensor parallelism wider than one server crosses; "
                          "default: InfiniBand/RoCE at 400 Gb/s per GPU (HGX-class)")
    gpus_per_node: int = Field(8, ge=1, le=64, description="GPUs in one server (tensor parallelism beyond it crosses "
                                                          "server_link)")
    pipeline: int = Field(1, ge=1, le=64, description="pipeline stages (TP x PP: each stage tensor-parallel over "
                                                     "num_gpus / pipeline GPUs); 1: the memory tool's own layout")

    @field_validator("gpu")
    @classmethod
    def _bandwidth(cls, g: GPU) -> GPU:
        if g.memory_bandwidth_gbps is None:
            raise ValueError(f"{g.name} has no memory bandwidth, and decode speed is bound by it: give it as "
                             "--gpu 24GB:936 (GB/s), or name a card from `gpu-advisor gpus`")
        return g

    @property
    def fmt(self) -> str:
        return self.precision or self.model.native_precision


class InferenceSpeed(BaseModel):
    model: str
    gpu: str
    num_gpus: int
    layout: dict[str, int | str]
    ttft_s: float
    decode_step_s: float
    decode_tokens_per_s_per_seq: float
    decode_tokens_per_s_total: float
    decode_bound: Literal["memory", "compute"]
    compute_bound_batch: int | None = Field(description="smallest batch at which decode turns compute-bound")
    max_batch_that_fits: int | None
    total_seconds: float = Field(description="prefill + all output tokens for the batch")
    assumptions: list[str]


def _peak(gpu: GPU, precision: str) -> tuple[float, str]:
    if precision == "fp8" and gpu.fp8_dense_tflops:
        return gpu.fp8_dense_tflops, "FP8"
    if precision == "int8" and gpu.int8_dense_tops:
        return gpu.int8_dense_tops, "INT8"
    peak = gpu.bf16_dense_tflops or gpu.fp16_dense_tflops
    if not peak:
        raise ValueError(f"{gpu.id}: the GPU table has no compute figure (dense BF16/FP16 TFLOPS) for this card, so its "
                         "speed cannot be estimated; memory answers still work. Give a custom card as "
                         "'--gpu <GB>:<GB/s>:<TFLOPS>' or add the figure with its source to the GPU table")
    return peak, ("BF16" if gpu.bf16_dense_tflops else "FP16")


def prefill_seconds(req: InferenceSpeedRequest, tokens: int, tp: int) -> float:
    """Time to prefill one prompt of `tokens` over `tp` tensor-parallel GPUs, by roofline: the longer of the compute
    (2·N_active·tokens plus the attention scores 2·layers·tokens²·q_dim, at the prefill efficiency) and one read of
    the weights the prompt touches (a short prompt on a large model, or an MoE whose every expert some token routes
    to, is bound by reading them, as a decode step is)."""
    spec = req.model
    counts = count_parameters(spec)
    peak, _ = _peak(req.gpu, req.fmt)
    q_dim = spec.num_attention_heads * (spec.mla.qk_nope_head_dim + spec.mla.qk_rope_head_dim if spec.mla else spec.head_dim)
    flops = 2 * counts.active * tokens + 2 * spec.num_layers * tokens ** 2 * q_dim
    compute_s = flops / (tp * peak * 1e12 * prefill_efficiency(req))
    dense, experts = _weights_read(req, tokens)
    bw = req.gpu.memory_bandwidth_gbps * GB * eff.DECODE_BANDWIDTH_EFFICIENCY * eff.serving_factor(req.gpu)
    read_s = (dense + experts / eff.MOE_EXPERT_READ_FACTOR) / tp / bw
    return max(compute_s, read_s)


def _weights_read(req: InferenceSpeedRequest, tokens: float) -> tuple[float, float]:
    """(dense bytes, expert bytes) one forward over `tokens` tokens reads: every dense weight, and the experts some
    token routes to (each token picks experts_per_token of routed_experts)."""
    counts = count_parameters(req.model)
    q, rest, consts = weight_bytes(counts, req.fmt)
    w = q + rest + consts
    if req.model.moe is None:
        return w, 0.0
    moe = req.model.moe
    used = 1 - (1 - moe.experts_per_token / moe.routed_experts) ** tokens
    per_param = w / counts.total
    return w - counts.experts * per_param, counts.experts * used * per_param


def single_stream_ceiling(req: InferenceSpeedRequest) -> tuple[float, float]:
    """(bytes one token reads, the tokens/s one stream cannot exceed): every dense weight and the experts one token
    routes to, read once per token, over the GPUs' full memory bandwidth (no efficiency, no KV: a hard ceiling)."""
    dense, experts = _weights_read(req, 1)
    nbytes = dense + experts
    parallel = req.num_gpus // req.pipeline if req.num_gpus % req.pipeline == 0 else req.num_gpus
    # (layers split over pipeline stages are read one stage after another: only a stage's own GPUs read in parallel)
    return nbytes, req.gpu.memory_bandwidth_gbps * 1e9 * parallel / nbytes


def prefill_efficiency(req: InferenceSpeedRequest) -> float:
    """The share of dense peak a prefill reaches: PREFILL_COMPUTE_EFFICIENCY, less for MoE (routing, grouped GEMMs),
    FP8 (its doubled peak is not reached) and ROCm."""
    if req.prefill_mfu is not None:
        return req.prefill_mfu  # the user's measurement, as measured (on the peak of the format it ran in)
    e = eff.PREFILL_COMPUTE_EFFICIENCY * eff.serving_factor(req.gpu)
    if req.model.moe is not None:
        e *= eff.MOE_PREFILL_FACTOR
    if _peak(req.gpu, req.fmt)[1] == "FP8":
        e *= eff.FP8_COMPUTE_FACTOR
    return e


def decode_step_parts(req: InferenceSpeedRequest, batch: int, tp: int) -> tuple[float, float, float]:
    """(memory-time, compute-time, overhead) of one decode step at `batch` sequences on a `tp`-wide group: the step
    takes max(memory, compute) + overhead."""
    return _step(req, batch, tp)


def _step(req: InferenceSpeedRequest, batch: int, tp: int) -> tuple[float, float, float]:
    """(memory-time, compute-time, overhead) of one decode step at `batch`, per GPU."""
    spec, gpu = req.model, req.gpu
    counts = count_parameters(spec)
    w, experts = _weights_read(req, batch)  # MoE: only the experts some sequence routes to, and those at a lower rate
    ctx = req.context + req.output / 2  # average context during generation
    kv = kv_cache_bytes(spec, req.kv_dtype or kv_default(req.fmt), int(ctx)) * batch
    kv_share = 1.0 if spec.mla else min(1.0, max(1, spec.num_kv_heads // tp) * tp / spec.num_kv_heads) / tp
    vendor = eff.serving_factor(gpu)
    bw = gpu.memory_bandwidth_gbps * GB * eff.DECODE_BANDWIDTH_EFFICIENCY * vendor
    mem_s = (w / tp + experts / tp / eff.MOE_EXPERT_READ_FACTOR + kv * kv_share) / bw
    peak, peak_name = _peak(gpu, req.fmt)
    q_dim = spec.num_attention_heads * (spec.mla.qk_nope_head_dim + spec.mla.qk_rope_head_dim if spec.mla else spec.head_dim)
    flops = (2 * counts.active + 4 * spec.num_layers * ctx * q_dim) * batch / tp
    comp_eff = eff.DECODE_COMPUTE_EFFICIENCY * vendor * (eff.FP8_COMPUTE_FACTOR if peak_name == "FP8" else 1.0)
    comp_s = flops / (peak * 1e12 * comp_eff)
    per_layer = eff.HF_DECODE_OVERHEAD_PER_LAYER_S if req.engine == "hf" else eff.VLLM_DECODE_OVERHEAD_PER_LAYER_S
    over = spec.num_layers * per_layer + (0.0 if req.engine == "hf" else eff.STEP_OVERHEAD_S)
    if tp > 1:
        fabric = gpu.scale_up_fabric(tp)  # TP beyond a bridged pair runs over PCIe
        lat = NVLINK_LATENCY_S if fabric else PCIE_LATENCY_S
        link = (gpu.nvlink_gbps / 2 if fabric else 25.0) * GB * eff.LINK_EFFICIENCY
        if tp > req.gpus_per_node:  # the group spans servers: each all-reduce also crosses the network between them
            lat, link = _across_servers(req, lat, link)
        over += spec.num_layers * 2 * (lat + 2 * (tp - 1) / tp * batch * spec.hidden_size * 2 / link)
    return mem_s, comp_s, over


# An all-reduce between servers: NCCL over TCP sockets pays ~100 µs per collective; over InfiniBand/RoCE ~10 µs
# (NCCL tests: small-message all-reduce latency). Ethernet is one port per server shared by its GPUs; InfiniBand/RoCE
# give each GPU its own 400 Gb/s NIC (tools/train_time).
ETHERNET_ALLREDUCE_LATENCY_S = 100e-6
RDMA_ALLREDUCE_LATENCY_S = 10e-6


def _handoff_s(req: InferenceSpeedRequest, tp: int, batch: int) -> float:
    """One pipeline hand-off of the batch's hidden states: STAGE_HANDOFF_S inside a server; when stages sit on
    different servers (a stage as wide as a server), the network's latency and the bytes over its share."""
    if tp < req.gpus_per_node:
        return STAGE_HANDOFF_S
    lat, per_gpu = _across_servers(req, STAGE_HANDOFF_S, float("inf"))
    return lat + batch * req.model.hidden_size * 2 / (per_gpu * min(tp, req.gpus_per_node))  # (the stage's GPUs send)


def _across_servers(req: InferenceSpeedRequest, lat: float, link: float) -> tuple[float, float]:
    """(latency, bytes/s) of a tensor-parallel all-reduce whose group spans servers: the slower of the in-server link
    and the network share each GPU gets, and the network's latency."""
    from tools.train_time import NETWORK_GBPS_PER_GPU, SERVER_LINK_GBPS

    if req.server_link in SERVER_LINK_GBPS:
        per_gpu = SERVER_LINK_GBPS[req.server_link] / req.gpus_per_node
        return max(lat, ETHERNET_ALLREDUCE_LATENCY_S), min(link, per_gpu * GB * eff.LINK_EFFICIENCY)
    return max(lat, RDMA_ALLREDUCE_LATENCY_S), min(link, NETWORK_GBPS_PER_GPU * GB * eff.LINK_EFFICIENCY)


def estimate_inference_speed(req: InferenceSpeedRequest) -> InferenceSpeed:
    """Time to first token, decode tokens/s per sequence and in total, and where decode turns compute-bound."""
    spec, gpu = req.model, req.gpu
    mem = estimate_inference_memory(InferenceMemoryRequest(
        model=spec, gpu=gpu, num_gpus=req.num_gpus, precision=req.precision, kv_dtype=req.kv_dtype,
        context=req.context + req.output, prompt_len=req.context, batch=req.batch,
        engine="vllm" if req.engine == "vllm" else "hf", pipeline=req.pipeline if req.num_gpus % req.pipeline == 0 else 1))
    tp, stages = int(mem.layout["tp"]), int(mem.layout["stages"])
    peak, peak_name = _peak(gpu, req.fmt)
    ttft = req.batch * prefill_seconds(req, req.context, tp) + eff.request_overhead_s(req.engine)
    mem_s, comp_s, over = _step(req, req.batch, tp)
    # layers split: a token passes every stage in turn, each reading its share of the weights, so one stream's step
    # is the whole model's read (as on one GPU of the stage's TP width) plus a hand-off per stage boundary
    step = max(mem_s, comp_s) + over + (stages - 1) * _handoff_s(req, tp, req.batch)
    bound = "compute" if comp_s > mem_s else "memory"
    cb = next((b for b in _doubling(1, 1 << 17) if _compute_bound(req, b, tp)), None)
    if cb is not None:
        lo = max(1, cb // 2)
        while lo < cb:
            mid = (lo + cb) // 2
            lo, cb = (lo, mid) if _compute_bound(req, mid, tp) else (mid + 1, cb)
    total = ttft + req.output * step
    assumptions = [
        f"prefill at {prefill_efficiency(req):.0%} of dense {peak_name} {peak:g} TFLOPS; decode reads at "
        f"{eff.DECODE_BANDWIDTH_EFFICIENCY * eff.serving_factor(gpu):.0%} of {gpu.memory_bandwidth_gbps:g} GB/s"
        + (f" (ROCm: x{eff.serving_factor(gpu):g} on datasheet rates)" if eff.serving_factor(gpu) != 1 else "")
        + ("" if req.engine == "hf" else f"; {eff.STEP_OVERHEAD_S * 1e3:.1f} ms per decode step for the engine's "
           f"scheduler and sampling, {eff.REQUEST_OVERHEAD_S * 1e3:.0f} ms per request before its first token (front "
           "end, tokenisation, admission)"),
        f"{req.batch} sequence(s) of {req.context} prompt + {req.output} output tokens; engine {req.engine}"
        + (" (eager PyTorch: ~0.4 ms launch overhead per layer per step)" if req.engine == "hf" else
           " (CUDA graphs)" if req.engine == "vllm" else " (llama.cpp, CUDA graphs)"),
        f"layout: {mem.layout['split']}" + (f", TP {tp} with two all-reduces per layer" if tp > 1 else "")
        + (f", {stages} pipeline stages: one stream's decode speed is one GPU's (plus "
           f"{_handoff_s(req, tp, req.batch) * 1e6:,.0f} µs per hand-off); more stages add memory and, with several "
           "streams in flight, throughput" if stages > 1 else ""),
    ]
    if tp > req.gpus_per_node:  # the all-reduces leave the server: said, with what they cost a step
        lat, link = _across_servers(req, 0.0, float("inf"))
        per_step = spec.num_layers * 2 * (lat + 2 * (tp - 1) / tp * req.batch * spec.hidden_size * 2 / link)
        assumptions.append(f"TP {tp} spans {-(-tp // req.gpus_per_node)} servers: each of the {spec.num_layers * 2} "
                           f"all-reduces per step crosses the network between them "
                           f"({req.server_link or 'InfiniBand/RoCE, 400 Gb/s per GPU'}): about {per_step * 1e3:,.1f} ms a "
                           "step at this batch; keep tensor parallelism inside a server and put pipeline stages or "
                           "replicas across servers")
    if spec.moe is not None:
        assumptions.append("MoE: compute uses the active parameters; a decode step reads only the experts the batch routes to")
    if peak_name == "FP16":
        assumptions.append(f"{gpu.id} has no BF16: weights and compute in FP16 at its {peak:g} dense FP16 TFLOPS")
    if gpu.vendor == "Apple":
        estimate = re.search(r"GPU FP32 [\d.]+ TFLOPS is an estimate .*? cores\)[^.]*\.", gpu.notes or "")
        assumptions.append("Apple GPU: FP16 at the FP32 rate (no tensor cores); on a Mac the engine is llama.cpp or MLX "
                           "(Metal), not vLLM, and the overhead per step modelled is vLLM's: read the figures as an upper "
                           "bound" + (f"; {estimate.group(0)}" if estimate else ""))
    if weight_format(req.fmt).bits < 16 and peak_name == "BF16":
        assumptions.append(f"weights are read as {weight_format(req.fmt).name} ({weight_format(req.fmt).bytes:.3g} B "
                           "per weight) and computed in BF16 (weight-only kernels)")
    if not mem.fits:
        assumptions.append(f"this configuration does not fit {req.num_gpus} x {gpu.id} (needs {mem.min_gpus}): "
                           "the speed is what it would be if it did")
    return InferenceSpeed(
        model=spec.id, gpu=gpu.id, num_gpus=req.num_gpus, layout={"split": mem.layout["split"], "tp": tp, "stages": stages},
        ttft_s=round(ttft, 4), decode_step_s=round(step, 5), decode_tokens_per_s_per_seq=round(1 / step, 2),
        decode_tokens_per_s_total=round(req.batch / step, 1), decode_bound=bound, compute_bound_batch=cb,
        max_batch_that_fits=mem.max_batch, total_seconds=round(total, 2), assumptions=assumptions + mem.assumptions[:0],
    )


def _compute_bound(req: InferenceSpeedRequest, batch: int, tp: int) -> bool:
    mem_s, comp_s, _ = _step(req, batch, tp)
    return comp_s >= mem_s


def _doubling(start: int, stop: int):
    b = start
    while b <= stop:
        yield b
        b *= 2
