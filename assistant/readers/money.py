"""Money and time as people write them: their own price per GPU-hour ('¥8/hour', '8块钱一小时', '$2.5 per GPU-hour',
'7块5'), purchase prices ('一张6万', 'buying at $25k each', '整机40万'), budget, utilization, periods ('三个月',
'每天10小时', 'a whole month'), break-even questions, and whether a price question is about renting or buying."""
from __future__ import annotations

import re

from assistant.readers.numbers import NUM, TIME_UNIT, duration_hours, magnitude, to_number
from assistant.readers.slots import API_VS_SELF, RATIO_FIRST, RATIO_PER, RENT_OR_BUY, VOLUME_MAG, has, price_unit_at, w

_CNY = r"¥|￥|元|块钱?|rmb|人民币|cny|万元|yuan|renminbi"
_USD = r"\$|usd|美元|美金|刀|dollars?|bucks"
MONEY = (rf"(?:(?P<pre>{_USD}|¥|￥)\s*)?(?P<v>\d+(?:,\d{{3}})*(?:\.\d+)?|[零一二两三四五六七八九十百千半]+)\s*(?P<mag>万亿|亿|万|千|k(?![a-z])|m(?![a-z])|w(?![a-z]))?\s*"
         rf"(?P<post>{_CNY}|{_USD})?(?P<jiao>(?<=块)\d)?")


# what follows or comes just before an amount that makes it a physical quantity, not money: '500W', '12 kW',
# '2.4万GB', '功耗别超 500W' ('w' is also slang for 万: '预算 5w')
_UNIT_AFTER = r"\s*(?:kw|w(?![a-z])|瓦|千瓦|gb|tb|mb|gib|tib|g(?![a-z])|v(?![a-z])|volts?|伏|amps?|安(?!装))"
_POWER_BEFORE = r"(?:功耗|功率|电源|供电|耗电|power|psu|watt\w*|outlet|circuit|rack|机柜|插座)[^。；;.?？\n]{0,12}$"


def _money(m: re.Match) -> tuple[float, str | None] | None:
    v = to_number(m.group("v"))
    if v is None:
        return None
    text = m.string
    if not (m.group("pre") or m.group("post")) and (
            (m.group("mag") in ("w", "k") and re.search(_POWER_BEFORE, text[max(0, m.start() - 24):m.start()]))
            or re.match(_UNIT_AFTER, text[m.end():]) or (m.group("mag") == "k" and re.match(r"w(?![a-z])", text[m.end():]))):
        return None  # a power or a memory size, not an amount of money
    v = magnitude(v, m.group("mag"))
    if m.group("jiao"):  # '7块5' = 7.5
        v += int(m.group("jiao")) / 10
    cur = m.group("pre") or m.group("post") or ""
    currency = "CNY" if re.fullmatch(_CNY, cur) else "USD" if re.fullmatch(_USD, cur) else None
    return v, currency


def _purchase_amount(m: re.Match, window: str) -> bool:
    """A price, not a length or a count: a currency, or a bare '6万' that no token word follows."""
    got = _money(m)
    if not m.group("v") or got is None or got[0] < 100:
        return False
    if re.search(r"(?:/|每|per)\s*$", window[max(0, m.start() - 5):m.start()]):
        return False  # '¥4/百万': the unit of a price, not an amount
    if re.match(r"\s*(?:tokens?|token|上下文|context|ctx|序列|seq|条|张|卡|台|b\b)", window[m.end():]):
        return False
    return bool(got[1]) or m.group("mag") in ("万", "w")


