"""Rent vs buy: the arithmetic written out, price selection from the table, and errors that name the fix."""
from __future__ import annotations

import argparse
import json

import pytest
from pydantic import ValidationError

# An H100 SXM's power at the wall: its 700 W TDP and its share of the 8-GPU server around it (DGX H100 datasheet: 10.2 kW
# maximum for 8 x 700 W of GPUs) = 0.7 x 10.2 / 5.6 = 1.275 kW a GPU (tools/power.py)
H100_WALL_KW = 0.7 * 10.2 / 5.6

from knowledge.prices import shipped_prices
from knowledge.schemas import Price
from tools.cost import CostRequest, estimate_cost
from ui import cli_plan

COST_KEYS = {"rent_cost", "buy_cost", "break_even_months", "currency", "prices_used", "assumptions"}


def price(id_, gpu="h100", kind="rent_on_demand", unit="per_gpu_hour", currency="USD", low=2.0, high=2.0, typical=None):
    return Price(id=id_, gpu=gpu, kind=kind, unit=unit, currency=currency, low=low, high=high, typical=typical,
                 confidence="high", source="test", as_of="2026-12")


@pytest.fixture
def h100(gpu):
    return gpu("h100")


def test_rent_is_gpus_times_hours_times_price(h100):
    # 8 GPUs x 100 h x $2.00 = $1,600
    res = estimate_cost(CostRequest(gpu=h100, num_gpus=8, hours=100, mode="rent", price_per_hour=2.0))
    assert res.gpu_hours == 800
    assert res.rent_cost.low == res.rent_cost.typical == res.rent_cost.high == 1600.0
    assert res.buy_cost is None and res.break_even_months is None


def test_buy_cost_is_capital_share_plus_hosting_share_plus_power(h100):
    res = estimate_cost(CostRequest(gpu=h100, num_gpus=8, hours=100, mode="buy", purchase_price_per_gpu=20_000,
                                    basis="share"))
    # power: 8 GPUs x 1.275 kW (H100 TDP 0.7 kW and its share of the server, H100_WALL_KW) x 100 h x PUE 1.3 x
    # $0.12/kWh = $159.12
    assert res.buy_breakdown["power"] == pytest.approx(8 * H100_WALL_KW * 100 * 1.3 * 0.12)
    assert res.buy_breakdown["power"] == pytest.approx(159.12)
    # capital: 8 x 100 h x $20,000 x (1 - 0.2 resale) / (4 years x 8760 h x 0.7 utilization) = $521.85
    assert res.buy_breakdown["capital"] == pytest.approx(8 * 100 * 20_000 * 0.8 / (4 * 8760 * 0.7), abs=0.01)
    assert res.buy_breakdown["capital"] == pytest.approx(521.85, abs=0.01)
    # hosting: 8 x 100 h x $150 per GPU-month / (730 h per month x 0.7) = $234.83
    assert res.buy_breakdown["hosting"] == pytest.approx(8 * 100 * 150 / (730 * 0.7), abs=0.01)
    assert res.buy_breakdown["hosting"] == pytest.approx(234.83, abs=0.01)
    assert res.buy_cost.typical == pytest.approx(521.85 + 234.83 + 159.12, abs=0.02)
    text = " ".join(res.assumptions)
    for default in ("electricity 0.12 USD/kWh", "PUE 1.3", "utilization 0.7", "hosting 150 USD", "4 years", "resale at 20%"):
        assert default in text


def test_break_even_by_hand(h100):
    res = estimate_cost(CostRequest(gpu=h100, num_gpus=8, hours=100, price_per_hour=2.0, purchase_price_per_gpu=20_000,
                                    utilization=0.5, basis="share"))
    # per GPU-month at 50%: rent 2.00 x 730 x 0.5 = 730; hosting 150; power 1.275 x 1.3 x 0.12 x 730 x 0.5 = 72.59
    # months = 20,000 / (730 - 150 - 72.59) = 39.42
    assert res.break_even_months == pytest.approx(20_000 / (730 - 150 - H100_WALL_KW * 1.3 * 0.12 * 365), abs=0.01)
    assert res.break_even_months == pytest.approx(39.42, abs=0.01)
    # utilization: (20,000 x 0.8 / (4 x 8760) + 12 x 150 / 8760) / (2.00 - 0.1989) = 0.6621 / 1.8011 = 0.3676
    assert res.break_even_utilization == pytest.approx((20_000 * 0.8 / 35_040 + 1800 / 8760) / (2 - H100_WALL_KW * 1.3 * 0.12), abs=1e-4)
    assert res.cheaper == "buy"  # 50% > 35%: owning is cheaper per working hour


