"""Issue 24, class 'stated input ignored' in rent-or-buy: the owner's costs as the user states them (colocation per
month, power included or a measured draw, PUE, a purchase price written before the word 'purchase', a monthly
rental) replace the defaults; with the owning costs given and no word of resale, none is credited. Hand arithmetic."""
from __future__ import annotations

import pytest

from assistant.readers.money import money
from assistant.service import ask


def test_colocation_and_power_per_month_replace_the_defaults_and_decide():
    a = ask("Rent or buy? An 8x H100 SXM server costs $280k to buy, plus $3k/month for colocation and power. Renting the "
            "same is $2.49 per GPU-hour on-demand. We'll run it 24/7 for 18 months.")
    # rent: 8 x 13,140 h x $2.49 = $261,749; own: $280,000 + 18 x $3,000 = $334,000 (no resale stated, power included)
    assert a.figures["rent_cost"] == pytest.approx(8 * 13140 * 2.49, rel=1e-3)
    assert a.figures["buy_cost"] == pytest.approx(280_000 + 18 * 3_000, rel=0.01)
    assert a.figures["cheaper"] == "rent"


def test_a_monthly_cloud_plan_against_owning_with_hosting():
    a = ask("H20 96G 8 卡整机，买断 ¥105 万，托管 + 电费每月 ¥8,000；或者云上整机包月 ¥4.2 万/台/月。我们要用 2 年，哪个划算？")
    # rent: 24 x ¥42,000 = ¥1,008,000; own: ¥1,050,000 + 24 x ¥8,000 = ¥1,242,000
    assert a.figures["rent_cost"] == pytest.approx(1_008_000, rel=0.01)
    assert a.figures["buy_cost"] == pytest.approx(1_242_000, rel=0.01)
    assert a.figures["cheaper"] == "rent"


@pytest.mark.parametrize("text,key,value", [
    ("$3k/month for colocation and power", "hosting_per_month", 3000),
    ("托管 + 电费每月 ¥8,000", "hosting_per_month", 8000),
    ("the node draws 10.2 kw at full load", "power_kw", 10.2),
    ("colo charges $0.12/kwh with pue 1.4", "pue", 1.4),
    ("$260k purchase, amortized over 3 years", "depreciation_years", 3),
    ("an 8x h100 sxm node: $260k purchase", "purchase_price_per_server", 260_000),
])
def test_owner_cost_inputs_are_read(text, key, value):
    assert money(text)[key] == pytest.approx(value)


def test_hosting_with_power_included_is_flagged():
    assert money("$3k/month for colocation and power").get("hosting_includes_power") is True
    assert not money("$3k/month for colocation").get("hosting_includes_power")


def test_owning_is_priced_per_working_gpu_hour_with_its_break_even_utilization():
    a = ask("We're considering owning an 8x H100 SXM node: $260k purchase, amortized over 3 years. Colo charges "
            "$0.12/kWh with PUE 1.4; the node draws 10.2 kW at full load. We expect 70% utilization. What is our effective "
            "cost per utilized GPU-hour, and at what utilization would it break even with a $2.49/GPU-hr cloud price?")
    # working GPU-hours: 8 x 26,280 h x 0.7 = 147,168; power 10.2 kW x 1.4 x 18,396 h x $0.12 = $31,523; no hosting
    # fee is stated beside the power costs, so none is added: ($260,000 + $31,523) / 147,168 = $1.98
    assert "$1.98 per working GPU-hour" in a.answer and "no hosting fee" in a.answer
    # break-even: ($32,500 / 3 years / 8,760 h = $1.2367 per GPU-hour) / ($2.49 - power 1.275 kW x 1.4 x $0.12 =
    # $0.2142) = 0.543
    assert "54% utilization" in a.answer


def test_a_quoted_server_price_colo_with_power_and_pay_per_use_rent():
    a = ask("Rent vs buy sanity check. We were quoted $280k for an 8x H100 HGX server. Colo is $3k/month including power. "
            "The alternative is on-demand cloud at $2.80/GPU-hr, and we'd only pay for hours we actually use - we figure the "
            "box would be busy about 70% of the time. When does buying break even?")
    # cloud: 8 x $2.80 x 730 h x 0.7 = $11,446 a month; owning: $280,000 / ($11,446 - $3,000) = 33.2 months
    assert "$11,446" in a.answer and "**33.2 months**" in a.answer and "**rent**" in a.answer


def test_hosting_that_includes_power_and_hours_a_day():
    a = ask("租还是买？8 卡 4090 服务器报价 ¥22 万，托管每月 ¥4000（含电）。云上 4090 ¥2.2/卡时。我们每天大概用 16 个小时，多久能回本？")
    # cloud: 8 x ¥2.2 x 16 h x 30.4 days = ¥8,565 a month; owning: ¥220,000 / (¥8,565 - ¥4,000 incl. power) = 48.2 months
    assert "¥8,565" in a.answer and "**48.2 个月**" in a.answer and "**建议租**" in a.answer


def test_an_electricity_bill_at_full_and_average_load():
    from tools.cost import electricity_cost

    # 100 servers x 10 kW x PUE 1.3 x 8,760 h x ¥0.6 = ¥6,832,800; at 80% load ¥5,466,240
    assert electricity_cost(1000, 8760, 0.6, 1.3) == pytest.approx(6_832_800)
    assert electricity_cost(1000, 8760, 0.6, 1.3, 0.8) == pytest.approx(5_466_240)
    with pytest.raises(ValueError):
        electricity_cost(1000, 8760, 0.6, 0.9)
    a = ask("算个电费：100 台 8卡 H800 服务器，每台满载按 10kW 算，机房 PUE 1.3，电价 0.6 元/度，一年电费多少？平均负载 80% 的话呢？")
    assert a.figures["electricity_full_load"] == pytest.approx(6_832_800)
    assert a.figures["electricity_at_load"] == pytest.approx(5_466_240)
