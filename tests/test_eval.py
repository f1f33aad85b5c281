"""The eval harness: scoring, reports, run comparison, and the CI quality gate over the real set."""
from __future__ import annotations

import json
from pathlib import Path

from evals import run as ev
from ui.cli import main

SAMPLE = Path(__file__).resolve().parent / "data" / "eval_sample.yaml"


def test_each_check_is_scored_and_a_case_passes_only_if_all_do():
    results = ev.run(ev.load_cases(SAMPLE), progress=False)
    by_id = {r.id: r for r in results}
    assert by_id["sample-faq-zh"].passed and by_id["sample-multiturn"].passed
    wrong = by_id["sample-wrong-on-purpose"]
    assert not wrong.passed and [c.name for c in wrong.checks if not c.ok] == ["verdict.method"]


def test_summary_reports_and_compare(tmp_path):
    results = ev.run(ev.load_cases(SAMPLE), progress=False)
    summary = ev.summarise(results)
    assert {"cases", "passed", "pass_rate", "by_intent", "by_lang", "latency_ms_p50", "latency_ms_p95"} <= set(summary)
    assert summary["cases"] == 3 and summary["passed"] == 2
    ev.write_report(results, summary, tmp_path)
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["summary"]["pass_rate"] == summary["pass_rate"]
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "sample-wrong-on-purpose" in md and "expected lora, got qlora" in md
    # a later run where the failing case passes shows up as improved
    report["cases"][0]["passed"] = False
    (tmp_path / "old.json").write_text(json.dumps(report), encoding="utf-8")
    diff = ev.compare(tmp_path / "old.json", results)
    assert diff["improved"] == ["sample-faq-zh"] and diff["regressed"] == []


def test_eval_cli_json(capsys):
    assert main(["eval", "--dataset", str(SAMPLE), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["cases"] == 3 and d["by_lang"]["zh"]["pass_rate"] == 1.0