def test_a_one_off_job_buys_for_its_period_and_sells_at_the_end(h100):
    # 8 H100 for one month (730 h) at $2.50/GPU-h, bought at $30,000 each:
    # rent = 8 x 730 x 2.50 = $14,600
    # resale after 730 h: 0.7 - (0.7 - 0.2) x 730 / (4 x 8760) = 0.7 - 0.5 x 0.020833 = 0.689583
    # own = 8 x [30,000 x (1 - 0.689583) + 150 hosting x 1 month + 1.275 kW x 1.3 x $0.12 x 730 h]
    #     = 8 x [9,312.50 + 150 + 145.197] = 8 x 9,607.697 = $76,861.58
    res = estimate_cost(CostRequest(gpu=h100, num_gpus=8, hours=730, price_per_hour=2.5, purchase_price_per_gpu=30_000))
    assert res.rent_cost.typical == pytest.approx(14_600)
    assert res.buy_breakdown["capital"] == pytest.approx(8 * 30_000 * (1 - 0.689583), abs=1)
    assert res.buy_cost.typical == pytest.approx(76_861.58, abs=0.5)
    assert res.cheaper == "rent"  # a one-month job: rent, even though buying wins for long use
    wins = res.buy_wins_after_months
    assert wins is not None and 1 < wins < 48
    # at the break-even, owning (sold then) costs what renting the same working hours does: check by hand at `wins`
    m, u = wins, 0.7
    own = 30_000 * (1 - (0.7 - 0.5 * m * 730 / 35_040)) + 150 * m + H100_WALL_KW * 1.3 * 0.12 * 730 * u * m
    assert own == pytest.approx(2.5 * 730 * u * m, rel=0.02)


def test_three_years_at_60_percent_buys_and_credits_the_resale(h100):
    # 3 years held (26,280 h), working 60% (15,768 h), $2.50/GPU-h vs $30,000:
    # rent = 15,768 x 2.50 = $39,420 per GPU
    # resale after 3 of 4 years: 0.7 - 0.5 x 0.75 = 0.325; own = 30,000 x 0.675 + 150 x 36 + 0.1989 x 15,768
    #      = 20,250 + 5,400 + 1,721.87 = $27,371.87 per GPU
    res = estimate_cost(CostRequest(gpu=h100, hours=15_768, period_hours=26_280, utilization=0.6, price_per_hour=2.5,
                                    purchase_price_per_gpu=30_000))
    assert res.rent_cost.typical == pytest.approx(39_420)
    assert res.buy_cost.typical == pytest.approx(20_250 + 5_400 + H100_WALL_KW * 1.3 * 0.12 * 15_768, abs=0.5)
    assert res.cheaper == "buy"


def test_a_desk_card_pays_no_hosting(gpu):
    # an RTX 4090 at home: electricity only, the card's 450 W TDP and the desktop around it (300 W host through a 90%
    # power supply: (450 + 300) / 0.9 = 833 W at the wall, tools/power.py). Cash payback at $0.40/h, 70% use:
    # 2,000 / (0.40 x 511 - 0.8333 x 1.3 x 0.12 x 511) = 2,000 / (204.4 - 66.43) = 14.50 months
    res = estimate_cost(CostRequest(gpu=gpu("rtx-4090"), hours=730, price_per_hour=0.4, purchase_price_per_gpu=2000))
    assert res.buy_breakdown["hosting"] == 0
    assert res.break_even_months == pytest.approx(2000 / (0.4 * 511 - (450 + 300) / 0.9 / 1000 * 1.3 * 0.12 * 511), abs=0.01)
    assert any("desk card" in a for a in res.assumptions)


def test_cheap_rental_never_breaks_even(h100):
    # $0.20/h x 730 x 0.7 = $102 a month of renting, less than $150 of hosting alone
    res = estimate_cost(CostRequest(gpu=h100, num_gpus=1, hours=10, price_per_hour=0.2, purchase_price_per_gpu=20_000))
    assert res.break_even_months is None and res.break_even_utilization is None and res.cheaper == "rent"
    assert any("never pays" in a for a in res.assumptions)


def test_rental_range_across_providers(h100):
    prices = [price("a", low=1.0, high=3.0, typical=2.0), price("b", low=2.0, high=5.0),  # b: midpoint 3.5
              price("c", low=1.5, high=2.5, typical=2.2), price("spot", kind="rent_spot", low=0.5, high=0.6)]
    res = estimate_cost(CostRequest(gpu=h100, hours=10, mode="rent", prices=prices))
    # low = cheapest low 1.0, high = highest high 5.0, typical = median(2.0, 3.5, 2.2) = 2.2; spot not used
    assert (res.rent_price_per_gpu_hour.low, res.rent_price_per_gpu_hour.typical, res.rent_price_per_gpu_hour.high) == (1.0, 2.2, 5.0)
    assert res.rent_cost.typical == pytest.approx(22.0)
    assert [p.id for p in res.prices_used] == ["a", "b", "c"]
    assert any("median" in a for a in res.assumptions)


