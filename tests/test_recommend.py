"""Recommendation and parallel plans: only options that fit, ranked by the stated rule, with reasons."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from knowledge.catalog import default_catalog
from knowledge.prices import shipped_prices
from tools.parallel_plan import ParallelPlanRequest, plan_parallel
from tools.recommend import RecommendRequest, recommend

CAT = default_catalog()


def rec(model_id, task, **kw):
    return recommend(RecommendRequest(model=CAT.model(model_id)[0], task=task, gpus=CAT.gpus, prices=shipped_prices(), **kw))


def test_options_are_sorted_by_rank_and_explained():
    r = rec("llama-3.1-70b", "qlora")
    assert [o.rank for o in r.options] == list(range(1, len(r.options) + 1))
    assert all(o.why for o in r.options)
    rest = r.options
    if r.options[0].why != "cheapest":
        # no deadline or budget: a card >= 2x faster for <= 2x the cheapest's cost is put first (FAST_PICK_*), said
        from tools.recommend import FAST_PICK_COST, FAST_PICK_SPEEDUP

        quick, cheap = r.options[0], r.options[1]
        assert cheap.wall_hours / quick.wall_hours >= FAST_PICK_SPEEDUP and quick.cost / cheap.cost <= FAST_PICK_COST
        assert "faster than" in quick.why
        rest = r.options[1:]
    priced = [o.cost for o in rest if o.cost is not None]
    assert priced == sorted(priced)


def test_a_deadline_ranks_the_cheapest_that_meets_it_first():
    r = rec("llama-3.1-8b", "full", tokens=1e9, deadline_hours=10)
    first = r.options[0]
    assert first.wall_hours <= 10
    meeting = [o for o in r.options if o.wall_hours <= 10 and o.cost is not None]
    assert first.cost == min(o.cost for o in meeting)


def test_gpus_that_cannot_hold_the_job_are_rejected_with_a_reason():
    r = rec("llama-3.1-405b", "inference", seq_len=131072, batch=64)
    assert all(o.fits for o in r.options)
    assert all(o.why for o in r.rejected)


def test_pretraining_needs_tokens():
    import pytest

    with pytest.raises(ValueError, match="needs --tokens"):
        rec("llama-3.1-8b", "pretrain")


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([m.id for m in CAT.models]), st.sampled_from(["full", "lora", "qlora", "inference"]))
def test_a_recommendation_never_lists_an_option_that_does_not_fit(model_id, task):
    r = rec(model_id, task)
    assert all(o.fits for o in r.options)
    assert not {o.gpu for o in r.options} & {o.gpu for o in r.rejected}


def test_parallel_plan_keeps_tp_inside_the_nvlink_domain_and_fits():
    p = plan_parallel(ParallelPlanRequest(model=CAT.model("llama-3.1-405b")[0], gpu=CAT.gpu("h100")[0], num_gpus=1024,
                                          task="pretrain"))
    assert p.fits and p.tp <= 8 and p.dp * p.tp * p.pp == 1024
    assert p.per_gpu_gb <= CAT.gpu("h100")[0].memory_bytes / 1e9


def test_parallel_plan_on_pcie_cards_avoids_tensor_parallelism_across_pcie():
    p = plan_parallel(ParallelPlanRequest(model=CAT.model("llama-3.1-8b")[0], gpu=CAT.gpu("l40s")[0], num_gpus=8, task="lora"))
    assert p.fits and p.tp == 1


def test_parallel_plan_says_when_nothing_fits():
    p = plan_parallel(ParallelPlanRequest(model=CAT.model("llama-3.1-405b")[0], gpu=CAT.gpu("rtx-4090")[0], num_gpus=2,
                                          task="full"))
    assert not p.fits and p.dp is None and any("no layout" in a for a in p.assumptions)