def money(text: str) -> dict:
    """The user's own prices, budget, utilization and periods."""
    out: dict = {}
    whole = text  # (matches are blanked from `text` as they are read)
    rate = (r"(?:/|per|每|一|an?|每个|each)\s*(?:gpu|卡|张卡|card)?\s*[-·/]?\s*(?:hours?|hr|h|小时|卡时|卡·时|个小时|时)(?![a-z])")
    m = re.search(MONEY + r"\s*" + rate, text) or \
        re.search(r"(?:每小时|一小时|每卡时|卡时|每卡每小时|每张卡每小时|per hour|an hour|hourly|per gpu[\s-]?hour|gpu[\s-]?hours? (?:at|cost|is)|"
                  r"/h|/hr)\s*(?:的)?\s*(?:综合|总|整体)?\s*"
                  r"(?:成本|费用|花费|开销|租金)?\s*(?:是|要|约|大概|收费|价格)?\s*" + MONEY, text)
    if m:
        got = _money(m)
        if got and got[0] > 0 and (got[1] or re.search(rf"{_CNY}|{_USD}|小时|hour|/h", m.group(0))):  # ('0/h' is no price)
            out["price_per_gpu_hour"], cur = got
            if cur:
                out["currency"] = cur
            text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    if "price_per_gpu_hour" not in out and re.search(r"gpu[\s-]?h(?:ou)?rs?|/\s*gpu|卡时|per hour|an hour|hourly|/h", whole):
        # ('effective $/GPU-hour … vs just renting at $2.20'): a bare rent beside GPU-hours is a rate per GPU-hour
        m = re.search(r"(?:rent(?:ing|ed|al)?|租(?:用|的话)?|租金|租价)\s*(?:it|them|one|cards?|gpus?)?\s*(?:at|for|is|of|@|:|是|为)?"
                      r"\s*(?:~|about|around|roughly|约|大概)?\s*" + MONEY, text)
        got = _money(m) if m else None
        if got and 0 < got[0] <= (300 if got[1] == "CNY" else 50) and not re.match(
                r"\s*(?:k|m|万|千|/\s*(?:mo|month|yr|year)|(?:a|per) (?:month|year)|每月|一个月|/月|月)", text[m.end():]):
            out["price_per_gpu_hour"], cur = got
            if cur:
                out.setdefault("currency", cur)
            text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    budget_words = r"预算|经费|资金|拨款|批了|拨了|上限|封顶|budget|最多花|手上有|手里有|to spend|可以花|能花|" + w(
        r"approved|allocated|earmarked|set aside|signed off on") + "|" + w(
        r"(?:i|we) (?:have|got|can spend|can afford)|(?:i|we)'ve got|spend(?:ing)? up to")
    candidates = [x for x in (
        re.search(r"(?:预算|经费|资金|拨款|批了|拨了|budget(?:['’]s|\s*(?:of|is))?|最多花|手上有|手里有|不超过|" + w(
            r"approved|allocated|earmarked|set aside|signed off on") + "|" + w(
            r"under|below|less than|at most|max|(?:i|we) (?:have|got|can spend|can afford)|"
            r"(?:i|we)'ve got|spend(?:ing)? up to|(?:buy|build|get|purchase) with|"
            r"(?:capex|budget|spend(?:ing)?|hardware|purchase)\s*(?:cap|ceiling|limit)(?:\s*of)?|capped at") + r"|上限|封顶|顶多)\s*"
            r"(?:\s*(?:是|为|有|约|大概|大约|差不多|:|：|~|≈|of|is|about|around|roughly|approx\.?|total)(?![a-z])\s*){0,3}"
            + MONEY, text),
        re.search(MONEY + r"\s*(?:的)?\s*(?:(?:hardware|capex|total|gpu|server|purchase|overall|all[\s-]*in)\s+)?"
                          r"(?:预算|budget|以内|to spend|可以花|能花)", text)) if x]
    candidates += [x for x in (  # 'is $6M realistic for us?', '600 万美金够吗': the money the plan must fit in
        re.search(r"(?:is|would|will)\s+(?:~|about)?\s*" + MONEY + r"\s*(?:for us\s*)?(?:be\s*)?(?:realistic|enough|"
                  r"feasible|doable|sufficient)", text),
        re.search(r"(?<![a-z0-9])" + MONEY + r"\s*(?:够吗|够不够|够用吗|能行吗|现实吗|靠谱吗)", text))
        if x and (x.group("pre") or x.group("post") or x.group("mag"))]  # ('EP8 够不够': a layout, not a budget of 8)
    # (the first that is a budget: 'max 2 servers … ~$440k hardware budget' is not a budget of 2)
    m = next((x for x in candidates if (x.group("pre") or x.group("post") or re.search(budget_words + r"|realistic|enough|"
                                                                                      r"feasible|doable|sufficient|够", x.group(0)))
              and not re.match(r"\s*(?:%|％|percent|个百分点|成)", text[x.end():])  # ('budget 5% of time': a share)
              and (x.group("pre") or x.group("post") or not re.match(
                  r"\s*(?:x|×|\*|张|块|台|个|gpus?|cards?|nodes?|servers?|boxes|machines?|[a-z]+\d|"
                  r"(?:(?:concurrent|active|daily|internal|external|paying|beta|end|total|monthly|regular|power|"
                  r"simultaneous|internal-facing)\s+){0,2}(?:users?|people|persons?|customers?|clients?|devs?|developers?|"
                  r"engineers?|employees?|staff|seats?|members?|requests?|sessions?|qps|rps|tokens?|samples?|"
                  r"documents?|docs?)(?![a-z])|用户|人|位|名|并发|路|条|篇)", text[x.end():], re.I))),
             None)  # ('we have 4x A100 40GB': four GPUs; 'if I have 100 users': a load; neither a budget)
    if m:
        got = _money(m)
        if got and got[0] > 0:
            out["budget"], cur = got
            if cur:
                out["currency"] = cur
            text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    m = re.search(r"(?:colo\w*|co-?location|hosting|托管|机房|机柜)[^。；;.?？]{0,30}?" + MONEY + r"\s*(?:/|per|每|一|a)\s*(?:个)?\s*"
                  r"(?:月|month|mo)(?![a-z])", text) or \
        re.search(MONEY + r"\s*(?:/|per|每|一|a)\s*(?:个)?\s*(?:月|month|mo)(?![a-z])[^。；;.?？]{0,12}?(?:for\s+)?(?:colo\w*|"
                  r"co-?location|hosting|托管)", text) or \
        re.search(r"(?:托管|机房|机柜|colo\w*|hosting)[^。；;.?？]{0,12}?(?:每月|每个月|月费|per month|a month|monthly)\s*"
                  r"(?:是|为|约|大概|:|：)?\s*" + MONEY, text)
    yearly = None
    if not m:  # '电费+机房每台每年 ¥10 万', 'colo and power $20k a year': the owner's running cost, by the year
        m = yearly = re.search(r"(?:colo\w*|co-?location|hosting|托管|机房|机柜|运维)[^。；;.?？]{0,16}?(?:每年|一年|per year|a year|"
                               r"annually|yearly)\s*(?:是|为|约|大概|:|：)?\s*" + MONEY, text) or \
            re.search(r"(?:colo\w*|co-?location|hosting|托管|机房|机柜)[^。；;.?？]{0,30}?" + MONEY + r"\s*(?:/|per|每|一|a)\s*"
                      r"(?:年|year|yr)(?![a-z])", text) or \
            re.search(MONEY + r"\s*(?:/|per|a|an)\s*(?:year|yr)\s*(?:for\s+|of\s+)?(?:colo\w*|co-?location|hosting|data[\s-]?cent\w*)",
                      text)  # ('$25k/yr colo (incl power)')
    if m:  # '$3k/month for colocation and power', '托管 + 电费每月 ¥8,000': the owner's running cost
        got = _money(m)
        if got and yearly is not None:
            got = (got[0] / 12, got[1])  # (a year's cost, carried as its month)
        if got and got[0] > 0:
            out["hosting_per_month"], cur = got
            out["currency"] = out.get("currency") or cur
            near = text[max(0, m.start() - 12):m.end() + 24]
            fee_at = re.search(r"[$¥￥€£]|\d", m.group(0))
            joined = m.group(0)[:fee_at.start()] if fee_at else ""
            if re.search(r"(?:[+＋&/]|and|和|与|及|加)\s*(?:power|electricity|电费)", joined):
                out["hosting_includes_power"] = True  # ('colo+power $2,500/mo': one fee covers both)
            elif re.search(r"含电|包电|电费在内|含电费|包含电费|包括电费|[+＋和与及]\s*电费|电费\s*[+＋]|[+＋&/]\s*(?:power|electricity)|"
                         r"(?:power|electricity)\s*[+＋&/]|" + w(
                    r"(?:including|incl\.?|inc\.?|with|and|plus|\+)\s*(?:power|electricity)|"
                    r"(?:power|electricity)\s*(?:included|incl\.?|inc\.?|and)"),
                         near) and not re.search(r"电费\s*[:：]?\s*\d|(?:power|electricity)\s*(?:at|is|:)?\s*\$?\s*\d", near) \
                    and not re.search(
                    r"另计|另算|单独|不含|另外付|" + w(r"separate\w*|extra|excluded|not included|on top|billed separately"),
                    text[max(0, m.start() - 12):m.end() + 40]):
                out["hosting_includes_power"] = True  # ('power billed separately': not in the fee)
            text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    m = re.search(MONEY + r"\s*(?:/\s*(?:台|node|server)\s*)?(?:/|per|每|一|a)\s*(?:个)?\s*(?:月|month|mo)(?![a-z])", text) or \
        re.search(r"(?:包月|月租|月费|每月|每个月|" + w(r"monthly|per month|a month") + r")\s*(?:租金|费用|报价|价格|rent|price|cost)?\s*"
                  r"(?:是|为|要|约|大概|:|：|of|is|at)?\s*" + MONEY, text)
    if m and re.search(r"租|rent|leas|包月|月租|报价|quote|reserv|cloud|云|plan|monthly|subscri|套餐", whole):
        got = _money(m)
        if got and got[0] > 0:  # '包月租一台 8 卡 H20，7.5 万元/月', '$45,000 a month for the node': a monthly rental
            out["rent_per_month"], cur = got
            if cur:
                out["currency"] = cur
            if re.search(WHOLE_SERVER + r"|台|整机|node|box|server|(?:8|八)\s*卡", whole):
                out["rent_per_month_server"] = True
            text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    over = re.search(r"(?:node|server|host|system|整机|服务器|每台)\s*(?:overhead|其余|其他|额外|另加|附加)\s*(?:功耗|power|draw)?\s*"
                     r"(?:of|is|=|:|约|about|~)?\s*(\d+(?:\.\d+)?)\s*kw(?![a-z])|(\d+(?:\.\d+)?)\s*kw\s*(?:of\s+)?(?:node|server|host)\s*"
                     r"overhead", text)
    if over:  # 'node overhead 2.5 kW': each server's draw beside its GPUs', not the server's whole draw
        out["node_overhead_kw"] = float(over.group(1) or over.group(2))
        text = text[:over.start()] + " " * (over.end() - over.start()) + text[over.end():]
    m = re.search(r"(?<![A-Za-z0-9_.])(\d+(?:\.\d+)?)\s*kw(?![a-z])(?!\s*h)", text)  # ('满载3.5kW': a Chinese word before)
    if m and 0 < float(m.group(1)) <= 1000 and re.search(r"draw|功耗|功率|power|耗电|满载|at full load|consum", whole):
        out["power_kw"] = float(m.group(1))  # 'the node draws 10.2 kW', '整机功耗 3.5kW'
    if "power_kw" not in out:
        m = re.search(r"(?:pulls?|pulling|draws?|drawing|uses|consumes?|功耗|耗电|整机)\s*(?:about|around|roughly|~|约|大概)?\s*"
                      r"(\d{3,4}(?:\.\d+)?)\s*(?:w|watts?|瓦)(?![a-z])", text) or \
            re.search(r"(?<![\w.])(\d{3,4}(?:\.\d+)?)\s*(?:w|watts?|瓦)\s*(?:under (?:full )?load|at (?:full )?load|满载|from the wall)",
                      text)
        if m and 100 <= float(m.group(1)) <= 20_000:  # 'system pulls ~650W under load': the box's draw, in watts
            out["power_kw"] = float(m.group(1)) / 1000
    idle = re.search(r"idle[^.;,，。；]{0,24}?(\d{1,2}(?:\.\d+)?)\s*%|(?:空闲|闲置|待机)[^.;,，。；]{0,12}?(\d{1,2}(?:\.\d+)?)\s*%", text)
    if idle:  # 'idle GPU draw ~30% of TDP': what an idle card still draws, as a share of its full draw
        out["idle_power_share"] = float(idle.group(1) or idle.group(2)) / 100
    m = re.search(r"pue\s*(?:of|=|:|是|为|：|按)?\s*(\d(?:\.\d+)?)", text)
    if m and 1 <= float(m.group(1)) <= 3:
        out["pue"] = float(m.group(1))
    elif re.search(r"(?:已含|已经含|含|包含|包括|including|incl\.?|includes?)\s*(?:了)?\s*pue|pue\s*(?:已含|included|already)", text):
        out["pue"] = 1.0  # ('电费 ¥0.8/度（已含 PUE）': the price already carries the cooling: not multiplied again)
    m = re.search(r"(?:amorti[sz]\w*|depreciat\w*|write[\s-]*off|折旧|摊销)[^。；;.?？]{0,12}?(\d+(?:\.\d+)?|[一两二三四五六七八九十])\s*"
                  r"(?:-\s*)?(?:years?|yrs?|年)", text) or \
        re.search(r"(?:按|over|分)?\s*(?<![\d.])(\d+(?:\.\d+)?|[一两二三四五六七八九十])\s*(?:-\s*)?(?:years?|yrs?|年)\s*(?:的)?\s*"
                  r"(?:折旧|摊销|amorti[sz]\w*|depreciat\w*|write[\s-]*off)", text)
    if m and to_number(m.group(1)) and 0 < to_number(m.group(1)) <= 15:
        out["depreciation_years"] = to_number(m.group(1))
        text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]  # ('按 3 年折旧' is no 3-year period)
    host = r"(?:准系统|机箱|底座|主机|服务器平台|(?<![云算])平台(?!\s*(?:租|按|每小时|/))|主板|服务器(?=\s*(?:准系统|另算|另计|单独|不含卡))|" \
        r"chassis|barebones?|host(?:\s+(?:server|machine|system|box))?|motherboard|(?<!cloud )platform|" \
        r"rest of the (?:build|rig|box|machine|system)|" \
        r"server\s+(?:chassis|platform|without (?:the )?(?:gpus|cards)))"
    m = re.search(host + r"[^。；;.?？\d¥￥$]{0,12}?" + MONEY, text) or \
        re.search(MONEY + r"\s*(?:for|的)?\s*(?:the|a|each|per|每台)?\s*" + host, text)
    if m:  # '服务器准系统另算 ¥8 万', 'chassis $14k': the server a buyer puts the GPUs in, priced apart from them
        got = _money(m)
        if got and got[0] >= 500 and (m.group("pre") or m.group("post") or m.group("mag") or got[0] >= 1000):
            out["host_price_per_server"], cur = got
            out["currency"] = out.get("currency") or cur
            text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    buy = (r"(?:买|购买|采购|购入|花了|装机|攒机|组装|(?<![a-z])(?:build|built|building|assembl\w*)(?![a-z])|(?<![a-z])(?:card|gpu|cards|gpus)\s+(?:was|were)(?![a-z])|buy\w*|bought|purchase\w*|pay(?:ing)?|paid|costs?|cost us|quoted|quote[sd]?|priced at|售价|报价|单价|价格|一张|一台|each|per card|"
           r"a card|a server|per server|一整台|每台|整机|服务器|capex|capital (?:cost|expense)|硬件(?:投入|总共|一共|合计|总价)|总投资)")
    for b in re.finditer(buy, text):
        if re.search(r"训练|训|(?<![a-z])(?:train\w*|pre-?train\w*)\s*(?:only\s*)?$", text[max(0, b.start() - 10):b.start()]):
            continue  # ('训练只花了 557.6 万美元', 'training cost $5.6M': a run's cost, not a card's price)
        window = text[b.end():b.end() + 40]  # ('buying an 8x H100 server is $280k': the object named in between)
        hit = next((m for m in re.finditer(MONEY, window) if _purchase_amount(m, window)
                    and not re.search(r"/\s*(?:month|mo|月|hr|hour|h)\b|per (?:month|hour)", window[m.end():m.end() + 10])
                    and not re.match(r"\s*(?:to (?:pre-?)?train|for (?:pre-?)?training|in (?:compute|gpu)|训练|的训练)",
                                     window[m.end():])), None)  # ('cost only $5.6M to train': a run's cost, not a card's)
        if hit is None:
            continue
        value, cur = _money(hit)
        server = re.search(r"台|服务器|server|node|box|整机|dgx|hgx|8卡|八卡|机器|machine|(?<![a-z])(?:rig|build|workstation)"
                           r"(?![a-z])|装机|攒机|组装|主机",
                           text[max(0, b.start() - 8):b.end() + hit.end()]) or re.match(
            r"\s*(?:for|per)\s+(?:an?|one|the|each)?\s*(?:\d+\s*x?\s*)?[\w\s-]{0,16}?(?:server|node|box|machine|dgx|hgx)",
            text[b.end() + hit.end():b.end() + hit.end() + 48])  # ('quoted $280k for an 8x H100 HGX server')
        out["purchase_price_per_server" if server else "purchase_price"] = value
        out["currency"] = out.get("currency") or cur
        break
    if "purchase_price" not in out and "purchase_price_per_server" not in out:
        for m in re.finditer(r"(?:server|node|box|machine|dgx|hgx|整机|服务器|一台)\s*(?:is|costs?|runs?|goes for|=|:|：|约|要|"
                             r"价格|报价|售价|大概|at)?\s*(?:about|around|roughly|~|约|大概)?\s*" + MONEY, text):
            got = _money(m)
            tail = text[m.end():m.end() + 12]
            if got and got[0] >= 1000 and (m.group("pre") or m.group("post") or m.group("mag")) and not re.match(
                    r"\s*(?:/|per|每|一|a)\s*(?:个)?\s*(?:month|mo|月|hr|hour|h|小时|year|年)(?![a-z])", tail):
                # 'an 8x H100 SXM server is $280k', '整机约 120 万': a whole server's purchase price
                out["purchase_price_per_server"] = got[0]
                out["currency"] = out.get("currency") or got[1]
                break
    if "purchase_price" not in out and "purchase_price_per_server" not in out:
        m = re.search(MONEY + r"\s*(?:purchase|purchase price|to buy|upfront|capex|买断|购置|采购价)", text)
        got = _money(m) if m else None
        if got and got[0] >= 1000:  # '$260k purchase': the amount before the word
            server = re.search(r"台|服务器|server|node|box|整机|机器|machine|(?:8|八)\s*(?:x|卡)", whole)
            out["purchase_price_per_server" if server else "purchase_price"] = got[0]
            out["currency"] = out.get("currency") or got[1]
    if "purchase_price" not in out and "purchase_price_per_server" not in out:
        for hit in re.finditer(MONEY + r"\s*(?:一张|一块|一台|each|a card|per card|/张|/卡|/台)", text):
            before = text[max(0, hit.start() - 24):hit.start()]
            if re.search(r"(?:users?|requests?|sequences?|ctx|context|tokens?|上下文|用户|并发|请求)[^.;,，。]{0,12}(?:at|of|with|@|按)?\s*$",
                         before) and not (hit.group("pre") or hit.group("post")):
                continue  # '8 users at 32k each': a context length each, not a price
            if _purchase_amount(hit, text[hit.start():]) or (_money(hit) or (0, None))[0] >= 1000:
                value, cur = _money(hit)
                key = "purchase_price_per_server" if re.search(r"台", hit.group(0)) else "purchase_price"
                out[key] = value
                out["currency"] = out.get("currency") or cur
                break
    share = re.search(r"(?:整机|服务器|主机|平台|机箱|准系统|the (?:server|box|chassis|host))[^。；;.?？\d¥￥$]{0,8}?(?:分摊|摊到|摊|share)"
                      r"[^。；;.?？\d¥￥$]{0,8}?(?:每卡|每张|per (?:card|gpu)|each card)[^。；;.?？\d¥￥$]{0,6}?" + MONEY, text)
    if share and out.get("purchase_price"):
        got = _money(share)
        if got and got[0] > 0:  # '买一张 ¥1.8万，整机分摊每卡再加 ¥5000': the card plus its share of the server, per card
            out["purchase_price"] = out["purchase_price"] + got[0]
            out["purchase_includes_server_share"] = got[0]
            text = text[:share.start()] + " " * (share.end() - share.start()) + text[share.end():]
    m = re.search(r"(\d+(?:\.\d+)?)\s*%\s*(?:的)?\s*(?:(?:average|avg|mean|平均)\s*)?(?:utili[sz]ation|utili[sz]ed|利用率|使用率|usage|busy|负载|of the time|load(?![a-z]))|"
                  r"(?:utili[sz]ation|利用率|使用率|usage|负载|load)\s*(?:(?:of|是|为|约|大概|按|只有|只|仅|才|降到|:|：|at|about|around|only|drops to|~|is|will be|=|expected at)\s*){0,2}"
                  r"(\d+(?:\.\d+)?)\s*%", text)
    m = m or re.search(r"(\d+(?:\.\d+)?)\s*%\s*(?:of\s*)?(?:(?:its|their|the)\s*)?(?:max(?:imum)?|peak|full|rated|nameplate)\s*"
                       r"(?:power|load|draw)|(?:最大|满载|额定)\s*功率的\s*(\d+(?:\.\d+)?)\s*%", text)
    # ('running at ~70% of max power on average': the average draw as a share of the rated one)
    if m:
        out["utilization"] = float(next(g for g in m.groups() if g)) / 100
    elif has(r"24/7|24x7|7x24|7×24|24×7|全天候|不间断|不停|持续(?:训练|运行|跑|使用)|连续(?:跑|运行|训练|使用|开|服务)|一直跑|满负荷|" +
             w(r"around the clock|non[\s-]?stop|continuous(?:ly)?|full[\s-]?time|flat[\s-]?out"), text):
        out["utilization"] = 1.0  # 'a year of continuous training': the GPUs work all the time
    m = re.search(r"(?<![\d.])24\s*(?:个)?\s*(?:小时|h|hours?|hrs?)(?![a-z/])\s*(?:都|全|一直)?\s*(?:满负荷|满载|不停|不间断|全开|开机|运行|"
                  r"在跑|跑|运转|running|nonstop|non-stop|flat out|at full load)", text)
    if m:  # '24 小时满负荷跑': around the clock, every day (a rate of use, not a 24-hour job)
        out["hours_per_day"] = 24.0
        out.setdefault("utilization", 1.0)
        text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    m = re.search(r"(?:每天|一天|天天|per day|a day|daily)\s*(?:只|就|大概|大约|约|平均)?\s*"
                  r"(?:(?:\d+|[一两二三四五六七八九十]+)\s*(?:张|块)?\s*卡\s*(?:都|全|各)?\s*)?(?:用|跑|开|使用|运行)?\s*(?:了)?\s*"
                  r"(\d+(?:\.\d+)?|[一两二三四五六七八九十]+)\s*(?:个)?\s*"
                  r"(?:小时|hours?|hrs?|h)(?![a-z])", text) or \
        re.search(r"(\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h|小时)\s*(?:/|a|per|每|一)\s*(?:day|天)", text) or \
        re.search(r"(?:每天|一天|天天)[^，。；;\d]{0,8}?(?:大概|大约|约|平均)?\s*(\d+(?:\.\d+)?)\s*(?:个)?\s*(?:小时|h)(?![a-z])", text)
    # ('我们每天跑推理大概 16 小时': the words between are the work, the hours are a day's)
    if m and to_number(m.group(1)):
        out["hours_per_day"] = to_number(m.group(1))
        text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    period = None
    found = []  # (score, order, hours): the job's own period beats a contract's term ('a 1-year reserved contract … we
    # need it for 18 months': 18 months) and an extension ('the extra 6 months')
    for m in re.finditer(r"(?<![\d.])(?<![a-z])(" + NUM + r")\s*-?\s*(" + TIME_UNIT + r"|h(?![a-z0-9]))(半)?(?![a-z])", text):
        # ('took 6.5 h', '6.5h': an hour's symbol; never the 'h' of 'H100')
        # ('H100-hours': a card's GPU-hours, not a 100-hour period)
        v = to_number(m.group(1))
        if not v or re.match(r"\s*(?:内|以内|之内)", text[m.end():m.end() + 3]):
            continue
        if re.search(r"(?:<|≤|<=|under|within|less than|at most|before|by)\s*~?\s*$", text[max(0, m.start() - 12):m.start()]):
            continue  # ('needs to finish overnight (<12h)', 'within 48 hours'): a deadline, not a period to price
        hourly = m.group(2) in ("小时", "个小时", "hour", "hours", "hr", "hrs", "h")
        if hourly and (re.fullmatch(r"一|1|每", m.group(1)) or re.search(r"(?:每|per|an?|/)\s*$", text[max(0, m.start() - 5):m.start()])):
            continue  # 'per hour' / '一小时' is a rate's unit, not a period
        before, after = text[max(0, m.start() - 24):m.start()], text[m.end():m.end() + 24]
        score = 0
        if re.search(r"需要|要用|用|跑|持续|" + w(r"need(?:s|ed)? (?:it|them|the \w+)? ?for|use (?:it|them)? ?for|run(?:ning)? (?:it|them)? ?for|"
                                        r"for|over|lasts?|project|job"), before):
            score += 2
        if re.search(r"合同|合约|包年|包月|预留|签|" + w(r"contract|reserved|reservation|term|commit\w*|lease"), before + " " + after[:12]):
            score -= 3
        if re.search(r"另外|再|延长|续|" + w(r"extra|additional|more|extend\w*|another"), before[-14:]):
            score -= 2
        found.append((score, -len(found), duration_hours(v + (0.5 if m.group(3) else 0), m.group(2))))
    if found:
        period = max(found)[2]
    if period is None:
        m = re.search(w(r"(?:for|over|in|run me|a|one)\s+(?:a|an|one|a full|the)?\s*(?:whole|full|entire)?\s*(year|month|week|day)") + r"|(?:一|1)?\s*整?(年|个月)(?:下来|用|租)|全年|一年|半年", text)
        if m:
            unit = m.group(1) or m.group(2) or ("半年" if "半年" in m.group(0) else "年")
            period = 4380.0 if unit == "半年" else duration_hours(1, unit)
    if period is None:  # 'electricity cost per month', '每月电费': one month of the rate asked about
        m = re.search(r"每(?:个)?月|一个月|" + w(r"per month|a month|monthly|each month|/month|/mo"), text)
        if m:
            period = duration_hours(1, "month")
    if period is not None:
        out["period_raw_hours"] = period
    m = re.search(MONEY + r"\s*(?:/|per|每|一)\s*(?:kwh|kw·h|kw-h|度)", text) or \
        re.search(r"(?:电费|电价)?\s*(?:一|每)\s*度(?:电)?\s*(?:是|为|约|大概|:|：)?\s*" + MONEY, text) or \
        re.search(r"(?:电价|电费单价|electricity(?: price)?(?: is| at| of)?)\s*(?:是|为|约|:|：)?\s*" + MONEY, text)
    if m:
        got = _money(m)
        if got and 0 < got[0] <= 100:
            out["electricity_per_kwh"] = got[0]
            out["currency"] = out.get("currency") or got[1]
    m = re.search(r"残值\s*(?:按|为|约|算|是)?\s*(\d+(?:\.\d+)?)\s*%|(?:卖|转手|转卖)[^。；;,，]{0,8}?(?:回|得)?\s*(\d+(?:\.\d+)?)\s*%|"
                  + w(r"resale (?:value )?(?:of |at |is |around |about |~)?(\d+(?:\.\d+)?)\s*%|(?:sell|resell) (?:it|them|the \w+) "
                      r"(?:for|at) (?:about |around |~)?(\d+(?:\.\d+)?)\s*%"), text)
    if m and float(next(g for g in m.groups() if g)) < 100:
        out["resale_fraction"] = float(next(g for g in m.groups() if g)) / 100
    elif has(r"残值\s*(?:按|为|算|是)?\s*(?:0|零)(?![\d.])|不(?:考虑|算|计)残值|没有残值|无残值|不卖|" +
             w(r"(?:zero|no|nil|0%?) resale|resale (?:value )?(?:of |at |is |= )?(?:zero|0|nil|none)|write (?:it|them) off|"
               r"written off|writing (?:it|them) off|won't (?:sell|resell)|not (?:sell|resell)\w*"), text):
        out["resale_fraction"] = 0.0
    if has(r"包年|预留实例|预留|长租|合约|签(?:了)?\s*\d*\s*年|" + w(r"reserved|reservation|contract|commit(?:ment|ted)|committed use|"
                                                          r"\d[\s-]*(?:year|yr) term"), text):
        out["rent_committed"] = True  # 'a 1-year reserved contract at $2.10/GPU-hr': paid every hour of the term
    if has(RENT_OR_BUY + r"|回本|划算|" + w(r"break[\s-]?even|payback|pay back|pays? for itself|pays? off|until (?:buying|owning|it) "
                            r"(?:is|becomes|gets) cheaper|before (?:buying|owning) (?:is|becomes) cheaper|"
                            r"(?:buying|owning) (?:is|becomes) cheaper"), text):
        out["break_even"] = True
    if re.search(API_VS_SELF, text) and re.search(r"便宜|省钱|划算|成本|花费|贵|" + w(r"cheap\w*|cost\w*|expensive|save|saving"
                                                                            r"|worth|pricier|less money"), text):
        out["break_even"] = True  # 'API 还是自己部署便宜', 'API or self-host, which is cheaper?': the two bills compared
    if "period_raw_hours" in out and "hours_per_day" in out and out["period_raw_hours"] >= 24:
        out["period_hours"] = out["period_raw_hours"] / 24 * out["hours_per_day"]
    elif "period_raw_hours" in out:
        out["period_hours"] = out["period_raw_hours"]
    out.pop("period_raw_hours", None)
    server_hour = _server_hourly_price(whole, out)
    if server_hour is not None:
        out["server_price_per_hour"] = server_hour
        for k in ("price_per_gpu_hour", "break_even", "server"):
            out.pop(k, None)
        if out.get("purchase_price_per_server") == server_hour:
            out.pop("purchase_price_per_server")  # (a server price that was the hourly one; a real purchase stays)
    if "currency" not in out:
        if has(_CNY, text):
            out["currency"] = "CNY"
        elif has(r"\$|" + w("usd|dollars?|bucks") + "|美元|美金", text):
            out["currency"] = "USD"
    return out


