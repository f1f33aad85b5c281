"""Docs that cannot drift: every README example block is the command's real output."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from ui.cli import main

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"<!-- readme-example: (.+?) -->\n```\n\$ gpu-advisor .+?\n(.*?)\n```\n<!-- /readme-example -->",
                    README, flags=re.S)


def test_readme_has_examples():
    assert len(BLOCKS) >= 2
    assert "make test" in README and "make run" in README


@pytest.mark.parametrize("command,expected", BLOCKS, ids=[b[0][:60] for b in BLOCKS])
def test_readme_example_output_is_current(capsys, command, expected):
    assert main(shlex.split(command)) == 0
    assert capsys.readouterr().out.rstrip("\n") == expected


def test_the_chinese_readme_asks_the_same_questions_and_names_the_article():
    import re

    zh = (Path(__file__).resolve().parent.parent / "README.zh.md").read_text(encoding="utf-8")

    def questions(text: str) -> set[str]:
        table = text.split("可以问什么" if text is zh else "## What you can ask", 1)[1].split("\n\n**", 1)[0]
        return {cell.strip() for row in re.findall(r"^\|(.+)\|$", table, flags=re.M) for cell in row.split("|")
                if cell.strip() and not set(cell.strip()) <= set("-") and cell.strip() not in ("English", "中文")}
    assert questions(zh) == questions(README) and len(questions(README)) == 20   # ten in each language
    assert "大模型训练NVIDIA A100，NVIDIA A100显卡多少钱" in zh and "大模型训练NVIDIA A100，NVIDIA A100显卡多少钱" in README
    assert "docs/screenshots/chat-70b-zh.png" in zh and (Path(__file__).resolve().parent.parent / "docs/screenshots/chat-70b-zh.png").exists()
