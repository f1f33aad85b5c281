"""Issue 24, classes 4, 6 and 9 (set F): one card at two counts is two options, a price too high for one GPU-hour is the
set's; a deadline picks the smallest option that makes it; a memory-modded card keeps its base card's speed; a Mac is
one machine; an unknown card gets the job sized on the cards it may be; impossible inputs (MFU > 100%, a sparse peak as
BF16, a quadrillion tokens, a negative rate, half a batch) are said and the estimate still given on sane ones."""
from __future__ import annotations

import pytest

from assistant.readers.asks import find_asks
from assistant.readers.rules import read
from assistant.service import ask
from knowledge.catalog import default_catalog

CAT = default_catalog()
CLOUD = ("We full-fine-tune a 13B dense model every couple weeks, ~10B tokens per run (seq 4k), and each run must finish "
         "within 4 days. Cloud options: 8x A100 80GB at $14/hr (per node), 8x H100 SXM at $24/hr, or 16x H100 at $48/hr. "
         "What's the smallest config that makes the deadline, and what does each run cost?")


def test_one_card_at_two_counts_is_two_options_each_with_its_set_price():
    asks = find_asks(CLOUD, read(CLOUD, CAT).request, CAT)
    got = [(a.update["gpu"], a.update["num_gpus"], round(a.update["price_per_gpu_hour"], 3)) for a in asks]
    # $14 a node / 8 = $1.75; $24 for 8 H100 = $3.00 each; $48 for 16 = $3.00 each (no GPU-hour costs $24 or $48)
    assert got == [("a100-80gb", 8, 1.75), ("h100", 8, 3.0), ("h100", 16, 3.0)]


def test_the_smallest_option_that_makes_the_deadline_is_picked():
    a = ask(CLOUD)
    # 6 x 13e9 x 1e10 = 7.8e20 FLOPs: 8x A100 at 312 x 0.45 -> ~8.6 days (misses 4); 8x H100 at 989 x 0.4 -> ~3 days
    assert "**The smallest that makes the deadline with room: 8× H100 80GB SXM5**" in a.answer


def test_a_memory_modded_card_keeps_the_base_cards_bandwidth_and_compute():
    r = read("4090 48G 魔改版靠谱吗？两张 48G 的 4090 能不能跑 Qwen2.5-72B int4（AWQ）？", CAT)
    assert r.request.gpu == "rtx-4090-48gb"  # the modified card's own record (with its risks), built from the RTX 4090
    g = CAT.gpu(r.request.gpu)[0]
    assert (g.memory_gb, g.memory_bandwidth_gbps, g.bf16_dense_tflops) == (48, 1008, 165.2)


def test_a_mac_beside_a_gpu_box_is_one_machine():
    r = read("Can a Mac Studio with 192GB run Llama 3.1 70B at full precision? Thinking of buying one instead of a GPU box.",
             CAT).request
    assert r.gpu == "m2-ultra-192gb" and r.num_gpus in (None, 1)


def test_an_unknown_card_still_gets_the_job_sized_on_the_cards_it_may_be():
    a = ask("听说英伟达出了 H300，我们想用 H300 跑 Qwen3-32B 推理，大概 20 并发，每个 8k 上下文，需要几张？")
    # Qwen3-32B BF16 ~65.5 GB + 20 x 8k x 256 KiB = 43 GB of KV: 2x 80 GB cards, or 1x H200 (141 GB)
    assert a.status == "needs_clarification"
    assert "H200 141GB SXM5: 1 张" in a.answer and "H100 80GB SXM5: 2 张" in a.answer


def test_impossible_training_inputs_are_said_and_sane_ones_estimated():
    a = ask("Estimate training time for a 70B model on 1,000,000B tokens using 8x H100 at 120% MFU. For the math assume "
            "the H100 does 2,000 TFLOPS BF16.")
    assert any("above 100%" in w for w in a.warnings)
    assert "sparse (2:4)" in a.answer and "far beyond any training corpus" in a.answer
    # 1T tokens: 6 x 70e9 x 1e12 = 4.2e23 (+ attention) / (8 x 989.4e12 x 0.40) = 1.35e8 s = ~37,500 h = 4.3 years
    assert 3 * 8760 <= a.figures["hours_if_1t_tokens"] <= 5.5 * 8760


def test_a_negative_rate_and_half_a_batch_are_said_and_not_used():
    reading = read("我们 7B 模型推理压测出来吞吐是 -300 token/s，batch size 设的 0.5，这个数据能用吗？按这个算要几张卡才能支撑每天 10 亿 token？",
                   CAT)
    assert reading.request.throughput_tokens_per_s is None and not reading.invalid
    assert any("not a throughput" in w for w in reading.warnings) and any("batch of 0.5" in w for w in reading.warnings)


def test_requests_in_flight_are_a_load_and_cards_are_compared_on_it():
    from assistant.readers import slots

    assert slots.users("around 30 requests in flight at peak")["concurrent_users"] == 30
    a = ask("Deciding between H100 and H200 to serve Llama 3.1 70B in BF16 (we don't want to quantize). Chat workload: ~2k "
            "prompt, ~500 output tokens, around 30 requests in flight at peak; latency isn't super critical, we want the "
            "cheapest setup that works. Prices we have: H100 SXM $2.20/GPU-hr, H200 $3.10/GPU-hr. What config would you pick?")
    # BF16 weights 141 GB + 30 x 2.5k x 320 KiB = 25 GB of KV: 2x H200 ($6.20/h) or 4x H100 ($8.80/h)
    assert "**Best: H200 141GB SXM5**" in a.answer


def test_on_one_card_the_methods_are_chosen_by_memory_first():
    a = ask("I have exactly one A100 40GB. Want to fine-tune Llama 3 8B Instruct on ~20k instruction/response pairs (avg "
            "~700 tokens). Full fine-tune vs LoRA vs QLoRA — which should I go with and why?")
    # full: 16 B x 8.03e9 = 128 GB of states: no; LoRA: 16 GB of bf16 weights + adapters and activations: fits 40 GB
    assert "**lora is enough**" in a.answer


def test_plans_in_items_keep_their_own_gpu_counts():
    asks = find_asks("Qwen2.5-72B 推理，两个方案：A）4 张 A100 80G 跑 BF16；B）2 张 A100 80G 跑 AWQ int4。量不大，QPS 0.5 左右。选哪个？",
                     read("Qwen2.5-72B 推理，两个方案：A）4 张 A100 80G 跑 BF16；B）2 张 A100 80G 跑 AWQ int4。量不大，QPS 0.5 左右。选哪个？",
                          CAT).request, CAT)
    assert [(a.update["precision"], a.update.get("num_gpus")) for a in asks] == [("bf16", 4), ("awq", 2)]


def test_a_context_written_in_wan_is_a_context_beyond_the_model():
    r = read("我要部署 Qwen2.5-7B，上下文要 1000 万 token（要把整个代码库塞进去），用 10 张 H100 够吗？", CAT).request
    # 1000 万 = 10,000,000 tokens of context (Qwen2.5-7B's own limit is 32,768): a context, not a dataset
    assert r.context == 10_000_000 and r.tokens is None
    a = ask("我要部署 Qwen2.5-7B，上下文要 1000 万 token（要把整个代码库塞进去），用 10 张 H100 够吗？")
    assert "超过了模型的最大上下文" in a.answer