_PER_HOUR = r"每小时|一小时|每个小时|每时|" + w(r"per hour|an hour|hourly|/h|/hr|/hour")
_SERVER = r"整机|一台|每台|整台|台服务器|服务器|机器"
_A_SERVER = w(r"(?:per|a|the whole|each|whole|for the|for a|for one|for each|for the whole) (?:server|node|machine|box)")
# a whole machine, in either language: its price is over its GPUs
WHOLE_SERVER = _SERVER + "|" + _A_SERVER


def _server_hourly_price(text: str, out: dict) -> float | None:
    """A whole server's price per hour ('整机 ¥90/小时', '一台8卡服务器每小时45元', '$160 per hour per server'), read
    either as a server's purchase price with an hourly unit or as a GPU-hour price written beside a server word;
    None when the price is per GPU ('每卡每小时 8 块')."""
    p = out.get("purchase_price_per_server")
    if p and out.get("price_per_gpu_hour") is None and re.search(
            rf"{re.escape(f'{p:g}')}[^。？?！!，,]{{0,8}}?(?:{_PER_HOUR})|(?:{_PER_HOUR})[^。？?！!，,]{{0,8}}?", text):
        return p  # ('一台8卡服务器每小时45元' was read as a server's price: it is an hourly one)
    v = out.get("price_per_gpu_hour")
    if v is None or re.search(r"每卡|每张|卡时|/卡|" + w(r"per (?:gpu|card)|gpu[\s-]?(?:hour|hr)s?|/\s*gpu"), text):
        return None
    n = re.escape(f"{v:g}")
    if re.search(r"综合成本|总成本|整体成本|总费用|" + w(r"all[\s-]*in|total cost|in total|for the whole (?:node|server|cluster|box)"),
                 text) and re.search(_PER_HOUR, text):
        return v  # 'we run 8 H20s, ¥60 an hour all in': the deployment's cost per hour, over its GPUs
    if re.search(rf"(?:{_SERVER}|(?<![a-z])(?:server|node|box|machine)s?(?![a-z]))[^。？?！!，,]{{0,16}}?(?:¥|￥|\$)?\s*{n}|"
                 rf"(?:{_SERVER}|(?<![a-z])(?:server|node|box|machine)(?![a-z]))\s*[，,]\s*(?:{_PER_HOUR})[^。？?！!，,]{{0,8}}?"
                 rf"(?:¥|￥|\$)?\s*{n}|"  # ('租 8 卡 H200 整机，每小时大概 25 美元': the clause after the machine prices it)
                 rf"{n}\s*(?:元|块|美元|刀|usd|\$)?\s*/?\s*(?:台|整机)|" + _A_SERVER, text):
        # ('整机 55 元/小时', 'an 8x A800 server at $7.60/hour': the whole machine's hour)
        return v
    return None


