"""Answers in Chinese are Chinese: component names, assumption lines, money in yuan with dollars beside and the rate
dated; comparisons say which card wins which job."""
from __future__ import annotations

import re

import pytest

from assistant.service import ask
from assistant.zh import COMPONENTS_ZH, assumption_zh

HAN = re.compile(r"[\u4e00-\u9fff]")


def _assumptions(text: str) -> list[str]:
    block = text.split("**假设**", 1)[1].split("\n\n")[0]
    return [line[2:] for line in block.splitlines() if line.startswith("- ")]


@pytest.mark.parametrize("question", ["A100够不够微调70B？", "用8张H100全参微调Llama 3.1 70B要多少显存？",
                                      "4090 能跑 qwen2.5-14b int4 吗，32k 上下文", "用64张A100预训练7B模型1T token要多久"])
def test_every_assumption_line_of_a_chinese_answer_is_chinese(question):
    lines = _assumptions(ask(question).answer)
    assert lines and all(HAN.search(line) for line in lines), [x for x in lines if not HAN.search(x)]


def test_numbers_survive_translation_and_unknown_lines_stay_as_they_are():
    line = "sequence length 8192 tokens (default; --seq-len)"
    assert assumption_zh(line) == "序列长度 8192 个 token（默认；--seq-len）"
    assert assumption_zh("a line nobody wrote a pattern for") == "a line nobody wrote a pattern for"


def test_breakdown_components_are_named_in_chinese():
    text = ask("A100够不够微调70B？").answer
    assert f"| {COMPONENTS_ZH['weights']} | 38.16 |" in text and "| weights |" not in text
    assert "| weights | 38.16 |" in ask("Is one A100 80GB enough to QLoRA a 70B model?").answer   # English keeps keys


def test_chinese_costs_are_in_yuan_with_dollars_beside_and_the_rate_dated():
    a = ask("用64张A100训练7B模型1T token要多久")
    usd = a.figures["cost_usd"]
    # the same job in yuan at 7.2 CNY/USD: e.g. $225,236 -> ¥1,621,699
    assert f"¥{usd * 7.2:,.0f}（${usd:,.0f}）" in a.answer
    assert "7.2 元/美元" in a.answer and "2026-03-20" in a.answer        # the rate, its source and its date
    en = ask("How long to train a 7B model on 1T tokens with 64 A100s?")
    assert f"${en.figures['cost_usd']:,.0f}" in en.answer and "¥" not in en.answer


def test_a_comparison_says_which_card_for_which_job():
    a = ask("昇腾910B和A100，训练大模型用哪个好？")
    # gpus.yaml: 910B 376 dense BF16 TFLOPS vs A100 312 -> 1.21x for training; A100 2,039 vs 1,600 GB/s -> 1.27x decode
    assert a.figures["best_for_training"] == "ascend-910b" and a.figures["best_for_training_ratio"] == 1.21
    assert a.figures["best_for_decode"] == "a100-80gb" and a.figures["best_for_decode_ratio"] == 1.27
    assert "显存带宽（GB/s）" in a.answer and "memory_bandwidth_gbps" not in a.answer


def test_settings_take_prices_in_yuan_or_dollars():
    from ui.web.settings_tab import _prices_md, to_usd

    assert to_usd(18.0, "CNY") == pytest.approx(2.5)                 # 18 元/卡·时 / 7.2 = $2.50
    assert to_usd(2.5, "USD") == 2.5
    shown = _prices_md({"h100": 2.5}, "zh")
    assert "18.00 元/卡·时（$2.50）" in shown and "7.2 元/美元" in shown
