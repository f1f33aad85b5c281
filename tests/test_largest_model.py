"""The largest model that fits: the bisection itself, and answers to 'how big a model can I run / train'."""
from __future__ import annotations

from assistant.service import ask
from tools.largest_model import largest_fitting


def test_bisection_finds_the_edge_of_a_monotone_test_to_one_percent():
    edge = 13.7e9
    found = largest_fitting(lambda n: n <= edge)
    assert edge / 1.01 <= found <= edge


def test_nothing_fits_and_everything_fits_are_reported_as_such():
    assert largest_fitting(lambda n: False) is None
    assert largest_fitting(lambda n: True, high=1e12) == 1e12


def test_biggest_bf16_model_on_one_rtx_4090():
    # 24,564 MiB reported - 768 MiB reserved = 24.95 GB usable. bf16 weights take 2 B/param; the rest at 4k
    # tokens (KV ~0.5 GB for an 11B Llama-3-shaped model, prefill workspace, CUDA context and cuBLAS ~0.6 GB,
    # allocator gap) is ~1.5-2.5 GB, so 2 x n <= ~22.5-23.5 GB: n ~ 11-12B.
    a = ask("what's the biggest model I can run on one RTX 4090 in bf16?")
    assert a.intent == "inference_memory" and a.status == "answered" and a.request["largest_model"] is True
    assert 10.5 <= a.figures["largest_bf16_params_b"] <= 12.5


def test_biggest_full_fine_tune_on_8_a100_80gb():
    # Full fine-tune: 16 B/param of model states sharded by ZeRO-3 over 8 GPUs = 2 B/param per GPU, plus
    # gathered layers, activations, logits and buffers (~6-10 GB). 85.1 GB usable: 2 x n <= ~75-79 GB -> n ~ 37-40B.
    a = ask("我有8张A100能训多大的模型")
    assert a.intent == "training_memory" and a.status == "answered"
    assert 33 <= a.figures["largest_full_params_b"] <= 42
    assert a.figures["largest_qlora_params_b"] > a.figures["largest_lora_params_b"] > a.figures["largest_full_params_b"]
