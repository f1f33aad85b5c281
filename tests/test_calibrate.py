"""`gpu-advisor calibrate FILE`: engine benchmark results read in their documented formats, compared with the plan for
the same conditions, stored per deployment, and used (and said) by later plans."""
from __future__ import annotations

import json

import pytest

from tools.serve_load import Replica, figures_for_run
from tools.serve_measured import BenchFormatError, parse_bench
from tools.serving import ServeRequest
from ui.cli import main


def _vllm_result(ttft_ms: float, tpot_ms: float, out_tps: float) -> dict:
    # the keys `vllm bench serve --save-result` writes (vllm/benchmarks/serve.py: result dict + the run's arguments)
    return {"date": "20261205-101500", "backend": "vllm", "model_id": "meta-llama/Llama-3.1-8B-Instruct",
            "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct", "num_prompts": 320, "request_rate": "inf",
            "burstiness": 1.0, "max_concurrency": 32, "duration": 60.0, "completed": 320,
            "total_input_tokens": 320 * 1024, "total_output_tokens": 320 * 256, "request_throughput": 5.3,
            "request_goodput": None, "output_throughput": out_tps, "total_token_throughput": out_tps * 5,
            "mean_ttft_ms": ttft_ms * 1.1, "median_ttft_ms": ttft_ms, "std_ttft_ms": 5.0, "p99_ttft_ms": ttft_ms * 3,
            "mean_tpot_ms": tpot_ms * 1.05, "median_tpot_ms": tpot_ms, "std_tpot_ms": 1.0, "p99_tpot_ms": tpot_ms * 1.5,
            "mean_itl_ms": tpot_ms, "median_itl_ms": tpot_ms * 0.98, "std_itl_ms": 2.0, "p99_itl_ms": tpot_ms * 2}


def _estimate(model, gpu):
    req = ServeRequest(model=model("llama-3.1-8b"), gpu=gpu("h100"), users=1, prompt_len=1024, output_len=256)
    return figures_for_run(Replica(req, 1, 1, False), 32, None, 320)


def test_a_vllm_result_is_read_as_the_engine_wrote_it():
    run = parse_bench(_vllm_result(80.0, 12.0, 2400.0))
    # lengths are the means run: 327,680 / 320 = 1,024 in, 81,920 / 320 = 256 out; 'inf' rate with a concurrency
    assert (run.prompt_len, run.output_len, run.concurrency, run.request_rate) == (1024, 256, 32, None)
    assert (run.ttft_ms, run.itl_ms, run.engine) == (80.0, 12.0, "vllm")  # medians; TPOT before ITL


def test_an_sglang_line_and_a_csv_row_are_read_too():
    sg = {"backend": "sglang", "dataset_name": "random", "request_rate": 4.0, "max_concurrency": None,
          "random_input_len": 2048, "random_output_len": 512, "duration": 100.0, "completed": 400,
          "total_input_tokens": 400 * 2048, "total_output_tokens": 400 * 512, "request_throughput": 4.0,
          "input_throughput": 8192.0, "output_throughput": 2048.0, "median_e2e_latency_ms": 9000.0,
          "median_ttft_ms": 150.0, "median_itl_ms": 17.0}
    run = parse_bench(sg)
    assert (run.engine, run.request_rate, run.concurrency, run.prompt_len, run.itl_ms) == ("sglang", 4.0, None, 2048, 17.0)
    csv_row = {"completed": "10", "total_input_tokens": "5000", "total_output_tokens": "1000", "output_throughput": "50",
               "max_concurrency": "1", "median_ttft_ms": "40", "median_tpot_ms": "20"}
    assert parse_bench(csv_row).concurrency == 1 and parse_bench(csv_row).prompt_len == 500
    with pytest.raises(BenchFormatError, match="output_throughput"):
        parse_bench({"completed": 3, "total_input_tokens": 10, "total_output_tokens": 10})


def test_a_run_that_matches_the_plan_gives_factors_of_one_and_a_slower_run_corrects_later_plans(
        model, gpu, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GPU_ADVISOR_CALIBRATION", str(tmp_path / "cal.json"))
    est = _estimate(model, gpu)
    same = tmp_path / "same.json"
    same.write_text(json.dumps(_vllm_result(est["ttft_ms"], est["itl_ms"], est["output_tokens_per_s"])))
    assert main(["calibrate", str(same), "--gpu", "h100", "--json", "--no-save"]) == 0
    fix = json.loads(capsys.readouterr().out)["correction"]
    assert fix["itl_factor"] == pytest.approx(1, abs=1e-3) and fix["ttft_factor"] == pytest.approx(1, abs=1e-3)

    before = main(["plan", "serve", "--model", "llama-3.1-8b", "--gpu", "h100", "--users", "32", "--prompt-len", "1024",
                   "--output-len", "256", "--json"])
    plain = json.loads(capsys.readouterr().out)
    slow = tmp_path / "slow.json"  # a server twice as slow per token as the plan, TTFT as planned
    slow.write_text(json.dumps(_vllm_result(est["ttft_ms"], 2 * est["itl_ms"], est["output_tokens_per_s"] / 2)))
    assert before == 0 and main(["calibrate", str(slow), "--gpu", "h100", "--json"]) == 0
    stored = json.loads(capsys.readouterr().out)
    assert stored["correction"]["itl_factor"] == pytest.approx(2, rel=1e-3) and stored["stored_in"]
    assert main(["plan", "serve", "--model", "llama-3.1-8b", "--gpu", "h100", "--users", "32", "--prompt-len", "1024",
                 "--output-len", "256", "--json"]) == 0
    fixed = json.loads(capsys.readouterr().out)
    # every decode step now costs twice the plain one: at the same 32 users the ITL is about twice (prefill share aside)
    assert fixed["itl_ms"] == pytest.approx(2 * plain["itl_ms"], rel=0.15)
    assert any("corrected by your benchmark" in a for a in fixed["assumptions"])


def test_a_file_that_is_not_a_benchmark_result_is_refused_with_what_is_accepted(tmp_path, capsys):
    bad = tmp_path / "notes.json"
    bad.write_text(json.dumps({"hello": "world"}))
    assert main(["calibrate", str(bad), "--gpu", "h100", "--model", "llama-3.1-8b"]) == 2
    err = capsys.readouterr().err
    assert "not a serving-benchmark result" in err and "vllm bench serve --save-result" in err
