"""Parameter counts computed from a model's architecture (config.json fields).

Counted one module at a time, as the checkpoints store them: token embedding, per layer the
attention projections (GQA/MQA/MHA or MLA), the MLP (gated: gate/up/down; plain: up/down) or
the MoE block (router, routed and shared experts), the norms, and the LM head unless tied.
"""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from knowledge.schemas import ModelSpec


class Linear(BaseModel):
    """One kind of weight matrix: `per_layer` copies in each of `layers` layers."""

    model_config = ConfigDict(frozen=True)
    name: str
    in_features: int
    out_features: int
    per_layer: int = 1
    layers: int
    active_per_layer: int = 1
    bias: bool = False
    expert: bool = False

    @property
    def weight_params(self) -> int:
        return self.in_features * self.out_features

    @property
    def total_params(self) -> int:
        return (self.weight_params + (self.out_features if self.bias else 0)) * self.per_layer * self.layers

    @property
    def active_params(self) -> int:
        return (self.weight_params + (self.out_features if self.bias else 0)) * self.active_per_layer * self.layers


class ParamCounts(BaseModel):
    """Parameter totals by part; `linear` is every weight matrix inside the layers (what LoRA and
    4-bit quantization act on); `embedding` and `lm_head` are counted apart."""

    embedding: int
    lm_head: int
    attention: int
    mlp: int
    experts: int
    router: int
    norms: int
    linear: int
    total: int
    active: int
    largest_linear: int
    largest_layer: int


def attention_linears(spec: ModelSpec) -> list[Linear]:
    """The attention projections, repeated over the layers that have them (hybrid models: full attention in
    some layers, linear attention in the others)."""
    h = spec.hidden_size
    la = spec.linear_attention
    L = spec.num_layers - (la.layers if la else 0)
    linear_attn: list[Linear] = []
    if la is not None:  # Gated DeltaNet: one fused q/k/v/z input projection, b/a gates, output projection
        key_dim, value_dim = la.num_key_heads * la.key_head_dim, la.num_value_heads * la.value_head_dim
        linear_attn = [
            Linear(name="linear_attn.in_proj_qkvz", in_features=h, out_features=2 * key_dim + 2 * value_dim, layers=la.layers),
            Linear(name="linear_attn.in_proj_ba", in_features=h, out_features=2 * la.num_value_heads, layers=la.layers),
            Linear(name="linear_attn.out_proj", in_features=value_dim, out_features=h, layers=la.layers),
        ]
    if spec.mla is not None:
        m = spec.mla
        qk_dim = m.qk_nope_head_dim + m.qk_rope_head_dim
        heads = spec.num_attention_heads
        out: list[Linear] = []
        if m.q_lora_rank:
            out.append(Linear(name="q_a_proj", in_features=h, out_features=m.q_lora_rank, layers=L))
            out.append(Linear(name="q_b_proj", in_features=m.q_lora_rank, out_features=heads * qk_dim, layers=L))
        else:
            out.append(Linear(name="q_proj", in_features=h, out_features=heads * qk_dim, layers=L))
        out += [
            Linear(name="kv_a_proj_with_mqa", in_features=h, out_features=m.kv_lora_rank + m.qk_rope_head_dim, layers=L),
            Linear(name="kv_b_proj", in_features=m.kv_lora_rank,
                   out_features=heads * (m.qk_nope_head_dim + m.v_head_dim), layers=L),
            Linear(name="o_proj", in_features=heads * m.v_head_dim, out_features=h, layers=L),
        ]
        return out + linear_attn
    q_dim = spec.num_attention_heads * spec.head_dim
    kv_dim = spec.num_kv_heads * spec.head_dim
    b = spec.qkv_bias
    return [
        Linear(name="q_proj", in_features=h, out_features=q_dim * (2 if spec.attn_output_gate else 1), layers=L, bias=b),
        Linear(name="k_proj", in_features=h, out_features=kv_dim, layers=L, bias=b),
        Linear(name="v_proj", in_features=h, out_features=kv_dim, layers=L, bias=b),
        Linear(name="o_proj", in_features=q_dim, out_features=h, layers=L, bias=spec.o_bias),
    ] + linear_attn


def _mlp(prefix: str, h: int, width: int, gated: bool, layers: int, per_layer: int = 1,
         active: int = 1, expert: bool = False, bias: bool = False) -> list[Linear]:
    names = ["gate_proj", "up_proj"] if gated else ["up_proj"]
    kw = dict(layers=layers, per_layer=per_layer, active_per_layer=active, expert=expert, bias=bias)
    mats = [Linear(name=prefix + n, in_features=h, out_features=width, **kw) for n in names]
    mats.append(Linear(name=prefix + "down_proj", in_features=width, out_features=h, **kw))
    return [m for m in mats if m.layers > 0 and m.per_layer > 0]


