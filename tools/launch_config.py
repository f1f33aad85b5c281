"""Launch configuration for a sized training job, to paste: a DeepSpeed config (JSON), an `accelerate launch` line
and a `torchrun` line, carrying the layout the memory estimate assumed (ZeRO stage, offload, micro-batch,
precision, recomputation).

Pure: a TrainingLayout in, a TrainLaunch out. The keys are DeepSpeed's documented config keys
(https://www.deepspeed.ai/docs/config-json/: train_micro_batch_size_per_gpu, gradient_accumulation_steps,
bf16.enabled, zero_optimization.stage / offload_optimizer / offload_param, gradient_clipping) and the flags are
`accelerate launch`'s (--num_processes, --num_machines, --mixed_precision, --use_deepspeed, --zero_stage,
--offload_optimizer_device, --offload_param_device, --gradient_accumulation_steps, --zero3_init_flag) and
torchrun's (--nnodes, --nproc_per_node). `train.py` stands for the user's script (a Hugging Face Trainer script
takes the DeepSpeed file with --deepspeed).
"""
from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, Field


class TrainingLayout(BaseModel):
    """What the memory estimate assumed, as the launchers need it."""

    num_gpus: int = Field(ge=1, le=100_000)
    gpus_per_node: int = Field(8, ge=1, le=64)
    zero: int = Field(ge=0, le=3)
    offload: Literal["none", "optimizer", "all"] = "none"
    micro_batch: int = Field(1, ge=1, le=4096)
    grad_accum: int = Field(1, ge=1, le=100_000)
    precision: Literal["mixed", "bf16", "fp32"] = "mixed"
    recompute: Literal["full", "selective", "none"] = "full"
    method: Literal["full", "lora", "qlora", "pretrain"] = "full"


class TrainLaunch(BaseModel):
    deepspeed_config: dict | None = Field(description="ds_config.json; None when one GPU runs without ZeRO or offload")
    accelerate: str
    torchrun: str
    notes: list[str]


def training_launch(layout: TrainingLayout) -> TrainLaunch:
    """The three launch forms for `layout`; notes say what the user still sets in the script."""
    n, per_node = layout.num_gpus, min(layout.gpus_per_node, layout.num_gpus)
    nodes = -(-n // per_node)
    bf16 = layout.precision in ("mixed", "bf16")
    use_ds = layout.zero > 0 or layout.offload != "none"
    ds = None
    if use_ds:
        zero: dict = {"stage": layout.zero, "overlap_comm": True, "contiguous_gradients": True}
        if layout.offload in ("optimizer", "all"):
            zero["offload_optimizer"] = {"device": "cpu", "pin_memory": True}
        if layout.offload == "all":
            zero["offload_param"] = {"device": "cpu", "pin_memory": True}
        if layout.zero == 3:
            zero["stage3_gather_16bit_weights_on_model_save"] = True
        ds = {"train_micro_batch_size_per_gpu": layout.micro_batch,
              "gradient_accumulation_steps": layout.grad_accum,
              "train_batch_size": layout.micro_batch * layout.grad_accum * n,
              "bf16": {"enabled": bf16},
              "zero_optimization": zero,
              "gradient_clipping": 1.0}
    acc = ["accelerate", "launch", "--num_processes", str(n), "--num_machines", str(nodes),
           "--mixed_precision", "bf16" if bf16 else "no"]
    if use_ds:
        acc += ["--use_deepspeed", "--zero_stage", str(layout.zero), "--gradient_accumulation_steps", str(layout.grad_accum)]
        if layout.offload in ("optimizer", "all"):
            acc += ["--offload_optimizer_device", "cpu"]
        if layout.offload == "all":
            acc += ["--offload_param_device", "cpu"]
        if layout.zero == 3:
            acc += ["--zero3_init_flag", "true"]
    elif n > 1:
        acc += ["--multi_gpu"]
    if nodes > 1:
        acc += ["--machine_rank", "$NODE_RANK", "--main_process_ip", "$MASTER_ADDR", "--main_process_port", "29500"]
    acc += ["train.py"]
    tr = ["torchrun", "--nnodes", str(nodes), "--nproc_per_node", str(per_node)]
    if nodes > 1:
        tr += ["--node_rank", "$NODE_RANK", "--master_addr", "$MASTER_ADDR", "--master_port", "29500"]
    tr += ["train.py"] + (["--deepspeed", "ds_config.json"] if use_ds else [])
    notes = [f"train.py is your training script; per-device batch {layout.micro_batch}, gradient accumulation "
             f"{layout.grad_accum}, as sized"]
    if layout.recompute != "none":
        notes.append(f"activation recomputation '{layout.recompute}' was assumed: turn on gradient checkpointing in the "
                     "script (Trainer: --gradient_checkpointing; PyTorch: torch.utils.checkpoint)")
    if layout.method == "qlora":
        notes.append("QLoRA: load the base model with bitsandbytes 4-bit NF4 (BitsAndBytesConfig(load_in_4bit=True, "
                     "bnb_4bit_quant_type='nf4', bnb_4bit_use_double_quant=True)) and a PEFT LoraConfig")
    elif layout.method == "lora":
        notes.append("LoRA: wrap the bf16 model with a PEFT LoraConfig (target_modules='all-linear' as sized)")
    if nodes > 1:
        notes.append(f"{nodes} machines x {per_node} GPUs: run the same line on each with its NODE_RANK (0..{nodes - 1}) "
                     "and the first machine's address as MASTER_ADDR")
    return TrainLaunch(deepspeed_config=ds, accelerate=" ".join(acc), torchrun=" ".join(tr), notes=notes)


def deepspeed_json(launch: TrainLaunch) -> str:
    """The DeepSpeed config as the file's text (empty when the job needs none)."""
    return json.dumps(launch.deepspeed_config, indent=2) if launch.deepspeed_config else ""
