"""What to buy (issue 24 item 4, issue 26 item 5): machines to own, priced whole, in the most faithful format that
fits, ranked by what the budget buys. Prices here are made up for the test (the arithmetic is the point), so a change
to the shipped table cannot move these figures."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.service import ask
from knowledge.catalog import default_catalog
from knowledge.schemas import Price
from tools.purchase import HOST_USD, PurchaseRequest, plan_purchase

CAT = default_catalog()
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def price(gpu: str, kind: str, value: float, unit: str = "per_gpu", currency: str = "USD") -> Price:
    return Price(id=f"{gpu}-{kind}-{value}", gpu=gpu, kind=kind, unit=unit, currency=currency, low=value, high=value,
                 typical=value, confidence="low", source="test", as_of="2026")


PRICES = [price("rtx-3090", "buy_used", 800), price("rtx-3090", "buy_new", 1500), price("rtx-4090", "buy_new", 2000),
          price("h100", "buy_new", 240_000, unit="per_8gpu_server")]


def plan(model: str, budget=None, host_owned=False, gpus=("rtx-3090", "rtx-4090", "h100"), **kw):
    return plan_purchase(PurchaseRequest(model=CAT.model(model)[0], gpus=[CAT.gpu(g)[0] for g in gpus], prices=PRICES,
                                         budget=budget, host_owned=host_owned, **kw))


def test_a_70b_model_on_two_used_3090s_in_q4_priced_as_a_machine():
    # Llama 3.1 70B in Q4_K_M: 70.6e9 x 4.84 bits / 8 = 42.7 GB of weights: more than one 24 GB card, less than two.
    # 2 x 3090 (the cheaper record: used, $800) + a host for two cards ($2,000) = $3,600.
    r = plan("llama-3.1-70b", budget=5000)
    o = next(o for o in r.options if o.gpu == "rtx-3090")
    assert (o.num_gpus, o.format, o.condition) == (2, "q4_k_m", "used")
    assert o.total == 2 * 800 + HOST_USD[2] == 3600
    assert r.options[0].within_budget and r.options[0].total <= 5000


def test_a_machine_already_owned_prices_the_cards_alone():
    # $2,000 for the cards alone: two used 3090s ($1,600) in Q4_K_M; four (Q8_0, 70.6e9 x 8.5 / 8 = 75 GB) would be $3,200
    r = plan("llama-3.1-70b", budget=2000, host_owned=True)
    o = next(o for o in r.options if o.gpu == "rtx-3090")
    assert (o.num_gpus, o.format, o.host_cost, o.total) == (2, "q4_k_m", 0, 1600)
    # with more money the same card buys a more faithful format: 4 x 3090 in Q8_0
    o = next(o for o in plan("llama-3.1-70b", budget=3500, host_owned=True).options if o.gpu == "rtx-3090")
    assert (o.num_gpus, o.format, o.total) == (4, "q8_0", 3200)


def test_sxm_modules_are_bought_as_eight_gpu_servers_whose_price_includes_the_host():
    r = plan("llama-3.1-8b")
    o = next(o for o in r.options if o.gpu == "h100")
    assert o.num_gpus == 8 and o.host_cost == 0 and o.total == 240_000  # 8 x (240,000 / 8)


def test_within_a_budget_the_most_faithful_format_wins_then_speed():
    # Llama 3.1 8B in BF16 (16.1 GB) fits one 24 GB card: 3090 $800 + $1,200 host = $2,000; 4090 $2,000 + $1,200 = $3,200.
    r = plan("llama-3.1-8b", budget=4000)
    assert all(o.format == "bf16" for o in r.options if o.within_budget)
    first, second = r.options[0], r.options[1]
    assert first.gpu == "rtx-4090"  # same format, faster (1008 vs 936 GB/s), within the budget
    assert first.tokens_per_s > second.tokens_per_s


def test_without_a_budget_the_cheapest_that_runs_comes_first():
    r = plan("llama-3.1-8b")
    assert [o.total for o in r.options] == sorted(o.total for o in r.options)
    assert r.options[0].gpu == "rtx-3090" and r.options[0].total == 2000


def test_a_card_without_a_purchase_price_is_named_apart():
    r = plan("llama-3.1-8b", gpus=("rtx-3090", "l4"))
    assert [o.gpu for o in r.rejected] == ["l4"] and "no purchase price" in r.rejected[0].why


# --- through the assistant: 'what should I buy' is a purchase, never a rental ranking ------------------------------------
BUY_EN = st.sampled_from(["What should I buy with a budget of ${b}? I want to run {m} locally.",
                          "Budget ~${b} total. I want to run {m} at home, just me. What should I buy?",
                          "I have ${b} to spend on a home rig for {m}. Which GPU should I buy?"])
BUY_ZH = st.sampled_from(["预算{b}元，想在本地跑 {m}，买什么卡好？", "想攒一台机器跑 {m}，预算 {b} 块，推荐买什么显卡？"])


@SETTINGS
@given(form=st.one_of(BUY_EN, BUY_ZH), b=st.sampled_from([3000, 6000, 20000]),
       m=st.sampled_from(["Llama 3.1 8B", "Qwen2.5-14B", "Llama 3.1 70B"]))
def test_what_to_buy_within_a_budget_is_a_purchase_plan(form, b, m):
    a = ask(form.format(b=b, m=m))
    assert a.intent == "recommend" and a.request["purchase"] is True
    assert a.request["budget"] == b
    call = next(c for c in a.tool_calls if c.name == "plan_purchase")
    top = call.result["options"][0] if call.result["options"] else None
    if top and top["within_budget"]:
        assert top["total"] <= b  # the pick fits the money
        assert f"{top['total']:,.0f}" in a.answer
    assert not any(c.name == "recommend" for c in a.tool_calls)  # never ranked by rental price


@pytest.mark.parametrize("question", ["Which GPU should I rent in the cloud to fine-tune Llama 3.1 8B with LoRA?",
                                      "租什么卡微调 Llama 3.1 8B 最便宜？"])
def test_renting_stays_a_rental_ranking(question):
    a = ask(question)
    assert not a.request.get("purchase")
