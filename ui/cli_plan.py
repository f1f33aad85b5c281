"""CLI commands for planning: `cost` (rent vs buy) and `plan checkpoint`.

ui/cli.py calls add_parsers(sub) and hands the commands "cost" and "plan" to run_command. More
`plan` sub-commands attach to PLAN_SUBPARSERS (the `plan` parser's subparsers, set by add_parsers)
and name their handler with set_defaults(plan_handler=fn), fn(args, catalog) -> (data, text).
"""
from __future__ import annotations

import argparse

from ui.argtypes import price_per_hour

PLAN_SUBPARSERS = None  # argparse subparsers of `plan`; set by add_parsers

def parse_token_count(text: str) -> float:
    """A token count for argparse (tools.units.parse_count: 2e12, 2T, 500B, 100M, 1万亿)."""
    from tools.units import parse_count

    try:
        return parse_count(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_parsers(sub) -> None:
    """Register `cost` and `plan` (with `plan checkpoint`) on the top-level subparsers."""
    global PLAN_SUBPARSERS
    _add_cost_parser(sub)
    plan = sub.add_parser("plan", help="plan a training job (checkpoints, ...)",
                          description="Planning tools for a training job.")
    PLAN_SUBPARSERS = plan.add_subparsers(dest="plan_cmd", required=True)
    add_checkpoint_subparser(PLAN_SUBPARSERS)
    add_offload_subparser(PLAN_SUBPARSERS)
    add_serve_subparser(PLAN_SUBPARSERS)


def _add_cost_parser(sub) -> None:
    c = sub.add_parser("cost", help="rent vs buy for a GPU job, with the break-even",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Rental cost of a job, the owned cost of the same GPU-hours, and when buying pays off. "
                                   "Prices: the shipped table with your overrides (gpu-advisor prices).",
                       epilog="Defaults (each stated in the answer when used): mode both, USD, utilization 0.7, PUE 1.3, "
                              "electricity 0.12 USD / 0.7 CNY per kWh, hosting 150 USD / 1000 CNY per GPU-month, "
                              "4-year depreciation to 20% resale (70% when sold soon after purchase), no hosting for desk "
                              "cards (RTX, Macs), 7.2 CNY per USD. Buying is costed for the period and sold at its end "
                              "(--basis share for GPUs kept busy for years).")
    c.add_argument("--gpu", required=True, help="GPU id or alias (gpu-advisor gpus)")
    c.add_argument("--num-gpus", type=int, default=1, help="GPUs in the job (default 1)")
    c.add_argument("--hours", type=float, help="wall-clock hours of the job (GPU-hours = hours x GPUs)")
    c.add_argument("--model", help="with --tokens: take the hours from the training-time estimate")
    c.add_argument("--tokens", type=parse_token_count, help="training tokens, e.g. 2T, 500B, 2e12 (with --model)")
    c.add_argument("--mode", choices=["rent", "buy", "both"], default="both")
    c.add_argument("--currency", choices=["USD", "CNY"], default="USD")
    c.add_argument("--price-per-hour", type=price_per_hour, help="your rental price per GPU-hour (replaces the table)")
    c.add_argument("--purchase-price", "--purchase-price-per-gpu", dest="purchase_price_per_gpu", type=float,
                   help="your purchase price per GPU (replaces the table)")
    c.add_argument("--used", action="store_true", help="buy used GPUs")
    c.add_argument("--used-fraction-of-new", type=float, help="used price as a share of new (default 0.35 where no used price)")
    c.add_argument("--electricity-price", type=float, help="per kWh in the currency")
    c.add_argument("--pue", type=float, help="power usage effectiveness of the facility (default 1.3)")
    c.add_argument("--utilization", type=float, help="share of the year owned GPUs do useful work, 0-1 (default 0.7)")
    c.add_argument("--hosting-per-gpu-month", type=float, help="rack, cooling and network per GPU-month")
    c.add_argument("--depreciation-years", type=float, help="service life (default 4)")
    c.add_argument("--resale-fraction", type=float, help="resale value after depreciation, share of purchase (default 0.2)")
    c.add_argument("--cny-per-usd", type=float, help="exchange rate for converting prices (default 7.2)")
    c.add_argument("--power-watts-per-gpu", type=float, help="power per GPU while running (default: its TDP)")
    c.add_argument("--period-hours", type=float, help="calendar hours you would hold the GPUs (default: --hours); "
                   "--hours are the hours they work within it")
    c.add_argument("--basis", choices=["period", "share"], default="period",
                   help="period (default): buy for the period and sell at its end, the way to cost one job; share: the "
                        "job's share of GPUs you keep busy for years")
    c.add_argument("--json", action="store_true", help="print one JSON object")


def add_checkpoint_subparser(plan_sub) -> None:
    """Register `plan checkpoint` on the `plan` subparsers."""
    p = plan_sub.add_parser("checkpoint", help="checkpoint size, write time and the Young/Daly interval",
                            description="How big a resumable checkpoint is, how long it takes to write and how often to "
                                        "write it: T = sqrt(2 x write time x job MTBF) (Young 1974).")
    p.add_argument("--model", required=True, help="catalog id, HF repo name, or bare size (70b)")
    p.add_argument("--task", "--method", dest="method", choices=["full", "lora", "qlora"], default="full")
    p.add_argument("--num-gpus", type=int, default=1, help="GPUs in the job (default 1)")
    p.add_argument("--write-gbps", type=float, help="aggregate storage write bandwidth, GB/s (default 5)")
    p.add_argument("--mtbf-hours-per-gpu", type=float, help="GPU-hours per failure (default 50,000, Llama 3)")
    p.add_argument("--step-seconds", type=float, help="seconds per optimizer step: gives the interval in steps")
    p.add_argument("--save-gradients", action="store_true", help="the framework also writes gradients")
    p.add_argument("--lora-rank", type=int, help="LoRA rank (default 16)")
    p.add_argument("--restart-minutes", type=float, help="failure to training again (default: 10 min + reading the checkpoint)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(plan_handler=_plan_checkpoint)


def add_offload_subparser(plan_sub) -> None:
    """Register `plan offload`: llama.cpp / Ollama partial offload to system RAM."""
    from tools.offload import DEFAULT_RAM_BANDWIDTH_GBPS

    p = plan_sub.add_parser(
        "offload", help="local inference with part of the model in system RAM (llama.cpp -ngl / --n-cpu-moe)",
        description="Which layers (or, for MoE models, which experts) fit on the GPU, what stays in RAM, the llama.cpp "
                    "flags for that split, and the batch-1 decode speed the two memories' bandwidths allow.",
        epilog="Example: gpu-advisor plan offload --model qwen3-30b-a3b --gpu rtx-4060-ti-16gb --precision q4_k_m "
               "--ram-gb 64")
    p.add_argument("--model", required=True, help="catalog id, HF repo name, bare size, or a config.json path")
    p.add_argument("--gpu", required=True, help="GPU id or memory size (24GB:936 = 24 GB at 936 GB/s)")
    p.add_argument("--precision", help="weight format, e.g. q4_k_m, q8_0 (default: the checkpoint's own)")
    p.add_argument("--context", type=parse_token_count, default=8192, help="llama.cpp -c (default 8192)")
    p.add_argument("--mode", choices=["auto", "layers", "experts"], default="auto",
                   help="layers (-ngl) or experts (--n-cpu-moe, MoE only); auto picks experts for MoE models")
    p.add_argument("--ram-gb", type=float, help="system RAM in GB (checks the rest fits)")
    p.add_argument("--ram-bandwidth", type=float, default=DEFAULT_RAM_BANDWIDTH_GBPS,
                   help=f"system RAM bandwidth GB/s (default {DEFAULT_RAM_BANDWIDTH_GBPS:g}: dual-channel DDR5-5600)")
    p.add_argument("--num-gpus", type=int, default=1, help="identical cards to split the layers over (llama.cpp "
                                                           "--split-mode layer; default 1)")
    p.add_argument("--kv-cache-type", choices=["f16", "q8_0", "q4_0"],
                   help="llama.cpp --cache-type-k/-v (default f16; q8_0/q4_0 need -fa)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(plan_handler=_plan_offload)


def _plan_offload(args, catalog):
    from tools.offload import OffloadRequest, plan_offload

    model, note = catalog.model(args.model)
    gpu, gnote = catalog.gpu(args.gpu)
    res = plan_offload(OffloadRequest(model=model, gpu=gpu, precision=args.precision, context=int(args.context),
                                      mode=args.mode, ram_gb=args.ram_gb, ram_bandwidth_gbps=args.ram_bandwidth,
                                      num_gpus=args.num_gpus, kv_cache_type=args.kv_cache_type))
    res = res.model_copy(update={"assumptions": [n for n in (note, gnote) if n] + res.assumptions})
    rows = [("layers on GPU", f"{res.gpu_layers} of {res.total_layers}", "-ngl"
             + (f", split over {res.num_gpus} cards" if res.num_gpus > 1 else "")),
            ("GPU memory", f"{res.gpu_gb:.1f} GB", ("fits" if res.fits_gpu else "does NOT fit")
             + (f" ({res.per_gpu_gb:.1f} GB on the fullest card)" if res.num_gpus > 1 else "")),
            ("system RAM", f"{res.ram_gb:.1f} GB", "" if res.fits_ram is None else ("fits" if res.fits_ram else "does NOT fit")),
            ("decode", f"{res.decode_tokens_per_s:.1f} tok/s", f"batch 1; {res.gpu_share_of_time:.0%} of the time on GPU reads")]
    if res.cpu_moe_layers:
        rows.insert(1, ("experts in RAM", f"{res.cpu_moe_layers} layers", "--n-cpu-moe"))
    if res.all_on_gpu_tokens_per_s:
        rows.append(("all on one GPU", f"{res.all_on_gpu_tokens_per_s:.1f} tok/s", "for comparison, if it fitted"))
    width = max(len(r[0]) for r in rows)
    text = "\n".join([f"{model.name} on {gpu.name} with RAM offload ({res.precision}, {res.mode})"]
                      + [f"  {a:<{width}}  {b:>16}  {c}" for a, b, c in rows]
                      + ["", f"  {res.command}", "", "Assumptions:"] + [f"  - {a}" for a in res.assumptions])
    return res.model_dump(mode="json"), text


def parse_length(text: str) -> int:
    """A token length: 2048, 2k (= 2048, as context lengths are written), 128K, 1.5k (= 1536)."""
    import re

    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kK]?)\s*", text)
    if not m or float(m.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a token length: write 2048, 2k or 128K")
    return int(round(float(m.group(1)) * (1024 if m.group(2) else 1)))


def parse_seconds(text: str, bare_unit: str = "s") -> float:
    """A duration in seconds: '1s', '0.5 s', '500ms', '50 ms'; a bare number is in `bare_unit` (s or ms)."""
    import re

    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?|毫秒|秒)?\s*", text.lower())
    if not m or float(m.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a duration: write 1s, 0.5s, 500ms or 50ms")
    unit = m.group(2) or bare_unit
    return float(m.group(1)) / (1000 if unit in ("ms", "毫秒") else 1)


def add_serve_subparser(plan_sub) -> None:
    """Register `plan serve`: users or requests/s and latency targets -> layout, replicas, launch line, $/1M tokens."""
    from tools.serving import DEFAULT_ITL_MS, DEFAULT_OUTPUT, DEFAULT_PROMPT, DEFAULT_TTFT_S

    p = plan_sub.add_parser(
        "serve", help="GPUs, layout and cost to serve N users or R requests/s within latency targets",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="The smallest serving layout (tensor parallel within a node, pipeline stages across nodes, "
                    "replicas) that carries the load within the TTFT and inter-token-latency targets, with the "
                    "engine's launch line, the KV pool and concurrency per replica, tokens/s per GPU and per user, "
                    "and $/hour and $/1M input and output tokens (the price table's typical on-demand rate, or --price).",
        epilog="Examples:\n"
               "  gpu-advisor plan serve --model llama-3.1-70b --gpu h100 --users 100 --prompt-len 2k --output-len 512 "
               "--ttft 1s --itl 50ms\n"
               "  gpu-advisor plan serve --model llama-3.1-70b --gpu h100 --users 20 --prompt-len 1k --tp 4   # pin TP 4\n"
               "  gpu-advisor plan serve --model qwen2.5-7b --gpu rtx-4090 --qps 2 --engine llama.cpp --precision q4_k_m\n"
               "  gpu-advisor plan serve --model deepseek-v3 --gpu h20 --users 50 --gpu-options h200,h800,ascend-910b\n"
               "Load: --users N counts requests in flight at once (a user waiting for an answer); --qps R counts "
               "arrivals per second. An impossible target (an ITL below what the card's bandwidth allows) exits 2 "
               "with the bound it hit.")
    p.add_argument("--model", required=True, help="catalog id, HF repo name, bare size, or a config.json path")
    p.add_argument("--gpu", required=True, help="GPU id or alias (gpu-advisor gpus)")
    load = p.add_mutually_exclusive_group(required=True)
    load.add_argument("--users", type=int, help="concurrent users (requests in flight)")
    load.add_argument("--qps", type=float, help="requests per second")
    p.add_argument("--prompt-len", type=parse_length, default=DEFAULT_PROMPT,
                   help=f"prompt tokens per request, e.g. 2k (default {DEFAULT_PROMPT})")
    p.add_argument("--output-len", type=parse_length, default=DEFAULT_OUTPUT,
                   help=f"output tokens per request (default {DEFAULT_OUTPUT})")
    p.add_argument("--ttft", type=parse_seconds, help="time-to-first-token target, e.g. 1s or 800ms (default: none "
                   f"imposed; the plan says what it achieves and what {DEFAULT_TTFT_S:g}s would take)")
    p.add_argument("--itl", type=lambda t: parse_seconds(t, "ms"),
                   help=f"inter-token latency target, e.g. 50ms; a bare number is ms (default: none imposed; the plan "
                        f"says what {DEFAULT_ITL_MS:g}ms would take)")
    p.add_argument("--tp", type=int, help="pin tensor parallelism per replica, e.g. 4 (default: the planner's choice)")
    p.add_argument("--pp", type=int, help="pin pipeline stages per replica (default: the planner's choice)")
    p.add_argument("--engine", default="vllm", choices=["vllm", "sglang", "hf", "llama.cpp"],
                   help="serving engine (default vllm; Ollama = llama.cpp)")
    p.add_argument("--precision", help="weight format, e.g. fp8, awq, q4_k_m (default: the checkpoint's own)")
    p.add_argument("--kv-dtype", choices=["bf16", "fp16", "fp8"], help="KV-cache dtype (default: 16-bit)")
    p.add_argument("--memory-fraction", type=float,
                   help="engine memory share (vLLM --gpu-memory-utilization, SGLang --mem-fraction-static)")
    p.add_argument("--prefix-cache-hit", type=float, default=0.0,
                   help="share of prompt tokens served from the prefix cache, 0-0.99 (default 0)")
    p.add_argument("--max-num-seqs", type=int, help="the engine's cap on running sequences per replica (default: "
                                                     "vLLM 256; SGLang and llama.cpp: what memory holds)")
    p.add_argument("--gpus-per-node", type=int, default=8, help="GPUs per server: the TP limit (default 8)")
    p.add_argument("--price", type=price_per_hour, help="your price, USD per GPU-hour (default: the price table's typical)")
    p.add_argument("--gpu-options", help="comma-separated GPUs to rank as alternatives (default: a standard set "
                                         "incl. H20, L20, 910B, 4090)")
    from ui.cli import add_engine_extras

    add_engine_extras(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(plan_handler=_plan_serve)


def _plan_serve(args, catalog):
    from knowledge.prices import load_prices
    from tools.serving import ServeRequest, plan_serving, serving_options

    model, note = catalog.model(args.model)
    gpu, gnote = catalog.gpu(args.gpu)
    prices = load_prices().records
    fields = dict(users=args.users, qps=args.qps, prompt_len=args.prompt_len, output_len=args.output_len,
                  ttft_s=args.ttft, itl_ms=args.itl * 1000 if args.itl else None, engine=args.engine,
                  precision=args.precision, kv_dtype=args.kv_dtype, memory_fraction=args.memory_fraction,
                  prefix_cache_hit=args.prefix_cache_hit, gpus_per_node=args.gpus_per_node, prices=prices,
                  max_num_seqs=args.max_num_seqs, tp=args.tp, pp=args.pp)
    from ui.cli import engine_extras

    from knowledge import calibrations

    fmt = args.precision or model.native_precision
    fix = calibrations.find(model.id, gpu.id, args.engine, fmt)
    req = ServeRequest(model=model, gpu=gpu, price_per_gpu_hour=args.price, correction=fix, **fields,
                       **engine_extras(args, catalog))
    plan = plan_serving(req)
    names = [g.strip() for g in args.gpu_options.split(",")] if args.gpu_options else None
    alt_gpus = [catalog.gpu(n)[0] for n in names] if names else [g for g in catalog.gpus if g.id in DEFAULT_SERVE_OPTIONS]
    options = serving_options(req, alt_gpus)
    data = plan.model_dump(mode="json") | {"options": [o.model_dump(mode="json") for o in options]}
    data["assumptions"] = [n for n in (note, gnote) if n] + data["assumptions"]
    from ui.render import render_serve_plan

    return data, render_serve_plan(plan, options, [n for n in (note, gnote) if n])


DEFAULT_SERVE_OPTIONS = ("h100", "h200", "h800", "h20", "a100-80gb", "l40s", "l20", "rtx-4090", "ascend-910b", "b200",
                         "mi300x")


def run_command(args: argparse.Namespace, catalog) -> tuple[object, str]:
    """(JSON-able data, text) for `cost` or a `plan` sub-command."""
    if args.command == "cost":
        return _cost(args, catalog)
    handler = getattr(args, "plan_handler", None)
    if handler is None:
        raise ValueError(f"unknown plan command {getattr(args, 'plan_cmd', None)!r}")
    return handler(args, catalog)


def _job_hours(args, catalog, gpu, notes: list[str]) -> float:
    given_model = args.model is not None or args.tokens is not None
    if args.hours is not None and given_model:
        raise ValueError("give either --hours or --model with --tokens, not both")
    if args.hours is not None:
        return args.hours
    if args.model is None or args.tokens is None:
        raise ValueError("give the job's length: --hours H, or --model M with --tokens T (e.g. --tokens 2T)")
    from tools.train_time import TrainingTimeRequest, estimate_training_time

    model, note = catalog.model(args.model)
    if note:
        notes.append(note)
    t = estimate_training_time(TrainingTimeRequest(model=model, gpu=gpu, num_gpus=args.num_gpus, tokens=args.tokens))
    notes.append(f"hours: {t.wall_hours:,.2f} h wall-clock from the training-time estimate for {model.id} on "
                 f"{args.tokens:.4g} tokens (band {t.wall_hours_range[0]:,.1f}-{t.wall_hours_range[1]:,.1f} h; "
                 "gpu-advisor's training-time defaults: full training, default MFU)")
    return t.wall_hours


def _cost(args, catalog):
    from knowledge.prices import load_prices
    from tools.cost import CostRequest, estimate_cost

    gpu, note = catalog.gpu(args.gpu)
    notes = [note] if note else []
    hours = _job_hours(args, catalog, gpu, notes)
    table = load_prices(gpu_ids={g.id for g in catalog.gpus})
    req = CostRequest(
        gpu=gpu, num_gpus=args.num_gpus, hours=hours, mode=args.mode, currency=args.currency, prices=table.records,
        price_per_hour=args.price_per_hour, purchase_price_per_gpu=args.purchase_price_per_gpu, used=args.used,
        used_fraction_of_new=args.used_fraction_of_new, electricity_price=args.electricity_price, pue=args.pue,
        utilization=args.utilization, hosting_per_gpu_month=args.hosting_per_gpu_month,
        depreciation_years=args.depreciation_years, resale_fraction=args.resale_fraction, cny_per_usd=args.cny_per_usd,
        power_watts_per_gpu=args.power_watts_per_gpu, period_hours=args.period_hours, basis=args.basis)
    res = estimate_cost(req)
    if table.user_file:
        notes.append(f"prices: shipped table with {len(table.overridden)} record(s) from {table.user_file}")
    res = res.model_copy(update={"assumptions": notes + res.assumptions})
    data = res.model_dump(mode="json") | {"price_file": table.user_file}
    return data, render_cost(res, gpu.name)


def _money(x: float) -> str:
    return f"{x:,.2f}" if abs(x) < 1e6 else f"{x:,.0f}"


def _num(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:,.4g}"


def render_cost(res, gpu_name: str) -> str:
    """The cost table, the break-even, the prices used and the assumptions."""
    cur = res.currency
    lines = [f"{res.num_gpus} x {gpu_name} ({res.gpu}) - {res.hours:,.2f} h wall-clock = {res.gpu_hours:,.2f} GPU-hours - {cur}"]
    rows = [("", "low", "typical", "high")]
    for label, r in (("rent price / GPU-hour", res.rent_price_per_gpu_hour), ("rent, this job", res.rent_cost),
                     ("purchase / GPU", res.purchase_price_per_gpu), ("buy, this job", res.buy_cost)):
        if r is not None:
            rows.append((label, _money(r.low), _money(r.typical), _money(r.high)))
    w = [max(len(row[i]) for row in rows) for i in range(4)]
    lines += [f"  {a:<{w[0]}}  {b:>{w[1]}}  {c:>{w[2]}}  {d:>{w[3]}}" for a, b, c, d in rows]
    if res.buy_breakdown:
        parts = ", ".join(f"{k} {_money(v)}" for k, v in res.buy_breakdown.items())
        lines.append(f"  buy (typical) = {parts} {cur}; {_money(res.owned_cost_per_gpu_hour)} {cur} per working GPU-hour")
    if res.cheaper:
        lines += ["", f"  this job: {'buying' if res.cheaper == 'buy' else 'renting'} is cheaper at the typical prices"]
    if res.mode == "both":
        be = (f"buying pays for itself after {res.break_even_months:,.1f} months of renting at {res.utilization:.0%} utilization"
              if res.break_even_months is not None else "buying never pays for itself at these prices")
        bu = (f"break-even utilization {res.break_even_utilization:.0%}" if res.break_even_utilization is not None
              else "no break-even utilization (owning costs more per GPU-hour even at 100%)")
        lines.append(f"  {be}; {bu}")
        if res.basis == "period":
            lines.append("  counting the resale: buying beats renting for GPUs held longer than "
                         + (f"{res.buy_wins_after_months:,.1f} months" if res.buy_wins_after_months else "any period (never)")
                         + f" at {res.utilization:.0%} utilization")
    if res.prices_used:
        lines += ["", "Prices used (as recorded):"]
        for p in res.prices_used:
            typ = f", typical {_num(p.typical)}" if p.typical is not None else ""
            lines.append(f"  - {p.id} [{p.used_for}] {p.provider or ''}: {_num(p.low)}-{_num(p.high)}{typ} {p.currency} "
                         f"{p.unit}; confidence {p.confidence}; as of {p.as_of}")
            lines.append(f"      source: {p.source}")
    lines += ["", "Assumptions:"] + [f"  - {a}" for a in res.assumptions]
    return "\n".join(lines)


def _plan_checkpoint(args, catalog):
    from tools.checkpoint_plan import CheckpointRequest, plan_checkpoint

    model, note = catalog.model(args.model)
    res = plan_checkpoint(CheckpointRequest(
        model=model, method=args.method, num_gpus=args.num_gpus, write_gbps=args.write_gbps,
        mtbf_hours_per_gpu=args.mtbf_hours_per_gpu, step_seconds=args.step_seconds, save_gradients=args.save_gradients,
        lora_rank=args.lora_rank, restart_minutes=args.restart_minutes))
    if note:
        res = res.model_copy(update={"assumptions": [note] + res.assumptions})
    return res.model_dump(mode="json"), render_checkpoint(res, model.name)


def render_checkpoint(res, model_name: str) -> str:
    """The checkpoint plan as a table with its assumptions."""
    steps = f"{res.interval_steps:,} steps" if res.interval_steps is not None else "--step-seconds gives steps"
    rows = [(k, f"{v:,.2f} GB", "") for k, v in res.checkpoint_parts_gb.items()]
    rows += [
        ("checkpoint", f"{res.checkpoint_gb:,.2f} GB", f"{res.bytes_per_saved_param:g} B x {res.saved_params:,} parameters"),
        ("weights only (bf16)", f"{res.weights_only_gb:,.2f} GB", f"{res.total_params:,} parameters x 2 B (an export)"),
        ("write time", f"{res.write_seconds:,.1f} s", f"at {res.write_gbps:g} GB/s"),
        ("job MTBF", f"{res.cluster_mtbf_hours:,.1f} h", f"{res.mtbf_hours_per_gpu:,.0f} GPU-hours / {res.num_gpus} GPUs"),
        ("interval", f"{res.interval_minutes:,.1f} min",
         f"Young sqrt(2 x write x MTBF); Daly {res.daly_interval_minutes:,.1f} min; {steps}"),
        ("writing overhead", f"{res.overhead_fraction:.2%}", "write time / interval"),
        ("lost per failure", f"{res.expected_lost_minutes_per_failure:,.1f} min",
         f"half an interval + {res.restart_minutes:,.1f} min restart"),
        ("expected waste", f"{res.expected_waste_fraction:.2%}", "writing + redone work + restarts"),
    ]
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    lines = [f"{model_name} - {res.method} - {res.num_gpus} GPU(s) - resumable checkpoints (1 GB = 1e9 bytes)"]
    lines += [f"  {a:<{w0}}  {b:>{w1}}  {c}".rstrip() for a, b, c in rows]
    lines += ["", "Assumptions:"] + [f"  - {a}" for a in res.assumptions]
    return "\n".join(lines)
