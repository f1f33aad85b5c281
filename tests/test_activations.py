"""The per-layer activation count reduces to Korthikanti et al.'s 34·s·b·h + 5·a·s²·b for their GPT."""
from __future__ import annotations

from knowledge.schemas import ModelSpec
from tools.activations import layer_bytes_per_token

GPT = dict(id="gpt-test", name="GPT", family="gpt", params_total=1, num_layers=24, hidden_size=2048,
           num_attention_heads=16, num_kv_heads=16, head_dim=128, intermediate_size=4 * 2048, vocab_size=51200,
           tie_embeddings=True, max_context=2048, attention="mha", mlp="plain", dropout=True, source="test", as_of="2022")


def test_gpt_layer_matches_the_papers_formula():
    spec = ModelSpec(**GPT)
    s, h, a = 2048, 2048, 16
    # per token (divide the paper's sbh terms by s·b): 34·h + 5·a·s bytes
    assert layer_bytes_per_token(spec, seq_len=s, attention_core=True) == 34 * h + 5 * a * s


def test_selective_recompute_drops_the_attention_core():
    spec = ModelSpec(**GPT)
    # without the 5·a·s term, only FlashAttention's fp32 log-sum-exp (4 bytes per head) remains
    assert layer_bytes_per_token(spec, seq_len=2048, attention_core=False) == 34 * 2048 + 4 * 16


def test_gated_mlp_keeps_four_intermediates():
    spec = ModelSpec(**(GPT | {"mlp": "gated", "dropout": False, "intermediate_size": 5632}))
    h, i = 2048, 5632
    # attention: 5 h-wide tensors; MLP: input h + gate, up, act, product (4 i); norms 2 h; x 2 bytes
    assert layer_bytes_per_token(spec, seq_len=2048, attention_core=False) == 2 * (5 * h + h + 4 * i + 2 * h) + 4 * 16
