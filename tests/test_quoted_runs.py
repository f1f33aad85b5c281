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
