"""CLI commands `recommend` and `plan parallel`."""
from __future__ import annotations

import argparse


def add_parsers(sub) -> None:
    """Register `recommend`."""
    from ui.cli import parse_length
    from ui.cli_plan import parse_token_count as _count

    r = sub.add_parser("recommend", help="rank GPU options for a workload (fit, count, time, cost)",
                       description="Evaluates every GPU in the table (or --gpus): least count that fits, time and "
                                   "on-demand rental cost; ranks the cheapest meeting --deadline-hours, or the fastest "
                                   "within --budget, else the cheapest.")
    r.add_argument("--model", required=True)
    r.add_argument("--task", required=True, choices=["pretrain", "full", "lora", "qlora", "inference"])
    r.add_argument("--seq-len", type=parse_length, help="training sequence length, or inference context")
    r.add_argument("--tokens", type=_count, help="training tokens (fine-tuning default 100M)")
    r.add_argument("--batch", type=int, default=1, help="inference: concurrent sequences")
    r.add_argument("--budget", type=float, help="USD (whole training job, or per hour for inference)")
    r.add_argument("--deadline-hours", type=float)
    r.add_argument("--gpus", help="comma-separated GPU ids to consider (default: all)")
    r.add_argument("--china-available", action="store_true",
                   help="only GPUs sold into China (China-market parts and domestic accelerators; rules change: check)")
    r.add_argument("--json", action="store_true")


def add_parallel_parser(plan_sub) -> None:
    """Register `plan parallel` under the `plan` command."""
    p = plan_sub.add_parser("parallel", help="DP x TP x PP x ZeRO layout for a GPU count")
    p.add_argument("--model", required=True)
    p.add_argument("--task", required=True, choices=["pretrain", "full", "lora", "qlora"])
    p.add_argument("--gpu", required=True)
    p.add_argument("--num-gpus", type=int, required=True)
    p.add_argument("--seq-len", type=int, default=4096)
    p.add_argument("--json", action="store_true")
    p.set_defaults(plan_handler=run_parallel)  # ui/cli_plan.run_command dispatches `plan` sub-commands by this


def _china(gpu) -> bool:
    text = f"{gpu.market_notes or ''} {gpu.vendor}".lower()
    return "huawei" in text or ("china" in text and "not" not in text.split("china")[0][-20:])


def run_recommend(args: argparse.Namespace, catalog) -> tuple[dict, str]:
    from knowledge.prices import load_prices
    from tools.recommend import RecommendRequest, recommend

    model, note = catalog.model(args.model)
    gpus = ([catalog.gpu(g.strip())[0] for g in args.gpus.split(",")] if args.gpus else
            [g for g in catalog.gpus if g.vendor != "Apple"])
    if args.china_available:
        gpus = [g for g in gpus if _china(g)]
        if not gpus:
            raise ValueError("no GPU in the list is marked as sold into China (see gpu-advisor gpus)")
    res = recommend(RecommendRequest(model=model, task=args.task, gpus=gpus, prices=load_prices().records,
                                     seq_len=args.seq_len, tokens=args.tokens, batch=args.batch, budget=args.budget,
                                     deadline_hours=args.deadline_hours))
    data = res.model_dump()
    data["assumptions"] = ([note] if note else []) + (["only GPUs marked as sold into China: "
                                                       + ", ".join(g.id for g in gpus)] if args.china_available else []) \
        + data["assumptions"]
    unit = "$/h" if args.task == "inference" else "$"
    lines = [f"{model.name} - {args.task}: GPU options ranked",
             f"  {'#':>2}  {'gpu':<15} {'GPUs':>5} {'GB/GPU':>7} {'hours':>9} {'tok/s':>9} {unit:>10}  why"]
    for o in res.options:
        lines.append(f"  {o.rank:>2}  {o.gpu:<15} {o.num_gpus:>5} {o.per_gpu_gb:>7.1f} "
                     f"{'-' if o.wall_hours is None else f'{o.wall_hours:,.1f}':>9} {o.tokens_per_second or 0:>9,.0f} "
                     f"{'-' if o.cost is None else f'{o.cost:,.2f}':>10}  {o.why}")
    for o in res.rejected:
        lines.append(f"   -  {o.gpu:<15} {'':>5} {'':>7} {'':>9} {'':>9} {'':>10}  {o.why}")
    return data, "\n".join(lines + ["", "Assumptions:"] + [f"  - {a}" for a in data["assumptions"]])


def run_parallel(args: argparse.Namespace, catalog) -> tuple[dict, str]:
    from tools.parallel_plan import ParallelPlanRequest, plan_parallel

    model, _ = catalog.model(args.model)
    gpu, _ = catalog.gpu(args.gpu)
    res = plan_parallel(ParallelPlanRequest(model=model, gpu=gpu, num_gpus=args.num_gpus, task=args.task,
                                            seq_len=args.seq_len))
    data = res.model_dump()
    head = (f"{model.name} - {args.task} on {args.num_gpus} x {gpu.name}: "
            + (f"DP {res.dp} x TP {res.tp} x PP {res.pp}, ZeRO-{res.zero}, {res.per_gpu_gb:.1f} GB/GPU, "
               f"step {res.step_seconds:,.1f} s, {res.comm_share:.0%} exposed communication" if res.fits else "no layout fits"))
    rows = [f"  {'dp':>5} {'tp':>3} {'pp':>3} {'zero':>4} {'GB/GPU':>8} {'fits':>5} {'step s':>9} {'comm':>5}"]
    rows += [f"  {o.dp:>5} {o.tp:>3} {o.pp:>3} {o.zero:>4} {o.per_gpu_gb:>8.1f} {'yes' if o.fits else 'no':>5} "
             f"{o.step_seconds:>9,.1f} {o.comm_share:>5.0%}" for o in res.considered[:12]]
    return data, "\n".join([head, "", "Layouts considered (best first):", *rows, "", "Assumptions:",
                            *[f"  - {a}" for a in res.assumptions]])
