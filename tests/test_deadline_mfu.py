"""Issue 24, 'wrong job' class: a deadline on a stated GPU count is judged, with the MFU it would need; an MFU above
100% is called impossible and the GPU count the deadline takes is given. Hand arithmetic in each test."""
from __future__ import annotations

import pytest

from assistant.service import ask
from knowledge.catalog import default_catalog
from tools.efficiency import BEST_PUBLISHED_MFU
from tools.train_time import TrainingTimeRequest, estimate_training_time, mfu_for_deadline


def test_the_mfu_a_deadline_needs_scales_inversely_with_the_hours():
    cat = default_catalog()
    r = estimate_training_time(TrainingTimeRequest(model=cat.model("llama-3.1-8b")[0], gpu=cat.gpu("h100")[0],
                                                   num_gpus=8, tokens=1e10))
    # time is FLOPs / (GPUs x peak x MFU): halving the hours doubles the MFU needed
    assert mfu_for_deadline(r, r.wall_hours) == pytest.approx(r.mfu)
    assert mfu_for_deadline(r, r.wall_hours / 2) == pytest.approx(2 * r.mfu)
    with pytest.raises(ValueError):
        mfu_for_deadline(r, 0)


@pytest.mark.parametrize("q", [
    "We need to pre-train a 70B model on 15T tokens in 3 days using 64 H100s. What MFU do we need to hit to make that deadline?",
    "64 张 H100 三天内预训练 70B、15T token，MFU 要达到多少？",
])
def test_an_impossible_deadline_is_called_impossible_with_the_gpus_it_takes(q):
    a = ask(q)
    assert a.intent == "training_time"
    # 6 x 70e9 x 15e12 = 6.3e24 FLOPs (+ ~2% attention at 2k tokens); 64 x 989.4e12 FLOP/s x 72 x 3600 s = 1.641e22 FLOPs
    # at 100% of peak: MFU needed = 6.3e24 / 1.641e22 = 384 (38,400%), ~392 with attention
    assert 380 <= a.figures["mfu_needed"] <= 400
    assert ("impossible" in a.answer) or ("不可能" in a.answer)
    # at MFU 0.40: 6.42e24 / (989.4e12 x 0.40) / 3600 = 4.5e6 GPU-hours; / 72 h = 62,600 GPUs (whole 8-GPU servers)
    assert 62_000 <= a.figures["gpus_for_deadline"] <= 63_000


def test_a_feasible_deadline_states_the_mfu_it_needs_without_calling_it_impossible():
    a = ask("Pre-train an 8B model on 1T tokens with 512 H100s within 30 days: can we make it?")
    # 6 x 8e9 x 1e12 = 4.8e22 FLOPs; 512 x 989.4e12 x 30 x 86,400 s = 1.313e24 FLOP at peak: MFU needed = 3.7% (+ attention)
    assert 0.036 <= a.figures["mfu_needed"] <= 0.045
    assert a.figures["meets_deadline"] == 1
    assert "impossible" not in a.answer and "gpus_for_deadline" not in a.figures


def test_the_best_published_mfu_is_a_share_below_one():
    assert 0.4 <= BEST_PUBLISHED_MFU < 1
