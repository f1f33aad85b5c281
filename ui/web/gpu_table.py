"""The GPUs tab's tables: the spec table (dense throughput, labelled) and a side-by-side comparison,
every value linked to the record's source."""
from __future__ import annotations

import re

import pandas as pd

from assistant.compose import FIELD_LABELS, field_label
from knowledge.schemas import GPU

# (field, column label): throughput columns say DENSE in their label; units in every label.
COLUMNS = [
    ("vendor", "vendor"),
    ("form_factor", "form factor"),
    ("memory_gb", "memory GB (decimal)"),
    ("memory_type", "memory type"),
    ("memory_bandwidth_gbps", "bandwidth GB/s"),
    ("bf16_dense_tflops", "BF16 dense TFLOPS"),
    ("fp8_dense_tflops", "FP8 dense TFLOPS"),
    ("int8_dense_tops", "INT8 dense TOPS"),
    ("fp32_tflops", "FP32 (non-tensor) TFLOPS"),
    ("nvlink_gbps", "GPU-GPU link GB/s (bidir.)"),
    ("tdp_w", "TDP W"),
    ("release_year", "year"),
    ("source_kind", "source kind"),
    ("as_of", "as of"),
]
def label(field: str, text: str, lang: str) -> str:
    """A column's label: the table's own English one, or the field's Chinese name (assistant.compose.FIELD_LABELS)."""
    return field_label("zh", field) if lang == "zh" and field in FIELD_LABELS else text


NUMERIC = {"memory_gb", "memory_bandwidth_gbps", "bf16_dense_tflops", "fp8_dense_tflops", "int8_dense_tops", "fp32_tflops",
           "nvlink_gbps", "tdp_w", "release_year"}
_URL = re.compile(r"https?://\S+")


def source_url(gpu: GPU) -> str | None:
    """The first URL in the record's source text (the datasheet or announcement)."""
    m = _URL.search(gpu.source)
    return m.group(0).rstrip(").,;") if m else None


def _link(text: str, url: str | None) -> str:
    return f"[{text}]({url})" if url else text


def spec_frame(gpus: list[GPU], vendor: str | None = None, min_memory_gb: float = 0, lang: str = "en") -> pd.DataFrame:
    """One row per GPU: the name linked to its source, then the COLUMNS (numbers stay numbers so they sort)."""
    rows = []
    for g in gpus:
        if vendor and vendor != "all" and g.vendor != vendor:
            continue
        if g.memory_gb < (min_memory_gb or 0):
            continue
        row = {"GPU": _link(g.name, source_url(g)), "id": g.id}
        for field, text in COLUMNS:
            row[label(field, text, lang)] = getattr(g, field)
        rows.append(row)
    return pd.DataFrame(rows, columns=["GPU", "id"] + [label(field, text, lang) for field, text in COLUMNS])


def spec_datatypes() -> list[str]:
    return ["markdown", "str"] + ["number" if f in NUMERIC else "str" for f, _ in COLUMNS]


def compare_frame(gpus: list[GPU], lang: str = "en") -> pd.DataFrame:
    """Fields as rows, the chosen GPUs as columns; each value a link to that GPU's source."""
    header = [label("field", "field", lang)] + [g.id for g in gpus]
    rows = []
    for field, text in [("name", "name"), *COLUMNS, ("interconnect", "interconnect"), ("notes", "notes")]:
        row = [label(field, text, lang)]
        for g in gpus:
            value = getattr(g, field)
            text = "n/a" if value is None else f"{value:g}" if isinstance(value, float) else str(value)
            if field == "notes" and value:
                text = text[:200] + ("…" if len(text) > 200 else "")
            row.append(_link(text, source_url(g)) if value is not None and field != "notes" else text)
        rows.append(row)
    return pd.DataFrame(rows, columns=header)


def compare_chart_frame(gpus: list[GPU], metric: str) -> pd.DataFrame:
    """Rows (GPU, value) of one numeric field for a bar chart, e.g. bf16_dense_tflops or memory_bandwidth_gbps."""
    rows = [{"GPU": g.id, "value": getattr(g, metric)} for g in gpus if getattr(g, metric) is not None]
    return pd.DataFrame(rows, columns=["GPU", "value"])
