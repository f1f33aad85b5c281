"""The LLM reader mode: a chat model fills the Request, the planner and the tools answer it, and a form that does
not validate falls back to the rules reader's reading with a warning."""
from __future__ import annotations

import pytest
from langchain_core.runnables import RunnableLambda

from assistant.readers.llm import LLMForm
from assistant.service import ask

Q = "两台机器，每台8张A100，全参微调 Llama 3.1 70B 够吗"


class FormModel:
    """A stand-in chat model whose structured output is scripted (a dict, or an exception to raise)."""

    def __init__(self, form):
        self.form = form
        self.prompts: list = []

    def with_structured_output(self, schema, **kwargs):
        def run(messages):
            self.prompts.append(messages)
            if isinstance(self.form, Exception):
                raise self.form
            return schema.model_validate(self.form)
        return RunnableLambda(run)


def llm_ask(question, form, **kw):
    model = FormModel(form)
    return ask(question, backend="openai:scripted", chat_model=model, mode="reader", **kw), model


def test_the_planner_answers_the_request_the_model_read():
    form = {"intent": "training_memory", "method": "full", "model": "llama-3.1-70b", "gpu": "a100-80gb", "num_gpus": 16,
            "gpus_per_node": 8, "nodes": 2}
    a, _ = llm_ask(Q, form)
    rules = ask(Q)
    assert a.backend == "openai:scripted" and a.reader == "llm" and a.status == "answered"
    assert a.request["num_gpus"] == 16 and a.request["model"] == "llama-3.1-70b"
    # same Request, same tools: the figures are the rules planner's for the same job
    assert a.figures == rules.figures and a.verdict == rules.verdict
    assert not any("disagree" in w for w in a.warnings)


def test_what_the_rules_reader_read_from_the_text_stands_and_the_model_may_only_add():
    # the model reads 8 GPUs where the question says 2 servers x 8: the rules reading (16) stands, and the
    # answer names the value it dropped; a stated-nowhere sequence length is dropped as unsupported
    form = {"intent": "training_memory", "method": "full", "model": "llama-3.1-70b", "gpu": "a100-80gb", "num_gpus": 8,
            "seq_len": 4096}
    a, _ = llm_ask(Q, form)
    assert a.reader == "llm" and a.verdict.num_gpus == 16 and a.request["seq_len"] is None
    assert any("num_gpus=8 (the rules reader read 16)" in w and "seq_len=4096" in w for w in a.warnings)


def test_the_model_adds_a_field_the_rules_reader_missed_when_the_question_shows_it():
    q = "Qwen2.5-7B LoRA on one 4090 with max_len set to 3000?"  # '3000' with no cue the rules reader knows
    a, _ = llm_ask(q, {"intent": "training_memory", "method": "lora", "model": "qwen2.5-7b", "gpu": "rtx-4090",
                       "num_gpus": 1, "seq_len": 3000})
    assert a.request["seq_len"] == 3000 and any("seq_len: llm 3000, rules None" in w for w in a.warnings)


def test_names_are_resolved_through_the_catalog_and_unknown_ones_fall_back():
    a, _ = llm_ask("Can I LoRA Llama 3.1 8B on one H100?", {"intent": "training_memory", "method": "lora",
                                                          "model": "Meta-Llama-3.1-8B-Instruct", "gpu": "NVIDIA H100 80GB"})
    assert a.request["model"] == "llama-3.1-8b"
    b, _ = llm_ask("Can I LoRA Llama 3.1 8B on one H100?", {"intent": "training_memory", "method": "lora",
                                                          "model": "llama-9-8b", "gpu": "h100"})
    assert b.request["model"] == "llama-3.1-8b" and any("does not know" in w for w in b.warnings)


@pytest.mark.parametrize("failure", [ValueError("malformed JSON"), TimeoutError("read timed out")])
def test_a_failing_reader_leaves_the_rules_answer_with_a_warning(failure):
    a, _ = llm_ask(Q, failure)
    assert a.backend == "rules" and a.reader == "rules" and a.request["num_gpus"] == 16
    assert any("LLM reader openai:scripted failed" in w for w in a.warnings)


def test_an_invalid_form_is_refused_not_half_used():
    a, _ = llm_ask(Q, {"intent": "training_memory", "num_gpus": "sixteen"})
    assert a.backend == "rules" and any("failed" in w for w in a.warnings)


def test_a_question_back_comes_from_the_planner_whichever_reader():
    a, _ = llm_ask("how long will the training take?", {"intent": "training_time"})
    assert a.reader == "llm" and a.status == "needs_clarification" and set(a.clarification.missing) == {"model", "tokens"}


