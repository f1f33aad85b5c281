"""Components more than one tab builds the same way."""
from __future__ import annotations

import gradio as gr

from ui.web.i18n import t


def memory_chart(lang: str, elem_id: str, **extra) -> gr.Plot:
    """The memory-per-GPU chart: a Plot holding ui.web.charts.memory_chart (Vega-Lite, drawn as SVG in the page)."""
    return gr.Plot(None, label=t(lang, "chart"), show_label=False, elem_id=elem_id, format="png", **extra)
