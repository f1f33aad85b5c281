"""Run a question set through the assistant: DIR/questions.yaml -> DIR/answers/<id>.md and DIR/answers.jsonl.

Usage: .venv/bin/python evals/fresh_protocol/run_set.py DIR [ID ...]   (the listed ids only, when given)."""
import json
import sys
import time
import traceback
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from assistant.service import ask  # noqa: E402

d = Path(sys.argv[1])
qs = yaml.safe_load((d / "questions.yaml").read_text())
only = set(sys.argv[2:])
out = d / "answers"
out.mkdir(exist_ok=True)
rows = []
t0 = time.time()
for q in qs:
    if only and q["id"] not in only:
        continue
    try:
        a = ask(q["text"])
        text, status = a.answer + "".join(f"\n\n_note: {w}_" for w in a.warnings), a.status  # (as the CLI and the page show them)
    except Exception:
        text, status = "INTERNAL ERROR\n" + traceback.format_exc(), "crash"
    (out / f"{q['id']}.md").write_text(f"# {q['id']}\n\n## Question\n{q['text']}\n\n## Answer (status: {status})\n{text}\n")
    rows.append({"id": q["id"], "status": status, "answer": text})
if not only:
    (d / "answers.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
print(f"{len(rows)} answered in {time.time()-t0:.0f}s; crashes: {[r['id'] for r in rows if r['status']=='crash']}")
