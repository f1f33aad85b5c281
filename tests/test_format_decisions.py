"""Issue 24, 'wrong decision': alternatives on the GPUs the user has are decided by what those GPUs hold; an FP8 KV
cache is offered when it changes the answer; formats named for the KV cache are the cache's; 'N such sequences at
the same time' is a load of N, held the way a serving engine holds it. Hand arithmetic in each test."""
from __future__ import annotations

import pytest

from assistant.readers import slots
from assistant.service import ask


def test_formats_on_a_stated_gpu_count_are_decided_by_the_load_they_hold():
    a = ask("FP8 or BF16 for serving Llama 3.3 70B on 2x H100 SXM? We want ~16 concurrent users with 16k contexts.")
    # 2 x 84.7 GB x 0.9 = 152 GB: BF16 weights 141 GB leave ~5 GB (1 sequence of 16k x 320 KiB = 5.4 GB); FP8 weights
    # 71 GB leave ~75 GB (13 sequences). FP8 holds more of the 16.
    assert "**FP8 wins**" in a.answer
    # an FP8 KV cache halves the 320 KiB per token: 16 x 16,384 x 160 KiB = 43 GB, within the ~75 GB FP8 leaves
    assert "--kv-cache-dtype fp8" in a.answer and "enough for your users" in a.answer


@pytest.mark.parametrize("text,n", [("could one h100 hold 4 such sequences at the same time?", 4),
                                    ("can it hold 4 concurrent 128k-token sequences?", 4),
                                    ("8 full-context sequences at once", 8)])
def test_sequences_held_at_once_are_a_load(text, n):
    assert slots.users(text)["concurrent_users"] == n


def test_a_single_sequence_count_without_at_once_is_not_a_load():
    assert "concurrent_users" not in slots.users("run 3 sequences through it")


def test_formats_named_for_the_kv_cache_set_the_cache_not_the_weights():
    a = ask("What is the KV cache size for Llama 3.1 8B at the full 128k context, per sequence, in BF16 and in FP8? "
            "Could one H100 80GB hold 4 such sequences at the same time?")
    # 2 x 32 layers x 8 KV heads x 128 x 2 B = 128 KiB per token; x 131,072 = 17.18 GB per sequence (8.59 GB in FP8).
    # vLLM's pool: 84.7 GB x 0.9 = 76.2 GB - 16.06 GB of BF16 weights = ~60 GB: 3 BF16 sequences (68.7 GB for 4 does not
    # fit), 4 FP8 ones (34.4 GB) do
    assert "17.18 GB" in a.answer and "8.59 GB" in a.answer
    assert "Only KV cache fp8 fits" in a.answer
    assert "weights in BF16" in a.answer or "in bf16" in a.answer


def test_a_kv_cache_format_beside_a_weight_format_is_not_an_alternative():
    a = ask("Serving Qwen2.5-32B AWQ on 2x L40S with TP=2, max-model-len 16k, gpu-memory-utilization 0.92, FP8 KV cache: "
            "how many concurrent 16k sequences?")
    assert not a.asks  # one job: AWQ weights with an FP8 cache
    # FP8 KV: 2 x 64 layers x 8 KV heads x 128 x 1 B = 128 KiB per token; 16,384 tokens = 2.15 GB per sequence.
    # vLLM's pool: 2 x 0.92 x ~48 GB = 88 GB - ~19 GB of AWQ weights - activations = ~60 GB: about 28 sequences
    assert 22 <= a.figures["max_sequences_at_context"] <= 34


def test_an_official_checkpoints_format_does_not_override_the_alternative_compared():
    a = ask("单台 8 卡 H20（96G）上部署 Qwen3-235B-A22B，纠结 BF16 还是官方 FP8 版本？主要看速度。")
    # BF16 weights 2 B x 235e9 = 470 GB, FP8 235 GB: each alternative is timed in its own format
    got = {x.request["precision"]: x.figures["precision"] for x in a.asks}
    assert got == {"bf16": "bf16", "fp8": "fp8"}
