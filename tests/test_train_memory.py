"""Training memory: the reference figures of the sizing-engine issue, arithmetic in each test."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from tools.train_memory import TrainingMemoryRequest, estimate_training_memory

N70 = 70_553_706_496          # Llama 3.1 70B parameters
EMBED70 = 128256 * 8192        # one embedding matrix
NORMS70 = 80 * 2 * 8192 + 8192
LINEAR70 = N70 - 2 * EMBED70 - NORMS70   # 68,451,041,280 weights inside the layers


def size(model, gpu=None, **kw):
    return estimate_training_memory(TrainingMemoryRequest(model=model, gpu=gpu, **kw))


def test_qlora_70b_fits_one_a100_80gb_at_40_to_50_gb(model, gpu):
    r = size(model("llama-3.1-70b"), gpu("a100-80gb"), method="qlora")
    # NF4: 0.5 B per layer weight; embeddings, LM head, norms stay bf16
    assert r.breakdown_gb["weights"] == pytest.approx((LINEAR70 * 0.5 + (N70 - LINEAR70) * 2) / 1e9, abs=1e-3)
    # double quantization: an 8-bit absmax per 64 weights + an fp32 constant per 256 blocks
    assert r.breakdown_gb["quant_constants"] == pytest.approx(LINEAR70 * (1 / 64 + 4 / (64 * 256)) / 1e9, abs=1e-3)
    assert r.fits is True and r.min_gpus == 1
    assert 40 <= r.per_gpu_gb <= 50


def test_qlora_70b_adapters_rank_16_on_all_linear_layers(model):
    # per layer r x (in + out): q 16x(8192+8192), k,v 16x(8192+1024), o 16x(8192+8192),
    # gate, up, down 16x(8192+28672) -> 2,588,672 per layer, x 80 layers
    r = size(model("llama-3.1-70b"), method="qlora")
    assert r.trainable_params == 80 * 2_588_672


def test_lora_16bit_70b_does_not_fit_one_a100_80gb(model, gpu):
    r = size(model("llama-3.1-70b"), gpu("a100-80gb"), method="lora")
    # bf16 base alone: 2 B x 70.55e9 = 141.1 GB > the 85.1 GB an A100 80GB can hold
    assert r.breakdown_gb["weights"] == pytest.approx(2 * N70 / 1e9, abs=1e-3)
    assert r.fits is False
    assert r.min_gpus >= 2


def test_full_70b_mixed_adamw_is_16_bytes_per_parameter_of_states(model):
    r = size(model("llama-3.1-70b"), method="full")
    states = sum(r.breakdown_gb[k] for k in ("weights", "gradients", "master_weights", "optimizer_states"))
    # bf16 weight 2 + bf16 gradient 2 + fp32 master 4 + fp32 Adam m and v 8 = 16 B
    assert states == pytest.approx(16 * N70 / 1e9, rel=1e-4)


def test_fp32_main_gradients_make_it_18_bytes_per_parameter(model):
    r = size(model("llama-3.1-70b"), method="full", grad_dtype="fp32")
    states = sum(r.breakdown_gb[k] for k in ("weights", "gradients", "master_weights", "optimizer_states"))
    assert states == pytest.approx(18 * N70 / 1e9, rel=1e-4)


def test_full_70b_on_8_a100_zero3_does_not_fit_and_needs_14_to_20(model, gpu):
    r = size(model("70b"), gpu("a100-80gb"), method="full", num_gpus=8, zero=3)
    # states 16 B x 70e9 / 8 ranks = 140 GB per GPU > 85.1 GB
    assert r.breakdown_gb["optimizer_states"] + r.breakdown_gb["master_weights"] == pytest.approx(12 * 70e9 / 8 / 1e9, rel=1e-4)
    assert r.fits is False
    assert 14 <= r.min_gpus <= 20   # 1120 GB of states / 14 = 80 GB: at least 14 before activations


def test_full_70b_with_optimizer_offload_fits_8_a100_and_needs_about_1_tb_of_host_ram(model, gpu):
    r = size(model("70b"), gpu("a100-80gb"), method="full", num_gpus=8, zero=3, offload="optimizer")
    assert r.fits is True
    # host: fp32 master 4 + Adam 8 + bf16 gradient partition 2 = 14 B x 70e9 = 980 GB,
    # plus each rank's fp32 sub-group for CPU Adam: 8 x 4 B x 1e9 = 32 GB
    assert r.host_ram_gb == pytest.approx(980 + 32, rel=1e-3)
    assert 850 <= r.host_ram_gb <= 1100
    assert "host RAM" in " ".join(r.assumptions)


def test_states_shard_over_data_parallel_ranks_not_gpus(model):
    # 8 GPUs as tp 2 x pp 2 x dp 2, ZeRO-1: Adam states 8 B x N / (tp x pp) / dp
    r = size(model("llama-3.1-70b"), method="full", num_gpus=8, tp=2, pp=2, zero=1)
    assert r.layout["dp"] == 2
    assert r.breakdown_gb["optimizer_states"] == pytest.approx(8 * N70 / 4 / 2 / 1e9, rel=1e-4)
    assert r.breakdown_gb["weights"] == pytest.approx(2 * N70 / 4 / 1e9, rel=1e-4)   # not sharded below ZeRO-3


def test_breakdown_sums_to_per_gpu(model, gpu):
    r = size(model("qwen2.5-7b"), gpu("h100"), method="full", num_gpus=4)
    assert sum(r.breakdown_gb.values()) == pytest.approx(r.per_gpu_gb, abs=1e-6)
    assert r.range_gb[0] <= r.per_gpu_gb <= r.range_gb[1]


def test_defaults_are_stated_in_the_assumptions(model, gpu):
    text = " ".join(size(model("llama-3.1-8b"), gpu("a100-80gb"), method="lora", num_gpus=2).assumptions)
    for default in ("sequence length 2048", "micro-batch 1", "recomputation: full", "ZeRO stage 3", "LoRA rank 16"):
        assert default in text


def test_selective_recompute_keeps_more_than_full(model):
    full = size(model("llama-3.1-8b"), method="full", recompute="full")
    sel = size(model("llama-3.1-8b"), method="full", recompute="selective")
    # selective keeps every layer's tensors (about 168 KB per token per layer for this shape), full only 8 KB
    assert sel.breakdown_gb["activations"] > 5 * full.breakdown_gb["activations"]


def test_eager_attention_without_recompute_stores_the_scores(model):
    flash = size(model("llama-3.1-8b"), method="full", recompute="none", seq_len=8192)
    eager = size(model("llama-3.1-8b"), method="full", recompute="none", seq_len=8192, flash_attention=False)
    # + 2 B x 32 heads x 8192 x 8192 per layer x 32 layers (softmax output, no dropout), ~137 GB
    extra = eager.breakdown_gb["activations"] - flash.breakdown_gb["activations"]
    assert extra == pytest.approx(32 * (2 * 32 * 8192 * 8192 - 4 * 32 * 8192) / 1e9, rel=1e-3)


def test_paged_8bit_states_move_to_host_when_the_gpu_is_full(model, gpu):
    r = size(model("llama-3.1-8b"), gpu("rtx-4090"), method="full", precision="bf16", optimizer="paged-adamw-8bit",
             optimizer_in_backward=True, micro_batch=2)
    # 8-bit Adam: 2 x (1 B + 4 B per 2048-value block) per parameter = 16.1 GB, more than fits beside 16 GB of weights
    assert "optimizer_states" not in r.breakdown_gb
    assert r.host_breakdown_gb["optimizer_states"] == pytest.approx(2 * (1 + 4 / 2048) * 8_030_261_248 / 1e9, rel=1e-4)
    assert r.fits is True


@pytest.mark.parametrize("kw,message", [
    ({"tp": 3}, "must divide the 64 attention heads"),
    ({"num_gpus": 6, "tp": 4}, "multiple of tp x pp"),
    ({"offload": "all", "zero": 2}, "needs ZeRO-3"),
    ({"method": "lora", "lora_targets": ["qkv"]}, "not in llama-3.1-70b"),
    ({"pp": 81}, "exceeds the 80 layers"),
])
def test_impossible_layouts_are_refused_with_what_is_allowed(model, kw, message):
    with pytest.raises(ValidationError, match=message):
        TrainingMemoryRequest(model=model("llama-3.1-70b"), **kw)


@pytest.mark.parametrize("field,value", [("num_gpus", 0), ("seq_len", 0), ("micro_batch", -1), ("lora_rank", 0)])
def test_non_positive_numbers_are_refused(model, field, value):
    with pytest.raises(ValidationError):
        TrainingMemoryRequest(model=model("llama-3.1-8b"), **{field: value})


def test_adafactor_factors_the_second_moment(model):
    r = size(model("llama-3.1-8b"), method="full", optimizer="adafactor")
    # rows + columns per layer: q 4096+4096, k and v 4096+1024, o 4096+4096, gate/up/down 4096+14336 each
    per_layer = 8192 + 5120 + 5120 + 8192 + 3 * 18432
    vectors = 32 * per_layer + 2 * (128256 + 4096)   # + embedding and LM head
    assert r.breakdown_gb["optimizer_states"] == pytest.approx(4 * vectors / 1e9, abs=1e-4)


def test_zero3_gathers_one_unit_or_deepspeeds_live_cap_not_two_embeddings(model, gpu):
    # Qwen2.5-72B LoRA over 10 RTX 4090s with ZeRO-3: the largest unit is the 152,064 x 8,192 = 1.2457e9-parameter
    # embedding, more than DeepSpeed's stage3_max_live_parameters (1e9): gathered whole in bf16 = 2.49 GB (not two
    # of them, 4.98 GB). With it, 10 cards hold the job, as DeepSpeed's and FSDP's default buckets allow.
    r = estimate_training_memory(TrainingMemoryRequest(model=model("qwen2.5-72b"), gpu=gpu("rtx-4090"), num_gpus=10,
                                                       method="lora"))
    assert r.breakdown_gb["zero3_gather_buffers"] == pytest.approx(152064 * 8192 * 2 / 1e9, rel=0.01)
    assert r.fits and r.min_gpus == 10


@pytest.mark.parametrize("question", ["Can I QLoRA fine-tune Llama 3.1 70B on two RTX 3090s?", "两张4090能用QLoRA微调Qwen2.5-72B吗"])
def test_qlora_of_a_70b_on_two_24gb_cards_names_the_cpu_offload_route(question):
    # Anchor: modelscope/ms-swift examples/pytorch/llm/scripts/llama2_70b_chat/qlora_fsdp/sft.sh ("2 GPU * 24G":
    # Llama 2 70B QLoRA, FSDP with CPU offload, max_length 2048); Answer.AI's fsdp_qlora (--use_cpu_offload).
    from assistant.service import ask

    a = ask(question)
    assert a.figures["qlora_offload_per_gpu_gb"] < 24 and a.figures["qlora_offload_host_ram_gb"] > 30
    assert "fsdp_qlora" in a.answer and ("PCIe" in a.answer)
