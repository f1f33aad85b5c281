"""Issue 24, 'stated input ignored' in per-token costs: a provider's offer is one of the user's options, not a quoted
reference; 'per 1M output tokens' is a price's unit, not a length or a volume; '2B tokens/day' is a volume; the bill is
for the units that carry the volume; an owned server's per-token cost comes from its own price and running costs; a
price per million written unit first is read. Hand arithmetic in each test."""
from __future__ import annotations

import pytest

from assistant.readers import slots
from assistant.readers.money import per_million_price
from assistant.readers.rules import quoted_runs
from assistant.service import ask

CLOUDS = ("Cost per 1M output tokens for Llama 3.1 70B FP8: on Cloud A we run TP=2 on 2x H100 at $2.99/GPU-hr and measured "
          "1,500 output tok/s for our workload. Cloud B offers H200 at $3.79/GPU-hr, and a benchmark with the same workload "
          "shows one H200 (TP=1) doing 1,300 output tok/s. Which is cheaper per 1M tokens, and what's the monthly bill for "
          "2B output tokens/day on each?")


def test_an_offer_is_an_option_not_a_quoted_run():
    assert quoted_runs(CLOUDS)[1] == []


def test_a_prices_unit_is_neither_a_length_nor_a_volume():
    low = CLOUDS.lower()
    assert "output_len" not in slots.lengths(low)
    assert slots.token_volume(low)[0]["tokens_per_day"] == 2e9


def test_each_option_is_billed_for_the_units_its_volume_needs():
    a = ask(CLOUDS)
    # 2e9 / 86,400 s = 23,148 tokens/s: A needs ceil(23,148 / 1,500) = 16 sets x 2 x $2.99 x 730 h = $69,846 a month;
    # B needs ceil(23,148 / 1,300) = 18 H200 x $3.79 x 730 h = $49,801. Per 1M at full load: A $5.98 / 5.4M = $1.107,
    # B $3.79 / 4.68M = $0.810: B is cheaper
    assert "$69,846 a month" in a.answer and "$49,801 a month" in a.answer
    assert "**cheapest: 1× H200 141GB SXM5**" in a.answer


def test_an_owned_servers_token_cost_comes_from_its_own_costs():
    a = ask("自建一台 8 卡 4090 服务器 ¥18 万,跑 Qwen2.5-7B,实测总输出吞吐 8,000 tok/s。整机功耗 3.5kW,电费 ¥0.8/度,按 3 年折旧。"
            "每百万 output token 成本多少?对比某 API 每百万 output token ¥2,哪个便宜?")
    # ¥180,000 / (3 x 8,760 h) = ¥6.85/h; power 3.5 kW x PUE 1.3 (default) x ¥0.8 = ¥3.64/h: ¥10.49/h for
    # 8,000 x 3,600 = 28.8M tokens: ¥0.364 per 1M, against the API's ¥2: owning is cheaper at full load
    assert "¥0.364" in a.answer and "自建更便宜" in a.answer


@pytest.mark.parametrize("text,price", [("对比某 api 每百万 output token ¥2,哪个便宜", (2.0, "CNY")),
                                        ("per 1m tokens: $0.6", (0.6, "USD")),
                                        ("the api charges $0.60 per 1m output tokens", (0.6, "USD")),
                                        ("每百万 token 成本多少", None)])
def test_a_price_per_million_is_read_either_way_round(text, price):
    assert per_million_price(text) == price
