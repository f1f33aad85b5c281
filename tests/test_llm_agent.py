"""The LLM backend driven by a scripted chat model: tools run, numbers are held to tool results."""
from __future__ import annotations

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from assistant.llm import ungrounded_numbers
from assistant.service import ask


@pytest.fixture(autouse=True)
def agent_mode(monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_LLM_MODE", "agent")  # these tests drive the tool-calling agent mode


Q = "Is one A100 80GB enough for QLoRA of Llama 3.1 70B?"


class ScriptedModel(GenericFakeChatModel):
    """Replays scripted messages; binding tools changes nothing (the script already knows them)."""

    def bind_tools(self, tools, **kwargs):
        return self


def scripted(final_text: str, args: dict | None = None) -> ScriptedModel:
    call = AIMessage(content="", tool_calls=[{"name": "size_train", "id": "call-1", "args": args or {
        "model": "llama-3.1-70b", "method": "qlora", "gpu": "a100-80gb", "num_gpus": 1}}])
    return ScriptedModel(messages=iter([call, AIMessage(content=final_text)]))


def test_agent_calls_the_tool_and_keeps_grounded_prose():
    rules = ask(Q)
    gb = rules.verdict.per_gpu_gb
    a = ask(Q, backend="openai:scripted", chat_model=scripted(f"Yes: QLoRA fits on one A100 80GB at about {gb:.1f} GB."))
    assert a.backend == "openai:scripted"
    assert a.tool_calls[0].name == "size_train" and a.tool_calls[0].args["method"] == "qlora"
    assert f"{gb:.1f}" in a.answer
    # what is scored comes from the agent's own tool call (the same job as the planner's here), never from prose
    assert a.verdict == rules.verdict and a.figures["qlora_per_gpu_gb"] == a.tool_calls[0].result["per_gpu_gb"]


def test_a_wrong_number_is_caught_and_the_rules_answer_returns():
    a = ask(Q, backend="openai:scripted", chat_model=scripted("Yes, it fits at about 23.7 GB."))
    assert a.backend == "rules"
    assert any("23.7 not found in any tool result" in w for w in a.warnings)


def test_malformed_tool_arguments_go_back_to_the_model_and_an_unsupported_verdict_is_refused():
    # the model's only call fails validation (num_gpus -3); it then says "It fits." with nothing computed behind it
    a = ask(Q, backend="openai:scripted", chat_model=scripted("It fits.", args={"model": "llama-3.1-70b", "num_gpus": -3}))
    assert a.backend == "rules" and any("without a successful tool call" in w for w in a.warnings)
    assert a.verdict.fits is True and a.verdict.method == "qlora"   # the rules planner's answer, with that warning


def test_an_empty_final_answer_falls_back():
    a = ask(Q, backend="openai:scripted", chat_model=scripted(""))
    assert a.backend == "rules" and any("no answer" in w for w in a.warnings)


def test_unconfigured_backend_says_how_to_configure_it():
    a = ask(Q, backend="openai")
    assert a.backend == "rules" and any("openai:MODEL" in w for w in a.warnings)


def test_guard_allows_rounding_units_and_counts():
    results = [{"per_gpu_gb": 49.3381, "host_ram_gb": 1012.4}]
    assert ungrounded_numbers("About 49.3 GB (45.9 GiB), 1.01 TB of RAM, on 2 GPUs.", results, "") == []
    assert ungrounded_numbers("About 61 GB.", results, "") == [61.0]


class StreamingScripted(ScriptedModel):
    """Streams its script: tool calls as tool-call chunks, prose word by word."""

    def _stream(self, messages, stop=None, run_manager=None, **kwargs):
        import json
        import re

        from langchain_core.messages import AIMessageChunk
        from langchain_core.outputs import ChatGenerationChunk

        msg = next(self.messages)
        if msg.tool_calls:
            yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=[
                {"name": tc["name"], "args": json.dumps(tc["args"]), "id": tc["id"], "index": i}
                for i, tc in enumerate(msg.tool_calls)]))
            return
        for tok in re.split(r"(\s)", msg.content):
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=tok))
            if run_manager:
                run_manager.on_llm_new_token(tok, chunk=chunk)
            yield chunk


