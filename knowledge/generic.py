"""Bare sizes ('70b', '7B', '700亿'): a generic dense decoder with exactly that many parameters; a stated MoE shape
('120b-a12b': 120B total, 12B active) a generic MoE with exactly those counts.

The shape copies the nearest Llama-3-family model (by log-distance in parameters): its head
dimension, KV heads, vocabulary and tying, with the hidden size scaled by sqrt(N / N_ref) and
the depth scaled with it, then the MLP width solved so that the count lands on N; the rounding
remainder (< 3 x hidden x layers parameters) is kept as `extra_params`, so the total is exact.
"""
from __future__ import annotations

import math
import re

from knowledge.schemas import ModelSpec
from tools.params import count_parameters

_UNITS = {"b": 1e9, "bn": 1e9, "billion": 1e9, "m": 1e6, "million": 1e6, "t": 1e12, "trillion": 1e12,
          "亿": 1e8, "千亿": 1e11, "万亿": 1e12, "百万": 1e6}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(billion|trillion|million|bn|b|m|t|千亿|万亿|亿|百万)"
                   r"\s*(?:params?|parameters?|参数)?\s*$", re.IGNORECASE)
MIN_GENERIC_PARAMS = 1e8
MAX_GENERIC_PARAMS = 1e15  # 1,000T: a hypothetical size is sized (a 100T question is a real one)


def parse_param_count(text: str) -> int | None:
    """'70b' -> 70_000_000_000; '700亿' -> 70_000_000_000; None if `text` is not a bare size."""
    m = _SIZE.match(text)
    if not m:
        return None
    n = float(m.group(1)) * _UNITS[m.group(2).lower()]
    if not MIN_GENERIC_PARAMS <= n <= MAX_GENERIC_PARAMS:
        raise ValueError(f"a bare model size must be between 0.1B and 1000T parameters, got {text!r}")
    return int(round(n))


