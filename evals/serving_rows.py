"""Published serving rows -> the request that matches each row's stated conditions, or why none does.

A row (evals/calibration/serving_measurements.jsonl) records a figure as its source printed it, with the
conditions in words ("NVIDIA H100 80G", "INT4-AWQ", "max (offline)"). `case_from_row` reads those words into the
catalog's ids and one metric the estimator can compute, by rules that apply to every row alike (no row is named
here). A row the estimator cannot represent (prefill/decode disaggregation, wide expert parallelism over many
nodes, speculative decoding, a dataset without stated lengths, a card or model outside the catalog) is kept in
the data and listed with its reason, never forced into a number.
"""
from __future__ import annotations

import re

from knowledge.catalog import Catalog, UnknownItem

# Engines with paged KV, continuous batching and CUDA graphs behave like vLLM in the estimator; transformers and
# llama.cpp have their own rows in tools/engines.py.
COMPILED_ENGINES = ("vllm", "sglang", "tensorrt", "trt-llm", "lmdeploy", "tgi", "mlc", "exllama", "nim", "autoawq",
                    "tinychat", "llm-awq")

_GPU_RULES = (  # (pattern on the row's GPU words, catalog id); the first match wins
    (r"gb300", "gb300"), (r"gb200", "gb200"), (r"\bb300\b", "b300"), (r"\bb200\b", "b200"),
    (r"h200", "h200"), (r"h100.*(pcie)", "h100-pcie"), (r"h100.*nvl", "h100-nvl"), (r"h100", "h100"),
    (r"h800", "h800"), (r"\bh20\b", "h20"),
    (r"a100.*40", "a100-40gb"), (r"a100.*80.*pcie", "a100-80gb-pcie"), (r"a100.*80", "a100-80gb"),
    (r"mi355", "mi355x"), (r"mi325", "mi325x"), (r"mi300x", "mi300x"),
    (r"l40s", "l40s"), (r"\bl40\b", "l40"), (r"\bl4\b", "l4"), (r"\bl20\b", "l20"), (r"a10g", "a10g"), (r"\ba10\b", "a10"),
    (r"\ba40\b", "a40"), (r"rtx a6000|a6000", "rtx-a6000"), (r"6000 ada", "rtx-6000-ada"),
    (r"4090", "rtx-4090"), (r"3090 ti", "rtx-3090-ti"), (r"3090", "rtx-3090"), (r"5090", "rtx-5090"),
    (r"\bt4\b", "t4"), (r"m2 ultra.*192", "m2-ultra-192gb"),
)

_FORMAT_RULES = (  # (pattern on the row's precision words, format id or None for the checkpoint's own 16-bit)
    (r"nvfp4", "nvfp4"), (r"mxfp4", "mxfp4"), (r"w4a8|qoq|smoothquant|w8a8.*int|int8 w8a8", "unsupported"),
    (r"q4_k_m", "q4_k_m"), (r"q4_0", "q4_0"), (r"q8_0", "q8_0"), (r"gptq", "gptq"), (r"awq|w4a16|int4|q4f16|4-bit", "awq"),
    (r"fp8", "fp8"), (r"^f16|fp16|bf16|16-bit|auto", None),
)


def gpu_id(words: str | None) -> str | None:
    w = (words or "").lower()
    return next((gid for pat, gid in _GPU_RULES if re.search(pat, w)), None)


def format_id(words: str | None) -> str | None | bool:
    """The weight format, None for 16-bit (the checkpoint's own), False for a format the estimator lacks."""
    w = (words or "").lower()
    for pat, fid in _FORMAT_RULES:
        if re.search(pat, w):
            return False if fid == "unsupported" else fid
    return None


