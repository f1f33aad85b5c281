"""Numbers as people write them: 1,000 / 1.5万 / 七百 / 两 / 8k / 2T / ¥8 / $2.5k / 三个月 / 每天10小时.

Each function takes lower-cased text and returns plain numbers; nothing here knows about GPUs.
"""
from __future__ import annotations

import re

# A number in Arabic digits (with thousands separators and decimals) or in Chinese numerals.
CN_DIGITS = "零一二两三四五六七八九十百千半"
NUM = rf"(?:\d+(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?|[{CN_DIGITS}]+)"
_CN = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNIT = {"十": 10, "百": 100, "千": 1000}
EN_WORDS = {"a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "dual": 2, "double": 2, "pair of": 2, "three": 3,
            "four": 4, "quad": 4, "five": 5, "six": 6, "eight": 8, "ten": 10, "twelve": 12, "sixteen": 16,
            "thirty-two": 32, "sixty-four": 64, "a couple of": 2, "couple of": 2, "a few": 3}
# Magnitude words after a number.
MAGNITUDE = {"k": 1e3, "千": 1e3, "w": 1e4, "万": 1e4, "m": 1e6, "million": 1e6, "百万": 1e6, "千万": 1e7,
             "b": 1e9, "billion": 1e9, "亿": 1e8, "十亿": 1e9, "百亿": 1e10, "千亿": 1e11, "t": 1e12,
             "trillion": 1e12, "万亿": 1e12}
MAG = r"(?:万亿|千亿|百亿|十亿|千万|百万|亿|万|千|trillion|billion|million|[kmbtw])"
HOURS = {"year": 8760.0, "years": 8760.0, "yr": 8760.0, "年": 8760.0, "month": 730.0, "months": 730.0, "mo": 730.0,
         "个月": 730.0, "月": 730.0, "week": 168.0, "weeks": 168.0, "wk": 168.0, "周": 168.0, "星期": 168.0,
         "个星期": 168.0, "礼拜": 168.0, "day": 24.0, "days": 24.0, "天": 24.0, "日": 24.0, "hour": 1.0, "hours": 1.0,
         "hr": 1.0, "hrs": 1.0, "h": 1.0, "小时": 1.0, "个小时": 1.0, "钟头": 1.0,
         "minute": 1 / 60, "minutes": 1 / 60, "min": 1 / 60, "mins": 1 / 60, "分钟": 1 / 60}
TIME_UNIT = r"(?:years?|yrs?|months?|mos?|weeks?|wks?|days?|hours?|hrs?|个月|个星期|个小时|星期|礼拜|钟头|小时|年|月|周|天|日)"


def cn_number(text: str) -> float | None:
    """七百 -> 700, 一千二 -> 1200, 十六 -> 16, 两 -> 2, 半 -> 0.5; None when not a Chinese numeral."""
    if not text or any(ch not in CN_DIGITS for ch in text):
        return None
    if text == "半":
        return 0.5
    total, current, last_unit = 0, 0, 1
    for ch in text:
        if ch in _CN:
            current = _CN[ch]
        elif ch in _CN_UNIT:
            last_unit = _CN_UNIT[ch]
            total += (current or 1) * last_unit
            current = 0
        else:
            return None
    if current and last_unit >= 100 and len(text) >= 3 and text[-2] in "百千":  # 一千二 = 1200
        current *= last_unit // 10
    return float(total + current)


def number(text: str) -> float | None:
    """'1,000' / '1.5' / '七百' / 'two' as a float; None when it is not a number."""
    text = text.strip().lower()
    if re.fullmatch(r"\d+(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?", text):
        return float(text.replace(",", ""))
    if text in EN_WORDS:
        return float(EN_WORDS[text])
    return cn_number(text)


CN_COUNT = r"[一两二三四五六七八九十单双俩仨]+"  # counts written in Chinese: 两张, 单卡, 俩A800, 仨节点


def to_number(text: str) -> float | None:
    """A count or amount as written: digits, Chinese numerals (单 双 俩 仨 too) or English words."""
    return number({"单": "一", "双": "两", "俩": "两", "仨": "三"}.get(text, text))


def written_numbers(text: str) -> list[float]:
    """Every number `text` writes, with its magnitude applied: '4k' -> 4000 and 4096 (a k of tokens is 1024),
    '1.5万' -> 15000, '70b' -> 7e10; Chinese numerals too. Digits inside names ('a100') are not numbers."""
    out: list[float] = []
    for m in re.finditer(r"(?<![a-z\d.])(\d+(?:,\d{3})*(?:\.\d+)?)\s*(k|m|b|t|万|亿|千|w)?(?![a-z\d])", text):
        v, word = float(m.group(1).replace(",", "")), m.group(2) or ""
        out.append(magnitude(v, word))
        if word in ("k", "m"):
            out.append(v * {"k": 1024, "m": 1024 * 1024}[word])
    out += [v for v in (cn_number(x) for x in re.findall(r"[零一二两三四五六七八九十百千半]+", text)) if v]
    return out


def magnitude(value: float, word: str | None) -> float:
    """value x the magnitude word ('1.5', '万' -> 15000)."""
    return value * MAGNITUDE.get((word or "").lower(), 1.0)


def length(text: str) -> int | None:
    """A token length: '8k' -> 8192, '8K' -> 8192, '4096' -> 4096, '128k' -> 131072, '1m' -> 1048576, '1000 万' -> 1e7."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(k|m|万)?", text.strip().lower().replace(",", ""))
    if not m:
        return None
    v = float(m.group(1)) * {"k": 1024, "m": 1024 * 1024, "万": 10_000}.get(m.group(2) or "", 1)
    return int(round(v))


def duration_hours(value: float, unit: str) -> float:
    """3, '个月' -> 2190 hours."""
    key = unit.lower().rstrip(".")
    if key not in HOURS and key.endswith("s"):
        key = key[:-1]  # 'yrs', 'wks', 'mos': the plural of an abbreviation
    if key not in HOURS:
        raise ValueError(f"unknown time unit {unit!r}")
    return value * HOURS[key]


LEN = r"(?:\d{1,3}(?:,\d{3})+(?![\d.])|\d+(?:\.\d+)?\s*万(?=\s*(?:个\s*)?tokens?)|\d+(?:\.\d+)?\s*[km]?(?![a-z]))"
