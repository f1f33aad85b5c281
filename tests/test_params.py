"""Parameter counts from the architecture match the official totals."""
from __future__ import annotations

import pytest

from knowledge.catalog import default_catalog
from tools.params import count_parameters

MODELS = default_catalog().models


@pytest.mark.parametrize("spec", MODELS, ids=[m.id for m in MODELS])
def test_computed_total_matches_official_within_1_percent(spec):
    computed = count_parameters(spec).total
    assert abs(computed / spec.params_total - 1) < 0.01, (computed, spec.params_total)


def _half_unit(published: int) -> float:
    """Half a unit in the last significant digit a figure was published with: '3B' (3000000000) -> 0.5e9,
    '3.3B' -> 0.05e9, '37B' -> 0.5e9: an 'A3B' model's active count may be 2.5-3.5B."""
    digits = str(published).rstrip("0")
    return 0.5 * 10 ** (len(str(published)) - len(digits))


@pytest.mark.parametrize("spec", [m for m in MODELS if m.moe], ids=[m.id for m in MODELS if m.moe])
def test_moe_active_parameters_match_official(spec):
    # Official active figures are rounded (12.9B, 37B, 3B) and some leave out the embedding (gpt-oss) or the
    # embedding and LM head (GLM-4.5, Qwen3-Next): active_excludes says which, so like is compared with like.
    c = count_parameters(spec)
    active = c.active - (c.embedding if "embedding" in spec.active_excludes else 0) \
        - (c.lm_head if "lm_head" in spec.active_excludes else 0)
    allowed = max(0.03 * spec.params_active, _half_unit(spec.params_active))
    assert abs(active - spec.params_active) <= allowed, (active, spec.params_active)


def test_half_unit_reads_the_published_rounding():
    assert _half_unit(3_000_000_000) == 0.5e9 and _half_unit(3_300_000_000) == 0.05e9
    assert _half_unit(5_130_000_000) == 0.005e9 and _half_unit(37_000_000_000) == 0.5e9


def test_the_catalog_covers_what_people_run_in_late_2026():
    ids = {m.id for m in MODELS}
    assert len(ids) >= 70
    for must in ("gpt-oss-20b", "gpt-oss-120b", "qwen3-0.6b", "qwen3-next-80b-a3b", "qwen3-235b-a22b", "deepseek-v3.1",
                 "deepseek-r1-distill-qwen-32b", "kimi-k2", "glm-4.5", "glm-4.6", "llama-4-scout-17b-16e",
                 "llama-4-maverick-17b-128e", "gemma-3-27b", "mistral-small-24b", "phi-4", "yi-1.5-34b",
                 "baichuan2-13b", "internlm2.5-7b"):
        assert must in ids, must
    assert all(m.source and m.as_of for m in MODELS)


def test_llama_3_1_70b_by_hand(model):
    # embeddings 128256 x 8192 = 1,050,673,152, twice (untied LM head)
    # per layer: q 8192x8192 + k,v 8192x1024 each + o 8192x8192 = 150,994,944
    #            gate, up 8192x28672 + down 28672x8192 = 704,643,072
    #            two RMSNorms 2 x 8192 = 16,384
    # total = 2 x 1,050,673,152 + 80 x 855,654,400 + 8192 (final norm) = 70,553,706,496
    c = count_parameters(model("llama-3.1-70b"))
    assert c.embedding == 1_050_673_152
    assert c.attention == 80 * 150_994_944
    assert c.mlp == 80 * 704_643_072
    assert c.total == 70_553_706_496


def test_mixtral_counts_every_expert_but_activates_two(model):
    # experts per layer: 8 x 3 x 4096 x 14336 = 1,409,286,144; active: 2 of 8
    c = count_parameters(model("mixtral-8x7b"))
    assert c.experts == 32 * 1_409_286_144
    assert c.total - c.active == 32 * 6 * 3 * 4096 * 14336


def test_deepseek_v3_mla_attention_by_hand(model):
    # q_a 7168x1536 + q_b 1536x(128x192) + kv_a 7168x(512+64) + kv_b 512x(128x256) + o (128x128)x7168
    per_layer = 7168 * 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 * 128 * 256 + 128 * 128 * 7168
    assert count_parameters(model("deepseek-v3")).attention == 61 * per_layer


def test_tied_embeddings_have_no_separate_head(model):
    assert count_parameters(model("llama-3.2-1b")).lm_head == 0
    assert count_parameters(model("llama-3.1-8b")).lm_head == 128256 * 4096
