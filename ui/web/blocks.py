"""The web UI: four tabs in one gr.Blocks, a UI language switch (default: the browser's language)."""
from __future__ import annotations

import gradio as gr

from ui.web import calculator_tab, chat_tab, gpus_tab, settings_tab
from ui.web.i18n import browser_lang_js, t

CSS = """
#verdict h3 { font-size: 1.35em; margin: 0.2em 0; }
#calc-verdict h3 { font-size: 1.2em; }
footer { visibility: hidden; }
/* phones: the answer's verdict, chart and options come before the chat log and the examples */
@media (max-width: 640px) {
  #chat-row { flex-direction: column-reverse !important; }
  #header { flex-direction: column !important; }
  #title h2 { font-size: 1.25em; }
  #ui-lang { min-width: 0 !important; }
  #chat-row > .column { min-width: 0 !important; width: 100% !important; max-width: 100vw; }
}
/* a long launch line in an answer wraps instead of widening the page */
#chatbot code, #chatbot pre { white-space: pre-wrap !important; word-break: break-word; }
/* a chart wider than a phone scrolls sideways instead of spilling out of the page */
#chat-chart, #calc-chart { overflow-x: auto; }
"""


def build_ui(ctx) -> gr.Blocks:
    lang = "en"
    with gr.Blocks(title="gpu-advisor", analytics_enabled=False) as demo:
        session_state = gr.State(None)
        prices_state = gr.State({})
        with gr.Row(elem_id="header"):
            title = gr.Markdown(f"## {t(lang, 'title')}\n{t(lang, 'subtitle')}", elem_id="title")
            ui_lang = gr.Radio([("中文", "zh"), ("English", "en")], value=lang, label=t(lang, "ui_lang"),
                               elem_id="ui-lang", scale=0, min_width=200)
        with gr.Tabs() as tabs:
            with gr.Tab("对话 Chat", id="chat", elem_id="tab-chat"):
                chat = chat_tab.build(ctx, lang, session_state, prices_state)
            with gr.Tab("计算器 Calculator", id="calculator", elem_id="tab-calculator"):
                calc = calculator_tab.build(ctx, lang, ui_lang)
            with gr.Tab("GPU 规格 GPUs", id="gpus", elem_id="tab-gpus"):
                gpus = gpus_tab.build(ctx, lang)
            with gr.Tab("设置 Settings", id="settings", elem_id="tab-settings"):
                settings = settings_tab.build(ctx, lang, prices_state, ui_lang)
        gpus_tab.wire_compare(gpus, ui_lang)
        fields = calculator_tab.FIELDS

        def open_in_calculator(form, ui_lang):
            """The chat verdict's configuration into the Calculator's fields, its estimate computed from them at once
            (not left to the fields' change events), and the Calculator shown."""
            if not form:
                return [gr.skip()] * (len(fields) + 1 + len(calc["outputs"]))
            return ([gr.update(value=form[name]) for name in fields] + [gr.Tabs(selected="calculator")]
                    + list(calc["on_change"](ui_lang, *(form[name] for name in fields))))

        chat["open_calc"].click(open_in_calculator, [chat["prefill"], ui_lang],
                                calc["inputs"][1:] + [tabs] + calc["outputs"], queue=False)

        parts = [(chat_tab, chat), (calculator_tab, calc), (gpus_tab, gpus), (settings_tab, settings)]
        relabel_outputs = [ui_lang, title] + [c for mod, comps in parts for c in mod.outputs(comps)]

        def relabel(choice):
            updates = [gr.update(label=t(choice, "ui_lang")), gr.update(value=f"## {t(choice, 'title')}\n{t(choice, 'subtitle')}")]
            for mod, comps in parts:
                updates += mod.relabel(choice, comps)
            return updates

        ui_lang.input(relabel, [ui_lang], relabel_outputs, queue=False).then(
            calc["on_change"], calc["inputs"], calc["outputs"], queue=False)  # the estimate in the new language
        # First paint: the browser's language, then the calculator's first estimate and the comparison.
        demo.load(lambda x: gr.update(value=x), [ui_lang], [ui_lang], js=browser_lang_js(), queue=False).then(
            relabel, [ui_lang], relabel_outputs, queue=False).then(
            calc["on_change"], calc["inputs"], calc["outputs"], queue=False).then(
            gpus["do_compare"], [gpus["pick"], ui_lang], [gpus["hint"], gpus["compare"], gpus["tflops"], gpus["bandwidth"]],
            queue=False)
    return demo
