"""Checkpoint formats: bytes per weight from each format's definition, the layers it keeps in 16-bit, the
checkpoint's own format as the default, and the formats each card is offered."""
from __future__ import annotations

import pytest

from tools.formats import FORMATS, precision_ladder, weight_format
from tools.infer_memory import InferenceMemoryRequest, estimate_inference_memory
from tools.memory import weight_bytes
from tools.params import count_parameters

# Llama 3.1 70B, by hand (tests/test_params.py): embedding = LM head = 128,256 x 8,192 = 1,050,673,152;
# layer matrices 80 x (150,994,944 + 704,643,072) = 68,451,041,280; norms 80 x 16,384 + 8,192 = 1,318,912;
# total 70,553,706,496.
EMB = 1_050_673_152
LINEAR = 68_451_041_280
NORMS = 1_318_912
TOTAL = 70_553_706_496


def test_the_70b_parts_add_up():
    assert 2 * EMB + LINEAR + NORMS == TOTAL


@pytest.mark.parametrize("fmt,expected", [
    # 16-bit: every parameter x 2 B
    ("bf16", TOTAL * 2),
    # FP8 with one fp32 scale per 128 x 128 block: layer matrices x (1 + 4/16384) B; the rest bf16
    ("fp8", LINEAR * (1 + 4 / 16384) + (2 * EMB + NORMS) * 2),
    # AWQ / GPTQ group 128: 4 bits + (fp16 scale + 4-bit zero) per 128 = 0.5 + 2.5/128 B per layer weight
    ("awq", LINEAR * (0.5 + 2.5 / 128) + (2 * EMB + NORMS) * 2),
    ("gptq", LINEAR * (0.5 + 2.5 / 128) + (2 * EMB + NORMS) * 2),
    # NVFP4: 4 bits + an 8-bit scale per 16 values = 4.5 bits on the layer matrices
    ("nvfp4", LINEAR * 4.5 / 8 + (2 * EMB + NORMS) * 2),
    # GGUF Q4_K_M: llama.cpp's published whole-file average, 4.84 bits per weight, every parameter
    ("q4_k_m", TOTAL * 4.84 / 8),
    # GGUF Q8_0: 34-byte blocks of 32 weights = 8.5 bits per weight
    ("q8_0", TOTAL * 34 / 32),
])
def test_weight_bytes_of_llama_70b_by_format(model, fmt, expected):
    got = sum(weight_bytes(count_parameters(model("llama-3.1-70b")), fmt, double_quant=False))
    assert got == pytest.approx(expected, rel=1e-9)


def test_mxfp4_holds_only_the_experts_of_gpt_oss(model):
    # gpt-oss-20b: 24 layers x 32 experts x (gate+up 2 x 2880 x 2880 + down 2880 x 2880 + biases 2 x 2880 + 2880)
    experts = 24 * 32 * (3 * 2880 * 2880 + 3 * 2880)
    assert experts == 19_116_933_120
    spec = model("gpt-oss-20b")
    c = count_parameters(spec)
    assert c.experts == experts
    rest = c.total - experts
    got = sum(weight_bytes(c, "mxfp4"))
    assert got == pytest.approx(experts * 4.25 / 8 + rest * 2, rel=1e-9)  # 4 bits + an E8M0 scale per 32
    assert 13.7e9 < got < 13.8e9  # the gpt-oss README: the 20b runs within 16 GB


def test_the_checkpoint_format_is_the_default_and_listed_first_when_it_fits(model, gpu):
    r = estimate_inference_memory(InferenceMemoryRequest(model=model("gpt-oss-120b"), gpu=gpu("h100")))
    assert r.native_precision == "mxfp4" and r.precision == "mxfp4" and r.fits is True
    ds = estimate_inference_memory(InferenceMemoryRequest(model=model("deepseek-v3"), gpu=gpu("h200"), num_gpus=8))
    assert ds.native_precision == "fp8" and ds.precision == "fp8" and ds.fits is True


def test_precision_options_for_70b_on_one_h100_best_first(model, gpu):
    r = estimate_inference_memory(InferenceMemoryRequest(model=model("llama-3.1-70b"), gpu=gpu("h100")))
    opts = [(o["precision"], o["fits"]) for o in r.precision_options]
    assert opts == [("bf16", False), ("fp8", True), ("awq", True)]  # 141 GB, ~75 GB, ~43 GB vs 84.7 usable


@pytest.mark.parametrize("card,sixteen,eight,four", [
    ("h100", "bf16", "fp8", "awq"),        # Hopper: FP8 tensor cores
    ("a100-80gb", "bf16", "int8", "awq"),  # Ampere: no FP8 -> INT8
    ("v100-32gb", "fp16", "int8", "awq"),  # Volta: no BF16 -> FP16
    ("t4", "fp16", "int8", "awq"),         # Turing: no BF16
    ("m4-max-128gb", "bf16", "q8_0", "q4_k_m"),  # Apple: llama.cpp / MLX files
])
def test_each_card_is_offered_what_it_can_compute(gpu, card, sixteen, eight, four):
    assert [f for f, _ in precision_ladder("bf16", gpu(card))] == [sixteen, eight, four]


def test_spellings_people_write():
    assert weight_format("Q4_K_M").id == "q4_k_m" and weight_format("bfloat16").id == "bf16"
    assert weight_format("AWQ").id == "awq" and weight_format("q8-0").id == "q8_0"
    with pytest.raises(ValueError, match="known: bf16"):
        weight_format("q9_z")


def test_every_format_names_its_source():
    assert all(f.source for f in FORMATS.values())
    assert {"mxfp4", "nvfp4", "awq", "gptq", "q8_0", "q6_k", "q5_k_m", "q4_k_m", "q4_0", "q3_k_m", "q2_k"} <= set(FORMATS)


def test_the_cli_takes_every_format_and_names_them_on_a_typo(capsys):
    import json

    from ui.cli import main

    assert main(["size", "infer", "--model", "llama-3.1-8b", "--precision", "Q4_K_M", "--gpu", "rtx-4090", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["precision"] == "q4_k_m" and d["native_precision"] == "bf16"
    assert d["breakdown_gb"]["weights"] == pytest.approx(8_030_261_248 * 4.84 / 8 / 1e9, abs=1e-3)  # 4.858 GB
    listed = [o["precision"] for o in d["precision_options"]]
    assert "q4_k_m" in listed  # the asked format is listed too, ranked by bits: q4_k_m 4.84 before awq 4.156
    assert listed.index("q4_k_m") < listed.index("awq")
    assert main(["size", "infer", "--model", "llama-3.1-8b", "--precision", "q4km2"]) == 2
    assert "unknown weight format" in capsys.readouterr().err