def purchase_words(text: str) -> dict:
    out: dict = {}
    # 'used' as in second-hand, not 'pay only when used', 'hours used', 'GPUs we used'
    plain = re.sub(r"(?:when|while|if|hours?|time|gpus?|cards?|we|they|i|being|be|is|are|was|were|actually|get|gets|"
                   r"been|not) used|used (?:for|to|by|it|them|as)(?![a-z])", " ", text)  # (one space: masked names leave more)
    if has(r"二手|" + w(r"used|second[\s-]*hand|secondhand|refurb\w*|pre-owned|ebay"), plain):
        out["used"] = True
    if has(r"服务器|整机|机器|一台|" + w(r"servers?|nodes?|box|dgx|hgx|system") + r"|8卡机|八卡机", text):
        out["server"] = True
    rent = has(r"租|" + w(r"rent\w*|rental|per hour|hourly|an hour|/h|/hr|cloud|lease|runpod|lambda|aws|autodl"), text)
    buy_asked = has(r"(?:一张|一块|每张|单张|一台|整机)\s*(?:大概|大约|现在|要|卖)?\s*(?:多少钱|什么价|啥价|几万|几千)|买(?:一张|一块|一台)?\s*(?:要|大概)?"
                    r"多少钱|售价|" + w(r"(?:how much|what) (?:does|do|is|are|would) (?:an? |one |the )?\w*\s*(?:cost|go for)(?! to rent)|"
                                      r"(?:buy|purchase)\w* price|price to (?:buy|own)|cost to (?:buy|own)|msrp"), text)
    if rent and buy_asked:
        pass  # ('4090现在一张大概多少钱？租的话一小时多少？'): both prices asked, none filtered out
    elif rent:
        out["price_kind"] = "rent"
    elif has(r"买|购买|采购|售价|" + w(r"buy\w*|purchase\w*|msrp|retail|own"), text):
        out["price_kind"] = "buy"
    return out


