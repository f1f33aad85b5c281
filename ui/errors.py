"""One wording for validation errors on every surface: 'where: what' pairs, joined by '; '."""
from __future__ import annotations


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
