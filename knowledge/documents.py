"""Chunks for the retrieval index: project documents by section, table records, ingested files.

Every chunk carries where it came from (source, title, section, language, as-of, URL) so an
answer can cite it. Text from outside the project (`gpu-advisor index add`) is marked untrusted,
and text that reads like instructions to an AI is flagged: retrieved text is data, never commands.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel

from knowledge.schemas import GPU, ModelSpec, Price

DOCS_DIR = Path(__file__).resolve().parent / "docs"
MAX_EXTERNAL_BYTES = 5_000_000
EXTERNAL_CHUNK_CHARS = 700

# Text addressed to an AI rather than to a reader, in English and Chinese, paraphrases included: an override verb
# with what it overrides, a new role or identity, commands about how to answer, or talk of prompts.
_OVERRIDE_EN = (r"(?:ignore|disregard|forget|override|bypass|skip|drop|abandon|set aside|pay no (?:attention|heed) to|"
                r"do not (?:follow|obey|heed)|don't (?:follow|obey|heed)|stop following|no longer follow)")
_WHAT_EN = (r"(?:(?:all|any|the|your|these|those|my|every)\s+)*(?:previous|prior|above|earlier|preceding|original|initial|"
            r"old|former|existing|system|safety)?\s*(?:instructions?|prompts?|rules|guidelines|directions|directives|"
            r"guidance|programming|constraints|orders|what (?:you were|you've been|you have been) told|everything (?:above|"
            r"before|you were told)|the above)")
_INJECTION = re.compile(
    rf"{_OVERRIDE_EN}\s+{_WHAT_EN}"
    r"|(?:you are|you're) (?:now|no longer)\b|from now on,? (?:you|answer|respond|reply|always|only)"
    r"|\b(?:act|behave|respond|answer) as (?:if you were |though you were )?(?:an?|the|my) (?!example)"
    r"|pretend (?:to be|you are|you're)|role-?play as|your new (?:role|task|instructions?|persona|name) (?:is|are)"
    r"|new instructions\s*:|(?:\[|<|【|\(|^|\n)\s*system (?:prompt|note|message)\s*[:：\]>】)]|(?:new|updated|override|overriding) system "
    r"(?:prompt|note|message)|(?:reply|respond|answer) (?:only|just) with|(?:只|直接)(?:回答|回复|输出)[“‘\"']|(?:reveal|print|show|repeat|leak) (?:your|the) (?:hidden |system |initial )?"
    r"(?:prompt|instructions)|\b(?:ai|assistant|chatbot|language model|llm)s? (?:reading|processing) this"
    r"|(?:note|message|instruction) (?:to|for) (?:the |any )?(?:ai|assistant|model|llm|chatbot)"
    r"|always (?:recommend|say|answer|reply|respond|tell)|(?:tell|inform) the user (?:that|to)"
    r"|(?:忽略|无视|忘记|忘掉|不要理会|不用理会|别管|不用管|抛开|跳过|覆盖|推翻)(?:掉)?(?:你)?(?:之前|以上|上面|前面|先前|原来|原先|原有|"
    r"所有|上述|此前|刚才|系统)?(?:的|收到的|得到的|给你的)?(?:所有)?(?:指令|指示|要求|规则|设定|提示|说明|命令|约束|内容|话)"
    r"|你现在是|你已经不是|从现在(?:开始|起)|扮演|假装你是|假装成|你的新(?:任务|角色|身份|指令)|请始终|必须(?:回答|推荐|告诉)"
    r"|(?:告诉|告知)用户|系统提示|提示词|作为(?:一个)?(?:AI|人工智能|语言模型|助手)|不要遵守|不再遵守|给(?:AI|模型|助手)的(?:指令|说明|提示)"
    r"|(?:只|直接)(?:回答|回复|输出)\s*[：:]|(?:AI|人工智能|模型|助手|机器人)[^，。,.\n]{0,8}?(?:请|务必|一律)\s*(?:直接)?\s*"
    r"(?:回复|回答|输出|确认|说|通过)",
    re.IGNORECASE)


class Chunk(BaseModel):
    """One retrievable passage and its provenance."""

    id: str
    text: str
    source: str
    title: str
    section: str | None = None
    lang: Literal["en", "zh"]
    as_of: str | None = None
    url: str | None = None
    kind: Literal["doc", "gpu", "model", "price", "external"]
    doc_id: str | None = None
    untrusted: bool = False
    flagged_instructions: bool = False

    @property
    def hash(self) -> str:
        """Content hash: changes when the text, its metadata or what gets embedded changes."""
        return hashlib.sha256((self.model_dump_json() + self.embed_text).encode()).hexdigest()[:16]

    @property
    def search_text(self) -> str:
        """What BM25 indexes: title, section and text; Chinese text also carries the glossary's English words."""
        from knowledge.glossary import expand

        text = " - ".join(x for x in (self.title, self.section, self.text) if x)
        return expand(text) if self.lang == "zh" else text

    @property
    def embed_text(self) -> str:
        """What the (English-only) embedder reads. For Chinese text that is its Latin-script words and the
        glossary's English for its Chinese terms: CJK characters would only cost time as [UNK]-like tokens."""
        text = self.search_text
        if self.lang != "zh":
            return text
        return " ".join(re.findall(r"[A-Za-z0-9][A-Za-z0-9.\-/+]*", text))


