"""gpu-advisor command line: argparse in, tool calls, text or JSON out.

Errors people can fix (unknown names, impossible values) print one line naming what is allowed
and exit with status 2; nothing here prints a traceback for bad input.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys

from pydantic import ValidationError

from ui.argtypes import backend_name, positive_int  # noqa: F401 (argparse types)

from tools.formats import WEIGHT_FORMATS, weight_format
from ui import cli_plan, cli_serve
from ui.cli_knowledge import add_parsers as add_knowledge_parsers
from ui.cli_eval import add_parsers as add_eval_parsers
from ui.cli_recommend import add_parallel_parser
from ui.cli_recommend import add_parsers as add_recommend_parsers
from ui.cli_time import add_parsers as add_time_parsers


EXAMPLES = """\
examples:
  gpu-advisor size train --model llama-3.1-70b --method qlora --gpu a100-80gb
  gpu-advisor size train --model 70b --method full --gpu a100-80gb --num-gpus 8 --zero 3 --offload optimizer
  gpu-advisor size infer --model qwen2.5-72b --precision int4 --context 32k --gpu l40s --num-gpus 2
  gpu-advisor size infer --model llama-3.1-70b --gpu h100 --num-gpus 2 --engine vllm --json
  gpu-advisor models        gpu-advisor gpus        gpu-advisor spec h20      gpu-advisor compare a100 h100 h20
  gpu-advisor search "H20 显存带宽"      gpu-advisor index status      gpu-advisor prices --gpu h100

