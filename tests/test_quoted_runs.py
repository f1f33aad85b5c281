"""Issue 24, class 'quoted figures used as the user's job': a published run quoted as a reference scales to the user's
own tokens and GPU counts at the run's efficiency (GPU-hours x tokens ratio / GPUs / 24), for every GPU count the
user names, beside the estimator's figure; the run's model stands in when the user trains 'the same architecture'."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.service import ask

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# (name as written, card as written, published GPU-hours, published tokens): the records in
# knowledge/data/training_runs.yaml, each from its paper (DeepSeek-V3 report Table 1; Llama 3.1 model card)
RUNS = st.sampled_from([("DeepSeek-V3", "H800", 2_788_000, 14.8e12), ("Llama 3.1 70B", "H100", 7_000_000, 15e12),
                        ("Llama 3.1 8B", "H100", 1_460_000, 15e12)])


@SETTINGS
@given(run=RUNS, t=st.sampled_from([(1.5e12, "1.5T"), (3e12, "3T")]), n=st.sampled_from([256, 512, 1024]),
       lang=st.sampled_from(["en", "zh"]))
def test_a_quoted_run_scales_to_the_users_tokens_and_gpus(run, t, n, lang):
    name, card, gpu_h, tokens = run
    mine, written = t
    text = (f"{name} took {gpu_h / 1e6:g}M {card} GPU-hours for {tokens / 1e12:g}T tokens. We want to train the same "
            f"architecture on {written} tokens with {n} {card}s. How long?" if lang == "en" else
            f"{name} 技术报告说用了 {gpu_h / 1e4:g} 万 {card} 卡时训练 {tokens / 1e12:g}T token。我们用 {n} 张 {card} 训一个同架构的模型，"
            f"数据 {written} token，要多久？")
    a = ask(text)
    days = gpu_h * mine / tokens / n / 24  # their GPU-hours x (our tokens / theirs), over our GPUs, in days
    assert a.figures.get(f"scaled_days_{n}") == pytest.approx(days, rel=0.01), (text, a.answer[:500])


def test_every_cluster_size_named_gets_its_days():
    a = ask("看 DeepSeek-V3 技术报告里说训练一共用了 278.8 万 H800 卡时。如果我们用 2048 张 H800，按跟他们一样的效率，跑完要多少天？"
            "如果只有 512 张呢？")
    # 2,788,000 / 2,048 / 24 = 56.7 days; / 512 / 24 = 226.9 days
    assert a.figures["scaled_days_2048"] == pytest.approx(56.72, abs=0.05)
    assert a.figures["scaled_days_512"] == pytest.approx(226.89, abs=0.05)


# --- issue 24, set E classes: the user's quoted figures and questions ----------------------------------------------
DSV3 = ("The DeepSeek-V3 tech report says pre-training took 2.664M H800 GPU-hours for 14.8T tokens (they quote ~180K "
        "GPU-hours per trillion tokens). We want to continue pre-training DeepSeek-V3 on 200B tokens of our own domain data "
        "with 256 H800s. How long will it take and what does it cost at $2 per GPU-hour (the report's own rental assumption)?")


def test_the_figures_a_user_quotes_beat_the_record():
    from assistant.service import ask

    a = ask(DSV3)
    # 2,664,000 GPU-hours x 0.2T / 14.8T = 36,000 GPU-hours; / 256 GPUs / 24 = 5.86 days
    assert "36,000 GPU-hours" in a.answer and "5.9 days" in a.answer


def test_a_question_that_mentions_the_report_is_still_the_users():
    from assistant.readers.rules import quoted_runs

    mine, quoted = quoted_runs(DSV3)
    assert "$2 per GPU-hour" in mine and len(quoted) == 1 and "2.664M" in quoted[0]


def test_gpu_hours_in_thousands_are_not_a_gpu_count():
    from assistant.plans.facts import gpu_counts_named

    # '180K GPU-hours' is a duration; only '256 H800s' counts GPUs
    assert gpu_counts_named(DSV3) == [256]


def test_the_cost_uses_the_stated_price():
    from assistant.service import ask

    a = ask(DSV3)
    # 256 GPUs x ~134 h = ~34,200 GPU-hours x $2 = ~$68,400
    assert "$68," in a.answer and "(your price)" in a.answer


def test_a_run_on_the_export_twin_of_the_users_card_carries_over():
    from assistant.plans.facts import gpu_counts_named
    from assistant.service import ask

    q = ("Llama 2 论文里说 7B 模型用了 184,320 A100-80G GPU 小时,训练 2T token。我们要用 64 张 A800 80G 训一个 3B 模型,"
         "500B token。参考这个数,大概要多少 GPU 小时、多少天?")
    assert gpu_counts_named(q) == [64]  # '184,320 A100-80G GPU 小时' is GPU-hours
    a = ask(q)
    # A800 = A100's 312 dense BF16 TFLOPS: 184,320 x (0.5T / 2T) x (3e9 / 6.74e9 active) = 20,515 GPU-hours; / 64 / 24 = 13.4 days
    assert "20,515" in a.answer and "13.4 天" in a.answer


def test_a_measured_earlier_run_carries_to_the_new_tokens_and_cards():
    from assistant.readers import slots
    from assistant.service import ask

    q = ("Our last run: LoRA on Qwen2.5-7B, 200M tokens, took 6 hours on 4x A100 80GB. How long would 1.5B tokens take "
         "on 8x H100?")
    assert slots.measured_and_new_tokens(q.lower()) == (2e8, 1.5e9)
    a = ask(q)
    # the measured 6 h x est(1.5B tokens on 8x H100) / est(0.2B tokens on 4x A100): 7.5x the tokens over ~5.6x the
    # speed = ~1.3, about 8 h; the ratio is the estimator's, the 6 h the user's
    assert a.figures["measured_scaled_hours"] == pytest.approx(6 * a.figures["measured_ratio"], rel=1e-3)
    assert 1.0 <= a.figures["measured_ratio"] <= 1.7
    assert a.request["measured_gpu"] == "a100-80gb" and a.request["gpu"] == "h100"


def test_a_measured_run_on_the_same_gpus_scales_by_tokens():
    from assistant.service import ask

    a = ask("Our last pre-training run of a 1B model took 10 days on 8x H100 for 200B tokens. How long for 300B tokens?")
    # 240 h x 300B / 200B = 360 h (the estimate is linear in tokens on the same GPUs)
    assert a.figures["measured_scaled_hours"] == pytest.approx(360.0, rel=0.01)


@pytest.mark.parametrize("q,lo,hi", [
    # 6.5 h x est(70B, 1.2B tokens, 8x H100) / est(8B, 0.3B tokens, 4x A100): ~8.8x the parameters, 4x the tokens,
    # 2x the GPUs, ~3x the per-GPU speed -> ~6x -> ~40 h (the rubric's 35-60 h)
    ("Our LoRA run on Llama 3.1 8B took 6.5 hours on 4x A100 80GB for 300M tokens (same seq len 4k, r=64, all linear "
     "layers). Next quarter we want the same recipe on Llama 3.1 70B with 1.2B tokens, on 8x H100 SXM. How long should "
     "we budget?", 30, 65),
    # 5 h x ~4.3x parameters x 3x tokens / 2x GPUs / ~3x speed -> ~10-17 h
    ("我们之前用 32 张 A800 做 Qwen2.5-7B 全参 SFT，10 亿 token 跑了 5 个小时（DeepSpeed ZeRO-3，seq 4096）。现在要做 "
     "Qwen2.5-32B 全参，数据 30 亿 token，给了 64 张 H800，预计多久？", 8, 22),
])
def test_an_earlier_measured_run_carries_to_another_model_and_cluster(q, lo, hi):
    from assistant.service import ask

    a = ask(q)
    assert lo <= a.figures["measured_scaled_hours"] <= hi
    assert not a.asks  # one job, not the earlier run's cards compared with the new ones


def test_a_quoted_run_the_record_lacks_is_built_from_the_quote_and_scaled_by_size():
    from assistant.service import ask

    a = ask("The Llama 3.1 model card says the 405B took 30.84M H100 GPU-hours to pretrain on ~15T tokens. If we trained "
            "a 70B model with the same setup and the same 15T tokens, how many GPU-hours would that be, and how many days "
            "on 2,048 H100s?")
    # 30.84M x (70e9 / 405e9 = 0.173) = 5.33M GPU-hours; / 2,048 / 24 = 108 days
    assert 5.2e6 <= a.figures["scaled_gpu_hours"] <= 5.5e6
    assert 104 <= a.figures["scaled_days_2048"] <= 112


def test_the_same_architecture_in_chinese_takes_the_quoted_runs_model_for_a_cost_too():
    from assistant.service import ask

    a = ask("DeepSeek-V3 技术报告里说完整训练用了 2.788M H800 GPU hours（14.8T token）。我们想用同样的架构训一个只喂 2T token 的"
            "版本，有 512 张 H800，大概要多久？按 $2/卡时 算多少钱？")
    # 2.788M x 2 / 14.8 = 376,757 GPU-hours; / 512 / 24 = 30.7 days
    assert a.request["model"] == "deepseek-v3"
    assert "376,757" in a.answer and "30.7 天" in a.answer
