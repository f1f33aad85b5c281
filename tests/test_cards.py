"""Cards people own: the ids the contract names, Apple silicon with the GPU's share of unified memory, a card
given by its memory size, and BF16/FP8 support deciding the formats offered."""
from __future__ import annotations

import pytest

from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory
from tools.memory import usable_bytes
from tools.units import GiB

CONTRACT_IDS = ["rtx-3090", "rtx-3090-ti", "rtx-4080", "rtx-4090d", "rtx-5090", "v100-16gb", "v100-32gb", "t4", "a10",
                "l40", "a40", "rtx-6000-ada", "b300", "mi355x", "m4-max-128gb", "m2-ultra-192gb"]


@pytest.mark.parametrize("gid", CONTRACT_IDS)
def test_the_contract_ids_resolve(gpu, gid):
    g = gpu(gid)
    assert g.id == gid and g.source and g.as_of


def test_apple_ids_say_vendor_apple_and_use_macos_share(gpu):
    m4 = gpu("m4-max-128gb")
    assert m4.vendor == "Apple" and m4.memory_bandwidth_gbps == 546
    # 128 GB of unified memory is 128 GiB; macOS lets the GPU wire 3/4 of it above 36 GB (Metal's
    # recommendedMaxWorkingSetSize: 96 of 128 GiB in a 2025 llama.cpp log; 48 of 64 GiB in llama.cpp #1870)
    assert usable_bytes(m4) == pytest.approx(0.75 * 128 * GiB)
    small = gpu("m2-max-32gb")  # 2/3 at 32 GB: 21.33 GiB (llama.cpp PR #2011)
    assert usable_bytes(small) == pytest.approx(2 / 3 * 32 * GiB)


def test_a_mac_is_one_gpu(model, gpu):
    r = estimate_inference_memory(InferenceMemoryRequest(model=model("llama-3.1-405b"), gpu=gpu("m4-max-128gb"),
                                                         precision="q4_k_m"))
    assert r.fits is False and r.min_gpus is None  # no second GPU to add to a MacBook
    assert any("iogpu.wired_limit_mb" in a for a in r.assumptions)


def test_a_card_given_by_its_memory(catalog):
    g, note = catalog.gpu("24GB")
    assert g.memory_bytes == 24e9 and g.memory_bandwidth_gbps is None and "bandwidth" in note
    g2, _ = catalog.gpu("48gb:864")
    assert g2.memory_bandwidth_gbps == 864
    assert catalog.gpu("custom-16gb")[0].memory_bytes == 16e9
    with pytest.raises(ValueError, match="1-4096 GB"):
        catalog.gpu("0.5GB")


def test_speed_needs_the_bandwidth_of_a_custom_card(model, catalog):
    from tools.infer_speed import InferenceSpeedRequest

    with pytest.raises(ValueError, match="24GB:936"):
        InferenceSpeedRequest(model=model("llama-3.1-8b"), gpu=catalog.gpu("24GB")[0])


def test_the_recommender_ranks_data_centre_and_desktop_cards_not_macs(catalog, model):
    from tools.recommend import RecommendRequest, recommend

    gpus = [catalog.gpu(g)[0] for g in ("rtx-4090", "m4-max-128gb")]
    r = recommend(RecommendRequest(model=model("qwen2.5-7b"), task="lora", gpus=gpus))
    assert [o.gpu for o in r.options] == ["rtx-4090"]
    assert "MLX" in next(o.why for o in r.rejected if o.gpu == "m4-max-128gb")
