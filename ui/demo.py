"""`make run` until the web chat exists: the source article's first FAQ, computed."""
from __future__ import annotations

from knowledge.catalog import default_catalog
from tools.train_memory import TrainingMemoryRequest, estimate_training_memory
from ui.cli import main

QUESTION = "Is one A100 80GB enough to fine-tune a 70B model?  (A100够不够微调70B？)"


def demo() -> int:
    """The 70B question three ways, a verdict line each, then the QLoRA breakdown and how to go on."""
    catalog = default_catalog()
    model, a100 = catalog.model("llama-3.1-70b")[0], catalog.gpu("a100-80gb")[0]
    print(QUESTION)
    print("The source article says one card is enough even for 16-bit LoRA, and 'at least 8' for a full fine-tune.\n")
    cases = [("QLoRA (NF4, rank 16)", dict(method="qlora")), ("16-bit LoRA", dict(method="lora")),
             ("full fine-tune, ZeRO-3", dict(method="full", num_gpus=8)),
             ("full, optimizer offloaded", dict(method="full", num_gpus=8, offload="optimizer"))]
    for label, kw in cases:
        r = estimate_training_memory(TrainingMemoryRequest(model=model, gpu=a100, **kw))
        host = f", host RAM {r.host_ram_gb / 1000:.2f} TB" if r.host_ram_gb else ""
        print(f"  {label:<27} on {r.num_gpus} x A100 80GB: {r.per_gpu_gb:6.1f} GB per GPU -> "
              f"{'fits' if r.fits else 'does not fit'}; fewest A100 80GB: {r.min_gpus}{host}")
    print("\nThe QLoRA case, term by term:\n")
    code = main(["size", "train", "--model", "llama-3.1-70b", "--method", "qlora", "--gpu", "a100-80gb"])
    print("\nNext: .venv/bin/gpu-advisor --help  |  gpu-advisor size infer --help  |  make bench  |  README.md")
    return code


if __name__ == "__main__":
    raise SystemExit(demo())
