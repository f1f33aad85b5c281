"""The GPUs tab: sortable, filterable spec table (dense throughput, labelled) and a side-by-side comparison."""
from __future__ import annotations

import gradio as gr

from ui.web.gpu_table import compare_chart_frame, compare_frame, spec_datatypes, spec_frame
from ui.web.i18n import t

DEFAULT_COMPARE = ["a100-80gb", "h100", "h20", "h200", "ascend-910b"]


def build(ctx, lang: str) -> dict:
    gpus = ctx.deps.catalog.gpus
    ids = [g.id for g in gpus]
    vendors = ["all"] + sorted({g.vendor for g in gpus})
    intro = gr.Markdown(t(lang, "gpus_intro"))
    with gr.Row():
        vendor = gr.Dropdown(vendors, value="all", label=t(lang, "vendor"), scale=1)
        min_mem = gr.Slider(0, 512, value=0, step=8, label=t(lang, "min_memory"), scale=2)
    table = gr.Dataframe(spec_frame(gpus), datatype=spec_datatypes(), interactive=False, show_search="filter",
                         max_height=520, elem_id="gpu-table", pinned_columns=1, wrap=True)
    pick = gr.Dropdown(ids, value=[i for i in DEFAULT_COMPARE if i in ids][:3], multiselect=True,
                       label=t(lang, "compare"), elem_id="gpu-compare")
    hint = gr.Markdown("")
    compare = gr.Dataframe(compare_frame([g for g in gpus if g.id in DEFAULT_COMPARE[:3]]), datatype="markdown",
                           interactive=False, wrap=True, elem_id="gpu-compare-table")
    with gr.Row():
        tflops = gr.BarPlot(None, x="GPU", y="value", title="BF16 dense TFLOPS", y_title="TFLOPS (dense)", height=260)
        bandwidth = gr.BarPlot(None, x="GPU", y="value", title="memory bandwidth GB/s", y_title="GB/s", height=260)

    by_id = {g.id: g for g in gpus}

    def filter_table(v, m, ui_lang="en"):
        return spec_frame(gpus, v, m or 0, ui_lang or "en")

    def do_compare(chosen, ui_lang):
        chosen = [by_id[i] for i in (chosen or []) if i in by_id]
        if len(chosen) < 2:
            return t(ui_lang, "compare_hint"), gr.skip(), gr.skip(), gr.skip()
        return ("", compare_frame(chosen, ui_lang), zero_based(compare_chart_frame(chosen, "bf16_dense_tflops")),
                zero_based(compare_chart_frame(chosen, "memory_bandwidth_gbps")))

    return {"intro": intro, "vendor": vendor, "min_mem": min_mem, "pick": pick, "hint": hint, "compare": compare,
            "tflops": tflops, "bandwidth": bandwidth, "do_compare": do_compare, "table": table, "filter": filter_table}


def zero_based(frame, column: str = "value"):
    """A bar chart update whose value axis starts at 0 (bars compare by length: a 1,000-2,000 axis made a 2x gap
    look 10x and hid the smallest bar)."""
    top = float(frame[column].max()) if len(frame) else 1.0
    return gr.update(value=frame, y_lim=[0, top * 1.1 if top > 0 else 1.0])


def wire_compare(c: dict, lang_state) -> None:
    """The comparison and the table's filters, in the interface language (the switch re-renders both)."""
    outs = [c["hint"], c["compare"], c["tflops"], c["bandwidth"]]
    c["pick"].change(c["do_compare"], [c["pick"], lang_state], outs, queue=False)
    lang_state.change(c["do_compare"], [c["pick"], lang_state], outs, queue=False)
    for comp in (c["vendor"], c["min_mem"], lang_state):
        comp.change(c["filter"], [c["vendor"], c["min_mem"], lang_state], [c["table"]], queue=False)


def relabel(lang: str, c: dict) -> list:
    return [gr.update(value=t(lang, "gpus_intro")), gr.update(label=t(lang, "vendor")), gr.update(label=t(lang, "min_memory")),
            gr.update(label=t(lang, "compare"))]


def outputs(c: dict) -> list:
    return [c["intro"], c["vendor"], c["min_mem"], c["pick"]]