def streaming(final_text: str) -> StreamingScripted:
    call = AIMessage(content="", tool_calls=[{"name": "size_train", "id": "call-1", "args": {
        "model": "llama-3.1-70b", "method": "qlora", "gpu": "a100-80gb", "num_gpus": 1}}])
    return StreamingScripted(messages=iter([call, AIMessage(content=final_text)]))


def test_streaming_tokens_from_the_agent():
    from assistant.service import ask_events

    gb = ask(Q).verdict.per_gpu_gb
    events = list(ask_events(Q, backend="openai:scripted", chat_model=streaming(f"QLoRA fits at {gb:.1f} GB on one card.")))
    tokens = [e["text"] for e in events if e["type"] == "token"]
    final = events[-1]["answer"]
    assert len(tokens) > 3 and "".join(tokens) == final.answer and final.backend == "openai:scripted"
    assert final.tool_calls[0].name == "size_train"


def test_streamed_prose_with_a_wrong_number_is_reset():
    from assistant.service import ask_events

    events = list(ask_events(Q, backend="openai:scripted", chat_model=streaming("It fits at 23.7 GB.")))
    kinds = [e["type"] for e in events]
    assert "reset" in kinds and kinds[-1] == "answer"
    after = "".join(e["text"] for e in events[kinds.index("reset"):] if e["type"] == "token")
    assert events[-1]["answer"].backend == "rules" and after.strip() == events[-1]["answer"].answer.strip()


def test_tool_call_text_instead_of_an_answer_is_rejected():
    text = '<tools></tools>{"name": "estimate_vram", "arguments": {"model": "llama-3.1-70b"}}'  # no such tool: not a call
    a = ask(Q, backend="openai:scripted", chat_model=ScriptedModel(messages=iter([AIMessage(content=text)])))
    assert a.backend == "rules" and any("tool-call text" in w for w in a.warnings)


def test_figures_without_any_tool_call_are_rejected():
    a = ask(Q, backend="openai:scripted",
            chat_model=ScriptedModel(messages=iter([AIMessage(content="Yes, QLoRA needs about 42 GB, so it fits.")])))
    assert a.backend == "rules" and any("called no tool" in w for w in a.warnings)


def test_an_unknown_gpu_in_a_tool_call_goes_back_to_the_model_which_can_retry():
    bad = AIMessage(content="", tool_calls=[{"name": "size_train", "id": "c1", "args": {
        "model": "llama-3.1-70b", "method": "qlora", "gpu": "NVIDIA A100 80GB GPU"}}])
    good = AIMessage(content="", tool_calls=[{"name": "size_train", "id": "c2", "args": {
        "model": "llama-3.1-70b", "method": "qlora", "gpu": "a100-80gb"}}])
    gb = ask(Q).verdict.per_gpu_gb
    model = ScriptedModel(messages=iter([bad, good, AIMessage(content=f"It fits: about {gb:.1f} GB per GPU.")]))
    a = ask(Q, backend="openai:scripted", chat_model=model)
    assert a.backend == "openai:scripted"
    assert "error" in a.tool_calls[0].result and "did you mean" in a.tool_calls[0].result["error"]
    assert a.tool_calls[1].result["fits"] is True


def test_the_agent_has_price_cost_speed_and_one_gpu_lookups():
    from assistant.llm import build_tools
    from assistant.service import default_deps

    tools = {t.name: t for t in build_tools(default_deps())}
    assert {"gpu_prices", "estimate_cost", "time_infer", "recommend_gpus", "lookup_gpu"} <= set(tools)
    one = tools["compare_gpus"].invoke({"gpus": ["h100"]})
    assert one["gpus"][0]["id"] == "h100"
    # 8 GPUs x 10 h x $2/GPU-h = $160 rental at the user's price
    cost = tools["estimate_cost"].invoke({"gpu": "h100", "num_gpus": 8, "hours": 10, "price_per_gpu_hour": 2.0})
    assert cost["rent_cost"]["typical"] == 160.0