def per_million_price(text: str) -> tuple[float, str | None] | None:
    """A price per million tokens written in the message ('¥16/百万 token', '$0.60 per 1M output tokens'): (value,
    currency), or None."""
    m = re.search(MONEY + r"\s*(?:/|per|每|一)\s*(?:百万|1m|m|million|1 million)\s*(?:个)?\s*(?:(?:输出|输入|output|input)"
                  r"(?:\s*tokens?)?(?![a-z])|tokens?|(?<=百万)(?![\u3400-\u9fff]*(?:请求|次|条)))", text)
    # ('¥4/百万': tokens understood; '$0.55 per 1M input': so are they)
    for unit in ([] if m else re.finditer(r"(?:每|per|/)\s*(?:百万|1m|m|million|1 million)\s*(?:个)?\s*(?:输出|输入|output|input)?"
                                          r"\s*tokens?\s*(?:的?价格|收费|要|是|为|costs?|is|at|:|：)?\s*", text)):
        # the unit first: '每百万 output token ¥2', 'per 1M tokens: $0.60' (a bare number after it is no price)
        after = re.match(MONEY, text[unit.end():])
        if after and after.group("v") and (after.group("pre") or after.group("post")):
            m = after
            break
    if not m:  # 'an API at $0.88/M?': a small price per M with nothing after it is per million tokens
        bare = re.search(MONEY + r"\s*/\s*(?:1m|m|million)(?![a-z0-9])", text)
        got = _money(bare) if bare else None
        if got and 0 < got[0] < 100 and (got[1] or re.search(r"[¥￥$]", bare.group(0))):
            return got
        return None
    got = _money(m)
    if not got or got[0] <= 0 or not (got[1] or re.search(r"[¥￥$]|元|块|美元|usd|rmb", m.group(0))):
        return None
    return got


