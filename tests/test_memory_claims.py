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
