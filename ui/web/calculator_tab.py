"""The Calculator tab: the sizing tools as a form; chart, table and CLI line update on every change."""
from __future__ import annotations

import gradio as gr
from pydantic import ValidationError

from assistant.zh import component_name, in_lang
from knowledge.catalog import UnknownItem
from tools.formats import WEIGHT_FORMATS
from ui.errors import validation_message, validation_message_zh
from ui.web.calculator import CalcForm, calculate
from ui.web.i18n import TEXT, t
from ui.web.views import chart as memory_figure
from ui.web.views import launch_text
from ui.web.widgets import memory_chart

FIELDS = ["mode", "model", "gpu", "num_gpus", "method", "seq_len", "micro_batch", "precision", "zero", "offload",
          "weights", "context", "batch", "engine", "users", "prompt_len", "output_len", "ttft_s", "itl_ms", "serve_engine"]

# form field -> its label's key in ui.web.i18n (where the two names differ)
LABEL_KEYS = {"precision": "train_precision", "weights": "infer_precision", "ttft_s": "ttft_target", "itl_ms": "itl_target",
              "serve_engine": "engine"}


def compute(catalog, lang: str, *values):
    """(verdict markdown, chart, breakdown rows, CLI line, launch configuration to paste) for the form's values; errors
    become the verdict."""
    raw = dict(zip(FIELDS, values))
    raw = {k: v for k, v in raw.items() if v is not None and v != ""}
    try:
        for k in ("num_gpus", "seq_len", "micro_batch", "context", "batch", "users", "prompt_len", "output_len"):
            if k in raw:
                try:
                    raw[k] = int(raw[k])
                except (TypeError, ValueError, OverflowError):
                    raise ValueError(f"{t(lang, LABEL_KEYS.get(k, k)) if LABEL_KEYS.get(k, k) in TEXT else k}: "
                                     + ("应为整数" if lang == "zh" else "should be a whole number")
                                     + f" ({raw[k]!r})") from None
        form = CalcForm(**raw)
        res = calculate(form, catalog, lang)
    except ValidationError as e:
        if lang == "zh":
            labels = {f: t("zh", LABEL_KEYS.get(f, f)) for f in FIELDS if LABEL_KEYS.get(f, f) in TEXT}
            return f"### ⚠ {validation_message_zh(e.errors(), labels)}", None, None, "", ""
        return f"### ⚠ {validation_message(e.errors())}", None, None, "", ""
    except UnknownItem as e:
        return f"### ⚠ {e.message(lang)}", None, None, "", ""
    except ValueError as e:
        return f"### ⚠ {e}", None, None, "", ""
    fit = ("✔ " + t(lang, "fits")) if res.fits else ("✘ " + t(lang, "does_not_fit")) if res.fits is False else ""
    usable = f" / {res.usable_gb:.1f} GB {t(lang, 'usable')}" if res.usable_gb else ""
    need = (f"; 至少 {res.min_gpus} 张" if lang == "zh" else f"; needs at least {res.min_gpus}") \
        if res.fits is False and res.min_gpus else ""
    verdict = res.headline or f"### {fit}: {res.per_gpu_gb:.1f} GB/GPU{usable}{need}"
    rows = [[component_name(k, lang), round(v, 2)] for k, v in res.breakdown_gb.items()] + \
        [["= 每卡合计" if lang == "zh" else "= per GPU", round(res.per_gpu_gb, 2)]]
    notes = "\n".join(f"- {a}" for a in in_lang(lang, res.assumptions))
    headers = ["组成", "GB"] if lang == "zh" else ["component", "GB"]
    return (verdict + "\n\n" + notes, memory_figure([res.call], lang), {"headers": headers, "data": rows}, res.cli,
            launch_text([res.call]))