def api_input_output_prices(text: str) -> tuple[float, float] | None:
    """(input, output) prices per million tokens when an API's two are written ('输入 ¥4/百万，输出 ¥12/百万',
    '$0.60 per 1M input, $2.40 per 1M output', 'input $0.6/M, output $2.4/M'), or None."""
    unit = r"\s*(?:/|per|每)\s*(?:百万|1m|m|million|1 million)\s*(?:个)?\s*(?:tokens?|token)?"
    def near(word: str) -> float | None:
        m = re.search(rf"(?:{word})\s*(?:tokens?|token)?\s*(?:价格|price|是|为|:|：|at|costs?)?\s*" + MONEY + unit, text) or \
            re.search(MONEY + unit + rf"\s*(?:的)?\s*(?:{word})", text)
        got = _money(m) if m else None
        return got[0] if got else None
    inp, out = near(r"(?<!cached )(?<!cache )(?<!缓存)(?:输入|input|prompt)"), near(r"输出|output|completion")
    both = re.search(r"[$¥￥]?\s*(\d+(?:\.\d+)?)\s*(?:in|input|输入)\s*(?:/|,|，|、|and|\+)\s*[$¥￥]?\s*(\d+(?:\.\d+)?)\s*"
                     r"(?:out|output|输出)\s*(?:per|/|每)\s*(?:1m|m|million|1 million|百万)(?![a-z])", text)
    if both and not (inp and out):  # '$0.15 in / $0.60 out per 1M': both prices, one unit after them
        inp, out = float(both.group(1)), float(both.group(2))
    if not (inp and out):  # '$0.15/M in, $0.60/M out': the short words, only right after a price per million
        short = lambda word: re.search(MONEY + unit + rf"\s*(?:{word})(?![a-z])", text)
        a, b = short("in"), short("out")
        inp = inp or (_money(a)[0] if a and _money(a) else None)
        out = out or (_money(b)[0] if b and _money(b) else None)
    return (inp, out) if inp and out else None


