"""Partial offload for local inference (llama.cpp / Ollama): the split and the decode bound, by hand."""
from __future__ import annotations

import pytest

from tools.offload import OffloadRequest, plan_offload

GB = 1e9


def test_llama_70b_q4_k_m_on_a_4090_with_ram(model, gpu):
    # Q4_K_M 4.84 bpw: 70,553,706,496 x 0.605 B = 42.685 GB; embedding and output 128,256 x 8,192 x 0.605 B each;
    # per layer (42.685 - 2 x 0.6357)/80 = 0.5177 GB + KV fp16 at 8,192 tokens 2 x 8 x 128 x 2 x 8,192 = 33.55 MB.
    # Room: 4090 usable 24.95 GB - CUDA context 500 MiB (0.524 GB) - compute buffer 1.0 GB = 23.43 GB -> 42 layers.
    total = 70_553_706_496 * 4.84 / 8
    emb = 128_256 * 8_192 * 4.84 / 8
    layer = (total - 2 * emb) / 80 + 2 * 8 * 128 * 2 * 8_192
    r = plan_offload(OffloadRequest(model=model("llama-3.1-70b"), gpu=gpu("rtx-4090"), precision="q4_k_m",
                                    context=8192, ram_gb=64))
    room = gpu("rtx-4090").memory_bytes - 768 * 2**20 - 500 * 2**20 - 1.0e9  # driver reserve, context, buffer
    assert r.gpu_layers == int(room // layer) == 42
    # decode bound: GPU 42 layers at 0.8 x 1008 GB/s, RAM 38 layers + the output layer at 0.6 x 89.6 GB/s
    t = 42 * layer / (0.8 * 1008 * GB) + (38 * layer + emb) / (0.6 * 89.6 * GB)
    assert r.decode_tokens_per_s == pytest.approx(1 / t, rel=0.01)  # ~2.3 tokens/s
    assert r.fits_ram is True and "-ngl 42" in r.command


def test_gpt_oss_120b_keeps_experts_in_ram(model, gpu):
    # Experts per layer 128 x (3 x 2880^2 + 3 x 2880) x 4.25/8 B = 1.6926 GB; the rest of each layer, the output
    # layer and the KV cache (8,192 tokens: 18 x 2,048 x 8,192 + 18 x 2,048 x 128) stay on the GPU.
    r = plan_offload(OffloadRequest(model=model("gpt-oss-120b"), gpu=gpu("rtx-4090"), ram_gb=128))
    assert r.mode == "experts" and r.precision == "mxfp4" and r.gpu_layers == 36
    assert 22 <= r.cpu_moe_layers <= 28 and "--n-cpu-moe" in r.command
    assert 15 < r.decode_tokens_per_s < 60  # a token reads 4 of 128 experts per layer


def test_unified_memory_has_nothing_to_offload_to(model, gpu):
    with pytest.raises(ValueError, match="unified memory"):
        OffloadRequest(model=model("llama-3.1-70b"), gpu=gpu("m4-max-128gb"))


def test_a_dense_model_has_no_experts_to_move(model, gpu):
    with pytest.raises(ValueError, match="no experts"):
        plan_offload(OffloadRequest(model=model("llama-3.1-70b"), gpu=gpu("rtx-4090"), mode="experts"))


def test_llama_cpp_splits_a_gguf_over_two_cards(model, gpu):
    # 70B Q4_K_M on 2 x RTX 3090 at 8k: 70.6e9 x 4.84 / 8 ~ 42.7 GB of weights (embedding ~0.6 GB in RAM) + KV f16
    # 8,192 x 327,680 B = 2.7 GB, against two cards' room (each: usable 24 GiB less 0.5 GB context and ~1 GB buffer)
    two = plan_offload(OffloadRequest(model=model("llama-3.1-70b"), gpu=gpu("rtx-3090"), precision="q4_k_m",
                                      context=8192, num_gpus=2))
    one = plan_offload(OffloadRequest(model=model("llama-3.1-70b"), gpu=gpu("rtx-3090"), precision="q4_k_m",
                                      context=8192))
    assert two.gpu_layers == 80 and two.fits_gpu and one.gpu_layers < 45      # people run exactly this on two 3090s
    assert "--split-mode layer --tensor-split 1,1" in two.command
    assert two.per_gpu_gb <= 25.8 and two.gpu_gb == pytest.approx(2 * two.per_gpu_gb, rel=0.02)
    # the cards run one after another: one card's bandwidth, not two: bytes / (936 GB/s x 0.8) + 0.1 ms hand-off
    assert two.decode_tokens_per_s == pytest.approx(two.all_on_gpu_tokens_per_s, rel=0.01)
    assert 10 < two.decode_tokens_per_s < 20


def test_a_quantized_kv_cache_is_smaller_by_its_block_size(model, gpu):
    f16 = plan_offload(OffloadRequest(model=model("llama-3.1-70b"), gpu=gpu("rtx-3090"), precision="q4_k_m",
                                      context=32768, num_gpus=2))
    q8 = plan_offload(OffloadRequest(model=model("llama-3.1-70b"), gpu=gpu("rtx-3090"), precision="q4_k_m",
                                     context=32768, num_gpus=2, kv_cache_type="q8_0"))
    assert q8.gpu_layers > f16.gpu_layers and "--cache-type-k q8_0" in q8.command and " -fa" in q8.command
    assert any("--kv-cache-type q8_0" in a for a in f16.assumptions)  # the way to fit more is said


@pytest.mark.parametrize("question, n", [("Can I run Llama 3.1 70B Q4_K_M on two RTX 3090s with llama.cpp at 8k context?", 2),
                                         ("两张3090用ollama跑70B q4，8k上下文能全放显存吗", 2),
                                         ("llama.cpp on 3x RTX 4090: Qwen2.5 72B q4_k_m, 16k context, fits?", 3)])
def test_a_gguf_over_several_cards_is_a_layer_split_not_tensor_parallel(question, n):
    from assistant.service import ask

    a = ask(question)
    call = next(c for c in a.tool_calls if c.name == "plan_offload")
    assert call.args["num_gpus"] == n and call.args["precision"] == "q4_k_m"  # Ollama's / llama.cpp's 4-bit file
    assert a.verdict.fits and a.verdict.num_gpus == n
