"""Issue 24, loads stated as people state them: a total rate to reach is a load, not a measurement; requests a day
times the answer length is the output volume; a measured rate at N concurrent gives each user rate/N; '单并发' is one
stream, not a serving load; '32k 能不能放下？128k 呢？' asks both. Hand arithmetic in each test."""
from __future__ import annotations

import re

import pytest

from assistant.readers import slots
from assistant.readers.rules import read
from assistant.service import ask
from knowledge.catalog import default_catalog

CAT = default_catalog()


@pytest.mark.parametrize("text,rate", [("要做到 20000 tok/s 的输出吞吐", 20000.0), ("we need to hit 5,000 tokens/s", 5000.0),
                                       ("we measured 3000 tok/s", None), ("each user needs 30 tok/s", None)])
def test_a_rate_to_reach_is_a_load(text, rate):
    got = slots.needed_rate(text.lower())
    assert (got[0] if got else None) == rate


def test_a_target_rate_with_an_answer_length_is_a_request_rate():
    r = read("Qwen2.5-7B BF16 on RTX 4090s, requests of 512 in and 512 out. We need 20000 tok/s of output. How many?",
             CAT).request
    # 20,000 tokens/s / 512 tokens per request = 39.06 requests/s
    assert r.requests_per_s == pytest.approx(20000 / 512, rel=1e-3)
    assert r.throughput_tokens_per_s is None


def test_requests_a_day_become_the_output_volume_and_each_user_gets_a_share_of_the_measured_rate():
    a = ask("我们实测 vLLM 单卡 A100 80G 跑 Qwen2.5-7B,并发 64 时输出吞吐 2,600 tok/s(请求平均输入 1,000 token、输出 400 token,"
            "跟线上分布一样)。线上每天 300 万次请求,峰值是均值的 3 倍。需要几张卡?每个用户大概能看到多少 tok/s?")
    # 3e6 requests x 400 tokens = 1.2e9 tokens a day = 13,889 tokens/s; x 3 at the peak = 41,667 / 2,600 = 16.03: 17 cards.
    # Each of the 64 streams: 2,600 / 64 = 40.6 tokens/s
    assert a.figures["units_needed"] == 17
    assert "40.6 token/秒" in a.answer
    assert not any(i.startswith("requests_per_s") for i in a.ignored)


def test_one_concurrent_stream_is_not_a_serving_load():
    r = read("GLM-4-9B-Chat 想在单张 4090 上用 BF16 跑,单并发,32k 上下文能不能放下?", CAT).request
    assert r.intent == "inference_memory"


def test_a_second_context_asked_after_the_first_is_answered_too():
    a = ask("GLM-4-9B-Chat 想在单张 4090 上用 BF16 跑,单并发,32k 上下文能不能放下?128k 呢?")
    # KV: 2 x 40 layers x 2 KV heads x 128 x 2 B = 40 KiB per token; weights 9.4e9 x 2 B = 18.8 GB.
    # 32k: 1.34 GB of KV: fits 24 GB; 128k: 5.4 GB of KV plus its prefill: does not
    assert re.search(r"上下文 32,?768", a.answer) and re.search(r"上下文 131,?072", a.answer)  # (either number format)
    assert "放得下" in a.answer and "放不下" in a.answer


def test_a_measured_prefill_mfu_sets_the_ttft_and_the_prompt_rate_within_it():
    from tools.serve_load import max_rate_within_ttft

    # P = 0.34 s, T = 1 s: k = 0.66 / 0.34 = 1.94; rho = 2k / (1 + 2k) = 0.795; lambda = 0.795 / 0.34 = 2.34 per second
    assert max_rate_within_ttft(0.34, 1.0) == pytest.approx(0.795 / 0.34, rel=0.01)
    assert max_rate_within_ttft(1.2, 1.0) == 0.0
    a = ask("Requirement: time-to-first-token under 1 second for 6,000-token prompts. Model Llama 3.1 70B in FP8 on 4x "
            "H100 SXM (TP=4). We see about 35% MFU during prefill. Do we meet the target, and how many such prompts per "
            "second can we absorb before TTFT goes over 1s?")
    # 2 x 70.6e9 x 6,000 = 8.5e14 FLOPs (+ attention) / (4 x 1,978.9e12 x 0.35 = 2.77e15 FLOP/s) = ~0.32 s
    assert 0.28 <= a.figures["ttft_s"] <= 0.40
    assert not any(i.startswith("mfu=") for i in a.ignored)
    assert "such prompts a second" in a.answer


def test_requests_in_flight_beat_the_user_base_as_the_load():
    # '~200 users, but realistically peak maybe 20 requests in flight at once': 20 sequences are decoded together
    assert slots.users("~200 users, but realistically peak maybe 20 requests in flight at once")["concurrent_users"] == 20
