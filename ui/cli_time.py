"""CLI commands `time train` and `time infer`: the planning tools' timing, as text or JSON."""
from __future__ import annotations


from ui.cli_plan import parse_token_count as _count


def _weight_format(text: str) -> str:
    import argparse

    from tools.formats import weight_format

    try:
        return weight_format(text).id
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_parsers(sub) -> None:
    """Register `time train` and `time infer`."""
    from ui.cli import parse_length

    t = sub.add_parser("time", help="training time or inference speed")
    ts = t.add_subparsers(dest="what", required=True)
    tr = ts.add_parser("train", help="FLOPs, GPU-hours, wall-clock time and cost of a training run",
                       description="FLOPs = 6·N·D (+attention; 4·N·D for LoRA/QLoRA; N = active parameters for MoE); "
                                   "time = FLOPs / (GPUs x dense peak x MFU), plus pipeline bubble, exposed "
                                   "communication on PCIe/Ethernet and QLoRA dequantization.")
    tr.add_argument("--model", required=True)
    tr.add_argument("--tokens", required=True, type=_count, help="training tokens: 2e12, 2T, 500B, 100M")
    tr.add_argument("--gpu", required=True)
    tr.add_argument("--num-gpus", type=int, default=1)
    tr.add_argument("--method", choices=["full", "lora", "qlora"], default="full")
    tr.add_argument("--precision", choices=["bf16", "fp8"], default="bf16")
    tr.add_argument("--mfu", type=float, help="model FLOPs utilization 0-1 (default by GPU family)")
    tr.add_argument("--seq-len", type=parse_length)
    tr.add_argument("--recompute", choices=["none", "selective", "full"])
    tr.add_argument("--zero", type=int, choices=[0, 1, 2, 3])
    tr.add_argument("--tp", type=int, default=1)
    tr.add_argument("--pp", type=int, default=1)
    tr.add_argument("--global-batch-tokens", type=_count,
                    help="tokens per optimizer step (default: ~2M below 3B parameters and 4M above for pre-training "
                         "runs of 10B+ tokens, 262,144 for fine-tunes)")
    tr.add_argument("--interconnect", choices=["nvlink", "pcie", "ethernet-1g", "ethernet-10g", "ethernet-25g", "ethernet-100g", "ethernet-200g", "ethernet-400g",
                                               "infiniband", "roce"],
                    help="the link data parallelism crosses (default: the card's own: NVLink/InfiniBand for HGX-class "
                         "systems, PCIe within a PCIe server and 100 GbE between them)")
    tr.add_argument("--gpus-per-node", type=int, help="GPUs per server (default 8)")
    tr.add_argument("--json", action="store_true")
    inf = ts.add_parser("infer", help="time to first token and decode tokens/s (roofline)")
    inf.add_argument("--model", required=True)
    inf.add_argument("--gpu", required=True)
    inf.add_argument("--num-gpus", type=int, default=1)
    inf.add_argument("--precision", type=_weight_format, metavar="FORMAT",
                     help="weight format (see `size infer --help`); default: the checkpoint's own")
    inf.add_argument("--kv-dtype", choices=["bf16", "fp16", "fp8"])
    inf.add_argument("--context", type=parse_length, default=2048, help="prompt tokens (default 2048)")
    inf.add_argument("--output", type=parse_length, default=256, help="generated tokens (default 256)")
    inf.add_argument("--batch", type=int, default=1)
    inf.add_argument("--engine", choices=["hf", "vllm"], default="vllm")
    inf.add_argument("--json", action="store_true")


def _rent(gpu_id: str, gpu_hours: float) -> dict | None:
    """The on-demand rental cost range of gpu_hours at the price table's USD rates, with the records used."""
    from knowledge.prices import load_prices
    from tools.pricing import on_demand_rate

    rate = on_demand_rate(load_prices().records, gpu_id)
    if rate is None:
        return None
    return {"low": round(rate.low * gpu_hours, 2), "typical": round(rate.typical * gpu_hours, 2),
            "high": round(rate.high * gpu_hours, 2), "currency": rate.currency,
            "per_gpu_hour": {"low": rate.low, "typical": rate.typical, "high": rate.high},
            "prices_used": [{"id": p.id, "provider": p.provider, "source": p.source, "as_of": p.as_of} for p in rate.records]}


