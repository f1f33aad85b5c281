"""Consumer, workstation and older data-center cards: names as people write them, dense datasheet figures."""
from __future__ import annotations

import pytest

NEW_GPUS = ["rtx-3090", "rtx-3090-ti", "rtx-4080", "rtx-4090d", "rtx-5090", "v100-16gb", "v100-32gb", "t4", "a10",
            "l40", "a40", "rtx-6000-ada"]


def test_all_new_cards_are_in_the_catalog(catalog):
    assert set(NEW_GPUS) <= {g.id for g in catalog.gpus}


@pytest.mark.parametrize("name,expected", [
    ("3090", "rtx-3090"), ("rtx3090", "rtx-3090"), ("RTX 3090 Ti", "rtx-3090-ti"), ("3090ti", "rtx-3090-ti"),
    ("4080", "rtx-4080"), ("4090D", "rtx-4090d"), ("4090 D", "rtx-4090d"), ("4090", "rtx-4090"), ("5090", "rtx-5090"),
    ("Tesla T4", "t4"), ("t4", "t4"), ("A10", "a10"), ("L40", "l40"), ("L40S", "l40s"), ("L4", "l4"), ("A40", "a40"),
    ("RTX 6000 Ada", "rtx-6000-ada"), ("V100 32GB", "v100-32gb"), ("Tesla V100-SXM2-16GB", "v100-16gb"),
])
def test_names_as_people_write_them(catalog, name, expected):
    assert catalog.gpu(name)[0].id == expected


def test_bare_v100_means_the_16gb_sxm2_and_says_so(catalog):
    gpu, note = catalog.gpu("v100")
    assert gpu.id == "v100-16gb"
    assert "ambiguous" in note and "v100-32gb" in note


def test_a10g_is_its_own_card_not_an_a10(catalog):
    # AWS's A10G (g5 instances) has its own record since issue 15: never silently the A10 (BF16 70 vs 125 TFLOPS)
    a10g, a10 = catalog.gpu("A10G")[0], catalog.gpu("A10")[0]
    assert a10g.id == "a10g" and a10.id == "a10" and a10g.bf16_dense_tflops != a10.bf16_dense_tflops


def test_mentions_find_the_new_cards_in_chinese_text(catalog):
    found = [r.id for _, kind, r in catalog.mentions("手上有两张4090 D、一张V100 32G和T4，还有RTX 6000 Ada") if kind == "gpu"]
    assert found == ["rtx-4090d", "v100-32gb", "t4", "rtx-6000-ada"]


@pytest.mark.parametrize("gpu_id,field,value", [
    ("a40", "bf16_dense_tflops", 149.7),       # A40 datasheet: 149.7 | 299.4* (sparse)
    ("a40", "nvlink_gbps", 112.5),
    ("l40", "fp8_dense_tflops", 362),          # L40 datasheet: 362 | 724*
    ("l40", "bf16_dense_tflops", 181.05),
    ("a10", "bf16_dense_tflops", 125),         # A10 datasheet: 125 | 250*
    ("t4", "fp16_dense_tflops", 65),           # T4 datasheet: 65 TFLOPS mixed precision
    ("v100-16gb", "fp16_dense_tflops", 125),   # V100 SXM2 datasheet: 125 tensor TFLOPS (no sparsity on Volta)
    ("rtx-3090", "bf16_dense_tflops", 71),     # GA102 whitepaper: 71 | 142* with FP32 accumulate
    ("rtx-3090", "memory_bandwidth_gbps", 936),
    ("rtx-4080", "bf16_dense_tflops", 97.5),   # Ada whitepaper: 97.5 | 194.9* with FP32 accumulate
    ("rtx-6000-ada", "fp8_dense_tflops", 728.5),  # datasheet: 1,457 TFLOPS FP8 with sparsity
    ("rtx-5090", "fp4_dense_tflops", 1676),    # 3,352 AI TOPS (FP4, sparse) halved
    ("rtx-5090", "memory_bandwidth_gbps", 1792),
])
def test_dense_figures_from_the_datasheets(catalog, gpu_id, field, value):
    assert getattr(catalog.gpu(gpu_id)[0], field) == pytest.approx(value)


@pytest.mark.parametrize("gpu_id", ["v100-16gb", "v100-32gb", "t4"])
def test_pre_ampere_cards_have_no_bf16_and_say_null(catalog, gpu_id):
    g = catalog.gpu(gpu_id)[0]
    assert g.bf16_dense_tflops is None and g.tf32_dense_tflops is None and g.fp8_dense_tflops is None
    assert g.fp16_dense_tflops > 0


@pytest.mark.parametrize("gpu_id,mib", [
    ("rtx-3090", 24576), ("rtx-3090-ti", 24564), ("rtx-4080", 16376), ("rtx-4090d", 24564), ("rtx-5090", 32607),
    ("v100-16gb", 16384), ("v100-32gb", 32768), ("t4", 15360), ("a10", 23028), ("l40", 46068), ("a40", 46068),
    ("rtx-6000-ada", 49140),
])
def test_memory_bytes_is_the_nvidia_smi_total(catalog, gpu_id, mib):
    g = catalog.gpu(gpu_id)[0]
    assert g.memory_bytes == mib * 2**20
    assert f"{mib} MiB" in g.notes


def test_cards_without_nvlink_say_null(catalog):
    for gpu_id in ("rtx-4080", "rtx-4090d", "rtx-5090", "t4", "a10", "l40", "rtx-6000-ada"):
        g = catalog.gpu(gpu_id)[0]
        assert g.nvlink_gbps is None and g.gpus_per_nvlink_domain is None, gpu_id
