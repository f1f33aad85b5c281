"""Issue 24, classes seen in fresh sets H-J and fixed by class: asks labelled with letters or 'Q1:' are each answered;
a list of asks in one sentence ('what's X, how big is Y, and roughly what Z?') is split; a size per tokens ('the KV
cache per 1k tokens') is not a cost per token; an input one ask uses is not 'Not used' in another ask's section; a
trap (a negative GPU count, a context beyond the model's limit) is said and the question still answered."""
from __future__ import annotations

import itertools
import re

import pytest

from assistant.readers.items import split_items
from assistant.readers.slots import per_token_cost
from assistant.service import ask

LABELS = [("(a)", "(b)", "(c)"), ("a)", "b)", "c)"), ("A.", "B.", "C."), ("Q1:", "Q2:", "Q3:"), ("（a）", "（b）", "（c）")]
JOB = "QLoRA fine-tune of Mistral 7B, seq len 4096. Three questions:"
ASKS = ["will it fit on one RTX 4090?", "how long for 3 epochs over 20k examples of ~1500 tokens on one RTX 4090?",
        "what would the same run cost on a rented A100 80GB at $1.60/hr?"]


# 'A.' marks an item only at a line's start ('see section A. below' is prose)
@pytest.mark.parametrize("labels,sep", [(x, s) for x, s in itertools.product(LABELS, ["\n", " "]) if (x[0], s) != ("A.", " ")])
def test_asks_labelled_with_letters_or_q_numbers_are_items(labels, sep):
    text = JOB + "".join(f"{sep}{m} {q}" for m, q in zip(labels, ASKS))
    head, items = split_items(text)
    assert items == ASKS, (labels, items)
    assert head.startswith("QLoRA fine-tune")


def test_each_lettered_ask_is_answered_in_order():
    a = ask(JOB + "\n(a) " + "\n(b) ".join(ASKS[:2]) + "\n(c) " + ASKS[2])
    assert [x.intent for x in a.asks] == ["training_memory", "training_time", "cost"]
    # (a) QLoRA on 7.24e9 parameters: NF4 weights ~0.55 B each = ~4 GB plus adapters and activations: fits 24 GB
    assert "fits" in a.answer
    # (c) the time on one A100 x $1.60: a figure in dollars, at the user's price
    assert "$1.60/GPU-h (your price)" in a.answer


@pytest.mark.parametrize("prose", ["see section a. below for details", "I have a 4090 (a) and an A100 (b)",
                                   "the model (a 7B one) on a 4090"])
def test_a_letter_in_prose_is_not_a_list(prose):
    assert split_items(prose) == ("", [])


COUNT = ["what's the minimum number of H200s for the FP8 weights", "how many H200s do the FP8 weights need"]
KV = ["how big is the KV cache per 1k tokens", "how large is the KV cache per 1k tokens"]
SPEED = ["roughly what decode speed for a single stream", "what decode speed for one stream"]


@pytest.mark.parametrize("count,kv,speed", list(itertools.product(COUNT, KV, SPEED)))
def test_a_list_of_asks_in_one_sentence_is_split(count, kv, speed):
    a = ask(f"DeepSeek-V3 (the 671B one) for inference: {count}, {kv}, and {speed}?")
    intents = [x.intent for x in a.asks]
    assert "inference_memory" in intents and "inference_speed" in intents, intents
    assert "cost" not in intents  # 'per 1k tokens' beside the KV cache is a size, not a price
    # MLA latent: 61 layers x (512 + 64) x 2 B = 70,272 B per token = 0.07 GB per 1k tokens
    assert "0.07 GB per 1k tokens" in a.answer
    # the speed is on the fewest H200s that hold 671B in FP8 (~690 GB over 141 GB cards: 8 with TP), not on one
    speed = a.asks[intents.index("inference_speed")]
    assert speed.request["num_gpus"] == 8


@pytest.mark.parametrize("text,cost", [
    ("how big is the KV cache per 1k tokens", False), ("0.13 GB per 1k tokens", False), ("每千 token 的 KV 缓存多大", False),
    ("memory per 1k tokens of context", False), ("what's the cost per 1M tokens", True), ("每百万 token 成本多少", True),
    ("$ per million output tokens", True), ("KV cache is 128 KiB; what's the price per 1M tokens?", True)])
def test_a_size_per_tokens_is_not_a_cost_per_token(text, cost):
    assert per_token_cost(text.lower()) is cost


@pytest.mark.parametrize("model,price", [("Llama 3.1 70B", "2.49"), ("Qwen2.5-72B", "3.10"), ("Llama 3.1 8B", "1.20")])
def test_an_input_another_ask_uses_is_not_listed_as_not_used(model, price):
    a = ask(f"We'll serve {model} in FP8 on H100 SXM. How much memory does it need, and what's the monthly bill at "
            f"${price}/GPU-hr running 24/7?")
    assert len(a.asks) == 2
    # the bill uses the price: GPUs x 730 h x price; no section may call the price unused
    assert not re.search(r"price_per_gpu_hour=[\d.]+: the tool that answers this question does not use it", a.answer)
    assert not any(i.startswith("price_per_gpu_hour") for i in a.ignored)


@pytest.mark.parametrize("text,least", [
    # 70.55e9 x 16 B = 1,129 GB of model states over 80 GB cards (84.7 GB usable, less activations): at least 15
    ("公司有 -4 张 A100 80G,想全参微调 Llama-3-70B,够不够?", 15),
    ("We have -4 A100 80GB. Is that enough for a full fine-tune of Llama 3 70B?", 15),
    # 70.6e9 x 2 B = 141 GB of BF16 weights over 80 GB cards: at least 2
    ("Can 0 H100s serve Llama 3.1 70B in bf16?", 2),
])
def test_a_zero_or_negative_gpu_count_is_said_and_the_count_needed_given(text, least):
    a = ask(text)
    assert a.status == "answered", a.answer[:400]
    assert "left out" in a.answer or "已忽略" in a.answer
    needed = re.search(r"(?:at least|至少需要|至少) \**(\d+)", a.answer)  # the headline's count
    assert needed and least <= int(needed.group(1)) <= 2 * least, a.answer[:600]


def test_a_context_beyond_the_limit_is_answered_at_the_limit_with_the_asked_lengths_kv():
    a = ask("I need to run Llama 3.1 8B with a 10M token context window. How many H100s do I need for the KV cache?")
    # at the model's limit, 131,072 tokens x 128 KiB (2 x 32 layers x 8 KV heads x 128 x 2 B) = 17.2 GB of KV cache
    # beside 16.1 GB of weights: one H100 holds it
    assert a.request["context"] == 131_072 and "fits on 1×" in a.answer
    # and the asked length: 10,485,760 x 131,072 B = 1,374 GB per sequence, which no count of GPUs makes usable
    assert "1,374 GB" in a.answer and "no number of GPUs" in a.answer
    assert "1025" not in a.answer.split("**Assumptions**")[0]
