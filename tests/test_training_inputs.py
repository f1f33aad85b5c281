"""Issue 24, classes 'ask missing' and 'stated input ignored' in training questions: the optimizer steps and the time
per step are given; a measured training throughput sets the time and the MFU it implies; host RAM written in TB is
read. Hand arithmetic in each test."""
from __future__ import annotations

import pytest

from assistant.readers import slots
from assistant.service import ask


def test_steps_are_tokens_over_tokens_per_step():
    a = ask("128 张 H800 预训练一个 14B 参数的模型，2T token，seq len 4096，global batch 512 条，MFU 按 38%。要训多少天？一共多少个 step？")
    # 512 sequences x 4,096 tokens = 2,097,152 tokens per step; 2e12 / 2,097,152 = 953,674 steps
    assert a.figures["optimizer_steps"] == round(2e12 / (512 * 4096))
    assert a.figures["seconds_per_step"] == pytest.approx(a.figures["wall_hours"] * 3600 / (2e12 / (512 * 4096)), rel=1e-3)


def test_a_measured_training_throughput_sets_the_time_and_the_implied_mfu():
    a = ask("We measured 3,100 tokens/s per GPU training Llama 3.1 8B (full fine-tune) on H100 SXM, sequence length 8,192, "
            "global batch 128 sequences. Our dataset is 5B tokens and we want 2 epochs on 32 GPUs. How long will it take, "
            "how many optimizer steps is that, and what MFU are we actually getting?")
    # 1e10 tokens / (3,100 x 32 = 99,200 tokens/s) = 100,806 s = 28.0 h
    assert a.figures["measured_wall_hours"] == pytest.approx(1e10 / 99_200 / 3600, rel=1e-3)
    # MFU = FLOPs per token x tokens/s / peak: about 6 x 8.03e9 (+ attention at 8k) x 99,200 / (32 x 989.4e12) = 15-18%
    assert 0.14 <= a.figures["measured_mfu"] <= 0.19
    # 1e10 / (128 x 8,192 = 1,048,576 tokens per step) = 9,537 steps, each 1,048,576 / 99,200 = 10.6 s at the measured rate
    assert a.figures["optimizer_steps"] == round(1e10 / 1_048_576)
    assert a.figures["seconds_per_step"] == pytest.approx(1_048_576 / 99_200, rel=1e-3)


@pytest.mark.parametrize("text,gb", [("内存 1TB", 1024), ("2TB of system RAM", 2048), ("512G 内存", 512), ("1.5 TB RAM", 1536)])
def test_host_ram_in_tb_is_read(text, gb):
    assert slots.system_ram(text.lower())["ram_gb"] == gb


def test_offloaded_states_beyond_the_usable_host_ram_do_not_fit():
    a = ask("一台 8 卡 A800 80G 服务器，内存 1TB。想用 DeepSpeed ZeRO-3 + CPU offload 全参微调 Llama 3.1 70B，seq 4096。显存和内存够不够？")
    # offloaded fp32 master weights + Adam m, v (+ fp32 gradients) for 70.6e9 parameters: ~1,000 GB against ~870 GB usable
    assert "主机内存" in a.answer and "放不下" in a.answer


def test_packed_sequences_grad_accumulation_and_a_stated_mfu_set_steps_and_time():
    a = ask("Full fine-tune of Llama 3.1 8B on 8x A100 80GB. Setup: DeepSpeed ZeRO-2, bf16, AdamW, micro-batch 4 per GPU, "
            "seq len 4096 (packed), activation checkpointing ON, grad accumulation 4. Dataset: 50k packed sequences of 4096 "
            "tokens, 3 epochs. We usually get ~45% MFU on this cluster. (1) Does it fit per GPU? (2) Time per optimizer "
            "step? (3) Total wall time?")
    # 50,000 x 4,096 x 3 = 6.14e8 tokens; a step: 4 x 4 x 8 = 128 sequences = 524,288 tokens -> 1,172 steps.
    # MFU is model FLOPs over peak (recomputation inside it): 6 x 8.03e9 (+ attention at 4k) x 524,288 /
    # (8 x 312e12 x 0.45) = ~24 s per step, 1,172 x 24 s = ~7.8 h
    assert a.asks[1].figures["optimizer_steps"] == 1172
    assert 20 <= a.asks[1].figures["seconds_per_step"] <= 28
    assert 6.5 <= a.asks[1].figures["wall_hours"] <= 9.5


def test_a_stated_mfu_counts_model_flops_not_the_recomputed_ones():
    from tools.train_time import TrainingTimeRequest, estimate_training_time
    from knowledge.catalog import default_catalog

    cat = default_catalog()
    base = dict(model=cat.model("qwen2.5-14b")[0], gpu=cat.gpu("h800")[0], num_gpus=16, tokens=5e9, seq_len=8192, mfu=0.35)
    full = estimate_training_time(TrainingTimeRequest(recompute="full", **base))
    sel = estimate_training_time(TrainingTimeRequest(recompute="selective", **base))
    # the user's MFU already includes whatever recomputation costs: the same model FLOPs, the same time
    assert full.wall_hours == pytest.approx(sel.wall_hours, rel=0.01)
    # 6 x 14.8e9 x 5e9 = 4.4e20 (+ attention at 8k) / (16 x 989.4e12 x 0.35) = ~22 h
    assert 19 <= full.wall_hours <= 27


def test_a_global_batch_in_tokens_becomes_sequences_of_the_stated_length():
    from assistant.readers.rules import read
    from knowledge.catalog import default_catalog

    r = read("Pre-train a 7B model on 2T tokens on 256 H100s, seq len 4096, global batch 4M tokens, MFU 40%. How many "
             "steps and days?", default_catalog()).request
    # 4,000,000 tokens / 4,096 per sequence = 976.6 -> 977 sequences per step (never '4 sequences')
    assert r.global_batch == 977
