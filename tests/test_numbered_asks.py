"""Issue 24, 'ask missing': asks written as numbered items ('(1) … (2) … (3) …', '1) … 2) …', '①…②…') are each
answered; a full fine-tune's memory answer gives the whole job's model states, not only the per-GPU share."""
from __future__ import annotations

import pytest

from assistant.readers.asks import _clauses
from assistant.service import ask

JOB = "We want to do a full-parameter SFT of Llama 3.1 8B on our data: 1B tokens, 2 epochs."
ITEMS = ["how much GPU memory does it need and the minimum number of H100 80GB cards",
         "how long would it take on one 8x H100 SXM node", "what would it cost at $2.50 per GPU-hour"]


@pytest.mark.parametrize("marks", [("(1)", "(2)", "(3)"), ("1)", "2)", "3)"), ("①", "②", "③"), ("（1）", "（2）", "（3）")])
def test_numbered_items_are_separate_clauses(marks):
    text = (JOB + " Three things: " + ", ".join(f"{m} {i}" for m, i in zip(marks, ITEMS)) + "?").lower()
    clauses = _clauses(text)
    for item in ITEMS:
        assert any(item.lower() in c for c in clauses), item


def test_each_numbered_ask_is_answered():
    a = ask(JOB + " Three things: (1) " + ITEMS[0] + ", (2) " + ITEMS[1] + ", and (3) " + ITEMS[2] + "?")
    intents = [s["intent"] for s in a.sections] if getattr(a, "sections", None) else None
    text = a.answer
    # (1) 16 B x 8.03e9 parameters = 128 GB of states: more than one 80 GB card, so at least 2
    assert "128 GB" in text and "at least 2" in text or "| 2 |" in text
    # (2) 6 x 8.03e9 x 2e9 = 9.6e19 FLOPs / (8 x 989.4e12 x 0.40) = 3.0e4 s = 8.5 h (+ attention)
    assert "hours" in text
    # (3) 8 GPUs x ~8.7 h x $2.50 = ~$175
    assert "$175" in text
    assert intents is None or len(intents) >= 3


def test_a_number_in_brackets_inside_a_sentence_is_not_an_item():
    assert len(_clauses("fine-tune llama 3.1 8b (batch 8) on h100")) == 1


def test_an_items_number_is_not_a_prompt_length_and_each_item_keeps_its_gpu_count():
    from assistant.readers import slots

    q = ("准备用 LoRA 微调 Qwen3-32B。三个问题:1)显存要多少,单卡 A800 80G 够不够;2)数据 50 万条,平均 1k token,训 3 个 epoch,"
         "8 卡 A800 大概多久;3)租卡 ¥7/卡时,总共多少钱?")
    assert "prompt_len" not in slots.lengths(q.lower())
    a = ask(q)
    # 500,000 samples x 1,024 tokens x 3 epochs = 1.54e9 tokens; LoRA 4 x 32.8e9 x 1.54e9 = 2.0e20 FLOPs on 8 A800s:
    # / (8 x 312e12 x 0.45) = 1.8e5 s = 50 h before attention and overheads; about 75 h estimated; never the 1-card 600 h
    assert "8 张卡约" in a.answer
    hours = [s for s in a.answer.split("\n") if s.startswith("**8 张卡约")][0]
    assert 40 <= float(hours.split("约 ")[1].split(" 小时")[0].replace(",", "")) <= 110


def test_a_later_ask_bills_the_gpus_an_earlier_ask_chose():
    a = ask("We plan to serve Qwen2.5-72B-Instruct in FP8 on H100 SXM for about 50 concurrent users, each with up to 8k "
            "tokens of context. How many GPUs do we need, what decode speed per user should we expect, and what's the "
            "monthly bill at $2.20 per GPU-hour running 24/7?")
    # FP8 weights 72.7e9 x 1 B = 73 GB: more than one 80 GB card holds with the KV cache, so TP 4 (the fewest that
    # split 64 heads evenly and hold them); the bill: 4 GPUs x 730 h x $2.20 = $6,424, never one GPU's $1,606
    assert "$6,424" in a.answer and "$1,606" not in a.answer


def test_pick_one_is_the_comparisons_pick_not_an_unanswered_ask():
    a = ask("We have one server with 2x A100 80GB. We want to fine-tune Llama 3.1 70B on ~20k instruction samples, "
            "sequences up to 4k tokens. Should we do LoRA in BF16 or QLoRA? Pick one and tell me why with numbers.")
    # BF16 LoRA: 70.6e9 x 2 B = 141 GB of frozen weights over 2 GPUs = 70.6 GB each + activations at 4k: over 80 GB;
    # QLoRA: ~0.55 B per weight = ~39 GB in all: fits
    assert "**pick qlora**" in a.answer
    assert not a.not_answered


def test_two_models_in_one_format_are_compared_as_models():
    from assistant.readers.asks import find_asks
    from assistant.readers.rules import read
    from knowledge.catalog import default_catalog

    q = "单张 4090 本地推理,Qwen3-30B-A3B 和 Qwen3-32B(dense)都用 4-bit(Q4_K_M / AWQ),哪个更快?快多少?"
    cat = default_catalog()
    asks = find_asks(q, read(q, cat).request, cat)
    assert [a.compare for a in asks] == ["model", "model"]