def run_command(args, catalog) -> tuple[dict, str]:
    """(JSON data, text) for `time train` / `time infer`."""
    model, mnote = catalog.model(args.model)
    gpu, gnote = catalog.gpu(args.gpu)
    notes = [n for n in (mnote, gnote) if n]
    if args.what == "train":
        from tools.train_time import TrainingTimeRequest, estimate_training_time

        res = estimate_training_time(TrainingTimeRequest(
            model=model, gpu=gpu, num_gpus=args.num_gpus, tokens=args.tokens, method=args.method,
            precision=args.precision, mfu=args.mfu, seq_len=args.seq_len, recompute=args.recompute, zero=args.zero,
            tp=args.tp, pp=args.pp, global_batch_tokens=int(args.global_batch_tokens) if args.global_batch_tokens else None,
            interconnect=args.interconnect, gpus_per_node=args.gpus_per_node))
        data = res.model_dump()
        data["assumptions"] = notes + data["assumptions"]
        cost = _rent(gpu.id, res.gpu_hours)
        data["cost"] = cost
        if cost:
            data["assumptions"].append(f"cost at on-demand USD rental prices in the table ({len(cost['prices_used'])} "
                                       "records; prices are estimates, override in ~/.config/gpu-advisor/prices.yaml)")
        lines = [f"{model.name} - {res.method} - {args.tokens:.3g} tokens on {res.num_gpus} x {gpu.name}",
                 f"  model FLOPs        {res.total_flops:.3e}   (executed {res.hardware_flops:.3e})",
                 f"  MFU                {res.mfu:.2f}   (band {res.mfu_range[0]:.2f}-{res.mfu_range[1]:.2f}) of "
                 f"{res.peak_tflops:g} TFLOPS dense {res.precision.upper()}",
                 f"  GPU-hours          {res.gpu_hours:,.0f}   ({res.gpu_hours_range[0]:,.0f}-{res.gpu_hours_range[1]:,.0f})",
                 f"  wall clock         {res.wall_hours:,.1f} h = {res.wall_days:,.1f} days   "
                 f"({res.wall_hours_range[0]:,.1f}-{res.wall_hours_range[1]:,.1f} h)",
                 f"  throughput         {res.tokens_per_second:,.0f} tokens/s"]
        lay = res.layout
        lines.append(f"  layout             dp {lay['dp']} x tp {lay['tp']} x pp {lay['pp']} (ep {lay['ep']}), ZeRO-{lay['zero']}, "
                     f"{lay['global_batch_tokens']:,} tokens per step")
        if res.overheads:
            lines.append("  overheads          " + ", ".join(f"{k} +{v:.0%}" for k, v in res.overheads.items()))
        if cost:
            lines.append(f"  rent (on-demand)   ${cost['typical']:,.0f}   (${cost['low']:,.0f}-${cost['high']:,.0f}; "
                         f"${cost['per_gpu_hour']['typical']:.2f}/GPU-h typical)")
        return data, "\n".join(lines + ["", "Assumptions:"] + [f"  - {a}" for a in data["assumptions"]])
    from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed

    res = estimate_inference_speed(InferenceSpeedRequest(
        model=model, gpu=gpu, num_gpus=args.num_gpus, precision=args.precision, kv_dtype=args.kv_dtype,
        context=args.context, output=args.output, batch=args.batch, engine=args.engine))
    data = res.model_dump()
    data["assumptions"] = notes + data["assumptions"]
    lines = [f"{model.name} - inference ({args.engine}) on {res.num_gpus} x {gpu.name} ({res.layout['split']})",
             f"  time to first token      {res.ttft_s * 1000:,.0f} ms   ({args.batch} x {args.context} prompt tokens)",
             f"  decode per sequence      {res.decode_tokens_per_s_per_seq:,.1f} tokens/s   ({res.decode_bound}-bound)",
             f"  decode, whole batch      {res.decode_tokens_per_s_total:,.0f} tokens/s   (batch {args.batch})",
             f"  compute-bound from batch {res.compute_bound_batch if res.compute_bound_batch else 'never (KV reads grow with the batch)'}",
             f"  most sequences that fit  {res.max_batch_that_fits}",
             f"  whole request            {res.total_seconds:,.1f} s"]
    return data, "\n".join(lines + ["", "Assumptions:"] + [f"  - {a}" for a in data["assumptions"]])