def test_long_tool_results_are_trimmed_for_small_models():
    from assistant.llm import TOOL_RESULT_CHARS, trim

    big = {"fits": True, "assumptions": [f"assumption {i} " * 10 for i in range(100)]}
    small = trim(big)
    assert small["fits"] is True and len(small["assumptions"]) == 3 and "assumptions" in small["trimmed"]
    assert len(str(small)) < TOOL_RESULT_CHARS


def test_a_streamed_answer_past_the_budget_falls_back_and_says_so(monkeypatch):
    from assistant.service import ask_events

    monkeypatch.setenv("GPU_ADVISOR_LLM_BUDGET_S", "0.000001")
    events = list(ask_events(Q, backend="openai:scripted", chat_model=streaming("It fits at about 49.3 GB.")))
    final = events[-1]["answer"]
    assert final.backend == "rules" and any("budget" in w for w in final.warnings)


def test_a_client_that_goes_away_frees_its_llm_slot(monkeypatch):
    from assistant.service import ask_events

    monkeypatch.setenv("GPU_ADVISOR_LLM_BUDGET_S", "2")
    gb = ask(Q).verdict.per_gpu_gb
    for _ in range(4):  # more than the 2 slots: a leaked slot would make a later stream wait and fail
        stream = ask_events(Q, backend="openai:scripted", chat_model=streaming(f"It fits at about {gb:.1f} GB."))
        next(stream), next(stream)
        stream.close()  # the web/API/Slack surface closes the generator when its client disconnects
    last = list(ask_events(Q, backend="openai:scripted", chat_model=streaming(f"It fits at about {gb:.1f} GB.")))[-1]
    assert last["answer"].backend == "openai:scripted"


@pytest.mark.parametrize("prose,why", [
    ("No, it does not fit on one A100.", "says it does not fit"),                 # the tool says it fits
    ("It fits; the minimum is 4 GPUs.", "4 GPUs, a GPU count no tool returned"),  # small integers are checked too
])
def test_prose_that_contradicts_the_tools_is_rejected(prose, why):
    a = ask(Q, backend="openai:scripted", chat_model=scripted(prose))
    assert a.backend == "rules" and any(why in w for w in a.warnings)


def test_a_number_from_a_retrieved_document_does_not_ground_a_figure():
    search = AIMessage(content="", tool_calls=[{"name": "search_knowledge", "id": "s", "args": {"query": "A100 bandwidth"}}])
    model = ScriptedModel(messages=iter([search, AIMessage(content="It needs about 2039 GB.")]))
    a = ask(Q, backend="openai:scripted", chat_model=model)
    assert a.backend == "rules"  # 2039 is in a passage (the A100's GB/s), not in any calculator's result


def test_a_tool_call_written_as_text_is_made_the_call_it_means():
    # small local models often write the call as JSON text instead of calling the tool
    gb = ask(Q).verdict.per_gpu_gb
    as_text = AIMessage(content='<tool_call>{"name": "size_train", "arguments": {"model": "llama-3.1-70b", '
                                '"method": "qlora", "gpu": "a100-80gb", "num_gpus": 1}}</tool_call>')
    model = ScriptedModel(messages=iter([as_text, AIMessage(content=f"QLoRA fits: about {gb:.1f} GB per GPU.")]))
    a = ask(Q, backend="openai:scripted", chat_model=model)
    assert a.backend == "openai:scripted" and a.tool_calls[0].name == "size_train"
    assert a.verdict.fits is True and f"{gb:.1f}" in a.answer


def test_text_that_only_mentions_a_tool_stays_text():
    from langchain_core.messages import AIMessage as M

    from assistant.llm import text_to_tool_call

    m = M(content='I could call {"name": "rm -rf", "arguments": {}} but will not.')
    assert text_to_tool_call(m, {"size_train"}) is m