def generic_model(n_params: int, references: list[ModelSpec]) -> tuple[ModelSpec, ModelSpec]:
    """(generic spec with n_params parameters, the reference it was shaped after)."""
    ref = min(references, key=lambda r: abs(math.log(n_params / r.params_total)))
    step = ref.head_dim * ref.num_kv_heads
    hidden = max(step, round(ref.hidden_size * math.sqrt(n_params / ref.params_total) / step) * step)
    layers = max(2, round(ref.num_layers * hidden / ref.hidden_size))
    base = ref.model_dump()
    base.update(hidden_size=hidden, num_attention_heads=hidden // ref.head_dim, intermediate_size=1)
    for _ in range(4 * layers):
        base["num_layers"] = layers
        fixed = count_parameters(ModelSpec(**base)).total - 3 * hidden * layers  # everything but the MLP
        width = round((n_params - fixed) / (3 * hidden * layers))
        if width >= 2 * hidden or layers <= 2:
            break
        layers -= 1  # too deep for the budget: trade depth for MLP width
    if width < 1:
        raise ValueError(f"{n_params:,} parameters is too small for a generic {ref.name}-shaped model")
    base["intermediate_size"] = width
    remainder = n_params - count_parameters(ModelSpec(**base)).total
    if remainder < 0:  # rounded up: take one unit of width off, so the remainder is what is left
        width -= 1
        base["intermediate_size"] = width
        remainder = n_params - count_parameters(ModelSpec(**base)).total
    label = f"{n_params / 1e9:g}b"
    base.update(
        id=f"generic-{label}", name=f"generic {label.upper()} dense decoder", aliases=[], family="generic",
        hf_repo=None, params_total=n_params, params_active=None, intermediate_size=width, generic=True,
        extra_params=remainder,
        notes=f"Made up from a bare size; shaped like {ref.name}.",
        source=f"derived from {ref.id} ({ref.source})", as_of=ref.as_of,
    )
    return ModelSpec(**base), ref


_MOE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*b\s*-\s*a\s*(\d+(?:\.\d+)?)\s*b\s*$", re.IGNORECASE)


def parse_moe_shape(text: str) -> tuple[int, int] | None:
    """'120b-a12b' -> (120e9, 12e9): total and active parameters of a stated MoE shape; None otherwise."""
    m = _MOE.match(text)
    if not m:
        return None
    total, active = float(m.group(1)) * 1e9, float(m.group(2)) * 1e9
    if not (MIN_GENERIC_PARAMS <= active < total <= MAX_GENERIC_PARAMS):
        raise ValueError(f"an MoE shape needs 0.1B <= active < total <= 10T parameters, got {text!r}")
    return int(total), int(active)


def _always_on(r: ModelSpec) -> float:
    """Parameters every token uses whatever the routing: the active count less the routed experts it uses."""
    c, moe = count_parameters(r), r.moe
    per_width = moe.moe_layers(r.num_layers) * (3 if r.mlp == "gated" else 2) * r.hidden_size
    return c.active - per_width * moe.experts_per_token * moe.expert_intermediate_size


def generic_moe(total: int, active: int, references: list[ModelSpec]) -> tuple[ModelSpec, ModelSpec]:
    """(a generic MoE with `total` parameters of which `active` are used per token, the catalog MoE it was shaped
    after). The reference is the MoE nearest in size and in active share; its attention, embeddings, layers and
    experts per token are kept, the routed experts' width sets the active count and their number the total; what
    rounding leaves (under half an expert) is `extra_params`."""
    moes = [r for r in references if r.moe is not None and not r.linear_attention and not r.generic]
    roomy = [r for r in moes if _always_on(r) < 0.8 * active]  # its attention and shared part leave room for experts
    moes = sorted(roomy or [min(moes, key=_always_on)], key=lambda r: abs(math.log(total / r.params_total))
                  + abs(math.log((active / total) / (count_parameters(r).active / r.params_total))))
    shaped = None
    for ref in moes:  # the nearest reference whose shape lands both counts within 3%
        shaped = _shape_moe(total, active, ref)
        c = count_parameters(shaped[0])
        if abs(c.total / total - 1) < 0.03 and abs(c.active / active - 1) < 0.03:
            return shaped
    return shaped


def _shape_moe(total: int, active: int, ref: ModelSpec) -> tuple[ModelSpec, ModelSpec]:
    c = count_parameters(ref)
    moe = ref.moe
    layers = moe.moe_layers(ref.num_layers)
    per_width = layers * (3 if ref.mlp == "gated" else 2) * ref.hidden_size  # parameters per unit of expert width
    fixed_active = _always_on(ref)  # attention, embeddings, shared experts, dense layers
    if active <= fixed_active:
        raise ValueError(f"{active / 1e9:g}B active is less than the always-on part ({fixed_active / 1e9:.1f}B) of "
                         f"{ref.name}, the nearest MoE shape; give a config.json for this model")
    fixed_total = c.total - per_width * moe.routed_experts * moe.expert_intermediate_size
    # experts per token k and routed experts E with E/k = the routed parameters of the total over those of the active;
    # the expert width then lands the total, and the k (1-16) whose rounding of E misses the active count least wins
    best = None
    for k in range(1, 17):
        experts = max(k + 1, round(k * (total - fixed_total) / (active - fixed_active)))
        width = max(1, round((total - fixed_total) / (per_width * experts)))
        miss = abs(fixed_active + per_width * k * width - active)
        if best is None or miss < best[0]:
            best = (miss, k, experts, width)
    _, k, experts, width = best
    base = ref.model_dump()
    base["moe"] = moe.model_dump() | {"routed_experts": experts, "expert_intermediate_size": width, "experts_per_token": k}
    spec = ModelSpec(**base)
    remainder = max(0, total - count_parameters(spec).total)
    label = f"{total / 1e9:g}b-a{active / 1e9:g}b"
    base.update(id=f"generic-{label}", name=f"generic {total / 1e9:g}B-A{active / 1e9:g}B MoE", aliases=[],
                family="generic", hf_repo=None, params_total=total, params_active=active, generic=True,
                extra_params=remainder, notes=f"Made up from a stated MoE shape; shaped like {ref.name}.",
                source=f"derived from {ref.id} ({ref.source})", as_of=ref.as_of)
    return ModelSpec(**base), ref