def test_usd_prices_converted_to_cny_and_said_so(h100):
    res = estimate_cost(CostRequest(gpu=h100, hours=1, mode="rent", currency="CNY", prices=[price("usd", low=2.0, high=2.0)]))
    assert res.rent_cost.typical == pytest.approx(2.0 * 7.2)  # $2.00 x 7.2 CNY/USD
    assert any("converted to CNY at 7.2 CNY/USD" in a for a in res.assumptions)


def test_same_currency_records_preferred_over_conversion(h100):
    prices = [price("usd", low=2.0, high=2.0), price("cny", currency="CNY", low=10.0, high=10.0)]
    res = estimate_cost(CostRequest(gpu=h100, hours=1, mode="rent", currency="CNY", prices=prices))
    assert res.rent_cost.typical == 10.0 and [p.id for p in res.prices_used] == ["cny"]


def test_server_price_divided_by_8(h100):
    server = price("srv", kind="buy_new", unit="per_8gpu_server", low=240_000, high=240_000)
    res = estimate_cost(CostRequest(gpu=h100, hours=1, mode="buy", prices=[server]))
    assert res.purchase_price_per_gpu.typical == 30_000  # $240,000 / 8
    assert any("divided by 8" in a for a in res.assumptions)


def test_used_without_used_price_takes_35_percent_of_new(h100):
    new = price("new", kind="buy_new", unit="per_gpu", low=20_000, high=40_000, typical=30_000)
    res = estimate_cost(CostRequest(gpu=h100, hours=1, mode="buy", used=True, prices=[new]))
    assert res.purchase_price_per_gpu.typical == pytest.approx(0.35 * 30_000)
    assert any("30-40%" in a and "source article" in a for a in res.assumptions)
    used = price("used", kind="buy_used", unit="per_gpu", low=15_000, high=15_000)
    assert estimate_cost(CostRequest(gpu=h100, hours=1, mode="buy", used=True, prices=[new, used])
                         ).purchase_price_per_gpu.typical == 15_000
    assert estimate_cost(CostRequest(gpu=h100, hours=1, mode="buy", used=True, used_fraction_of_new=0.5, prices=[new, used])
                         ).purchase_price_per_gpu.typical == 15_000  # 0.5 x 30,000: the given share wins


def test_shipped_table_for_h100(h100):
    res = estimate_cost(CostRequest(gpu=h100, num_gpus=8, hours=100, prices=shipped_prices()))
    assert res.rent_price_per_gpu_hour.low <= res.rent_price_per_gpu_hour.typical <= res.rent_price_per_gpu_hour.high
    assert res.buy_cost.low <= res.buy_cost.typical <= res.buy_cost.high
    kinds = {p.kind for p in res.prices_used}
    assert kinds == {"rent_on_demand", "buy_new"}
    assert all(p.source and p.as_of and p.id.startswith("h100") for p in res.prices_used)
    assert res.break_even_months is not None and 0 < res.break_even_utilization < 1


# --- errors that name the fix ------------------------------------------------------------------------

def test_negative_hours_refused(h100):
    with pytest.raises(ValidationError) as e:
        CostRequest(gpu=h100, hours=-5, price_per_hour=2.0)
    assert e.value.errors()[0]["loc"] == ("hours",) and "greater than 0" in str(e.value)


@pytest.mark.parametrize("value,message", [(1.5, "must be a fraction in (0, 1]"), (70, "for 70% write 0.7"), (0, "fraction")])
def test_utilization_outside_0_1_refused(h100, value, message):
    with pytest.raises(ValidationError, match="utilization") as e:
        CostRequest(gpu=h100, hours=1, utilization=value)
    assert message in str(e.value)


def test_no_rental_price_names_the_flag_and_the_file(gpu):
    with pytest.raises(ValueError) as e:
        estimate_cost(CostRequest(gpu=gpu("h100-pcie"), hours=1, mode="rent", prices=[]))
    msg = str(e.value)
    assert "no on-demand rental price for h100-pcie" in msg and "--price-per-hour" in msg and "GPU_ADVISOR_PRICES" in msg


def test_no_purchase_price_names_the_flag(gpu):
    with pytest.raises(ValueError, match="--purchase-price"):
        estimate_cost(CostRequest(gpu=gpu("a800"), hours=1, mode="buy", prices=[price("r", gpu="a800")]))


