"""Plain-text renderings of the sizing results for the terminal."""
from __future__ import annotations

from knowledge.schemas import GPU, ModelSpec
from tools.infer_memory import InferenceMemory
from tools.train_memory import TrainingMemory


def _table(rows: list[tuple[str, str, str]]) -> list[str]:
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    return [f"  {a:<{w0}}  {b:>{w1}}  {c}".rstrip() for a, b, c in rows]


def _verdict(fits: bool | None, usable: float | None, gpu: str | None) -> str:
    if fits is None:
        return "no GPU given (--gpu): fit not checked"
    return f"{'FITS' if fits else 'DOES NOT FIT'} in {usable:.1f} GB usable per {gpu}"


def _tail(res, title_rows: list[tuple[str, str, str]]) -> list[str]:
    terms = [t for t in res.terms if t.place == "gpu"]
    rows = [(t.name, f"{t.bytes / 1e9:.2f} GB", t.why) for t in terms]
    rows.append(("-" * 12, "", ""))
    rows.append(("per GPU", f"{res.per_gpu_gb:.2f} GB", f"range {res.range_gb[0]:.1f}-{res.range_gb[1]:.1f} GB"))
    rows += title_rows
    lines = _table(rows)
    lines.append("")
    lines.append("  " + _verdict(res.fits, res.usable_gb, res.gpu))
    if res.gpu is not None:
        lines.append(f"  minimum GPUs: {res.min_gpus if res.min_gpus is not None else 'none fits (see assumptions)'}")
    lines.append("")
    lines.append("Assumptions:")
    lines += [f"  - {a}" for a in res.assumptions]
    return lines


def render_training(res: TrainingMemory, model: ModelSpec) -> str:
    """The breakdown table, verdict and assumptions of a training estimate."""
    head = (f"{model.name} - {res.method} - {res.num_gpus} x {res.gpu or 'GPU'} "
            f"(dp {res.layout['dp']}, tp {res.layout['tp']}, pp {res.layout['pp']}, ZeRO-{res.layout['zero']})")
    n = res.trainable_params
    shown = f"{n / 1e9:.2f}B" if n >= 1e9 else f"{n / 1e6:,.1f}M"
    extra = [("trainable", shown, f"of {res.total_params / 1e9:.2f}B parameters")]
    if res.host_ram_gb:
        parts = ", ".join(f"{k} {v:.0f}" for k, v in res.host_breakdown_gb.items())
        extra.append(("host RAM", f"{res.host_ram_gb:.1f} GB", f"all {res.num_gpus} GPUs' offload: {parts} GB"))
    return "\n".join([head, "Memory per GPU (1 GB = 1e9 bytes):"] + _tail(res, extra))


def render_inference(res: InferenceMemory, model: ModelSpec) -> str:
    """The breakdown table, verdict, limits and assumptions of an inference estimate."""
    lay = res.layout
    head = (f"{model.name} - inference ({res.engine}) - {res.num_gpus} x {res.gpu or 'GPU'} "
            f"({lay['split']}) - context {lay['context']}, batch {lay['batch']}")
    extra = [("weights", res.precision, "the checkpoint's own format" if res.precision == res.native_precision
              else f"the checkpoint ships {res.native_precision}")]
    extra.append(("KV cache/token", f"{res.kv_cache_bytes_per_token:,} B", "whole model, layers that grow with context"))
    if res.kv_cache_bytes_per_sequence and res.kv_cache_bytes_per_sequence != res.kv_cache_bytes_per_token * lay["context"]:
        extra.append(("KV cache/sequence", f"{res.kv_cache_bytes_per_sequence / 1e9:.3f} GB",
                      f"at {lay['context']:,} tokens: windowed layers and linear-attention state included"))
    if res.max_context is not None:
        extra.append(("max context", f"{res.max_context:,}", "tokens, one sequence, on this hardware"))
    if res.max_batch is not None:
        extra.append(("max batch", f"{res.max_batch:,}", f"sequences of {lay['context']} tokens"))
    lines = [head, "Memory per GPU (1 GB = 1e9 bytes):"] + _tail(res, extra)
    if res.precision_options:
        at = lines.index("Assumptions:") if "Assumptions:" in lines else len(lines)
        lines[at:at] = ["Formats on this hardware, best first (GB per GPU): " + " · ".join(
            f"{o['precision']} {'fits' if o['fits'] else 'no'} {o['per_gpu_gb']:.1f}" for o in res.precision_options), ""]
    return "\n".join(lines)


def render_models(models: list[ModelSpec]) -> str:
    """One line per catalog model."""
    rows = [("id", "params", "layers/hidden/heads/kv  vocab  context")]
    for m in models:
        p = f"{m.params_total / 1e9:.1f}B" + (f" ({m.params_active / 1e9:.1f}B active)" if m.params_active else "")
        rows.append((m.id, p, f"{m.num_layers}/{m.hidden_size}/{m.num_attention_heads}/{m.num_kv_heads}  "
                              f"{m.vocab_size}  {m.max_context}  {m.attention.upper()}{' MoE' if m.moe else ''}"))
    return "\n".join(_table(rows)) + "\n\nA bare size such as 70b or 700亿 also works (a generic dense decoder)."


