"""Names resolve the way people write them; unknown names get suggestions; every record is sourced."""
from __future__ import annotations

import pytest

from knowledge.catalog import UnknownItem
from tools.params import count_parameters

REQUIRED_MODELS = ["llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b",
                   "llama-3.2-1b", "llama-3.2-3b", "llama-3.3-70b", "qwen2.5-0.5b", "qwen2.5-1.5b", "qwen2.5-3b",
                   "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-72b", "qwen3-8b", "qwen3-32b", "qwen3-30b-a3b",
                   "qwen3-235b-a22b", "mistral-7b", "mixtral-8x7b", "mixtral-8x22b", "deepseek-v3", "gemma-2-9b",
                   "gemma-2-27b", "glm-4-9b", "yi-34b"]
REQUIRED_GPUS = ["a100-40gb", "a100-80gb", "a100-80gb-pcie", "h100", "h100-pcie", "h100-nvl", "h200", "h20", "h800",
                 "a800", "l40s", "l20", "l4", "rtx-4090", "rtx-a6000", "b200", "mi300x", "ascend-910b"]


def test_catalog_has_every_required_model_and_gpu(catalog):
    assert set(REQUIRED_MODELS) <= {m.id for m in catalog.models}
    assert set(REQUIRED_GPUS) <= {g.id for g in catalog.gpus}


def test_every_record_has_source_and_as_of(catalog):
    for rec in [*catalog.models, *catalog.gpus]:
        assert rec.source.strip() and rec.as_of.strip(), rec.id


@pytest.mark.parametrize("name,expected", [
    ("meta-llama/Llama-3.1-70B-Instruct", "llama-3.1-70b"), ("Llama-3.1-70B", "llama-3.1-70b"),
    ("LLAMA 3.1 70B", "llama-3.1-70b"), ("Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b"), ("deepseek-r1", "deepseek-v3"),
])
def test_model_aliases_resolve(catalog, name, expected):
    assert catalog.model(name)[0].id == expected


@pytest.mark.parametrize("name,expected", [
    ("A100 80GB", "a100-80gb"), ("h200-sxm", "h200"), ("910B", "ascend-910b"), ("4090", "rtx-4090"),
    ("H100", "h100"), ("a100_80gb_pcie", "a100-80gb-pcie"),
])
def test_gpu_aliases_resolve(catalog, name, expected):
    assert catalog.gpu(name)[0].id == expected


def test_bare_a100_means_80gb_sxm_and_says_so(catalog):
    gpu, note = catalog.gpu("A100")
    assert gpu.id == "a100-80gb"
    assert "ambiguous" in note and "a100-40gb" in note


def test_l4_is_not_taken_for_a_variant_of_l40s(catalog):
    gpu, note = catalog.gpu("L4")
    assert gpu.id == "l4" and note is None


@pytest.mark.parametrize("text,n", [("70b", 70e9), ("7B", 7e9), ("700亿", 70e9), ("1.5b", 1.5e9), ("405B", 405e9)])
def test_bare_size_is_a_generic_model_with_exactly_that_many_parameters(catalog, text, n):
    spec, note = catalog.model(text)
    assert spec.generic and spec.params_total == int(n)
    assert count_parameters(spec).total == int(n)
    # the MLP width's rounding remainder is tiny: under 3 x hidden x layers parameters
    assert spec.extra_params < 3 * spec.hidden_size * spec.num_layers
    assert "generic" in note


def test_generic_70b_is_shaped_like_llama_3_70b(catalog):
    spec, _ = catalog.model("70b")
    assert (spec.num_layers, spec.hidden_size, spec.num_kv_heads, spec.vocab_size) == (80, 8192, 8, 128256)


def test_unknown_gpu_names_the_closest_ids(catalog):
    with pytest.raises(UnknownItem) as err:
        catalog.gpu("a1000")
    assert "a100" in str(err.value) and "gpu-advisor gpus" in str(err.value)


def test_unknown_model_names_the_closest_ids(catalog):
    with pytest.raises(UnknownItem) as err:
        catalog.model("lama-3.1-70b")
    assert "llama-3.1-70b" in err.value.suggestions


def test_absurd_bare_size_is_refused(catalog):
    # a hypothetical 100T model is a real question (sized); beyond 1,000T, or under 0.1B, it is refused in words
    assert catalog.model("100000b")[0].params_total == 100_000_000_000_000
    with pytest.raises(ValueError, match="between 0.1B and 1000T"):
        catalog.model("9000000b")
    with pytest.raises(ValueError, match="between 0.1B and 1000T"):
        catalog.model("0.01b")


def test_every_id_and_alias_resolves_to_its_own_record(catalog):
    for g in catalog.gpus:
        for name in (g.id, *g.aliases):
            assert catalog.gpu(name)[0].id == g.id, name
    for m in catalog.models:
        for name in (m.id, *m.aliases):
            assert catalog.model(name)[0].id == m.id, name


def test_prices_and_gpus_agree_on_ids(catalog):
    from knowledge.prices import shipped_prices

    assert {p.gpu for p in shipped_prices()} <= {g.id for g in catalog.gpus}
