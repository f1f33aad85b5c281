"""Issue 24, class 'stated input ignored': a speedup the user states ('the H100 is ~3x faster', 'H800 快 2.5 倍') and a
length they measured ('takes 40 hours on 8x A100') decide a comparison of cards on the cost of the same work, never
on hourly rates alone. The arithmetic is checked by hand; the reading is checked on generated phrasings."""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.readers.rules import read
from assistant.service import ask
from knowledge.catalog import default_catalog
from tools.job_scaling import JobOption, JobScalingRequest, scale_job

CATALOG = default_catalog()
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- the arithmetic -----------------------------------------------------------------------------------------------
def test_a_measured_job_on_the_slower_card_is_scaled_by_the_stated_speedup():
    # 40 h on 8x A100 at $1.79: 40 x 8 x 1.79 = $572.80
    # 2.2x faster on 8x H100 at $2.99: 40 / 2.2 = 18.18 h; 18.18 x 8 x 2.99 = $434.91
    # saving 572.80 - 434.91 = $137.89 = 24.1% of 572.80; break-even 2.99 / 1.79 = 1.670x
    r = scale_job(JobScalingRequest(options=[JobOption(label="A100", num_gpus=8, price_per_gpu_hour=1.79),
                                             JobOption(label="H100", num_gpus=8, price_per_gpu_hour=2.99, speed=2.2)],
                                    baseline_hours=40))
    a100, h100 = r.options
    assert a100.cost == pytest.approx(572.80)
    assert h100.hours == pytest.approx(40 / 2.2)
    assert h100.cost == pytest.approx(40 / 2.2 * 8 * 2.99)
    assert r.cheapest == "H100" and r.saving == pytest.approx(572.80 - 434.909, abs=0.01)
    assert r.saving_share == pytest.approx(0.2407, abs=1e-3)
    assert r.break_even_speed == pytest.approx(2.99 / 1.79)
    assert r.fastest == "H100"


def test_without_a_length_the_cost_is_per_hour_of_the_baseline_cards_work():
    # $2.49 / 3 = $0.83 per A100-hour of work against $1.29: H100 cheaper by 0.46 = 35.7%; break-even 2.49/1.29 = 1.93
    r = scale_job(JobScalingRequest(options=[JobOption(label="A100", price_per_gpu_hour=1.29),
                                             JobOption(label="H100", price_per_gpu_hour=2.49, speed=3)]))
    assert r.options[1].cost_per_baseline_hour == pytest.approx(0.83)
    assert r.options[0].hours is None and r.options[0].cost is None
    assert r.cheapest == "H100" and r.saving_share == pytest.approx(0.46 / 1.29, abs=1e-3)
    assert r.break_even_speed == pytest.approx(2.49 / 1.29)


def test_a_speedup_below_the_price_ratio_leaves_the_cheaper_card_cheaper():
    # ¥16 / 1.5 = ¥10.67 per A100-hour of work > ¥6.5: A100 cheaper
    r = scale_job(JobScalingRequest(options=[JobOption(label="A100", price_per_gpu_hour=6.5),
                                             JobOption(label="H100", price_per_gpu_hour=16, speed=1.5)]))
    assert r.cheapest == "A100"


def test_the_baseline_must_be_one_of_the_options():
    with pytest.raises(ValueError):
        JobScalingRequest(options=[JobOption(label="a"), JobOption(label="b")], baseline=2)


# --- the reading and the answer -------------------------------------------------------------------------------------
CARDS = st.sampled_from([("A100", "a100-80gb", "H100", "h100"), ("A800", "a800", "H800", "h800"),
                         ("L40S", "l40s", "H100", "h100"), ("A100 80GB", "a100-80gb", "H200", "h200")])
