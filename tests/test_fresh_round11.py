"""Issue 24, eleventh round: stated inputs reach the tool that can use them. 'Over PCIe' on a card with NVLink is the
link tensor parallelism pays in a speed or serving answer (not 'not used'). Generated over cards, models and
phrasings."""
from __future__ import annotations

import pytest

from assistant.readers.rules import read
from assistant.service import ask
from knowledge.catalog import default_catalog

CAT = default_catalog()


def _req(text: str, previous: dict | None = None):
    return read(text, CAT, previous).request


def _per_sequence(a) -> float:
    """Tokens/s one stream decodes at: the speed answer's figure, or 1000 / the serving plan's ITL in ms."""
    f = a.figures
    return f.get("decode_tokens_per_s_per_seq") or 1000 / f["serve_itl_ms"]


# --- the link a user states is the link tensor parallelism runs over ---------------------------------------------------
NVLINK_CARDS = [("H100 SXM", "h100-sxm"), ("A100 80GB", "a100-80gb"), ("H200", "h200")]


@pytest.mark.parametrize("card", NVLINK_CARDS)
@pytest.mark.parametrize("form", ["serve llama 3.1 70b on 4x {c} over PCIe, 16 users, how many tokens/s?",
                                  "4张{c}走PCIe跑llama 3.1 70b，16个并发，速度多少 tokens/s"])
def test_pcie_stated_slows_tensor_parallel_decode(card, form):
    # the same question without the link: NVLink all-reduces. Over PCIe each of the 2 all-reduces per layer moves
    # 2*(tp-1)/tp * batch * hidden * 2 bytes at PCIe speed, not NVLink's, so a TP4 step must take longer
    name, _ = card
    plain = ask(form.format(c=name).replace(" over PCIe", "").replace("走PCIe", ""))
    pcie = ask(form.format(c=name))
    assert pcie.request["interconnect"] == "pcie"
    assert _per_sequence(pcie) < _per_sequence(plain)
    assert not any(i.startswith("interconnect") for i in pcie.ignored), pcie.ignored
    assert "PCIe" in pcie.answer.split("\n")[0]  # said where the answer opens


@pytest.mark.parametrize("card", NVLINK_CARDS)
def test_nvlink_stated_on_a_card_that_has_it_is_used(card):
    name, _ = card
    a = ask(f"serve llama 3.1 70b fp8 on 4x {name} with nvlink, 32 users, tokens/s per user?")
    assert not any(i.startswith("interconnect") for i in a.ignored), a.ignored
