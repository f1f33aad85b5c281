"""Issue 26 item 2: expert parallelism in training memory. Each GPU holds experts/EP of every MoE layer; sharded
states are the same total either way, but weights under ZeRO-1/2 and ZeRO-3's gathered layer shrink. Hand arithmetic
in each test (Mixtral 8x7B: 32 layers, hidden 4096, 8 experts of 3 x 4096 x 14336)."""
from __future__ import annotations

import pytest

from knowledge.catalog import default_catalog
from tools.params import count_parameters
from tools.train_memory import TrainingMemoryRequest, default_ep, estimate_training_memory

CAT = default_catalog()
MIXTRAL = CAT.model("mixtral-8x7b")[0]
H100 = CAT.gpu("h100")[0]
STATES = ("weights", "gradients", "master_weights", "optimizer_states")


def size(**kw):
    return estimate_training_memory(TrainingMemoryRequest(model=MIXTRAL, gpu=H100, **kw))


def test_the_default_ep_divides_the_experts_within_the_gpus():
    # Mixtral's 8 experts: on 8 or 12 data-parallel GPUs every GPU holds 1 (EP 8); on 6, EP 4 (the largest divisor
    # of 8 not above 6); on 1, none
    assert default_ep(MIXTRAL, 8) == 8 and default_ep(MIXTRAL, 12) == 8 and default_ep(MIXTRAL, 6) == 4
    assert default_ep(MIXTRAL, 1) == 1
    dense = CAT.model("llama-3.1-8b")[0]
    assert default_ep(dense, 64) == 1


def test_fully_sharded_states_are_the_same_total_with_or_without_ep():
    a, b = size(num_gpus=8, zero=3, ep=1), size(num_gpus=8, zero=3, ep=8)
    for k in STATES:
        assert a.breakdown_gb[k] == pytest.approx(b.breakdown_gb[k], rel=1e-3), k
    assert b.breakdown_gb["zero3_gather_buffers"] <= a.breakdown_gb["zero3_gather_buffers"]


def test_under_zero_1_each_gpu_holds_only_its_experts_weights():
    c = count_parameters(MIXTRAL)
    # experts: 32 layers x 8 x 3 x 4096 x 14336 = 45.1e9; the rest ~1.6e9. EP 8: 1.6e9 + 45.1e9 / 8 = 7.24e9 params x 2 B
    expert = 32 * 8 * 3 * 4096 * 14336
    assert c.experts == expert
    r = size(num_gpus=8, zero=1, ep=8)
    assert r.breakdown_gb["weights"] == pytest.approx(((c.total - expert) + expert / 8) * 2 / 1e9, rel=0.01)
    assert size(num_gpus=8, zero=1, ep=1).breakdown_gb["weights"] == pytest.approx(c.total * 2 / 1e9, rel=0.01)
    assert r.layout["ep"] == 8


@pytest.mark.parametrize("kw,msg", [({"model": "llama-3.1-8b", "ep": 2, "num_gpus": 2}, "dense"),
                                    ({"model": "mixtral-8x7b", "ep": 3, "num_gpus": 6}, "must divide")])
def test_an_impossible_ep_is_refused_with_what_is_accepted(kw, msg):
    m = CAT.model(kw.pop("model"))[0]
    with pytest.raises(ValueError, match=msg):
        TrainingMemoryRequest(model=m, gpu=H100, **kw)


def test_a_671b_moe_full_fine_tune_needs_about_its_states_over_80_gb():
    r = estimate_training_memory(TrainingMemoryRequest(model=CAT.model("deepseek-v3")[0], gpu=CAT.gpu("h800")[0]))
    # 671e9 x 16 B = 10,736 GB of states; / ~80 GB usable = 134 GPUs at the least; activations and buffers add some
    assert 134 <= r.min_gpus <= 200


def test_training_time_names_the_ep_and_charges_all_to_all_only_on_slow_links():
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    base = dict(model=MIXTRAL, method="lora", num_gpus=16, tokens=1e9)
    hgx = estimate_training_time(TrainingTimeRequest(gpu=H100, **base))
    assert hgx.layout["ep"] == 8 and not any("all-to-all per GPU" in a for a in hgx.assumptions)
    pcie = estimate_training_time(TrainingTimeRequest(gpu=CAT.gpu("rtx-4090")[0], **base))
    # 262,144 tokens per step / 16 GPUs = 16,384 tokens x 32 MoE layers x (2 x 2 x top-2 x 4096 x 2 B = 65,536 B)
    # x 7/8 leaving the GPU = 30.1 GB per GPU per step
    line = next(a for a in pcie.assumptions if "all-to-all per GPU" in a)
    assert "30.1 GB" in line
