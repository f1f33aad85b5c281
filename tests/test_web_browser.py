"""The web chat in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright; no browser download).

Screenshots go to test-output/browser/. Without Chromium these tests skip with the reason, except under CI=true,
where a missing browser is a failure (.ci/run installs it).
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from ui.ratelimit import RateLimit
from ui.server import ServeSettings, create_app
from ui.sessions import SQLiteSessionStore

CHROMIUM = os.environ.get("GPU_ADVISOR_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--no-first-run"]
OUT = Path(__file__).resolve().parent.parent / "test-output" / "browser"


def _need_chromium():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)")
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium); the browser tests did not run")


@pytest.fixture
def browser():
    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def site(tmp_path, live_server):
    settings = ServeSettings(backend="rules", rate_limit=RateLimit(per_minute=0))
    app = create_app(settings, store=SQLiteSessionStore(tmp_path / "s.sqlite3"))
    app.state.ctx.warm_up()
    return live_server(app)


def _shot(page, name: str) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def _offsite_requests(page) -> list[str]:
    """Collects every request the page makes beyond this server (fonts, CDNs, analytics): there must be none."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if not r.url.startswith(("http://127.0.0.1", "data:", "blob:")) else None)
    return seen


def test_ask_the_70b_question_in_chinese_then_change_the_gpu_in_the_calculator(browser, site):
    page = browser.new_page(locale="zh-CN", viewport={"width": 1400, "height": 1000})
    offsite = _offsite_requests(page)
    page.goto(site + "/")
    page.wait_for_selector("#question textarea", timeout=60_000)
    # the interface follows the browser's language
    page.wait_for_function("document.querySelector('#title').innerText.includes('答案靠计算')", timeout=20_000)

    page.fill("#question textarea", "A100够不够微调70B？")
    page.click("#ask")
    page.wait_for_function("document.querySelector('#verdict').innerText.includes('放得下')", timeout=60_000)
    verdict = page.inner_text("#verdict")
    assert "qlora" in verdict and "a100-80gb" in verdict and "49.0 GB/GPU" in verdict
    page.wait_for_selector("#chat-chart canvas, #chat-chart svg", timeout=30_000)  # the memory chart was drawn
    options = page.inner_text("#options")
    assert "lora · 1× a100-80gb" in options and "full · 1× a100-80gb" in options
    assert "放不下" in page.inner_text("#chatbot")                     # 16-bit LoRA does not fit: the article is wrong
    chat_png = _shot(page, "chat-70b-zh")

    page.get_by_role("tab", name="计算器 Calculator").click()
    page.wait_for_function("document.querySelector('#calc-verdict').innerText.includes('GB/GPU')", timeout=30_000)
    before = page.inner_text("#calc-verdict")
    assert "放得下" in before                                            # QLoRA 70B on an A100 80GB
    gpu = page.locator("#calc-gpu input")
    gpu.click()
    gpu.fill("a100-40gb")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#calc-verdict').innerText.includes('放不下')", timeout=30_000)
    after = page.inner_text("#calc-verdict")
    per_gpu = lambda text: float(re.search(r"([\d.]+) GB/GPU", text).group(1))
    usable = lambda text: float(re.search(r"/ ([\d.]+) GB", text).group(1))
    assert usable(after) < usable(before)                                # 40 GB card: less usable memory
    assert per_gpu(after) > usable(after)                                # and the same ~49 GB no longer fits
    assert "--gpu a100-40gb" in page.inner_text("#calc-cli")
    calc_png = _shot(page, "calculator-a100-40gb")
    assert chat_png.stat().st_size > 10_000 and calc_png.stat().st_size > 10_000
    assert offsite == []                                                 # nothing fetched from the network


def test_english_browser_gets_english_and_the_gpu_tab_compares(browser, site):
    page = browser.new_page(locale="en-US", viewport={"width": 1400, "height": 1000})
    page.goto(site + "/")
    page.wait_for_selector("#question textarea", timeout=60_000)
    page.wait_for_function("document.querySelector('#title').innerText.includes('computed answers')", timeout=20_000)
    page.get_by_role("tab", name="GPU 规格 GPUs").click()
    page.wait_for_selector("#gpu-table", timeout=20_000)
    table = page.inner_text("#gpu-table")
    assert "BF16 dense TFLOPS" in table and "H200" in table
    page.wait_for_function("document.querySelector('#gpu-compare-table').innerText.includes('h20')", timeout=20_000)
    assert page.locator("#gpu-compare-table a[href^='http']").count() >= 3   # values link to their sources
    _shot(page, "gpus-compare-en")


def test_api_docs_render_with_every_request_beyond_the_app_blocked(browser, site):
    page = browser.new_page(locale="en-US")
    blocked: list[str] = []

    def guard(route):
        if route.request.url.startswith(site):
            return route.continue_()
        blocked.append(route.request.url)
        return route.abort()
    page.route("**/*", guard)
    page.goto(site + "/api/docs")
    page.wait_for_selector("#swagger-ui .opblock", timeout=60_000)   # Swagger UI drew the operations
    assert "/api/ask" in page.inner_text("#swagger-ui") and blocked == []
    _shot(page, "api-docs-offline")


def test_on_a_phone_the_verdict_comes_before_the_examples(browser, site):
    page = browser.new_page(locale="zh-CN", viewport={"width": 390, "height": 844}, is_mobile=True)
    page.goto(site + "/")
    page.wait_for_selector("#question textarea", timeout=60_000)
    page.fill("#question textarea", "A100够不够微调70B？")
    page.click("#ask")
    page.wait_for_function("document.querySelector('#verdict').innerText.includes('放得下')", timeout=60_000)
    verdict_y = page.locator("#verdict").bounding_box()["y"]
    examples_y = page.locator("#examples-box").bounding_box()["y"]
    assert verdict_y < examples_y
    _shot(page, "phone-zh-verdict-first")


def test_a_clarifying_question_offers_its_completions_as_buttons(browser, site):
    page = browser.new_page(locale="zh-CN", viewport={"width": 1400, "height": 1000})
    page.goto(site + "/")
    page.wait_for_selector("#question textarea", timeout=60_000)
    page.fill("#question textarea", "LoRA 能跑吗")
    page.click("#ask")
    page.wait_for_selector("#suggest-0", state="visible", timeout=60_000)
    assert page.inner_text("#suggest-0").strip() == "Llama-3.1-8B"      # the model the question lacked, as a button
    page.click("#suggest-0")                                             # one click sends it as the next message
    page.wait_for_function("document.querySelector('#verdict').innerText.includes('llama') || "
                           "document.querySelector('#verdict').innerText.includes('Llama')", timeout=60_000)
    assert "lora" in page.inner_text("#verdict").lower()
    _shot(page, "clarify-buttons-zh")
