"""The Settings tab: backend and its health, this session's price overrides, data directory and index status."""
from __future__ import annotations

import gradio as gr

from knowledge.prices import PriceFileError, session_rental_override
from ui.web.i18n import t


def _prices_md(prices: dict, lang: str) -> str:
    if not prices:
        return f"*{t(lang, 'no_prices')}*"
    return "\n".join(f"- `{gpu}`: {usd:g} USD / GPU-hour" for gpu, usd in sorted(prices.items()))


def build(ctx, lang: str, prices_state, lang_state) -> dict:
    gpu_ids = [g.id for g in ctx.deps.catalog.gpus]
    s = ctx.settings
    from ui.web.status import backend_badge, index_badge, sessions_badge

    head = gr.Markdown(f"### {t(lang, 'backend')}")
    backend = gr.Markdown(backend_badge(ctx.backend_health() if ctx.backend == "rules" else {"backend": ctx.backend,
                                                                                              "ok": True, "detail": ""},
                                        lang), elem_id="status-backend")
    sessions = gr.Markdown(sessions_badge(ctx.store.describe(), ctx.store.ping(), lang), elem_id="status-sessions")
    check = gr.Button(t(lang, "check"), size="sm")
    gr.Markdown(f"Sessions: `{ctx.store.describe()}` · rate limit on /api/ask: {s.rate_limit.describe()} · "
                f"message limit {s.max_message_chars:,} characters · access token {'required' if s.token else 'off'}")
    prices_head = gr.Markdown(f"### {t(lang, 'prices')}")
    with gr.Row():
        gpu = gr.Dropdown(gpu_ids, value="h100", label=t(lang, "gpu"), scale=2)
        price = gr.Number(2.5, minimum=0.01, maximum=10_000, label=t(lang, "price"), scale=1)
        add = gr.Button(t(lang, "add_price"), scale=1)
        clear = gr.Button(t(lang, "clear_prices"), scale=1, variant="secondary")
    current = gr.Markdown(_prices_md({}, lang), elem_id="price-overrides")
    data_head = gr.Markdown(f"### {t(lang, 'data')}")
    index_button = gr.Button(t(lang, "check_index"), size="sm")
    index = gr.Markdown(index_badge(ctx.index_summary(), lang), elem_id="status-index")

    def add_price(prices, gpu_id, usd, ui_lang):
        prices = dict(prices or {})
        try:
            session_rental_override(gpu_id, float(usd) if usd is not None else -1.0)
        except PriceFileError as e:
            return prices, f"⚠ {e}\n\n" + _prices_md(prices, ui_lang)
        prices[gpu_id] = float(usd)
        return prices, _prices_md(prices, ui_lang)

    def index_status(ui_lang):
        try:
            ctx.deps.index()  # loads it: the badge shows the real state
            return index_badge(ctx.index_summary(), ui_lang)
        except Exception as e:  # an unreachable Chroma server, say: show what, not a traceback
            return index_badge({"error": f"{e.__class__.__name__}: {str(e)[:300]}"}, ui_lang)

    check.click(lambda ui_lang: (backend_badge(ctx.backend_health(), ui_lang),
                                 sessions_badge(ctx.store.describe(), ctx.store.ping(), ui_lang)),
                [lang_state], [backend, sessions], concurrency_limit=2)
    add.click(add_price, [prices_state, gpu, price, lang_state], [prices_state, current], queue=False)
    clear.click(lambda ui_lang: ({}, _prices_md({}, ui_lang)), [lang_state], [prices_state, current], queue=False)
    index_button.click(index_status, [lang_state], [index], concurrency_limit=1)
    return {"head": head, "prices_head": prices_head, "data_head": data_head, "check": check, "add": add, "clear": clear,
            "index_button": index_button, "gpu": gpu, "price": price}


def relabel(lang: str, c: dict) -> list:
    return [gr.update(value=f"### {t(lang, 'backend')}"), gr.update(value=f"### {t(lang, 'prices')}"),
            gr.update(value=f"### {t(lang, 'data')}"), gr.update(value=t(lang, "check")), gr.update(value=t(lang, "add_price")),
            gr.update(value=t(lang, "clear_prices")), gr.update(value=t(lang, "check_index")), gr.update(label=t(lang, "price"))]


def outputs(c: dict) -> list:
    return [c["head"], c["prices_head"], c["data_head"], c["check"], c["add"], c["clear"], c["index_button"], c["price"]]
