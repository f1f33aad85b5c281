"""Issue 24, 'ask missing' on hardware counts: 'how many 8-GPU servers' asks the number of servers (their size is
given); with no load it is the fewest whole servers that hold the model and one sequence, and their concurrency; the
minimum hardware is the fewest GPUs in whole servers; two cards with the same bandwidth tie on decode and differ on
prefill, which is said. Hand arithmetic in each test."""
from __future__ import annotations

import pytest

from assistant.readers.rules import read
from assistant.service import ask
from knowledge.catalog import default_catalog

CAT = default_catalog()


def test_how_many_servers_of_a_given_size_leaves_their_number_open():
    r = read("DeepSeek-R1 满血版要部署,几台 8 卡 H20(96G)整机够?128k 上下文时能支持多少并发?", CAT).request
    assert r.gpus_per_node == 8 and "num_gpus" not in r.stated


def test_the_fewest_whole_servers_that_hold_the_model_and_their_concurrency():
    a = ask("DeepSeek-R1 满血版要部署,几台 8 卡 H20(96G)整机够?128k 上下文时能支持多少并发?")
    # FP8 weights ~671 GB: one 8 x 96 GB server (768 GB, ~690 GB in vLLM's 0.9) holds no 128k sequence beside them;
    # two (16 GPUs) hold 42 GB of weights each and ~40 GB of MLA latent (70,272 B per token, every GPU holds all):
    # ~570k-680k tokens = about 5 sequences of 131,072
    assert "16× H20" in a.answer
    assert 3 <= a.figures["max_concurrent_sequences"] <= 7


def test_the_minimum_hardware_is_given_in_whole_servers():
    a = ask("Can we serve DeepSeek-V3 (the full 671B model, FP8) on one 8x H100 80GB node for 100 concurrent users with "
            "16k context? If not, what is the minimum hardware?")
    # weights 671 GB + 100 x 16,384 x 70,272 B = 115 GB of KV: ~786 GB over ~76 GB per GPU: 13 GPUs, 2 servers of 8
    assert "2 × 8 = **16 GPUs**" in a.answer
    assert not a.not_answered


def test_same_bandwidth_cards_tie_on_decode_and_differ_on_prefill():
    a = ask("4090 和 4090D 跑 Qwen2.5-7B(BF16)推理差多少?单并发 decode 大概多少 tok/s?")
    # both 1,008 GB/s: decode 15.2 GB / (1,008 x 0.8) = ~53 tok/s ceiling each; dense BF16 165.2 vs 147.1 TFLOPS:
    # 2,048 tokens = 3.203e13 FLOPs at 58% of peak: 0.3343 s vs 0.3754 s; the engine's 23.3 ms per request counts on
    # both, so the first token comes (0.3754 + 0.0233) / (0.3343 + 0.0233) = 1.115x sooner on the 4090
    assert "单路 token/秒" in a.answer and "两者解码相当" in a.answer and "快 1.12 倍" in a.answer


def test_one_card_then_eight_are_both_answered():
    a = ask("全参微调 Qwen2.5-7B 大概要多少显存?seq len 4096。单卡 A100 80G 能不能跑?8 卡 A100 80G 呢?")
    # 7.62e9 x 16 B = 122 GB of states: one 80 GB card cannot; over 8 with ZeRO-3, 15.2 GB each plus activations
    assert "1 张卡" in a.answer and "8 张卡" in a.answer
    assert "放不下" in a.answer and "放得下" in a.answer


def test_export_versions_differ_on_the_link_a_training_job_spans():
    a = ask('Our provider offers "an 8-GPU H800 node" (8x H800 SXM 80GB, 2TB RAM). Is one such node enough for '
            "full-parameter fine-tuning of Llama 3.1 70B? And what practically changes with H800 vs H100 for this job?")
    # same 989.4 dense BF16 TFLOPS; NVLink 900 vs 400 GB/s: 2.25x
    assert "2.25× h800 (900 vs 400)" in a.answer


def test_tp_and_node_alternatives_are_each_answered():
    from assistant.readers.asks import find_asks

    for q, want in [("Llama 3.1 70B FP8 on H100s: TP=2 or TP=4 for 32 concurrent users with 4k context, which gives "
                     "better per-user speed?", [2, 4]),
                    ("Pre-train 7B on 1T tokens: one 8x H100 node or two nodes, how long each?", [8, 16]),
                    ("预训练 7B，1T token，一台 8 卡 H100 还是两台？各要多久？", [8, 16])]:
        asks = find_asks(q, read(q, CAT).request, CAT)
        assert [a.update.get("num_gpus") for a in asks] == want, q
    a = ask("Pre-train 7B on 1T tokens: one 8x H100 node or two nodes, how long each?")
    # 6 x 7e9 x 1e12 = 4.2e22 FLOPs (+ attention) / (8 x 989.4e12 x 0.40) = 1.33e7 s = 3,700 h; twice the GPUs, half
    assert a.asks[0].figures["wall_hours"] == pytest.approx(2 * a.asks[1].figures["wall_hours"], rel=0.05)


def test_instances_per_server_are_the_gpus_over_the_fewest_that_hold_one_copy():
    a = ask("昇腾 910B 跑 Qwen2.5-72B 推理要几张卡？我们有一台 Atlas 800I A2（8×910B，每卡 64G），用 MindIE，BF16 不量化，够吗？能跑几个实例？")
    # BF16 weights 72.7e9 x 2 B = 145 GB: 2 x 64 GB cannot hold them with a KV cache, 4 can (36 GB each); 8 / 4 = 2
    assert a.figures["gpus_per_instance"] == 4 and a.figures["instances"] == 2