EN = st.sampled_from([
    "{slow} rents for ${ps}/hr and {fast} for ${pf}/hr. For a training job where the {fast} is ~{s}x faster, which one "
    "is cheaper per job and by how much?",
    "{fast} at ${pf}/GPU-hour vs {slow} at ${ps}/GPU-hour; the {fast} is {s} times faster on our job. Which is cheaper?",
    "The {fast} is {s}x faster than the {slow} here; {fast} ${pf}/h, {slow} ${ps}/h. Which costs less?",
])
ZH = st.sampled_from([
    "{fast} 租金 {pf} 元/卡时，{slow} {ps} 元/卡时。同样的训练任务 {fast} 大概快 {s} 倍，哪个更便宜？便宜多少？",
    "{fast} 比 {slow} 快 {s} 倍，{fast} 每卡时 {pf} 元，{slow} 每卡时 {ps} 元，哪个划算？",
])


def _winner(ps: float, pf: float, s: float) -> str:
    """Per hour of the slower card's work: the slower card costs ps, the faster pf / s."""
    return "fast" if pf / s < ps else "slow"


@SETTINGS
@given(cards=CARDS, en=EN, zh=ZH, lang=st.sampled_from(["en", "zh"]), ps=st.sampled_from([1.2, 1.79, 6.5, 2.0]),
       mult=st.sampled_from([1.5, 2.2, 3.0]), s=st.sampled_from([1.4, 2.5, 3.2, 4.0]))
def test_a_stated_speedup_decides_the_cheaper_card_on_the_same_work(cards, en, zh, lang, ps, mult, s):
    slow, slow_id, fast, fast_id = cards
    pf = round(ps * mult, 2)
    if abs(pf / s - ps) / ps < 0.05:
        return  # too close to call at the printed precision
    text = (zh if lang == "zh" else en).format(slow=slow, fast=fast, ps=ps, pf=pf, s=s)
    req = read(text, CATALOG).request
    assert req.speedup == pytest.approx(s) and req.speedup_gpu == fast_id, text
    a = ask(text)
    assert a.comparison, a.answer[:400]
    win = fast if _winner(ps, pf, s) == "fast" else slow
    m = re.search(r"\*\*(.+?) (?:is cheaper|更便宜)\*\*", a.comparison)
    assert m and win.split()[0] in m.group(1), (text, a.comparison)


@SETTINGS
@given(hours=st.sampled_from([36, 40, 100]), n=st.sampled_from([4, 8]), s=st.sampled_from([2.2, 2.5]),
       lang=st.sampled_from(["en", "zh"]))
def test_a_measured_length_gives_each_cards_hours_and_cost(hours, n, s, lang):
    text = (f"Fine-tuning job takes {hours} hours on {n}x A100 80GB ($1.79/GPU-hr). {n}x H100 is $2.99/GPU-hr and about "
            f"{s}x faster on this job. Which is cheaper, and by how much?" if lang == "en" else
            f"一个 LoRA 训练任务在 {n} 张 A100 上要跑 {hours} 小时，A100 租金 1.79 元/卡时；换 H100 是 2.99 元/卡时，速度快 {s} 倍。"
            "哪个便宜？差多少？")
    a = ask(text)
    slow_cost = hours * n * 1.79
    fast_cost = hours / s * n * 2.99
    assert f"{slow_cost:,.2f}" in a.comparison and f"{fast_cost:,.2f}" in a.comparison, a.comparison
    assert f"{hours / s:,.1f}" in a.comparison


@pytest.mark.parametrize("text", [
    "Our training run took 10 days on 8x A100 80GB (BF16). Same code on 8x H100 SXM, still BF16. Roughly how many days?",
    "我们的训练在 8 张 A100 上跑了 10 天，同样配置换 8 张 H100 大概要几天？",
])
def test_a_measured_run_is_scaled_to_the_other_card_by_the_estimated_ratio(text):
    a = ask(text)
    ratio = a.figures["time_ratio"]  # the estimator's A100/H100 time ratio for the same job
    assert 2 <= ratio <= 3.5  # dense BF16 312 vs 989 TFLOPS at MFU 0.45 vs 0.40: 989 x 0.40 / (312 x 0.45) = 2.82
    assert a.figures["measured_hours_h100"] == pytest.approx(240 / ratio, rel=0.02)
    assert f"{240 / ratio / 24:,.1f}" in a.answer
