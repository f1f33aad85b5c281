"""Activation memory per token and layer, following Korthikanti et al. 2022.

"Reducing Activation Recomputation in Large Transformer Models" (arXiv 2205.05198), section 4.1,
counts the tensors a transformer layer keeps for its backward pass, in bytes with 16-bit
activations: attention 11·s·b·h + 5·a·s²·b, MLP 19·s·b·h, two LayerNorms 4·s·b·h, so
34·s·b·h + 5·a·s²·b per layer. We count the same tensors one by one, so that the terms follow
the architecture (GQA/MLA projections, a gated MLP keeps 4 intermediate tensors instead of 2,
no dropout in modern LLMs, extra norms) and reduce exactly to the paper's sum for its GPT shape
(tests/test_activations.py checks this). Per token: divide the paper's terms by s·b.

Selective recomputation (section 5) drops the attention core (the 5·a·s² term); FlashAttention
never stores it either (it keeps only the log-sum-exp, 4 bytes per head and token). Full
recomputation keeps only each layer's input (2·h bytes per token) and recomputes one layer at a
time in the backward pass.
"""
from __future__ import annotations

from knowledge.schemas import ModelSpec

ACT_BYTES = 2  # bf16/fp16 activations


def _attention_elements(spec: ModelSpec) -> tuple[int, int, int]:
    """(elements saved per token by the attention block, of which the projection input, query heads)."""
    h, heads = spec.hidden_size, spec.num_attention_heads
    if spec.mla is not None:
        m = spec.mla
        qk = m.qk_nope_head_dim + m.qk_rope_head_dim
        latent = 2 * (m.q_lora_rank or 0) + 2 * (m.kv_lora_rank + m.qk_rope_head_dim)  # low-rank paths and their norms
        return h + latent + heads * qk * 2 + heads * m.v_head_dim * 2, h, heads
    q = heads * spec.head_dim
    kv = spec.num_kv_heads * spec.head_dim
    # projection input (norm output), Q, K, V, and the attention output fed to o_proj
    return h + q + kv + kv + q, h, heads


def _mlp_elements(spec: ModelSpec) -> tuple[int, int, int]:
    """(elements saved per token by the MLP/MoE block, of which its input, of which the down-projection input)."""
    h = spec.hidden_size
    per_matrix_set = 4 if spec.mlp == "gated" else 2  # gated: gate, up, act(gate), product; plain: act in/out
    if spec.moe is None:
        return h + per_matrix_set * spec.intermediate_size, h, spec.intermediate_size
    moe = spec.moe
    k, width = moe.experts_per_token, moe.expert_intermediate_size
    shared_width = moe.shared_expert_intermediate_size or width
    routed = k * (h + per_matrix_set * width)  # each routed copy of the token, and its intermediates
    shared = moe.shared_experts * per_matrix_set * shared_width
    router = 2 * moe.routed_experts  # fp32 router probabilities (4 bytes = 2 elements)
    return h + routed + shared + router, h + k * h, k * width + moe.shared_experts * shared_width


def layer_bytes_per_token(spec: ModelSpec, *, seq_len: int, attention_core: bool,
                          frozen: frozenset[str] = frozenset()) -> float:
    """Bytes one layer keeps per token for backward, without recomputation.

    attention_core: True to keep the softmax scores (eager attention without selective
    recomputation): Korthikanti's 5·a·s term with dropout, 2·a·s without.
    frozen: inputs no weight gradient needs, so autograd does not keep them (LoRA on some matrices):
    "qkv" (input of q/k/v), "mlp_in" (input of gate/up), "down_in" (input of down_proj).
    """
    h = spec.hidden_size
    attn_elems, qkv_in, heads = _attention_elements(spec)
    mlp_elems, mlp_in, down_in = _mlp_elements(spec)
    saved = attn_elems + mlp_elems + spec.norms_per_layer * h
    saved -= qkv_in * ("qkv" in frozen) + mlp_in * ("mlp_in" in frozen) + down_in * ("down_in" in frozen)
    total = ACT_BYTES * saved
    if spec.dropout:
        total += 2 * h  # one-byte dropout masks after attention and after the MLP
    if attention_core:
        total += (5 if spec.dropout else 2) * heads * seq_len
    else:
        total += 4 * heads  # FlashAttention's fp32 log-sum-exp
    return total


def lora_extra_bytes_per_token(in_features_of_targets: int, rank_elements: int, dropout: bool) -> float:
    """Extra bytes per token per layer that LoRA branches keep.

    Each adapted matrix keeps x·A (rank elements); with lora_dropout > 0 PEFT also stores the
    dropped-out copy of its input (2 bytes) and the mask (1 byte) per input element.
    """
    return ACT_BYTES * rank_elements + (3 * in_features_of_targets if dropout else 0)


def inference_workspace_bytes_per_token(spec: ModelSpec) -> float:
    """Transient bytes per prompt token during prefill: the widest block's intermediates plus the
    residual stream and norm output. Eager PyTorch holds act(gate), up and their product together
    (3 x MLP width); attention holds Q, K, V and its output."""
    h = spec.hidden_size
    if spec.moe is None:
        mlp = 3 * spec.intermediate_size
    else:
        moe = spec.moe
        # experts run one after another on the tokens routed to them: on average k/E of the tokens
        routed = 3 * moe.expert_intermediate_size * moe.experts_per_token / moe.routed_experts
        shared_width = moe.shared_expert_intermediate_size or moe.expert_intermediate_size
        mlp = routed + 3 * moe.shared_experts * shared_width + 2 * moe.routed_experts + h
        if moe.first_dense_layers:
            mlp = max(mlp, 3 * spec.intermediate_size)
    attn_elems, _, _ = _attention_elements(spec)
    return ACT_BYTES * (max(mlp, attn_elems) + 2 * h)
