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