Models: a catalog id (gpu-advisor models), a Hugging Face repo name (meta-llama/Llama-3.1-70B-Instruct)
or a bare size (70b, 7B, 700亿). GPUs: an id or alias (gpu-advisor gpus); a bare A100 means the 80GB SXM.
All memory figures are decimal GB (1e9 bytes); throughput figures are dense.
"""


class UsageError(Exception):
    """Bad input, explained for a person; exits 2."""


def parse_length(text: str) -> int:
    """A token length: 2048, 32k (= 32768), 128K, 1m (= 1048576)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmM]?)\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r} is not a token count (use e.g. 2048, 32k, 128k)")
    scale = {"": 1, "k": 1024, "m": 1024**2}[m.group(2).lower()]
    value = float(m.group(1)) * scale
    if value != int(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of tokens")
    return int(value)


def _zero_stage(text: str) -> int:
    """A ZeRO stage 0-3, or 'fsdp' (= 3: parameters, gradients and optimizer states sharded)."""
    if text.strip().lower() == "fsdp":
        return 3
    if text.strip() in ("0", "1", "2", "3"):
        return int(text)
    raise argparse.ArgumentTypeError(f"{text!r} is not a ZeRO stage (0, 1, 2, 3 or fsdp)")


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", required=True, help="catalog id, HF repo name, or bare size (70b, 700亿)")
    p.add_argument("--gpu", help="GPU id or alias; without it no fit is checked")
    p.add_argument("--num-gpus", type=int, default=1, help="GPUs in the job (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gpu-advisor", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXAMPLES,
        description="Computed answers to GPU sizing questions for LLMs: memory per GPU for training, "
                    "fine-tuning and inference, with the breakdown and the assumptions.")
    sub = parser.add_subparsers(dest="command", required=True)

    size = sub.add_parser("size", help="memory per GPU for training or inference")
    size_sub = size.add_subparsers(dest="what", required=True)

    t = size_sub.add_parser("train", help="training / fine-tuning memory", formatter_class=argparse.RawDescriptionHelpFormatter,
                            epilog="Defaults: seq-len 2048, micro-batch 1, recompute full (selective with --tp > 1), "
                                   "ZeRO-3 with more than one GPU, LoRA rank 16 on all linear layers.")
    _add_common(t)
    t.add_argument("--method", choices=["full", "lora", "qlora"], default="full")
    t.add_argument("--zero", type=_zero_stage, metavar="{0,1,2,3,fsdp}",
                   help="ZeRO stage (fsdp = 3); default 3 with more than one GPU")
    t.add_argument("--fsdp", action="store_const", const=3, dest="zero", help="same as --zero 3")
    t.add_argument("--offload", choices=["none", "optimizer", "all"], default="none", help="CPU offload")
    t.add_argument("--optimizer", choices=["adamw", "adamw-8bit", "paged-adamw-8bit", "sgd", "adafactor"], default="adamw")
    t.add_argument("--precision", choices=["mixed", "bf16", "fp32"], default="mixed",
                   help="mixed = bf16 compute + fp32 master weights (default); bf16 = pure bf16 states")
    t.add_argument("--grad-dtype", choices=["bf16", "fp32"], help="gradient dtype (default bf16; fp32 for --precision fp32)")
    t.add_argument("--master-weights", choices=["fp32", "none"], help="fp32 master copy (default: with mixed precision)")
    t.add_argument("--tp", type=int, default=1, help="tensor-parallel degree")
    t.add_argument("--pp", type=int, default=1, help="pipeline-parallel degree")
    t.add_argument("--ep", type=int, help="expert-parallel degree for MoE models (default: the largest divisor of the routed experts, at most "
                                          "the data-parallel GPUs; 1 = every GPU holds all experts)")
    t.add_argument("--seq-len", type=parse_length, help="tokens per sequence (default 2048; 8k = 8192)")
    t.add_argument("--micro-batch", type=int, help="sequences per GPU per step (default 1)")
    t.add_argument("--recompute", choices=["none", "selective", "full"], help="activation recomputation")
    t.add_argument("--no-flash-attention", action="store_true", help="eager attention (stores the s^2 scores)")
    t.add_argument("--lora-rank", type=int, help="LoRA rank (default 16)")
    t.add_argument("--lora-targets", help="comma-separated module names, e.g. q_proj,v_proj (default: all linear)")
    t.add_argument("--lora-dropout", action="store_true", help="lora_dropout > 0 (stores dropped inputs)")
    t.add_argument("--no-double-quant", action="store_true", help="QLoRA without double quantization")
    t.add_argument("--optimizer-in-backward", action="store_true", help="fuse the optimizer step into backward (torchtune)")
    t.add_argument("--loss", choices=["hf", "chunked"], default="hf", help="hf cross-entropy or torchtune chunked")

    i = size_sub.add_parser("infer", help="inference memory", formatter_class=argparse.RawDescriptionHelpFormatter,
                            epilog="Defaults: the checkpoint's own weight format (bf16 for most; fp8 for DeepSeek-V3/R1 "
                                   "and Kimi K2; mxfp4 for gpt-oss), KV cache bf16 (fp16 for GGUF), context 4096 (or "
                                   "the model's maximum), batch 1, the whole context prefilled at once, engine hf. "
                                   "With --gpu, every answer also lists the formats that fit, best first.")
    _add_common(i)
    i.add_argument("--precision", type=_weight_format, metavar="FORMAT",
                   help="weight format: " + ", ".join(WEIGHT_FORMATS) + " (int4/awq/gptq: group 128; q* and iq*: "
                   "GGUF at their published bits per weight). Default: the checkpoint's own format")
    i.add_argument("--kv-dtype", choices=["bf16", "fp16", "fp8"])
    i.add_argument("--context", type=parse_length, help="tokens per sequence, prompt + output (default 4096)")
    i.add_argument("--prompt-len", type=parse_length, help="tokens prefilled at once (default: the context)")
    i.add_argument("--batch", type=int, default=1, help="concurrent sequences")
    i.add_argument("--engine", choices=["hf", "vllm"], default="hf")
    i.add_argument("--gpu-memory-utilization", type=float, default=0.9, help="vLLM's pre-allocated share")
    i.add_argument("--split", choices=["auto", "tp", "layers"], default="auto",
                   help="how several GPUs share the model (auto: TP where it divides the heads, else layers)")
    i.add_argument("--quantize-embeddings", action="store_true", help="count embeddings at the quantized width too")
    add_engine_extras(i)

    m = sub.add_parser("models", help="list the model catalog; `models add PATH` registers a model from its config.json",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=MODELS_EPILOG)
    m.add_argument("action", nargs="?", choices=["list", "add"], default="list")
    m.add_argument("path", nargs="?", help="for add: a config.json, or a folder holding one")
    m.add_argument("--id", help="for add: the id to use (default: the folder's name)")
    m.add_argument("--json", action="store_true")
    p = sub.add_parser("gpus", help="list the GPU table")
    p.add_argument("--json", action="store_true")
    s = sub.add_parser("spec", help="one GPU's specification, with its source")
    s.add_argument("gpu")
    s.add_argument("--json", action="store_true")
    add_knowledge_parsers(sub)
    add_time_parsers(sub)
    add_recommend_parsers(sub)
    add_eval_parsers(sub)
    a = sub.add_parser("ask", help="ask a question in Chinese or English (computed answer with sources)")
    a.add_argument("question")
    a.add_argument("--lang", choices=["zh", "en"], help="answer language (default: the question's)")
    a.add_argument("--backend", default="auto", type=backend_name,
                   help="auto (default: the LLM in GPU_ADVISOR_LLM if set, else rules), rules, openai:MODEL, ollama:MODEL")
    a.add_argument("--session", help="JSON file that keeps the conversation across calls")
    a.add_argument("--json", action="store_true", help="print the Answer object")
    c = sub.add_parser("chat", help="a multi-turn terminal conversation (empty line or Ctrl-D ends it)")
    c.add_argument("--lang", choices=["zh", "en"])
    cli_plan.add_parsers(sub)
    from ui.cli_calibrate import add_parser as add_calibrate_parser

    add_calibrate_parser(sub)
    cli_serve.add_parsers(sub)
    cli_serve.add_mcp_parser(sub)
    cli_serve.add_slack_parser(sub)
    add_parallel_parser(cli_plan.PLAN_SUBPARSERS)
    return parser


MODELS_EPILOG = """\
A model in no catalog: pass its config.json (or the folder holding it) wherever a model is asked for:
  gpu-advisor size infer --model ./Qwen3-4B-Instruct-2507/ --gpu rtx-4090
or register it once under an id of your own (kept in ~/.config/gpu-advisor/models.yaml, or GPU_ADVISOR_MODELS):
  gpu-advisor models add ./my-finetune/config.json --id my-finetune
The parameter count is computed from the architecture; a model.safetensors.index.json beside the config is
used to check the checkpoint's size, and a quantization_config sets the checkpoint's own weight format."""


def _models_add(args, catalog) -> tuple[dict, str]:
    from knowledge.catalog import normalize, user_models_file
    from knowledge.hf_config import load_config_path

    if not args.path:
        raise UsageError("models add needs a path: a config.json or a folder holding one")
    spec, notes = load_config_path(args.path, model_id=(args.id or "").lower() or None)
    taken = {normalize(n) for m in catalog.models for n in (m.id, *m.aliases)}
    if normalize(spec.id) in taken:
        raise UsageError(f"the id {spec.id!r} is already in the catalog: choose another with --id")
    target = user_models_file()
    target.parent.mkdir(parents=True, exist_ok=True)
    import yaml
    from pathlib import Path

    rows = (yaml.safe_load(target.read_text(encoding="utf-8")) or []) if target.is_file() else []
    rows.append({"id": spec.id, "config": str(Path(args.path).expanduser().resolve())})
    target.write_text(yaml.safe_dump(rows, allow_unicode=True, sort_keys=False), encoding="utf-8")
    text = (f"added {spec.id} to {target}: {spec.params_total / 1e9:.2f}e9 parameters"
            + (f" ({spec.params_active / 1e9:.2f}e9 active)" if spec.params_active else "")
            + f", {spec.num_layers} layers, {spec.attention.upper()}, checkpoint format {spec.native_precision}"
            + "".join(f"\n  {n}" for n in notes) + f"\nuse it as --model {spec.id}")
    return {"added": spec.model_dump(mode="json"), "file": str(target), "notes": notes}, text


def _weight_format(text: str) -> str:
    try:
        return weight_format(text).id
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _explain(err: ValidationError) -> str:
    msgs = []
    for e in err.errors():
        loc = [str(x) for x in e.get("loc", ()) if str(x) not in ("model",)] or [""]
        flag = "--" + loc[0].replace("_", "-") if loc[0] else ""
        ctx = e.get("ctx") or {}
        bounds = {"greater_than_equal": ">= {ge}", "greater_than": "> {gt}", "less_than_equal": "<= {le}",
                  "less_than": "< {lt}"}
        kind = e.get("type", "")
        msg = f"must be {bounds[kind].format(**ctx)}" if kind in bounds else e.get("msg", "").removeprefix("Value error, ")
        value = e.get("input")
        shown = f" (got {value!r})" if flag and not isinstance(value, (dict, list)) else ""
        msgs.append(f"{flag} {msg}{shown}".strip())
    return "; ".join(msgs)


def _size_train(args, catalog) -> tuple[dict, str]:
    from tools.train_memory import TrainingMemoryRequest, estimate_training_memory
    from ui.render import render_training

    model, notes = _resolve(args, catalog)
    targets = [x.strip() for x in args.lora_targets.split(",") if x.strip()] if args.lora_targets is not None else None
    if targets == []:
        raise ValueError(f"--lora-targets {args.lora_targets!r} names no module: give names such as q_proj,v_proj "
                         "(or leave it out for all linear layers)")
    req = TrainingMemoryRequest(
        model=model, gpu=notes.pop("gpu"), method=args.method, precision=args.precision, optimizer=args.optimizer,
        grad_dtype=args.grad_dtype, master_weights=args.master_weights, zero=args.zero, offload=args.offload,
        num_gpus=args.num_gpus, tp=args.tp, pp=args.pp, ep=args.ep, micro_batch=args.micro_batch, seq_len=args.seq_len,
        recompute=args.recompute, flash_attention=not args.no_flash_attention, lora_rank=args.lora_rank,
        lora_targets=targets, lora_dropout=args.lora_dropout, double_quant=not args.no_double_quant,
        optimizer_in_backward=args.optimizer_in_backward, loss=args.loss)
    res = estimate_training_memory(req)
    res = res.model_copy(update={"assumptions": notes["notes"] + res.assumptions})
    return res.model_dump(mode="json"), render_training(res, model)


def _size_infer(args, catalog) -> tuple[dict, str]:
    from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory
    from ui.render import render_inference

    model, notes = _resolve(args, catalog)
    req = InferenceMemoryRequest(
        model=model, gpu=notes.pop("gpu"), num_gpus=args.num_gpus, precision=args.precision, kv_dtype=args.kv_dtype,
        context=args.context, prompt_len=args.prompt_len, batch=args.batch, engine=args.engine,
        gpu_memory_utilization=args.gpu_memory_utilization, split=args.split,
        quantize_embeddings=args.quantize_embeddings, **engine_extras(args, catalog))
    res = estimate_inference_memory(req)
    res = res.model_copy(update={"assumptions": notes["notes"] + res.assumptions})
    return res.model_dump(mode="json"), render_inference(res, model)


def _resolve(args, catalog):
    model, note = catalog.model(args.model)
    notes = {"notes": [note] if note else [], "gpu": None}
    if args.gpu:
        gpu, gnote = catalog.gpu(args.gpu)
        notes["gpu"] = gpu
        if gnote:
            notes["notes"].append(gnote)
    return model, notes


def _chat(args) -> int:
    """Read questions from stdin until an empty line or EOF; each answer continues the conversation."""
    from assistant.service import ask

    history: list[dict] = []
    print("gpu-advisor chat - ask in Chinese or English; an empty line ends it.")
    while True:
        try:
            line = input("> ")
        except EOFError:
            break
        if not line.strip():
            break
        ans = ask(line, lang=args.lang, history=history)
        history.append(ans.slots)
        print(ans.answer + "".join(f"\n_note: {w}_" for w in ans.warnings) + "\n")
    return 0


def add_engine_extras(p) -> None:
    """Flags for memory that serving engines add: speculative decoding and multi-LoRA slots."""
    p.add_argument("--speculative", choices=["draft", "eagle", "mtp"],
                   help="speculative decoding: a draft model (--draft-model), an EAGLE head or the model's MTP layers")
    p.add_argument("--draft-model", help="the draft model for --speculative draft (catalog id, repo name or size)")
    p.add_argument("--mtp-layers", type=int, default=1, help="MTP / EAGLE layers (default 1)")
    p.add_argument("--max-loras", type=int, default=0, help="LoRA adapters resident at once (vLLM --max-loras)")
    p.add_argument("--max-lora-rank", type=int, default=16, help="vLLM --max-lora-rank (default 16)")


def engine_extras(args, catalog) -> dict:
    """The InferenceMemoryRequest fields of add_engine_extras' flags."""
    out = {"speculative": args.speculative, "mtp_layers": args.mtp_layers, "max_loras": args.max_loras,
           "max_lora_rank": args.max_lora_rank}
    if args.draft_model:
        out["draft_model"] = catalog.model(args.draft_model)[0]
    return out


def run(argv: list[str] | None = None) -> tuple[int, str | None]:
    """Run one command; (exit status, text for stdout, None for servers). Raises UsageError for bad input."""
    args = build_parser().parse_args(argv)
    from knowledge.catalog import UnknownItem, default_catalog
    from ui.render import render_gpus, render_models, render_spec

    catalog = default_catalog()
    try:
        if args.command == "size":
            data, text = (_size_train if args.what == "train" else _size_infer)(args, catalog)
        elif args.command == "time":
            from ui.cli_time import run_command as run_time

            data, text = run_time(args, catalog)
        elif args.command == "ask":
            from pathlib import Path

            from assistant.service import ask, ask_in_session

            ans = (ask_in_session(args.question, Path(args.session), lang=args.lang, backend=args.backend)
                   if args.session else ask(args.question, lang=args.lang, backend=args.backend))
            data, text = ans.model_dump(mode="json"), ans.answer + "".join(f"\n\n_note: {w}_" for w in ans.warnings)
        elif args.command == "eval":
            from ui.cli_eval import run_command as run_eval

            data, text = run_eval(args, catalog)
        elif args.command == "chat":
            return _chat(args), ""
        elif args.command == "serve":
            return cli_serve.run_command(args), None
        elif args.command == "slack":
            return cli_serve.run_slack(args), None
        elif args.command == "mcp":
            return cli_serve.run_mcp(args), None  # stdout belongs to the protocol: print nothing else
        elif args.command == "recommend":
            from ui.cli_recommend import run_recommend

            data, text = run_recommend(args, catalog)
        elif args.command in ("cost", "plan"):
            data, text = cli_plan.run_command(args, catalog)
        elif args.command == "calibrate":
            from ui.cli_calibrate import run_calibrate

            data, text = run_calibrate(args, catalog)
        elif args.command in ("index", "search", "compare", "prices"):
            from knowledge.documents import DocumentError
            from knowledge.embeddings import EmbedderUnavailable
            from knowledge.prices import PriceFileError
            from ui.cli_knowledge import run_command

            try:
                data, text = run_command(args, catalog)
            except (DocumentError, EmbedderUnavailable, PriceFileError) as e:
                raise UsageError(str(e)) from None
        elif args.command == "models" and args.action == "add":
            data, text = _models_add(args, catalog)
        elif args.command == "models":
            data = {"models": [m.model_dump(mode="json") for m in catalog.models], "problems": catalog.problems}
            text = render_models(catalog.models) + "".join(f"\nnot loaded: {p}" for p in catalog.problems)
        elif args.command == "gpus":
            data = {"gpus": [g.model_dump(mode="json") for g in catalog.gpus]}
            text = render_gpus(catalog.gpus)
        else:
            gpu, note = catalog.gpu(args.gpu)
            data = gpu.model_dump(mode="json") | ({"note": note} if note else {})
            text = (note + "\n" if note else "") + render_spec(gpu)
    except UnknownItem as e:
        raise UsageError(str(e)) from None
    except ValidationError as e:
        raise UsageError(_explain(e)) from None
    except ValueError as e:
        raise UsageError(str(e)) from None
    except OSError as e:  # a path that is missing, a folder, unreadable or unwritable
        raise UsageError(f"{e.filename or ''}: {e.strerror or e}".lstrip(": ")) from None
    if getattr(args, "json", False):
        try:
            return 0, json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False)
        except ValueError:
            raise UsageError("a result is not a finite number (an input is out of range, e.g. --hours 1e308): "
                             "give values of a size a real job has") from None
    return 0, text


def main(argv: list[str] | None = None) -> int:
    """Console entry point."""
    try:
        code, out = run(argv)
    except UsageError as e:
        print(f"gpu-advisor: error: {e}", file=sys.stderr)
        return 2
    except SystemExit as e:  # argparse: --help (0) or a malformed flag (2), already printed
        return e.code if isinstance(e.code, int) else 2
    try:
        if out is not None:
            print(out)
    except BrokenPipeError:  # `gpu-advisor ... | head`: the reader left; not an error
        sys.stdout = open(os.devnull, "w")
    return code


if __name__ == "__main__":
    sys.exit(main())
