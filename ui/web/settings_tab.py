"""The Settings tab: backend and its health, this session's price overrides, data directory and index status."""
from __future__ import annotations

import gradio as gr

from assistant.compose import fx_note
from knowledge.prices import PriceFileError, session_rental_override
from tools.cost import DEFAULT_CNY_PER_USD as CNY_PER_USD
from ui.web.i18n import t


def _prices_md(prices: dict, lang: str) -> str:
    """The overrides in both currencies, with the rate used and its date."""
    if not prices:
        return f"*{t(lang, 'no_prices')}*"
    rows = [f"- `{gpu}`: " + (f"{usd * CNY_PER_USD:,.2f} 元/卡·时（${usd:,.2f}）" if lang == "zh" else
                              f"${usd:,.2f} per GPU-hour (¥{usd * CNY_PER_USD:,.2f})") for gpu, usd in sorted(prices.items())]
    return "\n".join(rows) + f"\n\n<small>{fx_note(lang)}</small>"


def to_usd(amount: float, currency: str) -> float:
    """A price typed in either currency, in USD per GPU-hour (what the session's overrides hold)."""
    return amount / CNY_PER_USD if currency == "CNY" else amount


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
    def limits_line(ui_lang: str) -> str:
        if ui_lang == "zh":
            return (f"会话存储：`{ctx.store.describe()}` · /api/ask 限流：{s.rate_limit.describe()} · "
                    f"单条消息上限 {s.max_message_chars:,} 字符 · 访问令牌：{'需要' if s.token else '未启用'}")
        return (f"Sessions: `{ctx.store.describe()}` · rate limit on /api/ask: {s.rate_limit.describe()} · "
                f"message limit {s.max_message_chars:,} characters · access token {'required' if s.token else 'off'}")

    limits = gr.Markdown(limits_line(lang), elem_id="settings-limits")
    prices_head = gr.Markdown(f"### {t(lang, 'prices')}")
    with gr.Row():
        gpu = gr.Dropdown(gpu_ids, value="h100", label=t(lang, "gpu"), scale=2)
        price = gr.Number(2.5 if lang == "en" else 18.0, minimum=0.01, maximum=72_000, label=t(lang, "price"), scale=1,
                          elem_id="price-amount")
        currency = gr.Radio([("$/GPU-h", "USD"), ("元/卡·时", "CNY")], value="CNY" if lang == "zh" else "USD",
                            label=t(lang, "currency"), scale=1, elem_id="price-currency")
        add = gr.Button(t(lang, "add_price"), scale=1)
        clear = gr.Button(t(lang, "clear_prices"), scale=1, variant="secondary")
    current = gr.Markdown(_prices_md({}, lang), elem_id="price-overrides")
    data_head = gr.Markdown(f"### {t(lang, 'data')}")
    index_button = gr.Button(t(lang, "check_index"), size="sm")
    index = gr.Markdown(index_badge(ctx.index_summary(), lang), elem_id="status-index")

    def add_price(prices, gpu_id, amount, cur, ui_lang):
        prices = dict(prices or {})
        try:
            usd = to_usd(float(amount), cur or "USD") if amount is not None else -1.0
            session_rental_override(gpu_id, usd)
        except PriceFileError as e:
            return prices, f"⚠ {e}\n\n" + _prices_md(prices, ui_lang)
        prices[gpu_id] = round(usd, 4)
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
    add.click(add_price, [prices_state, gpu, price, currency, lang_state], [prices_state, current], queue=False)
    clear.click(lambda ui_lang: ({}, _prices_md({}, ui_lang)), [lang_state], [prices_state, current], queue=False)
    index_button.click(index_status, [lang_state], [index], concurrency_limit=1)
    return {"head": head, "prices_head": prices_head, "data_head": data_head, "check": check, "add": add, "clear": clear,
            "index_button": index_button, "gpu": gpu, "price": price, "currency": currency,
            "limits": limits, "limits_line": limits_line}


def relabel(lang: str, c: dict) -> list:
    return [gr.update(value=f"### {t(lang, 'backend')}"), gr.update(value=f"### {t(lang, 'prices')}"),
            gr.update(value=f"### {t(lang, 'data')}"), gr.update(value=t(lang, "check")), gr.update(value=t(lang, "add_price")),
            gr.update(value=t(lang, "clear_prices")), gr.update(value=t(lang, "check_index")), gr.update(label=t(lang, "price")),
            gr.update(label=t(lang, "currency")), gr.update(value=c["limits_line"](lang))]


def outputs(c: dict) -> list:
    return [c["head"], c["prices_head"], c["data_head"], c["check"], c["add"], c["clear"], c["index_button"], c["price"], c["currency"], c["limits"]]