def model_id(words: str | None, catalog: Catalog) -> str | None:
    """The catalog model a row's model words name; None if it is not in the catalog (no generic stand-in)."""
    ids = {m.id for m in catalog.models}
    raw = (words or "").split(" (")[0].strip()
    candidates = [raw, raw.split("/")[-1]]
    base = re.sub(r"(?i)[-_ ](instruct|chat|hf|fp8|awq|gptq|gguf|it|base)\b.*$", "", candidates[-1])
    base = re.sub(r"(?i)^meta-llama-", "llama-", base)
    candidates += [base, base.replace(" ", "-")]
    for c in candidates:
        try:
            m, _ = catalog.model(c)
        except (UnknownItem, ValueError):
            continue
        if m.id in ids:
            return m.id
    return None


def _int(x) -> int | None:
    if isinstance(x, (int, float)) and x > 0:
        return int(x)
    if isinstance(x, str) and re.fullmatch(r"\s*\d+\s*", x):
        return int(x)
    return None


def _first(rep: dict, *keys: str) -> tuple[str, float] | None:
    for k in keys:
        for key, v in rep.items():
            if key == k and isinstance(v, (int, float)):
                return key, float(v)
    return None


def _engine(words: str | None) -> str | None:
    w = (words or "").lower()
    if "llama.cpp" in w or "ollama" in w:
        return "llama.cpp"
    if "transformers" in w and "autoawq" not in w:
        return "hf"
    if "sglang" in w:
        return "sglang"
    if any(e in w for e in COMPILED_ENGINES):
        return "vllm"
    return None


