"""Inference memory: weights, KV cache, multi-GPU layouts, vLLM's pool, and the limits that fit."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory, kv_cache_bytes_per_token


def size(model, gpu=None, **kw):
    return estimate_inference_memory(InferenceMemoryRequest(model=model, gpu=gpu, **kw))


def test_llama_3_1_70b_bf16_weights_are_141_gb(model):
    # 70,553,706,496 parameters x 2 B
    assert size(model("llama-3.1-70b"), context=1).breakdown_gb["weights"] == pytest.approx(141.107, abs=1e-3)


def test_llama_3_1_70b_kv_cache_is_327680_bytes_per_token(model):
    # 2 (K, V) x 80 layers x 8 KV heads x 128 head dim x 2 B
    assert kv_cache_bytes_per_token(model("llama-3.1-70b"), "bf16") == 2 * 80 * 8 * 128 * 2 == 327_680


def test_mla_caches_the_compressed_latent(model):
    # DeepSeek-V3: 61 layers x (kv_lora_rank 512 + rope dim 64) x 2 B
    assert kv_cache_bytes_per_token(model("deepseek-v3"), "bf16") == 61 * 576 * 2


def test_fp8_kv_cache_halves_it(model):
    assert kv_cache_bytes_per_token(model("qwen2.5-7b"), "fp8") * 2 == kv_cache_bytes_per_token(model("qwen2.5-7b"), "bf16")


def test_int4_keeps_group_scales_and_16bit_embeddings(model):
    r = size(model("llama-3.1-8b"), precision="int4", context=1)
    linear = 8_030_261_248 - 2 * 128256 * 4096 - (32 * 2 * 4096 + 4096)
    # 0.5 B per layer weight + (2 B scale + 0.5 B zero) per 128 weights; the rest in bf16
    assert r.breakdown_gb["weights"] == pytest.approx((linear * 0.5 + (8_030_261_248 - linear) * 2) / 1e9, abs=1e-3)
    assert r.breakdown_gb["quant_constants"] == pytest.approx(linear * 2.5 / 128 / 1e9, abs=1e-3)


def test_moe_weights_are_all_resident(model):
    # Mixtral 8x7B serves 46.7e9 parameters of weights though a token uses 12.9e9
    assert size(model("mixtral-8x7b"), context=1).breakdown_gb["weights"] == pytest.approx(2 * 46_702_792_704 / 1e9, abs=1e-3)


def test_tensor_parallel_splits_weights_and_kv_heads(model, gpu):
    r = size(model("llama-3.1-70b"), gpu("h100"), num_gpus=4, context=8192)
    assert r.layout["split"] == "tp"
    assert r.breakdown_gb["weights"] == pytest.approx(141.107 / 4, abs=1e-3)
    assert r.kv_cache_gb == pytest.approx(327_680 / 4 * 8192 / 1e9, abs=1e-4)


def test_three_gpus_for_64_heads_split_layers(model, gpu):
    r = size(model("llama-3.1-70b"), gpu("a100-80gb"), num_gpus=3, context=8192)
    assert r.layout["split"] == "layers"
    # busiest GPU: ceil(80 / 3) = 27 of the 80 layers' parameters (everything but the two embedding
    # matrices) + one embedding matrix (the first GPU holds the input one, the last the LM head), x 2 B
    embed = 128256 * 8192
    assert r.breakdown_gb["weights"] == pytest.approx((27 * (70_553_706_496 - 2 * embed) / 80 + embed) * 2 / 1e9, abs=1e-3)
    assert "split over 3 GPUs" in " ".join(r.assumptions)


def test_70b_bf16_needs_two_80gb_gpus(model, gpu):
    r = size(model("llama-3.1-70b"), gpu("a100-80gb"), context=4096)
    assert r.fits is False and r.min_gpus == 2


def test_max_context_is_the_longest_that_fits(model, gpu):
    m, g = model("qwen2.5-7b"), gpu("l4")
    limit = size(m, g).max_context
    assert size(m, g, context=limit).fits is True
    assert size(m, g, context=limit + 1).fits is False


def test_max_batch_is_the_most_sequences_that_fit(model, gpu):
    m, g = model("llama-3.1-8b"), gpu("a100-80gb")
    most = size(m, g, context=8192).max_batch
    assert size(m, g, context=8192, batch=most).fits is True
    assert size(m, g, context=8192, batch=most + 1).fits is False


def test_vllm_preallocates_and_reports_kv_tokens(model, gpu):
    g = gpu("h100")
    r = size(model("llama-3.1-8b"), g, engine="vllm", context=8192)
    usable = g.memory_bytes - 768 * 2**20
    assert r.per_gpu_gb == pytest.approx(0.9 * usable / 1e9, abs=1e-3)
    # the pool left after weights, activations and overheads, in 131,072-byte tokens (32 x 8 x 128 x 2 x 2)
    assert r.vllm_kv_cache_tokens == pytest.approx(r.breakdown_gb["kv_cache"] * 1e9 / 131_072, abs=2)
    assert r.max_batch == r.vllm_kv_cache_tokens // 8192


def test_vllm_70b_does_not_fit_one_h100(model, gpu):
    assert size(model("llama-3.1-70b"), gpu("h100"), engine="vllm").fits is False


def test_prompt_longer_than_context_is_refused(model):
    with pytest.raises(ValidationError, match="exceeds --context"):
        InferenceMemoryRequest(model=model("llama-3.1-8b"), context=100, prompt_len=200)


def test_tp_that_does_not_divide_heads_is_refused(model):
    with pytest.raises(ValidationError, match="divides the 64 heads"):
        InferenceMemoryRequest(model=model("llama-3.1-70b"), num_gpus=3, split="tp")


def test_fp8_on_a100_says_it_has_no_fp8_tensor_cores(model, gpu):
    r = size(model("llama-3.1-8b"), gpu("a100-80gb"), precision="fp8")
    assert any("no FP8 tensor cores" in a for a in r.assumptions)
    assert not any("no FP8" in a for a in size(model("llama-3.1-8b"), gpu("h100"), precision="fp8").assumptions)
