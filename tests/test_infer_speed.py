"""Inference speed: the roofline arithmetic."""
from __future__ import annotations

import pytest

from tools.infer_speed import InferenceSpeedRequest, estimate_inference_speed


def run(model, gpu, **kw):
    return estimate_inference_speed(InferenceSpeedRequest(model=model, gpu=gpu, **kw))


def test_batch_1_decode_is_memory_bound_weights_over_bandwidth(model, gpu):
    r = run(model("llama-3.1-8b"), gpu("h100"), context=1, output=1, engine="vllm")
    # 16.06 GB of bf16 weights (+ a negligible KV cache) read at 80% of 3,350 GB/s, + 32 layers x 0.02 ms, + the
    # engine's fixed 1.67 ms per step (scheduler, sampling; efficiency.STEP_OVERHEAD_S, fitted on published runs)
    expected = 2 * 8_030_261_248 / (3350e9 * 0.8) + 32 * 0.02e-3 + 1.67e-3
    assert r.decode_bound == "memory"
    assert r.decode_step_s == pytest.approx(expected, rel=0.01)


def test_ttft_is_prefill_flops_over_half_the_peak(model, gpu):
    r = run(model("llama-3.1-8b"), gpu("h100"), context=4096, output=1)
    # 2·N·s + 2·L·s²·q_dim FLOPs (causal attention) at 58% of 989.4 TFLOPS (efficiency.PREFILL_COMPUTE_EFFICIENCY,
    # fitted on the serving calibration's fit half), plus the serving engine's 23.3 ms per request before the first
    # token (efficiency.REQUEST_OVERHEAD_S: front end, tokenisation, admission; fitted on the same half)
    flops = 2 * 8_030_261_248 * 4096 + 2 * 32 * 4096**2 * 4096
    assert r.ttft_s == pytest.approx(flops / (989.4e12 * 0.58) + 0.0233, rel=0.01)


def test_batching_raises_total_throughput_until_compute_bound(model, gpu):
    small = run(model("llama-3.1-8b"), gpu("h100"), context=128, output=128, batch=1)
    big = run(model("llama-3.1-8b"), gpu("h100"), context=128, output=128, batch=64)
    assert big.decode_tokens_per_s_total > 20 * small.decode_tokens_per_s_total
    assert small.compute_bound_batch is not None and small.compute_bound_batch > 64


def test_tensor_parallel_splits_the_weights(model, gpu):
    one = run(model("llama-3.1-70b"), gpu("h200"), context=1, output=1)
    four = run(model("llama-3.1-70b"), gpu("h200"), num_gpus=4, context=1, output=1)
    assert four.layout["tp"] == 4
    assert 2.5 < one.decode_step_s / four.decode_step_s < 4


def test_max_batch_comes_from_the_memory_engine(model, gpu):
    r = run(model("llama-3.1-8b"), gpu("a100-80gb"), context=8192, output=1024)
    assert r.max_batch_that_fits and r.max_batch_that_fits > 1