def case_from_row(row: dict, catalog: Catalog) -> tuple[list[dict], str | None]:
    """(cases, None) for a row the estimator can represent, one case per figure it reports; ([], why) otherwise."""
    i, rep = row["inputs"], row["reported"]
    notes = f"{row.get('notes', '')} {i.get('ep') or ''} {i.get('concurrency') or ''}".lower()
    if re.search(r"disaggregat|pd disagg|prefill-decode|decode nodes", notes):
        return [], "prefill/decode disaggregation (not modelled)"
    if re.search(r"(?<!no )\bmtp\b|--speculative|speculative decoding|eagle", notes) and not any("no_mtp" in k for k in rep):
        return [], "speculative decoding (its speed-up is not modelled)"
    if re.search(r"range-ratio not set|maxima, not exact|lengths may be sampled", notes):
        return [], "stated lengths are maxima of a sampled range, not the lengths run"
    if i.get("ep") not in (None, 1, "1") or ((_int(i.get("num_gpus")) or 1) > 16):
        return [], "expert parallelism / more than two nodes (not modelled)"
    mid = model_id(i.get("model"), catalog)
    if mid is None:
        return [], f"model not in the catalog: {i.get('model')}"
    gid = gpu_id(i.get("gpu"))
    if gid is None:
        return [], f"card not in the catalog (or memory not stated): {i.get('gpu')}"
    fmt = format_id(i.get("precision"))
    if fmt is False:
        return [], f"weight/activation format not modelled: {i.get('precision')}"
    engine = _engine(i.get("engine"))
    if engine is None:
        return [], f"engine not modelled: {i.get('engine')}"
    n = _int(i.get("num_gpus")) or 1
    tp, pp = _int(i.get("tp")) or (n if engine != "llama.cpp" else 1), _int(i.get("pp")) or 1
    if engine == "llama.cpp":
        tp, pp = 1, n
    prompt, out = _int(i.get("input_len")), _int(i.get("output_len"))
    totals = re.search(r"(\d+) prompts; total input (\d+)\s*/\s*generated (\d+)", str(i.get("dataset") or ""))
    if (prompt is None or out is None) and totals:  # a dataset run that states its token totals: the mean lengths
        k = int(totals.group(1))
        prompt, out = round(int(totals.group(2)) / k), round(int(totals.group(3)) / k)
    if prompt is None and i.get("input_len") in (0, "0"):
        prompt = 1
    kv = (i.get("kv_dtype") or "").lower()
    base = {"row": row["id"], "model": mid, "gpu": gid, "tp": tp, "pp": pp, "engine": engine,
            **({"precision": fmt} if fmt else {}), **({"kv_dtype": "fp8"} if "fp8" in kv and "bf16" not in kv else {})}
    if (prompt is None or out is None):
        return [], f"lengths not fixed (dataset {i.get('dataset')}); the estimator needs prompt and output lengths"
    base |= {"prompt_len": prompt, "output_len": out}
    conc = str(i.get("concurrency") or "").lower()
    users = _int(i.get("concurrency"))
    rate = i.get("request_rate")
    offline = any(w in conc for w in ("max", "offline", "unbounded")) or (users is None and str(rate).lower() == "inf")
    cases: list[dict] = []
    kind = row.get("kind")
    if kind == "single_stream" or users == 1:
        hit = _first(rep, "output_tokens_per_s_single_stream", "output_tokens_per_s_single_stream_mean",
                     "output_tokens_per_s_single_stream_median", "output_tokens_per_s_single_stream_median_step",
                     "output_tokens_per_s_single_stream_approx")
        if hit:
            cases.append(base | {"metric": "single_stream_tps", "report": hit[0]})
        hit = _first(rep, "output_tokens_per_s_total_e2e", "output_tokens_per_s_incl_prefill")
        if hit:
            cases.append(base | {"metric": "single_e2e_out_tps", "report": hit[0]})
        hit = _first(rep, "e2e_latency_ms_no_mtp", "e2e_latency_ms")
        if hit:
            cases.append(base | {"metric": "single_e2e_ms", "report": hit[0]})
        hit = _first(rep, "tokens_per_s_prompt_plus_generated_single_stream")
        if hit:
            cases.append(base | {"metric": "single_e2e_total_tps", "report": hit[0]})
        hit = _first(rep, "itl_ms_median", "tpot_ms_median", "itl_ms_mean", "tpot_ms_mean")
        if hit and users == 1:
            cases.append(base | {"metric": "itl_ms", "report": hit[0], "users": 1})
        hit = _first(rep, "ttft_ms", "ttft_ms_median", "ttft_ms_mean")
        if hit and prompt > 16:
            cases.append(base | {"metric": "ttft_single_ms", "report": hit[0]})
        return (cases, None) if cases else ([], "no single-stream figure the estimator computes")
    per_gpu = _first(rep, "output_tokens_per_s_per_gpu")
    total = _first(rep, "output_tokens_per_s_total")
    rps = _first(rep, "requests_per_s")
    if offline and users is None:
        seqs = _int(re.sub(r"\D", "", conc.split("max-num-seqs")[-1])) if "max-num-seqs" in conc else None
        extra = {"max_num_seqs": seqs} if seqs else {}
        if engine == "vllm" and "tensorrt" in (i.get("engine") or "").lower():
            extra.setdefault("max_num_seqs", 2048)  # trtllm-bench's default cap on running requests
        if per_gpu or total:
            key, _ = per_gpu or total
            cases.append(base | extra | {"metric": "out_tps_per_gpu_max" if per_gpu else "out_tps_total_max", "report": key})
        elif rps:
            cases.append(base | extra | {"metric": "rps_max", "report": rps[0]})
        return (cases, None) if cases else ([], "no offline throughput figure")
    load: dict = {}
    prompts = _int(i.get("num_prompts"))
    if users and prompts and prompts <= users:  # the whole run is one burst: every request arrives at the start
        load = {"users": users, "burst": True}
    elif users:
        load = {"users": users}
    elif isinstance(rate, (int, float)) and rate > 0:
        load = {"qps": float(rate)}
    else:
        return [], f"load not stated as a concurrency or a request rate ({i.get('concurrency')}, {rate})"
    if per_gpu or total:
        key, _ = per_gpu or total
        cases.append(base | load | {"metric": "out_tps_per_gpu" if per_gpu else "out_tps_total", "report": key})
    hit = _first(rep, "ttft_ms_median", "ttft_ms", "ttft_ms_mean")
    if hit:
        cases.append(base | load | {"metric": "ttft_ms", "report": hit[0]})
    hit = _first(rep, "tpot_ms_median", "itl_ms", "tpot_ms_mean", "itl_ms_median", "itl_ms_mean")
    if hit:
        cases.append(base | load | {"metric": "itl_ms", "report": hit[0]})
    return (cases, None) if cases else ([], "no throughput or latency figure at the stated load")
