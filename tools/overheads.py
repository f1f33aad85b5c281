"""Named overhead constants: memory a job uses beyond its tensors, each with its reason and band.

Values are (point, low, high) in bytes or as a fraction. They were chosen from the published
measurements in ../shared/calibration (see README "How memory is estimated") and public notes
of the frameworks named below; none is fitted to a single case.
"""
from __future__ import annotations

from typing import NamedTuple

from tools.units import MiB


class Band(NamedTuple):
    point: float
    low: float
    high: float


# Memory nvidia-smi counts but CUDA never hands out (driver, ECC and firmware reservations): on an
# A100 80GB nvidia-smi shows 81920 MiB while torch.cuda.mem_get_info reports ~81150 MiB total.
GPU_RESERVED_BYTES = 768 * MiB

# CUDA context of one process (kernel images, driver state). With CUDA >= 11.7 lazy module loading
# PyTorch processes show ~300-600 MiB in nvidia-smi before allocating tensors; eager loading or
# many extension libraries (apex, flash-attn, bitsandbytes) push it towards 1 GiB. Not counted by
# torch.cuda.memory_allocated, which is why PyTorch-counter measurements omit it.
CUDA_CONTEXT = Band(500 * MiB, 300 * MiB, 1024 * MiB)

# cuBLAS/cuBLASLt and cuDNN workspaces: PyTorch's default CUBLAS_WORKSPACE_CONFIG is 4 MiB x 8
# per handle (32 MiB); a few handles and cuDNN/flash workspaces bring it to tens of MiB.
CUBLAS_WORKSPACE = Band(64 * MiB, 16 * MiB, 256 * MiB)

# NCCL communicator buffers when more than one GPU takes part: NCCL_BUFFSIZE (4 MiB) per channel
# per peer, times protocols; a few hundred MiB on NVSwitch systems with many channels.
NCCL_BUFFERS = Band(512 * MiB, 200 * MiB, 1536 * MiB)

# The caching allocator's reserved-minus-allocated gap (block rounding, fragmentation between
# differently sized activations), as a fraction of the memory that is allocated and freed during a
# step (activations, logits, buffers), not of weights that are allocated once.
ALLOCATOR_FRAGMENTATION = Band(0.08, 0.02, 0.20)

# DeepSpeed defaults used for gradient communication buffers (reduce_bucket_size = 5e8 elements,
# ZeRO-3 sub_group_size = 1e9 elements for the CPU-Adam step when the optimizer is offloaded).
ZERO_REDUCE_BUCKET_ELEMENTS = 5e8
ZERO_OFFLOAD_SUBGROUP_ELEMENTS = 1e9
# ZeRO-3 gathers the module being computed whole and keeps gathered parameters resident while they
# will be reused soon, up to stage3_max_live_parameters (DeepSpeed default 1e9): max(unit, 1e9 params)
# is the point estimate; FSDP holds about two units (the current one and the prefetched next): the band's
# high end.
ZERO3_MAX_LIVE_PARAMETERS = 1e9

# Uncertainty of the activation estimate: frameworks save more than the textbook terms (HF RMSNorm
# keeps fp32 copies, eager attention keeps fp32 softmax) or less (torch.compile fuses elementwise ops).
ACTIVATION_FACTOR = Band(1.0, 0.8, 1.4)

# Bytes held per logit (batch x sequence x vocab) at the loss, by implementation:
#  hf: Hugging Face causal-LM loss: the bf16 logits (2) and the fp32 log-softmax that
#      cross-entropy saves for backward (4) = 6; the fp32 upcast and the backward's fp32 gradients
#      add up to 8 more for a moment, hence the band's 14.
#  chunked: torchtune CEWithChunkedOutputLoss under torch.compile: bf16 logits (2) + an fp32 chunk
#      (4 / 8 chunks) = 2.5; Liger's fused linear cross-entropy is lower still.
LOGITS_BYTES_PER_ELEMENT = {"hf": Band(6.0, 4.0, 14.0), "chunked": Band(2.5, 2.0, 6.0)}

# vLLM defaults: share of GPU memory it pre-allocates, tokens per scheduler step (V1 engine), the
# most sequences per step, and what CUDA graph capture costs (its logs report 0.5-1.5 GiB).
VLLM_GPU_MEMORY_UTILIZATION = 0.9
VLLM_MAX_NUM_BATCHED_TOKENS = 8192
VLLM_MAX_NUM_SEQS = 256
VLLM_CUDA_GRAPHS = Band(512 * MiB, 256 * MiB, 1536 * MiB)
