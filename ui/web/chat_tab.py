"""The Chat tab: streaming answers, and per answer the verdict, the memory chart, the options, tool calls and sources."""
from __future__ import annotations

import logging

import gradio as gr

from ui.web.i18n import t
from ui.web.widgets import memory_chart
from ui.web.views import chart as memory_figure
from ui.web.views import (calc_prefill, chat_markdown, citations_markdown, launch_text, options_rows, tool_calls_payload,
                          verdict_markdown)

log = logging.getLogger("gpu_advisor.web")

MAX_SUGGESTIONS = 4

EXAMPLES = [
    "A100够不够微调70B？",
    "A100 和 910B 哪个好？",
    "从H100降级到A100只多20%-30%的时间，对吗？",
    "用8张H100全参微调Llama 3.1 70B要多少显存？",
    "How many H100s for a full fine-tune of Llama 3.1 70B?",
    "Can one RTX 4090 serve Llama 3.1 8B in int4 with a 32k context?",
    "How long to pretrain a 7B model on 1T tokens with 64 A100s?",
    "H20 vs H200 for serving Qwen2.5-72B",
]


def build(ctx, lang: str, session_state, prices_state) -> dict:
    """Lay out the tab inside the current Blocks; returns the components the language switch relabels."""
    with gr.Row(equal_height=False, elem_id="chat-row"):
        with gr.Column(scale=5):
            chatbot = gr.Chatbot(label="gpu-advisor", height=520, elem_id="chatbot", buttons=["copy"],
                                 feedback_options=None, placeholder=t(lang, "no_verdict"))
            with gr.Row():
                box = gr.Textbox(label=t(lang, "question"), placeholder=t(lang, "placeholder"), scale=6, lines=1,
                                 max_lines=6, elem_id="question", max_length=ctx.settings.max_message_chars * 25)
                send = gr.Button(t(lang, "send"), variant="primary", scale=1, elem_id="ask")
            with gr.Row(elem_id="suggestions"):  # a clarifying question's completions, sent with one click
                suggest = [gr.Button("", visible=False, size="sm", elem_id=f"suggest-{i}") for i in range(MAX_SUGGESTIONS)]
            new = gr.Button(t(lang, "new_chat"), size="sm", variant="secondary", elem_id="new-chat")
            with gr.Accordion(f"{t('zh', 'examples')} · {t('en', 'examples')}", open=True, elem_id="examples-box"):
                examples = gr.Examples(EXAMPLES, inputs=[box], label=None)
        with gr.Column(scale=4):
            verdict = gr.Markdown(f"*{t(lang, 'no_verdict')}*", elem_id="verdict")
            prefill = gr.State(None)  # the verdict's configuration as Calculator fields
            open_calc = gr.Button(t(lang, "open_calc"), size="sm", visible=False, elem_id="open-calc")
            chart = memory_chart(lang, "chat-chart")
            options = gr.Dataframe(label=t(lang, "options"), interactive=False, elem_id="options", wrap=True)
            launch = gr.Code(label=t(lang, "launch"), language="shell", lines=4, interactive=False, elem_id="chat-launch",
                             visible=False)
            with gr.Accordion(t(lang, "tool_calls"), open=False) as calls_box:
                calls = gr.JSON(label=t(lang, "tool_calls"), open=False)
            sources = gr.Markdown("", elem_id="sources")

    def chat_only(history, session_id, buttons=None):
        """Outputs where only the conversation changed (the panels keep the last answer's)."""
        return (history, session_id, gr.skip(), gr.skip(), gr.skip(), gr.skip(), gr.skip(), "", gr.skip(), gr.skip(),
                gr.skip(), *(buttons or [gr.skip()] * MAX_SUGGESTIONS))

    hidden = [gr.update(visible=False)] * MAX_SUGGESTIONS

    def suggestion_buttons(answer):
        c = answer.clarification if answer.status == "needs_clarification" else None
        labels = list(c.suggestions[:MAX_SUGGESTIONS]) if c else []
        return [gr.update(value=labels[i], visible=True) if i < len(labels) else gr.update(visible=False)
                for i in range(MAX_SUGGESTIONS)]

    def respond(message, history, session_id, prices):
        history = list(history or [])
        message = (message or "").strip()
        if not message:
            yield chat_only(history, session_id)
            return
        history += [{"role": "user", "content": message}, {"role": "assistant", "content": "…"}]
        yield chat_only(history, session_id, hidden)
        text = ""
        try:
            for event in ctx.stream(message, session_id, None, prices or None):
                if event["type"] == "token":
                    text += event["text"]
                    history[-1] = {"role": "assistant", "content": text}
                    yield chat_only(history, session_id)
                elif event["type"] == "reset":
                    text = ""
                elif event["type"] == "answer":
                    answer, session_id = event["answer"], event["session_id"]
                    history[-1] = {"role": "assistant", "content": chat_markdown(answer)}
                    headers, rows = options_rows(answer)
                    figure = memory_figure(answer.tool_calls, answer.lang)
                    launch = launch_text(answer.tool_calls, answer.verdict)
                    form = calc_prefill(answer)
                    yield (history, session_id, verdict_markdown(answer),
                           gr.update(value=figure, visible=figure is not None),
                           gr.update(value={"headers": headers, "data": rows} if rows else None, visible=bool(rows)),
                           tool_calls_payload(answer), citations_markdown(answer), "",
                           gr.update(value=launch, visible=bool(launch)), form, gr.update(visible=form is not None),
                           *suggestion_buttons(answer))
        except ValueError as e:  # a session id or price the store refused: say so in the chat
            history[-1] = {"role": "assistant", "content": f"⚠ {e}"}
            yield chat_only(history, session_id)
        except Exception:
            log.exception("chat turn failed")
            history[-1] = {"role": "assistant", "content": "⚠ internal error: the details are in the server log. "
                                                           "Try again, or rephrase the question."}
            yield chat_only(history, session_id)

    outputs = [chatbot, session_state, verdict, chart, options, calls, sources, box, launch, prefill, open_calc, *suggest]
    inputs = [box, chatbot, session_state, prices_state]
    box.submit(respond, inputs, outputs, concurrency_id="chat")
    send.click(respond, inputs, outputs, concurrency_id="chat")
    for b in suggest:
        b.click(lambda label: label, [b], [box], queue=False).then(respond, inputs, outputs, concurrency_id="chat")
    new.click(lambda: ([], None, "", None, None, None, "", gr.update(value="", visible=False), None,
                       gr.update(visible=False)), None,
              [chatbot, session_state, verdict, chart, options, calls, sources, launch, prefill, open_calc], queue=False)
    return {"chatbot": chatbot, "box": box, "send": send, "new": new, "verdict": verdict, "chart": chart,
            "options": options, "calls_box": calls_box, "examples": examples, "launch": launch,
            "prefill": prefill, "open_calc": open_calc}


def relabel(lang: str, c: dict) -> list:
    """Updates for the language switch, in the order of outputs(c)."""
    return [gr.update(placeholder=t(lang, "no_verdict")), gr.update(label=t(lang, "question"), placeholder=t(lang, "placeholder")),
            gr.update(value=t(lang, "send")), gr.update(value=t(lang, "new_chat")),
            gr.update(label=t(lang, "chart")), gr.update(label=t(lang, "options")),
            gr.update(label=t(lang, "tool_calls")), gr.update(label=t(lang, "launch")), gr.update(value=t(lang, "open_calc"))]


def outputs(c: dict) -> list:
    return [c["chatbot"], c["box"], c["send"], c["new"], c["chart"], c["options"], c["calls_box"], c["launch"], c["open_calc"]]
