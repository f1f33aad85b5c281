"""Issue 24, 'ask missing' with several machines: every Apple machine named with its memory is read; Macs are not
rented or clustered, so 'which one' is what each holds and how fast; a machine that does not hold the model is said
to, and never wins a speed comparison."""
from __future__ import annotations

from assistant.readers.rules import read
from assistant.service import ask
from knowledge.catalog import default_catalog

CATALOG = default_catalog()
Q = ("Can a Mac Studio run the full DeepSeek-R1 (671B)? I'm choosing between an M2 Ultra with 192GB and an M3 Ultra "
     "with 512GB unified memory. Which one, what quantization, and what tokens/s should I expect?")


def test_both_machines_are_read():
    r = read(Q, CATALOG).request
    assert r.gpus == ["m2-ultra-192gb", "m3-ultra-512gb"]
    assert r.intent != "recommend"  # no rental price ranks Macs


def test_only_the_machine_that_holds_it_is_picked():
    a = ask(Q)
    # DeepSeek-R1 at Q4_K_M: 671e9 x 0.605 B = 406 GB of weights: more than the 192 GB M2 Ultra, within the M3 Ultra's
    # 512 GB (549.8 GB; 75% = 412 GB usable by the GPU by default)
    assert "does not fit" in a.answer
    assert "Only 1× Apple M3 Ultra" in a.answer


def test_a_speed_answer_that_does_not_fit_says_so_first():
    a = ask("How many tokens/s does Llama 3.1 405B in BF16 give on one RTX 4090?")
    # 405e9 x 2 B = 810 GB against 24 GB
    assert "Does not fit" in a.answer
    assert a.figures["fits"] == 0