def mlp_linears(spec: ModelSpec) -> list[Linear]:
    """Dense MLP matrices, then (for MoE models) routed and shared expert matrices."""
    h, gated = spec.hidden_size, spec.mlp == "gated"
    if spec.moe is None:
        return _mlp("", h, spec.intermediate_size, gated, spec.num_layers)
    moe = spec.moe
    moe_layers = moe.moe_layers(spec.num_layers)
    out = _mlp("", h, spec.intermediate_size, gated, spec.num_layers - moe_layers)
    out += _mlp("experts.", h, moe.expert_intermediate_size, gated, moe_layers,
                per_layer=moe.routed_experts, active=moe.experts_per_token, expert=True, bias=moe.expert_bias)
    if moe.shared_experts:
        width = moe.shared_expert_intermediate_size or moe.expert_intermediate_size
        out += _mlp("shared_experts.", h, width, gated, moe_layers,
                    per_layer=moe.shared_experts, active=moe.shared_experts)
    return out


def linear_layers(spec: ModelSpec) -> list[Linear]:
    """Every weight matrix inside the transformer layers (not embedding or LM head)."""
    return attention_linears(spec) + mlp_linears(spec)


def _norm_params(spec: ModelSpec) -> int:
    """Norm weights and the other small non-matrix parameters (attention sinks, linear-attention convolution,
    decay and norm vectors): all kept in 16-bit by every format."""
    h, L = spec.hidden_size, spec.num_layers
    la = spec.linear_attention
    attn_layers = L - (la.layers if la else 0)
    out = spec.norms_per_layer * h * L + h  # + the final norm
    if spec.qk_norm:
        out += 2 * spec.head_dim * attn_layers
    if spec.mla is not None:
        out += (spec.mla.kv_lora_rank + (spec.mla.q_lora_rank or 0)) * attn_layers
    if spec.attention_sinks:
        out += spec.num_attention_heads * attn_layers
    if la is not None:  # depthwise conv1d (conv_dim x kernel), A_log and dt_bias per value head, gated RMSNorm
        out += (la.conv_dim * la.conv_kernel + 2 * la.num_value_heads + la.value_head_dim) * la.layers
    return out


def _router_params(spec: ModelSpec) -> int:
    if spec.moe is None:
        return 0
    moe = spec.moe
    per_layer = spec.hidden_size * moe.routed_experts + (moe.routed_experts if moe.router_bias else 0)
    if moe.shared_expert_gate:
        per_layer += spec.hidden_size
    return per_layer * moe.moe_layers(spec.num_layers)


def count_parameters(spec: ModelSpec) -> ParamCounts:
    """Parameter counts by part, computed from the architecture alone."""
    attn = attention_linears(spec)
    mlp = mlp_linears(spec)
    embedding = spec.vocab_size * spec.hidden_size
    lm_head = 0 if spec.tie_embeddings else embedding
    norms, router = _norm_params(spec), _router_params(spec)
    attn_p = sum(m.total_params for m in attn)
    dense_p = sum(m.total_params for m in mlp if not m.expert)
    expert_p = sum(m.total_params for m in mlp if m.expert)
    linear = attn_p + dense_p + expert_p
    total = embedding + lm_head + linear + norms + router + spec.extra_params
    inactive = sum(m.total_params - m.active_params for m in mlp)
    L = spec.num_layers
    per_layer_attn = attn_p // L
    layer_norms = (norms - spec.hidden_size) // L
    dense_layer = per_layer_attn + sum(m.weight_params * m.per_layer for m in mlp if not m.expert and m.layers) \
        + layer_norms
    moe_layer = 0
    if spec.moe is not None:
        n_moe = spec.moe.moe_layers(L)
        moe_layer = per_layer_attn + layer_norms + router // max(1, n_moe) + sum(
            m.weight_params * m.per_layer for m in mlp if m.expert or m.name.startswith("shared_experts."))
        if n_moe == L:
            dense_layer = 0
    return ParamCounts(
        embedding=embedding, lm_head=lm_head, attention=attn_p, mlp=dense_p, experts=expert_p,
        router=router, norms=norms, linear=linear, total=total, active=total - inactive,
        largest_linear=max(m.weight_params for m in attn + mlp),
        largest_layer=max(dense_layer, moe_layer),
    )