def render_gpus(gpus: list[GPU]) -> str:
    """One line per catalog GPU (dense BF16 throughput)."""
    rows = [("id", "memory", "bandwidth  BF16 dense  interconnect")]
    for g in gpus:
        bf16 = f"{g.bf16_dense_tflops:g} TFLOPS" if g.bf16_dense_tflops else "n/a"
        link = f"{g.nvlink_gbps:g} GB/s" if g.nvlink_gbps else "PCIe"
        rows.append((g.id, f"{g.memory_gb:g} GB", f"{g.memory_bandwidth_gbps:g} GB/s  {bf16}  {link}"))
    return "\n".join(_table(rows))


def render_spec(g: GPU) -> str:
    """Every field of one GPU record."""
    rows = [(k, "", str(v)) for k, v in g.model_dump().items() if v is not None]
    return "\n".join(_table(rows))


def _serve_targets(plan) -> str:
    if not plan.targets:
        return "no latency target (none imposed)"
    said = ", ".join(f"{'TTFT' if k == 'ttft_s' else 'ITL'} <= {v:g} {'s' if k == 'ttft_s' else 'ms'}" for k, v in plan.targets.items())
    return said + ("" if plan.meets_targets else " (NOT met by this layout's own figures)")


def _band(plan, key: str, fmt: str) -> str:
    b = plan.bands.get(key)
    return f"; band {fmt.format(*b)}" if b else ""


def render_serve_plan(plan, options, notes: list[str]) -> str:
    """`plan serve` as text: the layout, the figures at the offered load, the launch line, cost, alternatives."""
    load = (f"{plan.load['users']:,} concurrent users" if plan.load["users"] is not None
            else f"{plan.load['qps']:g} requests/s")
    head = (f"Serving {plan.model} on {plan.gpu} with {plan.engine}: {load}, {plan.load['prompt_len']:,} prompt + "
            f"{plan.load['output_len']:,} output tokens, " + _serve_targets(plan))
    layout = f"TP{plan.tp}" + (f" x PP{plan.pp}" if plan.pp > 1 else "") + f" x {plan.replicas} replica(s)"
    cost = ("" if plan.cost_per_hour_usd is None else
            f"${plan.cost_per_hour_usd:,.2f}/hour; ${plan.cost_per_million_input_tokens_usd:g} per 1M input, "
            f"${plan.cost_per_million_output_tokens_usd:g} per 1M output tokens")
    rows = [("GPUs", f"{plan.total_gpus}", layout),
            ("per replica", f"{plan.max_concurrent_sequences:,} seqs",
             (f"KV pool {plan.kv_pool_tokens:,} tokens; " if plan.kv_pool_tokens else "in memory at once; ")
             + f"{plan.per_gpu_gb:g} GB per GPU"),
            ("TTFT", f"{plan.ttft_s:.3f} s", "p50-style estimate at this load" + _band(plan, "ttft_s", "{:.2f}-{:.2f} s")),
            ("ITL", f"{plan.itl_ms:.1f} ms", f"{plan.tokens_per_s_per_user:g} tokens/s per user" + _band(plan, "itl_ms", "{:.0f}-{:.0f} ms")),
            ("throughput", f"{plan.tokens_per_s_per_gpu:,.0f} tok/s/GPU", f"{plan.output_tokens_per_s:,.0f} output tokens/s in all"
             + _band(plan, "tokens_per_s_per_gpu", "{:,.0f}-{:,.0f} tok/s/GPU")),
            ("carries", f"{next(iter(plan.saturation.values())):g}", f"{next(iter(plan.saturation))} per replica"
             + (" within the targets" if plan.targets else ""))]
    tight = plan.with_default_targets
    if tight and not tight.get("same_as_plan"):
        rows.append(("with targets", f"{tight['total_gpus']} GPUs" if tight.get("total_gpus") else "none",
                     f"TTFT <= {tight['ttft_s']:g} s and ITL <= {tight['itl_ms']:g} ms would take this"
                     + (f" (TP{tight['tp']} x {tight['replicas']})" if tight.get("total_gpus") else f": {tight.get('why_not')}")))
    if cost:
        rows.append(("cost", f"${plan.cost_per_hour_usd:,.2f}/h", cost.split("; ", 1)[1]))
    lines = [*notes, head, *_table(rows), "", "  " + plan.launch_command]
    ok = [o for o in options if o.total_gpus]
    if ok:
        lines += ["", "Other GPUs for the same load (cheapest per hour first):"]
        for o in ok[:8]:
            lines.append(f"  {o.rank}. {o.total_gpus} x {o.gpu} (TP{o.tp}" + (f" x PP{o.pp}" if o.pp and o.pp > 1 else "")
                         + f" x {o.replicas}), ITL {o.itl_ms:.0f} ms, "
                         + (f"${o.cost_per_hour_usd:,.2f}/h, ${o.cost_per_million_output_tokens_usd:g}/1M output"
                            if o.cost_per_hour_usd else "no price in the table"))
    no = [o for o in options if not o.total_gpus]
    if no:
        lines.append("  cannot: " + "; ".join(f"{o.gpu} ({o.why_not})" for o in no[:4]))
    lines += ["", "Assumptions:"] + [f"  - {a}" for a in plan.assumptions]
    return "\n".join(lines)
