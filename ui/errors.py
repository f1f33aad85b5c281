"""One wording for validation errors on every surface: 'where: what' pairs, joined by '; '."""
from __future__ import annotations

import re


def validation_message(errors: list[dict], *, as_flags: bool = False, skip: tuple = (), empty: str = "arguments") -> str:
    """pydantic's (or FastAPI's) error list as one line. as_flags: 'num_gpus' -> '--num-gpus' (CLI);
    skip: location parts not worth naming ('body'); empty: the name when nothing is left."""
    parts = []
    for e in errors:
        if e.get("type") == "json_invalid":
            parts.append("the body is not valid JSON")
            continue
        where = ".".join(str(x) for x in e.get("loc", ()) if x not in skip) or empty
        if as_flags:
            where = "--" + where.replace("_", "-")
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    return "; ".join(parts)


# pydantic's messages for bounds and types, in Chinese (the field's own label is given by the caller)
_MSG_ZH = [
    (r"Input should be greater than or equal to (\S+)", r"应不小于 \1"),
    (r"Input should be greater than (\S+)", r"应大于 \1"),
    (r"Input should be less than or equal to (\S+)", r"应不大于 \1"),
    (r"Input should be less than (\S+)", r"应小于 \1"),
    (r"Input should be a valid integer.*", "应为整数"),
    (r"Input should be a valid number.*", "应为数字"),
    (r"Input should be (.+)", r"可选值：\1"),
]


def validation_message_zh(errors: list[dict], labels: dict[str, str]) -> str:
    """validation_message in Chinese for a form: each field by its label (`labels`), the rule in Chinese, the value
    given."""
    parts = []
    for e in errors:
        field = str(e.get("loc", ("?",))[0])
        msg = e.get("msg", "invalid")
        for pattern, zh in _MSG_ZH:
            m = re.fullmatch(pattern, msg)
            if m:
                msg = m.expand(zh)
                break
        parts.append(f"{labels.get(field, field)}：{msg}（输入 {e.get('input')!r}）")
    return "；".join(parts)
