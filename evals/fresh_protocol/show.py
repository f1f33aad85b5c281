"""Print questions' rubrics and their current answers: show.py DIR ID [ID ...] (ids may be suffixes like en-003)."""
import sys
from pathlib import Path

import yaml
d = Path(sys.argv[1])
qs = yaml.safe_load((d / "questions.yaml").read_text())
grades = {}
if (d / "grades.yaml").exists():
    g = yaml.safe_load((d / "grades.yaml").read_text())
    grades = {x["id"]: x for x in (g if isinstance(g, list) else g.get("grades", []))}
for want in sys.argv[2:]:
    for q in qs:
        if q["id"] == want or q["id"].endswith(want):
            print("=" * 100)
            print(q["id"], q.get("class"), "question_back:", q.get("question_back"))
            print("TEXT:", q["text"])
            print("MUST:", yaml.safe_dump(q.get("must"), allow_unicode=True))
            print("MUST_NOT:", yaml.safe_dump(q.get("must_not"), allow_unicode=True))
            if "-v" in sys.argv:
                print("DERIVATION:", q.get("derivation"))
            if q["id"] in grades:
                print("GRADE:", yaml.safe_dump(grades[q["id"]], allow_unicode=True))
            p = d / "answers" / f"{q['id']}.md"
            if p.exists():
                print(p.read_text().split("## Answer", 1)[1])