def test_a_follow_up_shows_the_model_the_last_request():
    first = ask(Q)
    a, model = llm_ask("那H100呢", {"intent": "training_memory", "method": "full", "model": "llama-3.1-70b", "gpu": "h100",
                                   "num_gpus": 16}, history=[first.slots])
    system = model.prompts[0][0].content
    assert '"num_gpus": 16' in system and a.verdict.gpu == "h100"


def test_the_form_schema_is_small_enough_for_a_small_model():
    assert len(LLMForm.model_fields) <= 40


def test_a_slow_reader_is_cut_at_the_budget(monkeypatch):
    import time

    from assistant import llm_limits

    class Slow(FormModel):
        def with_structured_output(self, schema, **kwargs):
            return RunnableLambda(lambda messages: time.sleep(2) or schema.model_validate({"intent": "training_memory"}))

    monkeypatch.setenv("GPU_ADVISOR_LLM_BUDGET_S", "0.3")
    t0 = time.perf_counter()
    a = ask(Q, backend="openai:scripted", chat_model=Slow(None), mode="reader")
    assert time.perf_counter() - t0 < 1.5 and a.backend == "rules"
    assert any("longer than the 0.3 s budget" in w for w in a.warnings)
    assert llm_limits.budget_s() == 0.3


def test_an_endless_tool_loop_stops_at_the_tool_call_cap(monkeypatch):
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    class Looping(GenericFakeChatModel):
        def bind_tools(self, tools, **kwargs):
            return self

    call = {"name": "size_train", "id": "c", "args": {"model": "llama-3.1-70b", "method": "qlora", "gpu": "a100-80gb"}}
    model = Looping(messages=iter([AIMessage(content="", tool_calls=[dict(call, id=f"c{i}")]) for i in range(50)]))
    a = ask("Is one A100 80GB enough for QLoRA of Llama 3.1 70B?", backend="openai:scripted", chat_model=model, mode="agent")
    assert a.backend == "rules" and any("more than 8 tool calls" in w for w in a.warnings)


@pytest.mark.parametrize("field,value,text,ok", [
    ("seq_len", 8192, "lora at 8k context", True),          # 8k = 8 x 1024
    ("seq_len", 100, "full fine-tune on a100", False),     # '100' is part of a GPU name, and too short a length
    ("context", 70, "70b model at 4k", False),             # a model size is not a context
    ("tokens", 1e12, "pretrain 7b on 1t tokens", True),
    ("period_hours", 72, "8 gpus for 3 days", True),       # 3 days x 24 h
    ("utilization", 0.6, "at 60% utilization", True),
    ("utilization", 1.0, "one h100", False),
    ("price_per_gpu_hour", 4.0, "llama 8b at 4k context", False),  # '4k' is 4096 or 4000, not 4
    ("purchase_price", 15000, "4090一张1.5万", True),       # 1.5万 = 15,000
    ("engine", "vllm", "serve it with vllm", True),
    ("engine", "llamacpp", "serve it with vllm", False),
])
def test_a_value_stands_only_when_the_question_shows_it(field, value, text, ok):
    from assistant.readers.llm import _grounded
    from assistant.request import Request

    assert _grounded(field, value, text, Request()) is ok


def test_a_gpu_list_cannot_replace_the_gpu_the_question_names():
    # seen with Qwen2.5-Coder-1.5B: gpus ['a40'] read from 'on a 4090' ('a40' sits inside 'a 4090' once the
    # spaces go): the name must stand as a whole, and a list may not overwrite the card the rules reader read
    q = "Llama 3.1 8B in ollama on a 4090, 20 people use it at once; with vLLM at 4k context can it hold them?"
    a, _ = llm_ask(q, {"intent": "serving", "model": "llama-3.1-8b", "gpu": "a40", "gpus": ["a40"], "num_gpus": 1})
    assert a.request["gpu"] == "rtx-4090" and a.verdict.gpu == "rtx-4090"


def test_a_word_the_rules_reader_gave_one_field_does_not_ground_another():
    # 'kv cache 用 fp8' states the KV-cache dtype; a small model also wrote precision fp8 (weights), which (in a
    # follow-up to a 4-bit 72B) made the weights 8-bit; the word belongs to kv_dtype
    q = "Qwen2.5-72B 一张 A100 80G，32k 上下文，kv cache 用 fp8"
    a, _ = llm_ask(q, {"intent": "inference_memory", "model": "qwen2.5-72b", "gpu": "a100-80gb", "num_gpus": 1,
                       "precision": "fp8", "kv_dtype": "fp8", "context": 32768})
    assert a.request["kv_dtype"] == "fp8" and a.request["precision"] is None
    assert any("precision=fp8 (that word is the question's" in w for w in a.warnings)
