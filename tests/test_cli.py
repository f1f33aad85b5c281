"""The CLI contract: flags, JSON keys, exit status 2 with a teaching message for bad input."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ui.cli import main

TRAIN_KEYS = {"per_gpu_gb", "breakdown_gb", "fits", "min_gpus", "assumptions", "host_ram_gb", "trainable_params", "range_gb"}
INFER_KEYS = {"per_gpu_gb", "breakdown_gb", "fits", "min_gpus", "assumptions", "kv_cache_bytes_per_token", "max_context", "range_gb"}


def run_json(capsys, *args):
    code = main([*args, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_size_train_json_has_the_contract_keys(capsys):
    d = run_json(capsys, "size", "train", "--model", "llama-3.1-70b", "--method", "qlora", "--gpu", "a100-80gb", "--num-gpus", "1")
    assert TRAIN_KEYS <= set(d)
    assert d["fits"] is True and 40 <= d["per_gpu_gb"] <= 50
    assert abs(sum(d["breakdown_gb"].values()) - d["per_gpu_gb"]) < 1e-6


def test_size_infer_json_has_the_contract_keys(capsys):
    d = run_json(capsys, "size", "infer", "--model", "llama-3.1-70b", "--precision", "bf16", "--context", "1")
    assert INFER_KEYS <= set(d)
    assert 139 <= d["breakdown_gb"]["weights"] <= 143 and d["kv_cache_bytes_per_token"] == 327680
    assert d["fits"] is None and d["min_gpus"] is None and d["max_context"] is None


def test_full_70b_on_8_a100_zero3(capsys):
    d = run_json(capsys, "size", "train", "--model", "70b", "--method", "full", "--gpu", "a100-80gb", "--num-gpus", "8", "--zero", "3")
    assert d["fits"] is False and 14 <= d["min_gpus"] <= 20
    assert any("generic dense decoder" in a for a in d["assumptions"])


def test_context_accepts_k_suffix(capsys):
    d = run_json(capsys, "size", "infer", "--model", "qwen2.5-7b", "--context", "32k")
    assert d["layout"]["context"] == 32768


def test_models_and_gpus_list_everything(capsys, catalog):
    assert len(run_json(capsys, "models")["models"]) == len(catalog.models)
    assert len(run_json(capsys, "gpus")["gpus"]) == len(catalog.gpus)


def test_spec_has_dense_figures_and_source(capsys):
    d = run_json(capsys, "spec", "h100")
    assert abs(d["bf16_dense_tflops"] - 989) < 10 and d["source"] and d["as_of"]


def test_readable_output_is_a_table_with_units(capsys):
    assert main(["size", "train", "--model", "llama-3.1-8b", "--method", "lora", "--gpu", "4090"]) == 0
    out = capsys.readouterr().out
    assert "weights" in out and " GB " in out and "Assumptions:" in out


@pytest.mark.parametrize("args,needle", [
    (["size", "train", "--model", "lama-3.1-70b"], "did you mean llama-3.1-70b"),
    (["size", "infer", "--model", "llama-3.1-8b", "--gpu", "a1000"], "unknown GPU 'a1000'"),
    (["size", "train", "--model", "llama-3.1-8b", "--num-gpus", "0"], "--num-gpus"),
    (["size", "train", "--model", "llama-3.1-8b", "--num-gpus", "-4"], "--num-gpus"),
    (["size", "train", "--model", "llama-3.1-8b", "--seq-len", "0"], "--seq-len"),
    (["size", "train", "--model", "llama-3.1-70b", "--tp", "3", "--num-gpus", "3"], "must divide the 64 attention heads"),
    (["size", "infer", "--model", "llama-3.1-8b", "--batch", "-1"], "--batch"),
    (["size", "infer", "--model", "llama-3.1-8b", "--context", "abc"], "not a token count"),
])
def test_bad_input_exits_2_with_a_message(capsys, args, needle):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert "Traceback" not in err


def test_installed_console_script_exits_2_on_unknown_model():
    exe = Path(sys.executable).with_name("gpu-advisor")
    p = subprocess.run([str(exe), "size", "train", "--model", "gpt-9", "--json"], capture_output=True, text=True,
                       env=dict(os.environ, HF_HUB_OFFLINE="1"), timeout=60)
    assert p.returncode == 2
    assert "unknown model 'gpt-9'" in p.stderr and "gpu-advisor models" in p.stderr


def test_search_json_lists_passages_with_source_title_text_score(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("GPU_ADVISOR_DATA", str(tmp_path))
    monkeypatch.setenv("GPU_ADVISOR_EMBEDDING_MODEL", "hash")
    d = run_json(capsys, "search", "H20 显存带宽", "--k", "3")
    assert len(d) == 3 and {"source", "title", "text", "score"} <= set(d[0])
    assert d[0]["source"] == "gpus.yaml#h20"


def test_index_commands_and_their_errors(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("GPU_ADVISOR_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("GPU_ADVISOR_EMBEDDING_MODEL", "hash")
    assert run_json(capsys, "index", "build")["chunks"] > 100
    assert run_json(capsys, "index", "status")["up_to_date"] is True
    assert main(["index", "add", str(tmp_path / "nope.md")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["search", ""]) == 2
    assert "empty query" in capsys.readouterr().err


def test_time_train_json_keys_and_bad_tokens(capsys):
    d = run_json(capsys, "time", "train", "--model", "llama-2-7b", "--tokens", "2T", "--gpu", "a100-80gb", "--num-gpus", "64")
    assert {"total_flops", "gpu_hours", "wall_hours", "mfu", "tokens_per_second", "assumptions"} <= set(d)
    for bad in ("-5", "lots", "0"):
        assert main(["time", "train", "--model", "7b", "--tokens", bad, "--gpu", "a100"]) == 2
        assert "is not a count" in capsys.readouterr().err
    assert main(["time", "train", "--model", "7b", "--tokens", "1B", "--gpu", "a100", "--mfu", "1.7"]) == 2
    assert "--mfu must be <= 1" in capsys.readouterr().err


def test_time_infer_json_keys(capsys):
    d = run_json(capsys, "time", "infer", "--model", "llama-3.1-8b", "--gpu", "h100", "--batch", "8")
    assert {"ttft_s", "decode_tokens_per_s_per_seq", "decode_tokens_per_s_total", "max_batch_that_fits", "assumptions"} <= set(d)


def test_cost_json_keys(capsys):
    d = run_json(capsys, "cost", "--gpu", "h100", "--num-gpus", "8", "--hours", "100")
    assert {"rent_cost", "buy_cost", "break_even_months", "currency", "prices_used", "assumptions"} <= set(d)
    assert all(p["source"] and p["as_of"] for p in d["prices_used"])


def test_recommend_json_shape(capsys):
    d = run_json(capsys, "recommend", "--model", "llama-3.1-8b", "--task", "lora", "--gpus", "a100-80gb,h100,rtx-4090")
    assert [o["rank"] for o in d["options"]] == list(range(1, len(d["options"]) + 1))
    assert {"gpu", "num_gpus", "config", "fits", "per_gpu_gb", "wall_hours", "cost", "rank", "why"} <= set(d["options"][0])


def test_plan_json_keys(capsys):
    p = run_json(capsys, "plan", "parallel", "--model", "llama-3.1-70b", "--task", "full", "--gpu", "h100", "--num-gpus", "32")
    assert {"dp", "tp", "pp", "zero", "per_gpu_gb", "fits", "assumptions"} <= set(p)
    c = run_json(capsys, "plan", "checkpoint", "--model", "70b", "--task", "full", "--num-gpus", "64")
    assert {"checkpoint_gb", "weights_only_gb", "write_seconds", "cluster_mtbf_hours", "interval_minutes",
            "interval_steps", "assumptions"} <= set(c)
    assert c["interval_steps"] is None and c["checkpoint_gb"] == 980.0   # 14 B x 70e9, no --step-seconds
