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


def test_a_whole_servers_measured_rate_and_a_high_peak_size_servers():
    a = ask("实测：一台 8 卡 4090 服务器上跑 Qwen2.5-14B-Instruct-AWQ，vLLM 每 2 张卡一个实例（TP=2），共 4 个实例，整机输出吞吐 "
            "3200 token/s。业务每天要 5000 万输出 token，高峰是平均的 4 倍，需要几台？")
    # 5e7 / 86,400 = 579 tokens/s; x 4 at the peak = 2,315 against one server's 3,200: 1 server at 72%
    assert a.figures["units_needed"] == 1
    assert "72%" in a.answer


def test_a_measured_rate_and_requests_a_day_go_to_capacity():
    a = ask("I benchmarked vLLM on 1x H100 with Llama 3.1 8B Instruct: about 2,400 output tok/s aggregate at 64 concurrent "
            "requests, 500-token prompts, 250-token outputs, latency was fine. We're expecting 3M requests/day with the "
            "same shape, traffic is peaky (peak ≈ 3x the average). How many H100s do we need?")
    # 3e6 x 250 = 7.5e8 tokens a day = 8,681 tokens/s; x 3 = 26,042 / 2,400 = 10.85: 11 GPUs
    assert a.figures["units_needed"] == 11


def test_a_monthly_server_rent_against_an_api_priced_per_input_and_output():
    a = ask("我们用 8 卡 H20 整机跑 Qwen2.5-72B，实测整机输出吞吐 2500 token/s（输入:输出 大约 3:1）。整机月租 ¥6.5 万。算一下每百万"
            "输出 token 成本，和某家 API（72B，输入 ¥4/百万，输出 ¥12/百万）比哪个划算？")
    # ¥65,000 / 730 h = ¥89.04/h over 2,500 x 3,600 = 9.0M tokens: ¥9.89 per 1M output; the API: ¥12 + 3 x ¥4 = ¥24;
    # self-hosting is cheaper while busy more than 9.89 / 24 = 41% of the time
    assert "¥9.893" in a.answer and "¥24" in a.answer and "41%" in a.answer


def test_the_utilization_below_which_an_api_is_cheaper():
    a = ask("What's our actual cost per million output tokens? We run Gemma 2 9B on one rented L40S at $0.85/hr and measured "
            "~1,800 output tok/s aggregate at our usual load. An API vendor offers the same model at $0.20 per 1M output "
            "tokens (input extra). Is self-hosting cheaper?")
    # $0.85 / 6.48M = $0.131 per 1M; 0.131 / 0.20 = 66%
    assert "$0.131" in a.answer and "66%" in a.answer


def test_a_daily_volume_split_into_input_and_output_is_billed_on_the_gpus_that_hold_the_model():
    a = ask("Need a monthly budget number for my boss. Serving Llama 3.3 70B (FP8 is fine) on rented H100s at $2.50/GPU-hr. "
            "Expected volume: ~40M tokens/day total, roughly 30M input + 10M output. Latency just needs to be reasonable "
            "(chat). What's the monthly bill?")
    # FP8 weights ~71 GB: one 80 GB card leaves no KV room, two (TP2) are the floor; 10M output tokens a day = 116 tok/s,
    # far below one pair's capacity: 2 x $2.50 x 730 h = $3,650 a month
    assert "$3,650 a month" in a.answer