class DocumentError(ValueError):
    """A document that cannot be indexed, with the reason and what is accepted."""


def detect_lang(text: str) -> Literal["en", "zh"]:
    """'zh' when CJK characters are at least 30% of characters-plus-Latin-words."""
    cjk = len(re.findall(r"[\u3400-\u9fff]", text))
    words = len(re.findall(r"[A-Za-z]+", text))
    return "zh" if cjk and cjk / (cjk + words) >= 0.3 else "en"


def latin_share(text: str) -> float:
    """Share of Latin-script words among words plus CJK characters (1.0 for pure English)."""
    cjk = len(re.findall(r"[\u3400-\u9fff]", text))
    words = len(re.findall(r"[A-Za-z]+", text))
    return words / (words + cjk) if words + cjk else 1.0


def looks_like_instructions(text: str) -> bool:
    """True when the text contains phrases aimed at steering an AI ("ignore previous instructions")."""
    return bool(_INJECTION.search(text))


def find_instructions(text: str) -> re.Match | None:
    """Where the first phrase aimed at steering an AI is, or None."""
    return _INJECTION.search(text)


def _slug(text: str) -> str:
    return re.sub(r"[^\w]+", "-", text.lower()).strip("-")[:60] or "section"


def _front_matter(text: str, path: Path) -> tuple[dict, str]:
    if not text.startswith("---\n"):
        raise DocumentError(f"{path.name}: no front matter (a '---' block with id, title, lang, as_of, sources)")
    end = text.find("\n---", 4)
    if end < 0:
        raise DocumentError(f"{path.name}: front matter is not closed by '---'")
    meta = yaml.safe_load(text[4:end]) or {}
    missing = {"id", "title", "lang", "as_of", "sources"} - set(meta)
    if missing:
        raise DocumentError(f"{path.name}: front matter lacks {', '.join(sorted(missing))}")
    return meta, text[end + 4:]


def doc_chunks(path: Path) -> list[Chunk]:
    """One chunk per '## ' section of a project document."""
    meta, body = _front_matter(path.read_text(encoding="utf-8"), path)
    sources = meta["sources"] if isinstance(meta["sources"], list) else [meta["sources"]]
    url = next((m.group(0) for s in sources if (m := re.search(r"https?://\S+", str(s)))), None)
    parts = re.split(r"^## +(.+?)\s*$", body, flags=re.MULTILINE)
    chunks: list[Chunk] = []
    intro = re.sub(r"^# .*$", "", parts[0], flags=re.MULTILINE).strip()  # a title line alone is not a passage
    sections = list(zip(parts[1::2], parts[2::2]))
    if intro:
        sections.insert(0, (meta["title"], intro))
    for n, (section, text) in enumerate(sections):
        text = text.strip()
        if not text:
            continue
        chunks.append(Chunk(id=f"doc:{path.name}#{n}-{_slug(section)}", text=text, source=f"docs/{path.name}",
                            title=meta["title"], section=section.strip(), lang=meta["lang"], as_of=str(meta["as_of"]),
                            url=url, kind="doc", doc_id=meta["id"]))
    return chunks


