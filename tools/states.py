"""Optimizer-state sizes and LoRA adapter shapes: the trainable side of the model states."""
from __future__ import annotations

from pydantic import BaseModel

from knowledge.schemas import ModelSpec
from tools.params import linear_layers

# bitsandbytes 8-bit optimizers quantize each state blockwise: one byte per value and an fp32
# absmax per block of 2048 values.
BNB_8BIT_BLOCK = 2048


def optimizer_state_bytes(optimizer: str, n_params: float, state_dtype_bytes: float, factored_vectors: float) -> float:
    """Bytes of optimizer state for n_params trainable parameters.

    factored_vectors: for Adafactor (beta1=None, as in Hugging Face's default), the row plus column
    lengths of every trainable matrix and the length of every vector; its second moment is
    factored into those, kept in fp32.
    """
    if optimizer == "adamw":
        return 2 * state_dtype_bytes * n_params  # first and second moments
    if optimizer in ("adamw-8bit", "paged-adamw-8bit"):
        return 2 * (1 + 4 / BNB_8BIT_BLOCK) * n_params
    if optimizer == "sgd":
        return state_dtype_bytes * n_params  # momentum buffer
    if optimizer == "adafactor":
        return 4 * factored_vectors
    raise ValueError(f"unknown optimizer {optimizer!r}")


def full_factored_vectors(spec: ModelSpec) -> int:
    """Row + column lengths of every weight matrix of the model (Adafactor's factored moments)."""
    vectors = sum((m.in_features + m.out_features) * m.per_layer * m.layers for m in linear_layers(spec))
    return vectors + 2 * (spec.vocab_size + spec.hidden_size)


class LoraShapes(BaseModel):
    """LoRA adapters on a model: their size and what they add per token."""

    params: int
    in_features_per_token: int  # inputs of adapted matrices, per layer and token
    rank_elements_per_token: int  # x·A outputs, per layer and token
    factored_vectors: int  # Adafactor: row + column lengths of the A and B matrices


def lora_shapes(spec: ModelSpec, targets: list[str] | None, rank: int) -> LoraShapes:
    """Adapters of rank `rank` on the named matrices (None: every linear layer)."""
    params = in_per_token = rank_elems = vectors = 0.0
    for lin in linear_layers(spec):
        if targets is not None and lin.name.split(".")[-1] not in targets:
            continue
        copies = lin.per_layer * lin.layers
        params += rank * (lin.in_features + lin.out_features) * copies
        vectors += (rank + lin.in_features + lin.out_features + rank) * copies  # A: r x in, B: out x r
        share = lin.layers / spec.num_layers  # MoE: dense matrices live in only some layers
        in_per_token += lin.in_features * lin.active_per_layer * share
        rank_elems += rank * lin.active_per_layer * share
    return LoraShapes(params=int(params), in_features_per_token=int(in_per_token),
                      rank_elements_per_token=int(rank_elems), factored_vectors=int(vectors))
