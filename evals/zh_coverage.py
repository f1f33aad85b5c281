"""How much of a Chinese answer's assumptions section is Chinese: every realistic question asked in zh, each
assumption line counted as Chinese or still English (assistant/zh.py has no pattern for it).

    python -m evals.zh_coverage [--show N]     # prints the rate and the N most frequent English lines
"""
from __future__ import annotations

import argparse
import collections
import re
from pathlib import Path

import yaml

HAN = re.compile(r"[\u4e00-\u9fff]")
SETS = Path(__file__).resolve().parent / "realistic"


def questions() -> list[str]:
    out = []
    for path in sorted(SETS.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in (data.get("cases", []) if isinstance(data, dict) else data) or []:
            if isinstance(case, dict) and case.get("turns") and len(case["turns"]) == 1:
                out.append(case["turns"][0])
    return out


def assumption_lines(text: str, heading: str = "**假设**") -> list[str]:
    if heading not in text:
        return []
    block = text.split(heading, 1)[1].split("\n\n")[0]
    return [line[2:] for line in block.splitlines() if line.startswith("- ")]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--show", type=int, default=15, help="how many of the most frequent English lines to print")
    args = p.parse_args(argv)
    from assistant.service import ask

    total, english = 0, collections.Counter()
    for q in questions():
        for line in assumption_lines(ask(q, lang="zh").answer):
            total += 1
            if not HAN.search(line):
                english[re.sub(r"\d[\d.,]*", "#", line)[:160]] += 1
    left = sum(english.values())
    print(f"zh assumption lines: {total}; in Chinese {total - left} ({(total - left) / max(total, 1):.1%}); "
          f"still English {left}")
    for line, n in english.most_common(args.show):
        print(f"{n:5d}  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