_CACHED_WORD = r"(?<!未)(?<!不)(?:缓存)?命中(?:缓存)?|缓存(?:输入|价格?)|cached(?:[\s-]*input)?|cache[\s-]*(?:hits?|reads?)|prompt[\s-]*cache"


def api_cache(text: str) -> tuple[float | None, float | None]:
    """(share of input tokens served from an API's prompt cache, its price per million cached input tokens), either
    None when not written: '缓存命中率 30%' / '30% cache hits'; '0.5 元/百万（命中）' / 'cached input $0.075/M'."""
    rate = re.search(r"(?:缓存)?命中率\s*(?:约|大约|大概|是|为|有|:|：|~)?\s*(\d{1,3}(?:\.\d+)?)\s*%|"
                     r"cache[\s-]*hit[\s-]*(?:rate|ratio)?\s*(?:of|is|at|:|=|~|about|around|roughly)?\s*~?\s*(\d{1,3}(?:\.\d+)?)\s*%|"
                     r"(\d{1,3}(?:\.\d+)?)\s*%\s*(?:of (?:the |our )?(?:input|prompt)s?(?: tokens?)? )?(?:are |is )?"
                     r"(?:cache[\s-]*hits?|cached|served from (?:the )?cache|(?:缓存)?命中)", text)
    hit = None
    if rate:
        v = float(next(g for g in rate.groups() if g)) / 100
        hit = v if 0 <= v <= 1 else None
    unit = r"\s*(?:/|per|每)\s*(?:百万|1m|m|million|1 million)\s*(?:个)?\s*(?:tokens?|token)?"
    m = re.search(rf"(?:{_CACHED_WORD})\s*(?:的)?\s*(?:tokens?)?\s*(?:价格|price|是|为|:|：|at|costs?)?\s*" + MONEY + unit, text) or \
        re.search(MONEY + unit + rf"\s*[（(]?\s*(?:的)?\s*(?:{_CACHED_WORD})", text)
    got = _money(m) if m else None
    return hit, (got[0] if got and got[0] > 0 else None)


_VOL_NUM = r"(\d+(?:\.\d+)?)\s*(k|m|million|bn|b|billion|百万|千万|万|亿)(?![a-z])\s*(?:个)?\s*(?:tokens?\s*)?"


def split_volumes(text: str) -> tuple[float, float] | None:
    """(input tokens, output tokens) of a volume written as its two parts ('160M input, 40M output', '输入 1.6 亿，输出
    4000 万', '30m input + 10m output'), each with its unit; None otherwise."""
    vol = lambda n, u: float(n) * VOLUME_MAG[u]
    # ('50 亿输入 token（缓存命中率 30%）、10 亿输出 token': a note in brackets between the parts is not a part)
    text = re.sub(r"[（(][^（）()]{0,40}[）)]", lambda m: m.group(0) if re.search(
        r"输入|输出|input|output|prompt|completion", m.group(0)) else " " * len(m.group(0)), text)  # (the parts may be in it)

    def volume(m) -> bool:  # ('$2.50 per 1M input and $10 per 1M output' is two prices' unit, not a volume)
        return not any(price_unit_at(text, m.start(g)) for g in (1, 3))

    m = next((x for x in re.finditer(_VOL_NUM + r"(?:输入|input|prompt)[^0-9]{0,48}?" + _VOL_NUM + r"(?:输出|output|completion)",
                                     text) if volume(x)), None) or \
        next((x for x in re.finditer(r"(?:输入|input|prompt)\s*(?:tokens?)?\s*(?:约|大约|大概|about|~|:|：)?\s*" + _VOL_NUM +
                                     r"[^0-9]{0,16}?(?:输出|output|completion)\s*(?:tokens?)?\s*(?:约|大约|大概|about|~|:|：)?\s*"
                                     + _VOL_NUM, text) if volume(x)), None)
    if not m or float(m.group(3)) <= 0:
        return None
    return vol(m.group(1), m.group(2)), vol(m.group(3), m.group(4))