def project_doc_chunks(docs_dir: Path = DOCS_DIR) -> list[Chunk]:
    """Chunks of every knowledge/docs/*.en.md and *.zh.md."""
    out: list[Chunk] = []
    for path in sorted(docs_dir.glob("*.md")):
        if path.name.endswith((".en.md", ".zh.md")):
            out += doc_chunks(path)
    return out


def _fmt(value, unit: str) -> str | None:
    return None if value is None else f"{value:g} {unit}"


def gpu_chunk(g: GPU) -> Chunk:
    """A GPU record as a bilingual passage (so '显存带宽' and 'bandwidth' both find it)."""
    figures = [("dense FP32", _fmt(g.fp32_tflops, "TFLOPS")), ("dense TF32", _fmt(g.tf32_dense_tflops, "TFLOPS")),
               ("dense BF16", _fmt(g.bf16_dense_tflops, "TFLOPS")), ("dense FP16", _fmt(g.fp16_dense_tflops, "TFLOPS")),
               ("dense FP8", _fmt(g.fp8_dense_tflops, "TFLOPS") or "none"), ("dense INT8", _fmt(g.int8_dense_tops, "TOPS")),
               ("dense FP4", _fmt(g.fp4_dense_tflops, "TFLOPS"))]
    link = f"{g.nvlink_gbps:g} GB/s per GPU" if g.nvlink_gbps else "no NVLink (PCIe only)"
    text = (f"{g.name} ({g.id}; also {', '.join(g.aliases[:4])}). {g.vendor} {g.architecture}, {g.form_factor}. "
            f"Memory {g.memory_gb:g} GB {g.memory_type} ({g.memory_bytes / 2**20:.0f} MiB reported), memory bandwidth "
            f"{g.memory_bandwidth_gbps:g} GB/s. " + ", ".join(f"{k} {v}" for k, v in figures if v) +
            f". Interconnect: {g.interconnect}; {link}" +
            (f", {g.gpus_per_nvlink_domain} GPUs per NVLink domain" if g.gpus_per_nvlink_domain else "") +
            (f". TDP {g.tdp_w:g} W" if g.tdp_w else "") + (f". Released {g.release_year}" if g.release_year else "") +
            (f". Market: {g.market_notes}" if g.market_notes else "") +
            f".\n{g.id} 规格：显存 {g.memory_gb:g} GB，显存带宽 {g.memory_bandwidth_gbps:g} GB/s，"
            f"BF16 稠密算力 {g.bf16_dense_tflops or '无'} TFLOPS，FP8 稠密算力 {g.fp8_dense_tflops or '无'} TFLOPS，"
            f"互联 {link}，功耗 {g.tdp_w or '未知'} W。")
    return Chunk(id=f"gpu:{g.id}", text=text, source=f"gpus.yaml#{g.id}", title=f"GPU spec: {g.name}", section="spec",
                 lang="en", as_of=g.as_of, url=next(iter(re.findall(r"https?://\S+", g.source)), None), kind="gpu")


