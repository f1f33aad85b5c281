"""Issue 24, class 6 (hardware words): a form factor written after the memory ('A100 80G PCIe') picks the PCIe card;
the A800's PCIe versions are their own records (40 and 80 GB, NVLink bridge 400 GB/s); 'how many concurrent 8k
users' asks the users, with 8k as their context."""
from __future__ import annotations

import pytest

from assistant.readers import slots
from assistant.readers.rules import read
from knowledge.catalog import default_catalog

CAT = default_catalog()


@pytest.mark.parametrize("text,gpu", [("8x A100 80G PCIe inference of Llama 70B", "a100-80gb-pcie"),
                                      ("2 张 A100 40G PCIe 推理 Qwen2.5-32B", "a100-40gb-pcie"),
                                      ("A800 PCIe 40G 能 LoRA 微调 Qwen2.5-14B 吗?", "a800-40gb-pcie"),
                                      ("8x A800 80G PCIe inference of Llama 70B", "a800-80gb-pcie"),
                                      ("A800 能 LoRA 微调 Qwen2.5-14B 吗?", "a800"),
                                      ("H100 PCIe for Llama 8B", "h100-pcie")])
def test_the_form_factor_written_after_a_card_picks_that_card(text, gpu):
    assert read(text, CAT).request.gpu == gpu


def test_the_a800_pcie_cards_keep_the_a100s_math_and_the_cut_link():
    for gid, mem, bw in (("a800-40gb-pcie", 40, 1555), ("a800-80gb-pcie", 80, 1935)):
        g = CAT.gpu(gid)[0]
        assert (g.memory_gb, g.memory_bandwidth_gbps, g.bf16_dense_tflops, g.nvlink_gbps) == (mem, bw, 312, 400)
        assert g.source and g.as_of


def test_how_many_concurrent_8k_users_asks_the_users():
    low = "mi300x x8 for llama 3.1 405b fp8 inference, how many concurrent 8k users?"
    assert "concurrent_users" not in slots.users(low)
    r = read(low, CAT).request
    assert r.context == 8192 and r.concurrent_users is None


def test_a_price_on_the_line_above_is_not_the_next_cards_count():
    from assistant.readers.names import Names, count_spans_near_gpus, find_names

    text = "报价：\nh20 8卡机 115 万\nl20 8卡机 55 万\n选哪个？"
    names, work = find_names(text, CAT)
    l20 = [sp for sp in names.gpu_spans if sp[2] == "l20"]
    # '115 万' ends the H20's line; the L20's count is the 8 after it, never 1,150,000
    total, *_ = count_spans_near_gpus(work, Names(gpus=["l20"], gpu_spans=l20))
    assert total == 8