def input_output_ratio(text: str) -> float | None:
    """Input tokens per output token a workload has ('输入:输出 大约 3:1', 'input:output 3:1', '30M input + 10M output')."""
    m = re.search(r"(?:输入|input|prompt)\s*(?:[:：/]|to|比)\s*(?:输出|output|completion)[^0-9]{0,8}(\d+(?:\.\d+)?)\s*[:：]\s*(\d+(?:\.\d+)?)",
                  text) or re.search(RATIO_FIRST, text)
    # ('about 3:1 input to output': the numbers before the words)
    if m and float(m.group(2)) > 0:
        return float(m.group(1)) / float(m.group(2))
    per = re.search(RATIO_PER, text)
    if per:  # ('~3 input tokens per output token')
        return float(per.group(1) or per.group(2))
    share = re.search(r"(\d{1,2}(?:\.\d+)?)\s*%\s*(?:of (?:it|them|that|those|(?:the |our |all )?(?:tokens|traffic|volume)|which)\s*"
                      r"(?:is|are)?\s*)?"
                      r"(?:are |is )?(input|prompt|output|completion)s?(?![a-z])|"
                      r"(输入|输出|prompt|input|output)\s*(?:token)?\s*(?:占比|约占|大约占|占|比例|比重)\s*(?:约|大约|大概)?\s*(\d{1,2}(?:\.\d+)?)\s*%",
                      text)
    if share:  # '80% of it input', '输入占 80%': a share of the volume
        pct = float(share.group(1) or share.group(4)) / 100
        side = share.group(2) or share.group(3)
        inp = pct if side in ("input", "prompt", "输入") else 1 - pct
        if 0 < inp < 1:
            return inp / (1 - inp)
    if re.search(r"(?:输入|input|prompt)\s*(?:和|与|跟|/|and|&)?\s*(?:输出|output|completion)s?\s*(?:token)?\s*(?:差不多|大概|大约|基本|各占?)?\s*"
                 r"(?:一半一半|各一半|五五开|1\s*[:：]\s*1|对半|一样多|差不多)|(?<![a-z])(?:half (?:input|prompt)s?,? half (?:output|completion)s?|"
                 r"(?:input|prompt)s? and (?:output|completion)s? (?:about |roughly )?(?:equal|the same|50/50|half and half)|50/50 (?:input|in)/(?:output|out))",
                 text):
        return 1.0  # ('输入输出差不多一半一半', 'half input, half output'): as much in as out
    parts = split_volumes(text)
    return parts[0] / parts[1] if parts else None


# Prices in euros are answered in US dollars at one stated rate (answers carry dollars and yuan only): the ECB's
# reference rate ran 1.03-1.18 USD per EUR through 2025; 1.10 is an assumption, said beside every converted figure
USD_PER_EUR = 1.10
_EURO = re.compile(r"(?:€|\beur(?:os?)?\s)\s*(\d+(?:[.,]\d+)?)|(\d+(?:[.,]\d+)?)\s*([kKmM](?![a-zA-Z]))?\s*(?:€|eur(?:os?)?\b|欧元)",
                   re.I)


def euros_to_dollars(text: str) -> tuple[str, str | None]:
    """('€0.32/kWh' -> '$0.352/kWh', the note) for every euro amount in a message; (text, None) when there is none."""
    seen: list[str] = []

    def swap(m: re.Match) -> str:
        raw = m.group(1) or m.group(2)
        # '1.200 €' / '1,800 euros': a separator before exactly three digits groups thousands; '0,32 €' is a decimal
        raw = re.sub(r"[.,](?=\d{3}$)", "", raw).replace(",", ".")
        usd = float(raw) * USD_PER_EUR
        unit = m.group(3) or ""  # ('400k EUR': the magnitude stays with the number)
        seen.append(f"€{raw}{unit} = ${usd:,.4g}{unit}")
        return f"${usd:.4g}{unit}"

    out = _EURO.sub(swap, text)
    if not seen:
        return text, None
    return out, ("euro amounts priced in US dollars at " + f"{USD_PER_EUR:g} USD per EUR (an assumption; 2025 ECB reference "
                 "rates ran 1.03-1.18): " + ", ".join(seen))


# an API bill the user pays now: 'we spend about $12k/month on the GPT-4o-mini API', 'API 每个月花 5 万', 'our OpenAI
# bill is $20k a month'
_API = (r"(?<![a-z])(?:api|openai|gpt[\s-]*\d\w*|claude|gemini|anthropic)(?![a-z])|接口费|调用费|通义|文心|豆包|kimi|"
        r"deepseek\s*(?:api|官方)")
_PER_MONTH = r"(?:/|per|a|每|一)\s*(?:month|mo|月|个月)(?![a-z])|monthly|每月|每个月"


def api_spend(text: str) -> dict:
    """The monthly amount the user pays an API now, when a sentence names the API (or its bill) and a monthly amount."""
    for sentence in re.split(r"(?<=[.?!。？！；;\n])", text):
        if not re.search(_API, sentence):
            continue
        for m in re.finditer(MONEY, sentence):
            got = _money(m)
            if not got or not got[1] or got[0] < 10:
                continue
            after, before = sentence[m.end():m.end() + 16], sentence[max(0, m.start() - 16):m.start()]
            before = sentence[max(0, m.start() - 28):m.start()]
            if re.match(r"\s*(?:" + _PER_MONTH + ")", after) or re.search(r"(?:每月|每个月|一个月|monthly|a month)\s*"
                                                                        r"(?:[^0-9。，,.;；]{0,16}?)"
                                                                        r"(?:费用|账单|花|花费|要|是|大概|约|付|给)?\s*$",
                                                                        before):
                # ('每月付 OpenAI 大概 6 万块': the month written before the API and the amount)
                if re.match(r"\s*(?:/|per|每)\s*(?:gpu|卡|card|张)", after):
                    continue  # '$1,500 per GPU per month': a rental, not an API bill
                out = {"api_spend_per_month": got[0]}
                if got[1]:
                    out["currency"] = got[1]
                return out
    return {}
