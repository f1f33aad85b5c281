"""KV cache by attention kind, each against a hand formula: GQA, MLA, sliding window, chunked, hybrid."""
from __future__ import annotations

import pytest

from tools.infer_memory import (InferenceMemoryRequest, estimate_inference_memory, kv_cache_bytes,
                                kv_cache_bytes_per_token, linear_state_bytes)


def test_gqa_llama_70b(model):
    # 2 (K, V) x 80 layers x 8 KV heads x 128 head dim x 2 B = 327,680 B per token
    spec = model("llama-3.1-70b")
    assert kv_cache_bytes_per_token(spec, "bf16") == 327_680
    assert kv_cache_bytes(spec, "bf16", 4096) == 327_680 * 4096


def test_mla_deepseek_v3_caches_the_latent(model):
    # 61 layers x (kv_lora_rank 512 + rope dim 64) x 2 B = 70,272 B per token
    assert kv_cache_bytes_per_token(model("deepseek-v3"), "bf16") == 70_272


def test_sliding_window_gemma_3_27b(model):
    # 62 layers: 52 local (window 1024), 10 global; per layer 2 x 16 KV heads x 128 x 2 B = 8,192 B/token
    spec = model("gemma-3-27b")
    assert kv_cache_bytes_per_token(spec, "bf16") == 10 * 8_192  # only the global layers grow with the context
    assert kv_cache_bytes(spec, "bf16", 131_072) == 10 * 8_192 * 131_072 + 52 * 8_192 * 1_024  # 11.17 GB
    assert kv_cache_bytes(spec, "bf16", 512) == 62 * 8_192 * 512  # below the window every layer holds it all


def test_alternating_sliding_window_gpt_oss_120b(model):
    # 36 layers alternate sliding (128 tokens) and full; per layer 2 x 8 KV heads x 64 x 2 B = 2,048 B/token
    spec = model("gpt-oss-120b")
    assert kv_cache_bytes(spec, "bf16", 65_536) == 18 * 2_048 * 65_536 + 18 * 2_048 * 128


def test_chunked_attention_llama_4_scout(model):
    # 48 layers: 36 chunked (8,192-token chunks, at most one chunk cached), 12 global NoPE;
    # per layer 2 x 8 KV heads x 128 x 2 B = 4,096 B/token
    spec = model("llama-4-scout-17b-16e")
    assert kv_cache_bytes(spec, "bf16", 1_000_000) == 12 * 4_096 * 1_000_000 + 36 * 4_096 * 8_192


def test_hybrid_linear_attention_qwen3_next(model):
    # 48 layers: 12 full attention (2 KV heads x 256 dim: 2 x 2 x 256 x 2 B = 2,048 B/token/layer), 36 Gated
    # DeltaNet layers holding a fixed state: 32 value heads x 128 x 128 + conv (2 x 16 x 128 + 32 x 128 = 8,192
    # channels) x (kernel 4 - 1) = 548,864 values x 2 B = 1,097,728 B per layer
    spec = model("qwen3-next-80b-a3b")
    assert kv_cache_bytes_per_token(spec, "bf16") == 12 * 2_048
    assert linear_state_bytes(spec, "bf16") == 36 * 1_097_728
    assert kv_cache_bytes(spec, "bf16", 262_144) == 12 * 2_048 * 262_144 + 36 * 1_097_728  # 6.48 GB, not 25.8


def test_sliding_window_raises_the_longest_context_that_fits(model, gpu):
    # Gemma 3 27B on one H200: counting every layer at full context would cap it far lower
    r = estimate_inference_memory(InferenceMemoryRequest(model=model("gemma-3-27b"), gpu=gpu("h200"),
                                                         context=131_072, prompt_len=4096))
    assert r.fits is True and r.kv_cache_gb == pytest.approx((10 * 8_192 * 131_072 + 52 * 8_192 * 1_024) / 1e9, rel=1e-3)
