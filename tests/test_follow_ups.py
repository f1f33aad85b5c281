"""Issue 24, class 'conversation lost context': a follow-up changes what it names and keeps the rest. A new sample
count is priced at the conversation's sample length; a tool named llama.cpp is not the Llama family; a number of users
replaces a batch of one. A sample count with a stated sequence length is a token count in any message."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.service import ask

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def converse(*turns: str):
    history, a = [], None
    for t in turns:
        a = ask(t, history=history)
        history.append(a.slots)
    return a


@SETTINGS
@given(first=st.sampled_from([50_000, 20_000]), then=st.sampled_from([200_000, 120_000]), length=st.sampled_from([2048, 4096]),
       lang=st.sampled_from(["en", "zh"]))
def test_a_new_sample_count_keeps_the_conversations_length(first, then, length, lang):
    t1 = (f"Full fine-tune Llama-3.1-8B on 4 H100s, {first:,} samples of {length} tokens each, 2 epochs, MFU 40%: how long?"
          if lang == "en" else f"用 4 张 H100 全参训练 Llama-3.1-8B，数据 {first // 10000} 万条，每条 {length} token，2 个 epoch，"
          "MFU 按 40%，要多久？")
    t2 = f"And with {then:,} samples?" if lang == "en" else f"如果数据增加到 {then // 10000} 万条呢？"
    a = converse(t1, t2)
    assert a.request["tokens"] == then * length  # the new count x the length said before (epochs apply on top)
    assert a.request["model"] == "llama-3.1-8b" and a.request["num_gpus"] == 4


def test_llama_cpp_is_a_tool_not_the_llama_family():
    a = converse("How much GPU memory do I need to run Mistral 7B Instruct in BF16 with 8k context for one user?",
                 "OK, and if I switch to a 4-bit GGUF (Q4_K_M) in llama.cpp?", "Same setup, but 10 users at once?")
    assert a.request["model"].startswith("mistral-7b")
    assert a.request["concurrent_users"] == 10 and a.request["batch"] in (None, 10)


@pytest.mark.parametrize("text,tokens", [
    ("Full fine-tune Llama 3.1 8B on 50k samples, seq length 2048, 3 epochs, on 8 H100: how long?", 50_000 * 2048),
    ("用 8 张 A100 全参微调 Qwen2.5-7B，10 万条样本，序列长度 4096，多久？", 100_000 * 4096),
])
def test_a_sample_count_with_a_sequence_length_is_a_token_count(text, tokens):
    assert ask(text).request["tokens"] == tokens
