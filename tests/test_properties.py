"""Properties every estimate must keep, whatever the model and settings (hypothesis)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knowledge.catalog import default_catalog
from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory
from tools.train_memory import TrainingMemoryRequest, estimate_training_memory
from tools.units import gb_to_gib, gib_to_gb

CAT = default_catalog()
models = st.sampled_from(CAT.models)
gpus = st.sampled_from(CAT.gpus)
seq = st.integers(min_value=1, max_value=65536)
mb = st.integers(min_value=1, max_value=8)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def train(**kw):
    return estimate_training_memory(TrainingMemoryRequest(**kw))


@FAST
@given(models, st.sampled_from(["full", "lora", "qlora"]), seq, mb, st.integers(1, 64))
def test_every_term_is_non_negative_and_sums_to_the_total(m, method, s, b, n):
    r = train(model=m, method=method, seq_len=s, micro_batch=b, num_gpus=n)
    assert all(t.bytes >= 0 for t in r.terms)
    assert abs(sum(r.breakdown_gb.values()) - r.per_gpu_gb) < 1e-6
    assert r.range_gb[0] <= r.per_gpu_gb <= r.range_gb[1]


@FAST
@given(models, seq, mb)
def test_qlora_needs_less_than_lora_which_needs_less_than_full(m, s, b):
    q, lo, f = (train(model=m, method=x, seq_len=s, micro_batch=b).per_gpu_gb for x in ("qlora", "lora", "full"))
    assert q < lo < f


@FAST
@given(models, st.sampled_from(["full", "lora", "qlora"]), st.integers(2, 63))
def test_zero3_memory_per_gpu_falls_as_gpus_are_added(m, method, n):
    # From 2 GPUs up. Going from 1 to 2 adds NCCL and gather buffers (~1.5 GB) that a small model's
    # halved states may not repay (Qwen2.5-0.5B LoRA); min_gpus searches small counts one by one for that.
    a = train(model=m, method=method, num_gpus=n, zero=3).per_gpu_gb
    b = train(model=m, method=method, num_gpus=n + 1, zero=3).per_gpu_gb
    assert b <= a + 1e-9


@FAST
@given(models, st.sampled_from(["full", "lora", "qlora"]), seq, st.integers(1, 8192), mb,
       st.sampled_from(["none", "selective", "full"]))
def test_longer_sequences_never_need_less(m, method, s, extra, b, rc):
    a = train(model=m, method=method, seq_len=s, micro_batch=b, recompute=rc).per_gpu_gb
    c = train(model=m, method=method, seq_len=s + extra, micro_batch=b, recompute=rc).per_gpu_gb
    assert c >= a


@settings(max_examples=25, deadline=None)
@given(models, gpus, st.sampled_from(["full", "lora", "qlora"]))
def test_min_gpus_is_the_least_count_that_fits(m, g, method):
    r = train(model=m, gpu=g, method=method)
    if r.min_gpus is None:
        return
    assert train(model=m, gpu=g, method=method, num_gpus=r.min_gpus).fits is True
    if r.min_gpus > 1:
        assert train(model=m, gpu=g, method=method, num_gpus=r.min_gpus - 1).fits is False


@FAST
@given(models, st.integers(1, 131072), st.integers(1, 65536), st.integers(1, 64))
def test_inference_memory_grows_with_context_and_batch(m, ctx, extra, batch):
    a = estimate_inference_memory(InferenceMemoryRequest(model=m, context=ctx, batch=batch)).per_gpu_gb
    b = estimate_inference_memory(InferenceMemoryRequest(model=m, context=ctx + extra, batch=batch)).per_gpu_gb
    c = estimate_inference_memory(InferenceMemoryRequest(model=m, context=ctx, batch=batch + 1)).per_gpu_gb
    assert a <= b and a <= c


@given(st.floats(min_value=0, max_value=1e6, allow_nan=False))
def test_gb_gib_round_trip(x):
    assert abs(gib_to_gb(gb_to_gib(x)) - x) <= 1e-9 * max(1.0, x)
