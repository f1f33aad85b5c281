"""Launch configurations to paste: they carry the layout the memory estimate assumed."""
from __future__ import annotations

import json

from tools.launch_config import TrainingLayout, deepspeed_json, training_launch
from ui.web.views import launch_text


def test_zero3_with_optimizer_offload_on_two_nodes():
    # 16 GPUs at 8 per node = 2 machines; micro-batch 2 x accumulation 4 x 16 GPUs = 128 sequences per step
    launch = training_launch(TrainingLayout(num_gpus=16, zero=3, offload="optimizer", micro_batch=2, grad_accum=4))
    ds = json.loads(deepspeed_json(launch))
    assert ds["train_batch_size"] == 128 and ds["train_micro_batch_size_per_gpu"] == 2
    assert ds["zero_optimization"]["stage"] == 3
    assert ds["zero_optimization"]["offload_optimizer"]["device"] == "cpu" and "offload_param" not in ds["zero_optimization"]
    assert ds["bf16"]["enabled"] is True
    assert "--num_processes 16 --num_machines 2" in launch.accelerate and "--zero_stage 3" in launch.accelerate
    assert "--offload_optimizer_device cpu" in launch.accelerate and "--offload_param_device" not in launch.accelerate
    assert launch.torchrun.startswith("torchrun --nnodes 2 --nproc_per_node 8 --node_rank $NODE_RANK")
    assert launch.torchrun.endswith("--deepspeed ds_config.json")


def test_one_gpu_without_zero_needs_no_deepspeed_file():
    launch = training_launch(TrainingLayout(num_gpus=1, zero=0, method="qlora"))
    assert launch.deepspeed_config is None and deepspeed_json(launch) == ""
    assert "--use_deepspeed" not in launch.accelerate and "--deepspeed" not in launch.torchrun
    assert any("nf4" in n for n in launch.notes)                     # what the script must do for QLoRA


def test_the_chat_answer_exports_the_layout_it_sized():
    from assistant.service import ask

    a = ask("How many H100s for a full fine-tune of Llama 3.1 70B?")
    text = launch_text(a.tool_calls, a.verdict)
    # the fitting option the answer computed: full fine-tune on 8 GPUs with the optimizer on the CPU (ZeRO-3)
    assert "full · 8× h100 · offload optimizer" in text
    assert '"stage": 3' in text and "--offload_optimizer_device cpu" in text and "--num_processes 8" in text
    serve = ask("how many H100 for 100 users of a 70B model at 8k context")
    assert "vllm serve" in launch_text(serve.tool_calls, serve.verdict)
