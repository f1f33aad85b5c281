"""Any model from its config.json: parameters from the architecture, the checkpoint's format from its
quantization_config, the safetensors index as a check, a user models file, `models add`, and the CLI/chat."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from knowledge.catalog import load_user_models, with_user_models
from knowledge.hf_config import ConfigError, load_config_path, native_format, spec_from_config
from tools.params import count_parameters
from ui.cli import main

CONFIGS = Path(__file__).parent / "data" / "configs"


@pytest.mark.parametrize("folder,published", [
    ("my-finetune", 14.7e9),          # microsoft/phi-4: Hub safetensors 14.7B
    ("gemma-3-1b", 1.0e9),            # Gemma 3 report table 1: 302M embedding + 698M non-embedding
    ("gpt-oss-20b", 20.91e9),         # gpt-oss model card: 20.91B total
    ("qwen3-coder-30b-a3b", 30.53e9),  # index total_size 61,064,245,248 B / 2 B (bf16)
])
def test_parameters_from_the_config_match_the_published_total(folder, published):
    spec, _ = load_config_path(CONFIGS / folder)
    assert abs(spec.params_total / published - 1) < 0.01


def test_the_safetensors_index_confirms_the_weight_bytes():
    spec, notes = load_config_path(CONFIGS / "qwen3-coder-30b-a3b")
    # 30,532,122,624 parameters x 2 B = 61,064,245,248 B = the checkpoint's own total_size, exactly
    assert count_parameters(spec).total * 2 == 61_064_245_248
    assert any("agrees" in n and "+0.00%" in n for n in notes)


def test_a_quantised_checkpoint_is_sized_in_its_own_format_without_flags():
    spec, notes = load_config_path(CONFIGS / "gpt-oss-20b")
    assert spec.native_precision == "mxfp4" and any("mxfp4" in n for n in notes)
    assert spec.sliding_window.window == 128 and spec.sliding_window.layers == 12  # layer_types alternate


def test_gemma_3_sliding_window_pattern_from_the_config():
    spec, notes = load_config_path(CONFIGS / "gemma-3-1b")
    # 26 layers, sliding_window_pattern 6: layers 6, 12, 18, 24 global -> 26 - 26 // 6 = 22 sliding
    assert spec.sliding_window.window == 512 and spec.sliding_window.layers == 22
    assert spec.tie_embeddings is True and any("tie_word_embeddings" in n for n in notes)


@pytest.mark.parametrize("qc,fmt", [
    ({"quant_method": "awq", "bits": 4, "group_size": 128}, "awq"),
    ({"quant_method": "gptq", "bits": 4, "group_size": 128}, "gptq"),
    ({"quant_method": "gptq", "bits": 8}, "int8"),
    ({"quant_method": "fp8", "weight_block_size": [128, 128]}, "fp8"),
    ({"quant_method": "bitsandbytes", "load_in_4bit": True}, "nf4"),
    ({"quant_method": "compressed-tensors", "format": "nvfp4-pack-quantized"}, "nvfp4"),
    ({"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": {"num_bits": 8, "type": "float"}}}}, "fp8"),
])
def test_quantization_config_names_the_format(qc, fmt):
    assert native_format({"quantization_config": qc})[0] == fmt


def test_an_unknown_quantization_method_says_what_to_do():
    with pytest.raises(ConfigError, match="pass --precision"):
        native_format({"quantization_config": {"quant_method": "mystery-q"}})


def test_a_config_that_is_not_a_language_model_is_refused_with_the_reason(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "vit", "image_size": 224}))
    with pytest.raises(ConfigError, match="num_hidden_layers"):
        load_config_path(tmp_path)
    with pytest.raises(ConfigError, match="no config.json"):
        load_config_path(tmp_path / "missing")


def test_a_hybrid_config_reads_its_linear_attention_layers():
    cfg = {"model_type": "qwen3_next", "num_hidden_layers": 48, "hidden_size": 2048, "num_attention_heads": 16,
           "num_key_value_heads": 2, "head_dim": 256, "intermediate_size": 5120, "vocab_size": 151936,
           "tie_word_embeddings": False, "max_position_embeddings": 262144, "full_attention_interval": 4,
           "linear_num_key_heads": 16, "linear_num_value_heads": 32, "linear_key_head_dim": 128,
           "linear_value_head_dim": 128, "linear_conv_kernel_dim": 4, "num_experts": 512, "num_experts_per_tok": 10,
           "moe_intermediate_size": 512, "shared_expert_intermediate_size": 512, "decoder_sparse_step": 1}
    spec, _ = spec_from_config(cfg, model_id="qwen3-next-test", source="test")
    assert spec.linear_attention.layers == 36 and spec.full_attention_layers == 12
    assert spec.attn_output_gate and spec.moe.shared_expert_gate
    # the catalog record (fields from the published config) counts 79.67e9 without the MTP module
    assert abs(spec.params_total / 79_674_391_296 - 1) < 0.001


def test_user_models_file_adds_models_and_names_what_it_could_not_read(tmp_path, catalog):
    f = tmp_path / "models.yaml"
    f.write_text(f"- id: my-phi\n  config: {CONFIGS / 'my-finetune'}\n- id: broken\n  config: {tmp_path / 'nowhere'}\n"
                 "- id: llama-3.1-8b\n  config: " + str(CONFIGS / "gemma-3-1b") + "\n")
    user, problems = load_user_models(f)
    assert [m.id for m in user] == ["my-phi", "llama-3.1-8b"]
    assert any("broken" in p and "no config.json" in p for p in problems)
    models = with_user_models(list(catalog.models), user, problems)
    assert "my-phi" in {m.id for m in models}
    assert any("already in the catalog" in p for p in problems)  # a user entry never shadows a catalog model


def test_models_add_registers_a_config(tmp_path, monkeypatch, capsys):
    target = tmp_path / "cfg" / "models.yaml"
    monkeypatch.setenv("GPU_ADVISOR_MODELS", str(target))
    assert main(["models", "add", str(CONFIGS / "my-finetune"), "--id", "my-phi4"]) == 0
    out = capsys.readouterr().out
    assert "my-phi4" in out and "14.66e9 parameters" in out
    user, problems = load_user_models(target)
    assert [m.id for m in user] == ["my-phi4"] and not problems
    assert main(["models", "add", str(CONFIGS / "my-finetune"), "--id", "llama-3.1-8b"]) == 2  # a catalog id


def test_size_infer_takes_a_folder_and_sizes_it_in_its_own_format(capsys):
    assert main(["size", "infer", "--model", str(CONFIGS / "gpt-oss-20b"), "--gpu", "16GB", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["native_precision"] == "mxfp4" and d["precision"] == "mxfp4" and d["fits"] is True
    assert 13.7 < d["breakdown_gb"]["weights"] + d["breakdown_gb"].get("quant_constants", 0) < 13.8


def test_an_unknown_hub_id_says_how_to_add_it(capsys):
    assert main(["size", "infer", "--model", "someorg/brand-new-model-9b", "--gpu", "h100"]) == 2
    err = capsys.readouterr().err
    assert "config.json" in err and "models add" in err and "generic" not in err


def test_the_chat_reads_a_config_path():
    from assistant.service import ask

    a = ask(f"Does the model at {CONFIGS / 'my-finetune'}/ fit on one RTX 4090 in 8-bit?")
    assert a.request["model"] == "my-finetune" and a.request["model_path"].endswith("my-finetune/")
    assert a.verdict.fits is True and 16 < a.verdict.per_gpu_gb < 20
    missing = ask("can ./no/such/folder/ run on an H100?")
    assert missing.status == "error" and "no config.json" in missing.answer