def model_chunk(m: ModelSpec) -> Chunk:
    """A model record as a passage."""
    moe = (f" MoE: {m.moe.routed_experts} routed + {m.moe.shared_experts} shared experts, {m.moe.experts_per_token} "
           f"per token; {m.params_active / 1e9:.1f}e9 active parameters." if m.moe and m.params_active else "")
    text = (f"{m.name} ({m.id}): {m.params_total / 1e9:.2f}e9 parameters. {m.num_layers} layers, hidden {m.hidden_size}, "
            f"{m.num_attention_heads} attention heads, {m.num_kv_heads} KV heads ({m.attention.upper()}), head dim "
            f"{m.head_dim}, MLP {m.intermediate_size}, vocabulary {m.vocab_size}, context {m.max_context} tokens, "
            f"{'tied' if m.tie_embeddings else 'untied'} embeddings.{moe}" + (f" {m.notes}" if m.notes else "") +
            f"\n{m.id} 参数量 {m.params_total / 1e9:.1f}B，{m.num_layers} 层，上下文 {m.max_context}。")
    return Chunk(id=f"model:{m.id}", text=text, source=f"models.yaml#{m.id}", title=f"Model: {m.name}", section="config",
                 lang="en", as_of=m.as_of, url=next(iter(re.findall(r"https?://\S+", m.source)), None), kind="model")


def price_chunk(p: Price) -> Chunk:
    """A price record as a passage, saying it is an estimate and how old it is."""
    unit = {"per_gpu_hour": "per GPU-hour", "per_gpu": "per GPU", "per_8gpu_server": "per 8-GPU server"}[p.unit]
    kind = p.kind.replace("_", " ")
    typical = f", typically {p.typical:g}" if p.typical else ""
    text = (f"Price estimate for {p.gpu}: {kind}" + (f" ({p.provider})" if p.provider else "") +
            (f", {p.region}" if p.region else "") + (f", {p.commitment}" if p.commitment else "") +
            f": {p.low:g}-{p.high:g} {p.currency} {unit}{typical}. Confidence {p.confidence}." +
            (f" {p.note}" if p.note else "") + f" As of {p.as_of}.\n{p.gpu} 价格（估计）：{p.low:g}-{p.high:g} {p.currency}，"
            f"{'租用 每卡每小时' if p.kind.startswith('rent') else '购买'}。")
    return Chunk(id=f"price:{p.id}", text=text, source=f"prices.yaml#{p.id}", title=f"Price: {p.gpu} {kind}",
                 section=p.provider, lang="en", as_of=p.as_of, url=next(iter(re.findall(r"https?://\S+", p.source)), None),
                 kind="price")


def read_external(path: Path) -> str:
    """The text of a file to ingest; DocumentError for binary, empty or oversized files."""
    if not path.is_file():
        raise DocumentError(f"{path}: no such file (index add takes a UTF-8 text or Markdown file)")
    data = path.read_bytes()
    if len(data) > MAX_EXTERNAL_BYTES:
        raise DocumentError(f"{path.name}: {len(data):,} bytes; the limit is {MAX_EXTERNAL_BYTES:,} (split the file)")
    if b"\x00" in data[:8192]:
        raise DocumentError(f"{path.name}: binary file; index add takes UTF-8 text or Markdown (convert PDFs first)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DocumentError(f"{path.name}: not UTF-8 text; index add takes UTF-8 text or Markdown") from None
    if not text.strip():
        raise DocumentError(f"{path.name}: empty file")
    return text


def external_chunks(text: str, name: str, as_of: str | None = None) -> list[Chunk]:
    """Chunks of an ingested document: paragraphs packed up to ~700 characters, marked untrusted."""
    lines = [ln.strip() for ln in text.splitlines()]
    title = next((ln.lstrip("# ") for ln in lines if ln), name)[:120]
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    packed: list[str] = []
    for para in paragraphs:
        while len(para) > EXTERNAL_CHUNK_CHARS * 2:  # one long paragraph: cut it
            packed.append(para[:EXTERNAL_CHUNK_CHARS])
            para = para[EXTERNAL_CHUNK_CHARS:]
        if packed and len(packed[-1]) + len(para) < EXTERNAL_CHUNK_CHARS:
            packed[-1] += "\n\n" + para
        else:
            packed.append(para)
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    return [Chunk(id=f"ext:{digest}#{n}", text=t, source=f"external/{name}", title=title, section=f"part {n + 1}",
                  lang=detect_lang(t), as_of=as_of, kind="external", untrusted=True,
                  flagged_instructions=looks_like_instructions(t)) for n, t in enumerate(packed)]
