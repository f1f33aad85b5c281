"""`make run` until the web chat exists: the source article's first FAQ, computed."""
from __future__ import annotations

from ui.cli import main

QUESTION = "Is one A100 80GB enough to fine-tune a 70B model?  (A100够不够微调70B？)"


def demo() -> int:
    """Size the 70B question three ways and say how to go on."""
    print(QUESTION)
    print("The source article says yes, even with 16-bit LoRA. Computed:\n")
    for method in ("qlora", "lora"):
        code = main(["size", "train", "--model", "llama-3.1-70b", "--method", method, "--gpu", "a100-80gb"])
        if code:
            return code
        print("\n" + "=" * 100 + "\n")
    code = main(["size", "train", "--model", "llama-3.1-70b", "--method", "full", "--gpu", "a100-80gb",
                 "--num-gpus", "8", "--offload", "optimizer"])
    print("\nNext: .venv/bin/gpu-advisor --help   |   .venv/bin/gpu-advisor size infer --help   |   make bench")
    return code


if __name__ == "__main__":
    raise SystemExit(demo())
