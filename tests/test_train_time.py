"""Training time: the arithmetic of the planning issue, written out in each test."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tools.train_time import TrainingTimeRequest, estimate_training_time, model_flops_per_token


def run(model, gpu, **kw):
    return estimate_training_time(TrainingTimeRequest(model=model, gpu=gpu, **kw))


def test_6nd_on_a100_at_mfu_0_4_is_180000_gpu_hours(model, gpu):
    # 6 x 6.74e9 x 2e12 = 8.09e22 FLOPs / (312e12 x 0.4) / 3600 = 180,021 GPU-hours (seq 1: no attention term)
    r = run(model("llama-2-7b"), gpu("a100-80gb"), tokens=2e12, mfu=0.4, seq_len=1)
    assert r.gpu_hours == pytest.approx(6 * 6_738_415_616 * 2e12 / (312e12 * 0.4) / 3600, rel=1e-3)
    assert r.gpu_hours == pytest.approx(180_000, rel=0.01)


def test_attention_adds_s_over_6h_at_long_context(model):
    # Llama 2 7B at 4096 tokens: 2·2·s·q_dim·L/2 forward attention FLOPs = 6·N·(s/(6h))-ish share
    spec = model("llama-2-7b")
    base, long = model_flops_per_token(spec, 1, "full"), model_flops_per_token(spec, 4096, "full")
    assert long / base - 1 == pytest.approx(6 * 2 * 4096 * 4096 * 32 / 2 / (6 * 6_738_415_616), rel=0.01)


def test_lora_skips_frozen_weight_gradients(model, gpu):
    full = run(model("llama-3.1-8b"), gpu("h100"), tokens=1e9, seq_len=1, recompute="none")
    lora = run(model("llama-3.1-8b"), gpu("h100"), tokens=1e9, seq_len=1, method="lora", recompute="none")
    assert lora.total_flops / full.total_flops == pytest.approx(4 / 6, rel=1e-6)


def test_full_recomputation_runs_the_forward_twice(model, gpu):
    r = run(model("llama-3.1-8b"), gpu("h100"), tokens=1e9, seq_len=1, recompute="full")
    assert r.hardware_flops / r.total_flops == pytest.approx(8 / 6, rel=1e-4)  # seq 1: attention negligible


def test_qlora_pays_for_dequantization(model, gpu):
    lora = run(model("llama-3.1-70b"), gpu("a100-80gb"), tokens=1e8, method="lora")
    qlora = run(model("llama-3.1-70b"), gpu("a100-80gb"), tokens=1e8, method="qlora")
    assert qlora.wall_hours > lora.wall_hours and "qlora_dequantization" in qlora.overheads


def test_moe_uses_active_parameters(model, gpu):
    r = run(model("mixtral-8x7b"), gpu("h100"), tokens=1e9, seq_len=1)
    assert r.total_flops == pytest.approx(6 * 12.88e9 * 1e9, rel=0.01)


def test_pipeline_bubble(model, gpu):
    # p = 4 stages, m = 4e6 tokens / (dp 16 x 4096) = 61 micro-batches: (p-1)/(m+p-1) = 3/64
    r = run(model("llama-2-70b"), gpu("h100"), tokens=1e12, num_gpus=128, tp=2, pp=4, seq_len=4096)
    assert r.overheads["pipeline_bubble"] == pytest.approx(3 / 64, rel=1e-3)


def test_eight_pcie_cards_do_not_scale_like_an_nvswitch_node_when_fully_sharded(model, gpu):
    def speedup(g, **kw):
        one = run(model("llama-3.1-8b"), gpu(g), tokens=1e9).wall_hours
        return one / run(model("llama-3.1-8b"), gpu(g), tokens=1e9, num_gpus=8, **kw).wall_hours

    assert speedup("h100", zero=3) == pytest.approx(8, rel=1e-3)  # wall hours are rounded to 0.01
    assert speedup("l40s", zero=3) < 5  # ZeRO-3 gathers 16 GB of weights for every micro-batch over PCIe


def test_the_default_layout_is_the_lowest_zero_stage_that_fits(model, gpu):
    # Llama 3.1 8B full fine-tune on 8 x L40S (48 GB): ZeRO-1 keeps 2 + 2 B/param of weights and gradients on each GPU
    # (8.03e9 x 4 = 32 GB) plus 12/8 B of optimizer (12 GB): 44 GB + activations, over the 47.5 GB usable: no.
    # ZeRO-2 shards the gradients too: 16 + 2 + 12 = 30 GB: fits. Its traffic is one gradient all-reduce per step:
    # 2 x 7/8 x 16.06 GB / (25 GB/s PCIe Gen4 x link efficiency) ~ 1.5-2 s, hidden behind the ~12 s of compute of a
    # 262,144-token step (1.26e16 FLOP / (8 x 362 TFLOPS x MFU)), so eight cards run ~8x one.
    r = run(model("llama-3.1-8b"), gpu("l40s"), tokens=1e9, num_gpus=8)
    assert r.layout["zero"] == 2 and r.layout["dp"] == 8
    one = run(model("llama-3.1-8b"), gpu("l40s"), tokens=1e9).wall_hours
    assert one / r.wall_hours > 7
    assert "exposed_communication" not in r.overheads


def test_pretraining_steps_on_millions_of_tokens(model, gpu):
    # full training on 10B+ tokens is pre-training: ~2M tokens a step below 3B parameters (Pythia, TinyLlama), 4M above
    assert run(model("1b"), gpu("h100"), tokens=5e10, num_gpus=8).layout["global_batch_tokens"] == 2_097_152
    assert run(model("llama-3.1-8b"), gpu("h100"), tokens=1e11, num_gpus=64).layout["global_batch_tokens"] == 4_000_000
    assert run(model("llama-3.1-8b"), gpu("h100"), tokens=1e9, num_gpus=8).layout["global_batch_tokens"] == 262_144


def test_fp8_on_a100_falls_back_to_bf16_and_says_so(model, gpu):
    r = run(model("llama-3.1-8b"), gpu("a100-80gb"), tokens=1e9, precision="fp8")
    assert r.precision == "bf16" and r.peak_tflops == 312
    assert any("no FP8 tensor cores" in a for a in r.assumptions)


def test_fp8_on_h100_uses_the_fp8_peak_at_a_lower_mfu(model, gpu):
    bf16 = run(model("llama-3.1-8b"), gpu("h100"), tokens=1e9)
    fp8 = run(model("llama-3.1-8b"), gpu("h100"), tokens=1e9, precision="fp8")
    # 2x the peak at 0.75x the MFU: 1.5x faster
    assert bf16.wall_hours / fp8.wall_hours == pytest.approx(2 * 0.75, rel=0.01)


def test_band_brackets_the_point(model, gpu):
    r = run(model("llama-3.1-70b"), gpu("h200"), tokens=1e11, num_gpus=64)
    assert r.gpu_hours_range[0] <= r.gpu_hours <= r.gpu_hours_range[1]


@pytest.mark.parametrize("kw", [{"tokens": -5}, {"tokens": 0}, {"mfu": 1.7}, {"mfu": 0}, {"num_gpus": 0}])
def test_bad_numbers_are_refused(model, gpu, kw):
    base = {"tokens": 1e9} | kw
    with pytest.raises(ValidationError):
        TrainingTimeRequest(model=model("llama-3.1-8b"), gpu=gpu("h100"), **base)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 512), st.floats(1e8, 1e13))
def test_doubling_tokens_doubles_time_and_gpus_never_add_gpu_hours_on_nvlink(n, tokens):
    from knowledge.catalog import default_catalog

    c = default_catalog()
    m, g = c.model("llama-3.1-8b")[0], c.gpu("h100")[0]
    a = estimate_training_time(TrainingTimeRequest(model=m, gpu=g, num_gpus=n, tokens=tokens, global_batch_tokens=4_000_000))
    b = estimate_training_time(TrainingTimeRequest(model=m, gpu=g, num_gpus=n, tokens=2 * tokens, global_batch_tokens=4_000_000))
    assert b.wall_hours == pytest.approx(2 * a.wall_hours, rel=1e-3, abs=0.02)
    more = estimate_training_time(TrainingTimeRequest(model=m, gpu=g, num_gpus=2 * n, tokens=tokens, global_batch_tokens=4_000_000))
    assert more.gpu_hours <= a.gpu_hours * (1 + 1e-6) + 0.1
