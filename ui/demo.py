"""`make demo`: the source article's FAQ, asked and answered in the terminal."""
from __future__ import annotations

from assistant.service import ask

QUESTIONS = ["A100够不够微调70B？", "A100 和 910B 哪个好？", "从H100降级到A100只多20%-30%的时间，对吗？",
             "How many H100s for a full fine-tune of Llama 3.1 70B?"]


def demo() -> int:
    """Ask the article's three FAQ questions (and one in English) and print the computed answers."""
    print("gpu-advisor: the source article's FAQ, computed (rules backend, offline).\n")
    for q in QUESTIONS:
        a = ask(q, backend="rules")
        print(f"### {q}\n\n{a.answer}\n")
        print("-" * 100 + "\n")
    print("Next: make run (web chat on http://127.0.0.1:7860/)  |  .venv/bin/gpu-advisor ask \"your question\"  |  gpu-advisor --help")
    return 0


if __name__ == "__main__":
    raise SystemExit(demo())