def test_used_fraction_needs_used(h100):
    with pytest.raises(ValidationError, match="--used"):
        CostRequest(gpu=h100, hours=1, used_fraction_of_new=0.4)


# --- CLI ------------------------------------------------------------------------------------------------

@pytest.fixture
def run(catalog, monkeypatch, tmp_path):
    """Parse and run one command through cli_plan, with an empty user price file (or the one a test writes)."""
    prices = tmp_path / "prices.yaml"
    prices.write_text("[]\n", encoding="utf-8")
    monkeypatch.setenv("GPU_ADVISOR_PRICES", str(prices))

    def go(*argv):
        parser = argparse.ArgumentParser(prog="gpu-advisor")
        cli_plan.add_parsers(parser.add_subparsers(dest="command", required=True))
        return cli_plan.run_command(parser.parse_args(list(argv)), catalog)

    go.prices_file = prices
    return go


def test_cli_cost_json_keys_and_arithmetic(run):
    data, text = run("cost", "--gpu", "h100", "--num-gpus", "8", "--hours", "100", "--price-per-hour", "2",
                     "--purchase-price", "20000", "--json")
    assert COST_KEYS <= set(data)
    json.dumps(data)
    assert data["rent_cost"]["typical"] == 1600.0 and data["buy_breakdown"]["power"] == pytest.approx(159.12)
    assert "rent, this job" in text and "1,600.00" in text and "Assumptions:" in text


def test_cli_cost_prints_the_prices_used_and_applies_overrides(run):
    run.prices_file.write_text("- id: our-h100-quote\n  gpu: h100\n  kind: rent_on_demand\n  unit: per_gpu_hour\n"
                               "  currency: USD\n  low: 1.5\n  high: 1.5\n  provider: our cloud\n", encoding="utf-8")
    data, text = run("cost", "--gpu", "H100", "--num-gpus", "2", "--hours", "10", "--mode", "rent")
    ids = [p["id"] for p in data["prices_used"]]
    assert "our-h100-quote" in ids and "h100-rent-od-gpu-clouds" in ids
    assert data["rent_price_per_gpu_hour"]["low"] == 1.5  # 1.5 is now the cheapest low
    assert "our-h100-quote" in text and "as of" in text and "source:" in text
    assert any("1 record(s) from" in a for a in data["assumptions"])


def test_cli_cost_hours_from_training_time(run, catalog):
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    data, _ = run("cost", "--gpu", "a100-80gb", "--num-gpus", "8", "--model", "70b", "--tokens", "1B", "--mode", "rent")
    expected = estimate_training_time(TrainingTimeRequest(model=catalog.model("70b")[0], gpu=catalog.gpu("a100-80gb")[0],
                                                          num_gpus=8, tokens=1e9)).wall_hours
    assert data["hours"] == expected and data["gpu_hours"] == pytest.approx(8 * expected)
    assert any("training-time estimate" in a for a in data["assumptions"])


@pytest.mark.parametrize("argv,message", [
    ([], "--hours H, or --model M with --tokens T"),
    (["--model", "70b"], "--tokens"),
    (["--hours", "5", "--model", "70b", "--tokens", "1B"], "not both"),
])
def test_cli_cost_needs_one_job_length(run, argv, message):
    with pytest.raises(ValueError, match=message):
        run("cost", "--gpu", "h100", *argv)


@pytest.mark.parametrize("text,value", [("2e12", 2e12), ("2T", 2e12), ("15T", 15e12), ("500B", 5e11), ("100M", 1e8),
                                        ("1.5k", 1500), ("2,000,000", 2e6), ("700亿", 7e10)])
def test_token_counts(text, value):
    assert cli_plan.parse_token_count(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["-5", "0", "lots", "2TT", ""])
def test_bad_token_counts_say_what_is_accepted(text):
    with pytest.raises(argparse.ArgumentTypeError, match="2e12, 15T, 500B"):
        cli_plan.parse_token_count(text)


def test_rental_rates_by_hand():
    from tools.rates import RatesRequest, rental_rates

    # 8 GPUs x $2.50 = $20.00 an hour; x 24 = $480 a day; x 730 = $14,600 a month.
    # 2,500 tokens/s x 3,600 = 9.0M tokens an hour: $20 / 9.0 = $2.2222 per million tokens.
    r = rental_rates(RatesRequest(num_gpus=8, price_per_gpu_hour=2.5, tokens_per_s=2500))
    assert (r.per_hour, r.per_day, r.per_month) == (20.0, 480.0, 14600.0)
    assert r.cost_per_million_tokens == pytest.approx(2.2222, abs=1e-4)
