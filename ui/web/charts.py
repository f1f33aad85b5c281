"""The memory chart as a Vega-Lite spec (Altair), drawn by Gradio's Plot component as SVG.

Built so it cannot mislead: the axis starts at zero; the GPU's usable memory is a dashed line, not another bar;
each component keeps its colour whatever else is on the chart; every bar carries its total, written as the verdict
writes it ('49.0 GB'); and when one option needs many times the card (full fine-tuning on one GPU), the axis is cut
just above the card and the others, the tall bar is clipped and marked ▲ with its real total, and the cut is said.
"""
from __future__ import annotations

import zlib

import altair as alt
import pandas as pd

from assistant.zh import component_name

# One colour per memory component, whatever the chart holds (Tableau 20, by kind of memory).
COMPONENT_COLORS = {
    "weights": "#4c78a8", "gradients": "#f58518", "master_weights": "#e45756", "optimizer_states": "#72b7b2",
    "activations": "#54a24b", "logits": "#eeca3b", "kv_cache": "#b279a2", "cuda_context": "#9d755d",
    "cublas_workspace": "#bab0ac", "nccl_buffers": "#ff9da6", "allocator_fragmentation": "#79706e",
    "quant_constants": "#aec7e8", "dequant_buffer": "#ffbb78", "lora_adapter": "#98df8a", "lora_optimizer_states": "#c5b0d5",
    "zero3_gather_buffers": "#c49c94", "gradient_buckets": "#f7b6d2", "cuda_graphs": "#dbdb8d", "speculative_draft": "#17becf",
    "speculative_layers": "#9edae5", "lora_slots": "#1f77b4",
}
_SPARE = ["#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#2ca02c", "#d62728", "#9467bd", "#ff7f0e"]
CAPACITY_COLOR = "#222222"
CUT_FACTOR = 2.5  # a bar more than this many times the card (and the rest) is drawn cut, not to scale

WORDS = {
    "en": {"title": "Memory per GPU by component (GB), per option", "y": "GB per GPU",
           "capacity": "usable on {gpu}: {gb:.1f} GB", "component": "component", "off": "▲ {gb:.1f} GB",
           "cut": "axis cut at {top:.0f} GB: bars marked ▲ are taller (their totals are written on them)"},
    "zh": {"title": "每卡显存构成（GB），按方案", "y": "每卡 GB", "capacity": "{gpu} 可用 {gb:.1f} GB", "component": "组成",
           "off": "▲ {gb:.1f} GB", "cut": "纵轴截至 {top:.0f} GB：标 ▲ 的柱子更高（总量写在柱上）"},
}


def component_color(key: str) -> str:
    """The component's fixed colour; a component not in the table gets a colour from its name (stable across runs)."""
    return COMPONENT_COLORS.get(key) or _SPARE[zlib.crc32(key.encode()) % len(_SPARE)]


def axis_top(totals: list[float], capacities: list[float]) -> tuple[float, bool]:
    """(top of the y axis, whether it is cut). Zero-based always. Cut when a bar exceeds CUT_FACTOR x the tallest of
    the card and the bars that stay within CUT_FACTOR x the card: then the top is 15% above them and the tall bars are
    clipped. A chart with no bar near the card is drawn to scale (nothing would be hidden)."""
    cap = max(capacities, default=0.0)
    if not totals:
        return (cap * 1.15 or 1.0), False
    near = [x for x in totals if cap and x <= CUT_FACTOR * cap]  # the bars drawn to scale beside the card
    base = max([cap] + near)
    if near and max(totals) > CUT_FACTOR * base:  # a cut only ever serves to keep other bars readable
        return base * 1.15, True
    return max(totals + [cap]) * 1.1, False


def memory_chart(frame: pd.DataFrame, capacities: dict[str, float], lang: str = "en") -> alt.LayerChart | None:
    """Stacked bars of `frame` (views.breakdown_frame: option, key, GB) with the usable memory of each GPU as a dashed
    rule. None when there is nothing to draw."""
    if not len(frame):
        return None
    w = WORDS.get(lang, WORDS["en"])
    data = frame.copy()
    data["component"] = [component_name(k, lang) for k in data["key"]]
    options = list(dict.fromkeys(data["option"]))
    totals = data.groupby("option", sort=False)["total"].first()  # the tool's total, not the sum of rounded parts
    top, cut = axis_top([float(totals[o]) for o in options], list(capacities.values()))
    keys = list(dict.fromkeys(data["key"]))
    color = alt.Color("component:N", title=w["component"],
                      scale=alt.Scale(domain=[component_name(k, lang) for k in keys], range=[component_color(k) for k in keys]),
                      legend=alt.Legend(orient="bottom", columns=3, labelLimit=0, symbolType="square"))
    x = alt.X("option:N", sort=options, title=None,  # 'qlora · 1× a100-80gb' on two lines under its bar
              axis=alt.Axis(labelAngle=0, labelLimit=0, labelFontSize=11, labelExpr="split(datum.label, ' · ')"))
    y_scale = alt.Scale(domain=[0, top], zero=True, nice=False, clamp=True)
    bars = alt.Chart(data).mark_bar(clip=True).encode(
        x=x, y=alt.Y("sum(GB):Q", title=w["y"], scale=y_scale, stack="zero"), color=color,
        order=alt.Order("order:Q"), tooltip=["option:N", "component:N", alt.Tooltip("GB:Q", format=".2f")])
    labels = pd.DataFrame({"option": options, "total": [float(totals[o]) for o in options]})
    labels["y"] = labels["total"].clip(upper=top * 0.97)
    labels["text"] = [(w["off"] if t > top else "{gb:.1f} GB").format(gb=t) for t in labels["total"]]
    text = alt.Chart(labels).mark_text(dy=-7, fontSize=12, fontWeight="bold", color="#111").encode(
        x=x, y=alt.Y("y:Q", scale=y_scale), text="text:N")
    layers = [bars, text]
    if capacities:
        caps = pd.DataFrame({"gb": list(capacities.values()),
                             "label": [w["capacity"].format(gpu=g, gb=gb) for g, gb in capacities.items()]})
        layers.append(alt.Chart(caps).mark_rule(strokeDash=[6, 4], strokeWidth=2, color=CAPACITY_COLOR).encode(
            y=alt.Y("gb:Q", scale=y_scale)))
        layers.append(alt.Chart(caps).mark_text(align="left", baseline="bottom", dx=2, dy=-3, fontSize=11,
                                                fontWeight="bold", color=CAPACITY_COLOR).encode(
            y=alt.Y("gb:Q", scale=y_scale), x=alt.value(0), text="label:N"))
    title = alt.TitleParams(text=w["title"], subtitle=[w["cut"].format(top=top)] if cut else [], anchor="start",
                            fontSize=13, subtitleColor="#b00020")
    return (alt.layer(*layers).properties(height=330, width=max(300, 112 * len(options)), title=title)
            .configure_view(stroke=None)
            .properties(usermeta={"embedOptions": {"renderer": "svg", "actions": False}}))
