"""Components more than one tab builds the same way."""
from __future__ import annotations

import gradio as gr

from ui.web.i18n import t
from ui.web.views import CHART_COLUMNS


def memory_chart(lang: str, elem_id: str, **extra) -> gr.BarPlot:
    """The stacked memory-per-GPU chart over views.breakdown_frame rows (option, component, GB)."""
    x, color, y = CHART_COLUMNS
    return gr.BarPlot(None, x=x, y=y, color=color, title=t(lang, "chart"), x_title="", y_title="GB / GPU", height=340,
                      elem_id=elem_id, sort=None, tooltip="all", **extra)
