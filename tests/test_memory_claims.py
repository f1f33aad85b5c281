"""Issue 24, 'wrong headline claim': a claimed memory amount is checked against the computed one, whatever the card,
and an MoE's memory is said to follow its total parameters."""
from __future__ import annotations

import pytest

from assistant.service import ask


@pytest.mark.parametrize("q,holds", [
    # Qwen3-30B-A3B: 30.5e9 parameters x 2 B = 61 GB of BF16 weights, whatever the active 3.3B: 7 GB is wrong
    ("Qwen3-30B-A3B 总参 30.5B、激活 3.3B。同事说激活只有 3.3B，所以 BF16 只要 7GB 显存就能跑，对吗？", False),
    # Llama 3.1 8B: 8.03e9 x 2 B = 16.1 GB of weights + ~1 GB at 4k: 'needs only 20 GB' holds
    ("A colleague says Llama 3.1 8B inference in BF16 needs only 20GB of VRAM. Is that true?", True),
])
def test_a_claimed_memory_amount_is_checked_against_the_computed_one(q, holds):
    a = ask(q)
    assert a.intent == "fact_check"
    assert a.figures["claim_correct"] == int(holds)


def test_a_requirement_claimed_in_tb_is_checked_not_refused_as_a_card():
    a = ask("Llama 3.1 8B needs 3 TB of VRAM for inference, right? How many H100s do I need?")
    # 8.03e9 x 2 B = 16 GB of BF16 weights (+ ~1.6 GB at 4k): 3 TB is wrong by ~170x; one H100 holds it
    assert a.intent == "fact_check" and a.figures["claim_correct"] == 0
    assert not a.invalid if hasattr(a, "invalid") else True
    assert "3000 GB" in a.answer


def test_a_fraction_of_a_gpu_is_said_and_sized_on_a_whole_one():
    from assistant.readers.rules import read
    from knowledge.catalog import default_catalog

    reading = read("我们要用 0.5 张 4090 跑 Qwen2.5-7B 可以吗?", default_catalog())
    assert any("fraction of a GPU" in w for w in reading.warnings)


def test_a_claimed_gpu_count_is_checked_not_used_as_the_cluster():
    a = ask("By my math Mistral 7B needs ~3TB of GPU memory for inference (7B params x 32 layers x 4 bytes x a few for "
            "activations...). So I'd need like 38 H100s?? That seems insane, can you confirm the number of H100s?")
    # 7.24e9 x 2 B = 14.5 GB of BF16 weights (+ ~1.6 GB at 4k): one H100; the 3 TB and 38 GPUs are the claim
    assert a.intent == "fact_check" and a.figures["claim_correct"] == 0
    assert a.verdict.fits and (a.verdict.num_gpus or 1) == 1


def test_a_bulleted_list_of_quotes_is_not_a_negative_count():
    from assistant.readers.rules import read
    from knowledge.catalog import default_catalog

    q = ("Options we have quotes for:\n- 1x H100 PCIe 80GB, $28k (+ ~$8k server)\n- 2x L40S 48GB, $8k each\nWhich should we "
         "buy for Qwen2.5-32B and 20 users?")
    assert read(q, default_catalog()).invalid == []
    assert read("Run Llama 3.1 8B on -4 GPUs?", default_catalog()).invalid