def build(ctx, lang: str, lang_state) -> dict:
    cat = ctx.deps.catalog
    gpu_ids = [g.id for g in cat.gpus]
    model_ids = [m.id for m in cat.models]
    d = CalcForm()
    intro = gr.Markdown(t(lang, "calc_intro"))
    with gr.Row():
        with gr.Column(scale=2):
            mode = gr.Radio(_modes(lang), value=d.mode,
                            label=t(lang, "mode"), elem_id="calc-mode")
            model = gr.Dropdown(model_ids + ["70b", "7b"], value=d.model, allow_custom_value=True, label=t(lang, "model"),
                                elem_id="calc-model")
            gpu = gr.Dropdown(gpu_ids, value=d.gpu, allow_custom_value=True, label=t(lang, "gpu"), elem_id="calc-gpu")  # or "24GB"
            num_gpus = gr.Number(d.num_gpus, precision=0, minimum=1, maximum=100_000, label=t(lang, "num_gpus"),
                                 elem_id="calc-num-gpus")
            with gr.Group(visible=d.mode == "train") as train_box:
                method = gr.Radio(["full", "lora", "qlora"], value=d.method, label=t(lang, "method"), elem_id="calc-method")
                seq_len = gr.Dropdown([512, 1024, 2048, 4096, 8192, 16384, 32768, 131072], value=d.seq_len,
                                      allow_custom_value=True, label=t(lang, "seq_len"))
                micro_batch = gr.Number(d.micro_batch, precision=0, minimum=1, label=t(lang, "micro_batch"))
                precision = gr.Radio(["mixed", "bf16", "fp32"], value=d.precision, label=t(lang, "train_precision"))
                zero = gr.Radio(["auto", "0", "1", "2", "3"], value=d.zero, label=t(lang, "zero"))
                offload = gr.Radio(["none", "optimizer", "all"], value=d.offload, label=t(lang, "offload"))
            with gr.Group(visible=d.mode == "serve") as serve_box:
                users = gr.Number(d.users, precision=0, minimum=1, label=t(lang, "users"), elem_id="calc-users")
                prompt_len = gr.Number(d.prompt_len, precision=0, minimum=1, label=t(lang, "prompt_len"))
                output_len = gr.Number(d.output_len, precision=0, minimum=1, label=t(lang, "output_len"))
                ttft_s = gr.Number(d.ttft_s, minimum=0.01, label=t(lang, "ttft_target"))
                itl_ms = gr.Number(d.itl_ms, minimum=1, label=t(lang, "itl_target"))
                serve_engine = gr.Radio(["vllm", "sglang", "hf", "llama.cpp"], value=d.serve_engine, label=t(lang, "engine"))
            with gr.Group(visible=d.mode != "train") as infer_box:
                weights = gr.Dropdown(["native", *WEIGHT_FORMATS], value=d.weights,
                                      label=t(lang, "infer_precision"))
                context = gr.Dropdown([2048, 4096, 8192, 32768, 131072], value=d.context, allow_custom_value=True,
                                      label=t(lang, "context"))
                batch = gr.Number(d.batch, precision=0, minimum=1, label=t(lang, "batch"))
                engine = gr.Radio(["hf", "vllm"], value=d.engine, label=t(lang, "engine"))
        with gr.Column(scale=3):
            verdict = gr.Markdown(elem_id="calc-verdict")
            chart = memory_chart(lang, "calc-chart")
            table = gr.Dataframe(label=t(lang, "breakdown"), interactive=False, elem_id="calc-table")
            cli = gr.Code(label=t(lang, "cli"), language="shell", lines=2, interactive=False, elem_id="calc-cli")
            launch = gr.Code(label=t(lang, "launch"), language="shell", lines=6, interactive=False, elem_id="calc-launch")
    inputs = [lang_state, mode, model, gpu, num_gpus, method, seq_len, micro_batch, precision, zero, offload, weights,
              context, batch, engine, users, prompt_len, output_len, ttft_s, itl_ms, serve_engine]
    outs = [verdict, chart, table, cli, launch]
    def on_change(ui_lang, *values):
        return compute(cat, ui_lang, *values)

    # .input, not .change: a user's edit recomputes; values set by the program (open in calculator, which computes
    # the estimate itself) fire nothing, so no stale recomputation can land after the right one
    for comp in inputs[1:]:
        comp.input(on_change, inputs, outs, queue=False, show_progress="hidden")
    mode.change(lambda m: (gr.update(visible=m == "train"), gr.update(visible=m != "train"),
                           gr.update(visible=m == "serve")), [mode], [train_box, infer_box, serve_box], queue=False)
    # component -> i18n key of its label, for the language switch
    labels = {mode: "mode", model: "model", gpu: "gpu", num_gpus: "num_gpus", method: "method", seq_len: "seq_len",
              micro_batch: "micro_batch", precision: "train_precision", zero: "zero", offload: "offload",
              weights: "infer_precision", context: "context", batch: "batch", engine: "engine", table: "breakdown",
              cli: "cli", users: "users", prompt_len: "prompt_len", output_len: "output_len", ttft_s: "ttft_target",
              itl_ms: "itl_target", serve_engine: "engine", launch: "launch"}
    return {"intro": intro, "inputs": inputs, "outputs": outs, "mode": mode, "model": model, "gpu": gpu,
            "on_change": on_change, "chart": chart, "labels": labels}


def _modes(lang: str) -> list[tuple[str, str]]:
    return [(t(lang, "mode_train"), "train"), (t(lang, "mode_infer"), "infer"), (t(lang, "mode_serve"), "serve")]


def relabel(lang: str, c: dict) -> list:
    mode_choices = _modes(lang)
    return ([gr.update(value=t(lang, "calc_intro")), gr.update(label=t(lang, "chart"))]
            + [gr.update(label=t(lang, key), **({"choices": mode_choices} if key == "mode" else {}))
               for key in c["labels"].values()])


def outputs(c: dict) -> list:
    return [c["intro"], c["chart"], *c["labels"]]
