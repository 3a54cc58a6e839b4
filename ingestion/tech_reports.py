"""Technical reports of large open-weight models and the RL methods each one names, as a dlt source.

The report list is the seed `dbt_project/seeds/tech_reports.csv` (live) or the sample world's
`REPORTS` (sample). Live mode reads each report's full text from arXiv's HTML rendering
(`/html/<id>`), falling back to the abstract on `/abs/<id>`, politely spaced. Sample mode runs the
same fetch-and-parse code against a loopback stand-in serving text from `sample/report_texts.py`.

Mentions are matched against the method catalogue seed (`method_catalogue.csv`):
- names ("Group Relative Policy Optimization"): case-insensitive, spaces or hyphens between words;
- acronyms ("GRPO", "Dr. GRPO"): case-sensitive, not inside a longer identifier (so "PPO" does
  not match "GRPPO");
- code tokens ("dr_grpo"): lower case, underscores count as a boundary;
- longer matches win over shorter ones inside them ("Dr. GRPO" is not also a GRPO mention);
- aliases flagged `is_common_word` (e.g. `gpg`) count only when the same text also names the method
  by a distinctive alias or its arXiv id.
"""

from __future__ import annotations

import csv
import logging
import os
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timezone
from html.parser import HTMLParser
from typing import Any

import dlt

from ingestion import config
from ingestion.http import PoliteClient, SourceUnavailable

log = logging.getLogger(__name__)

SEEDS = config.REPO_ROOT / "dbt_project" / "seeds"
REPORTS_SEED = SEEDS / "tech_reports.csv"
CATALOGUE_SEED = SEEDS / "method_catalogue.csv"
DEFAULT_ARXIV_WEB = "https://arxiv.org"
ARXIV_MIN_INTERVAL_S = 3.0  # arXiv asks for at most one request every three seconds


@dataclass(frozen=True)
class ReportRef:
    model: str
    arxiv_id: str
    params_total_b: float | None
    params_active_b: float | None
    released_at: date | None


@dataclass(frozen=True)
class Alias:
    method_id: str
    method_name: str
    arxiv_id: str
    alias: str
    kind: str  # name | acronym | code_token
    is_common_word: bool


# --- inputs -------------------------------------------------------------------------------------
def _float(value: str) -> float | None:
    return float(value) if value and value.strip() else None


def seed_reports() -> list[ReportRef]:
    with REPORTS_SEED.open(newline="", encoding="utf-8") as fh:
        return [ReportRef(r["model"], r["arxiv_id"], _float(r["params_total_b"]), _float(r["params_active_b"]),
                          date.fromisoformat(r["released_at"]) if r["released_at"] else None)
                for r in csv.DictReader(fh)]


def sample_reports() -> list[ReportRef]:
    from ingestion.sample.world import REPORTS

    return [ReportRef(r.model, r.arxiv_id, r.params_total_b, r.params_active_b, r.released_at) for r in REPORTS]


def catalogue() -> list[Alias]:
    with CATALOGUE_SEED.open(newline="", encoding="utf-8") as fh:
        return [Alias(r["method_id"], r["method_name"], r["arxiv_id"], r["alias"], r["alias_kind"],
                      r["is_common_word"].strip().lower() == "true")
                for r in csv.DictReader(fh)]


# --- text ---------------------------------------------------------------------------------------
class _TextExtractor(HTMLParser):
    """Visible text of an HTML page (scripts, styles, navigation and maths annotations dropped)."""

    SKIP = {"script", "style", "nav", "header", "footer", "annotation", "annotation-xml", "noscript"}
    BLOCK = {"p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "br", "tr", "section", "blockquote",
             "figcaption", "td", "th", "span"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self.SKIP:
            self._skip += 1
        elif tag in self.BLOCK:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self._skip:
            self._skip -= 1
        elif tag in self.BLOCK:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def html_to_text(page: str) -> str:
    parser = _TextExtractor()
    parser.feed(page)
    parser.close()
    return re.sub(r"\s+", " ", "".join(parser.parts)).strip()


_ABSTRACT = re.compile(r'<blockquote[^>]*class="[^"]*abstract[^"]*"[^>]*>(.*?)</blockquote>', re.S | re.I)


def abstract_from_abs_page(page: str) -> str:
    match = _ABSTRACT.search(page)
    text = html_to_text(match.group(1)) if match else ""
    return re.sub(r"^Abstract:\s*", "", text)


def fetch_report_text(http: PoliteClient, base_url: str, arxiv_id: str) -> tuple[str, str]:
    """(text, source) where source is 'html' (full text) or 'abs' (abstract only) or 'none'."""
    resp = http.get(f"{base_url}/html/{arxiv_id}")
    if resp.status_code == 200 and len(resp.text) > 200:
        return html_to_text(resp.text), "html"
    resp = http.get(f"{base_url}/abs/{arxiv_id}")
    if resp.status_code == 200:
        return abstract_from_abs_page(resp.text), "abs"
    log.warning("report %s: no text (HTTP %s)", arxiv_id, resp.status_code)
    return "", "none"


# --- mentions -----------------------------------------------------------------------------------
def _alias_pattern(a: Alias) -> re.Pattern[str]:
    words = [re.escape(w) for w in re.split(r"[\s\-]+", a.alias.strip()) if w]
    if a.kind == "name":
        return re.compile(r"(?<![A-Za-z0-9])" + r"[\s\-]+".join(words) + r"(?![A-Za-z0-9])", re.I)
    # acronyms: "Dr. GRPO" also matches "Dr GRPO" and "Dr.GRPO"
    body = (r"\s*".join(re.escape(w.rstrip(".")) + (r"\.?" if w.endswith(".") else "") for w in a.alias.split())
            if a.kind == "acronym" else re.escape(a.alias))
    if a.kind == "code_token":
        return re.compile(r"(?<![A-Za-z0-9])" + body + r"(?![A-Za-z0-9])")
    return re.compile(r"(?<![A-Za-z0-9_])" + body + r"(?![A-Za-z0-9_])")


@dataclass(frozen=True)
class Mention:
    method_name: str
    matched_text: str  # the most frequent surface form
    occurrences: int


def extract_mentions(text: str, aliases: Sequence[Alias]) -> list[Mention]:
    """Methods named in `text`, with occurrence counts; see the module docstring for the rules."""
    hits: list[tuple[int, int, Alias]] = []
    for a in aliases:
        hits += [(m.start(), m.end(), a) for m in _alias_pattern(a).finditer(text)]
    # longest first; a match overlapping an accepted one is dropped
    hits.sort(key=lambda h: (-(h[1] - h[0]), h[0]))
    taken: list[tuple[int, int]] = []
    accepted: list[tuple[int, int, Alias]] = []
    for start, end, a in hits:
        if any(start < e and s < end for s, e in taken):
            continue
        taken.append((start, end))
        accepted.append((start, end, a))
    by_method: dict[str, list[tuple[str, Alias]]] = {}
    for start, end, a in accepted:
        by_method.setdefault(a.method_name, []).append((text[start:end], a))
    out = []
    for method, found in by_method.items():
        distinctive = [f for f in found if not f[1].is_common_word]
        if not distinctive and found[0][1].arxiv_id not in text:
            continue  # only common-word hits (e.g. `gpg`): not evidence of the method
        forms = Counter(surface for surface, _ in found)
        out.append(Mention(method, forms.most_common(1)[0][0], len(found)))
    return sorted(out, key=lambda m: m.method_name)


# --- dlt source ---------------------------------------------------------------------------------
@dlt.source(name="tech_reports", max_table_nesting=0)
def tech_reports_source(
    mode: str | None = None,
    base_url: str | None = None,
    arxiv_ids: list[str] | None = None,
    min_interval_s: float | None = None,
) -> Any:
    """Resources `reports` (merge on arxiv_id) and `report_mentions` (merge on arxiv_id, method_name).

    Sample mode without `base_url` serves the world's report texts from a loopback stand-in."""
    mode = mode or config.source_mode()
    refs = sample_reports() if mode == "sample" else seed_reports()
    if arxiv_ids is not None:
        refs = [r for r in refs if r.arxiv_id in set(arxiv_ids)]
    aliases = catalogue()
    spacing = min_interval_s if min_interval_s is not None else (0.0 if mode == "sample" else ARXIV_MIN_INTERVAL_S)
    fetched: dict[str, tuple[str, str, datetime]] = {}

    def texts() -> Iterator[tuple[ReportRef, str, str, datetime]]:
        """Each report's text, fetched once per run and shared by both resources."""
        pending = [r for r in refs if r.arxiv_id not in fetched]
        if pending:
            http = PoliteClient(min_interval_s=spacing, backoff_s=0.5 if mode == "sample" else 5.0)
            with _web(mode, base_url) as web:
                for ref in pending:
                    try:
                        text, source = fetch_report_text(http, web, ref.arxiv_id)
                    except SourceUnavailable as exc:
                        log.error("report %s: %s; kept for the next run", ref.arxiv_id, exc)
                        continue
                    fetched[ref.arxiv_id] = (text, source, datetime.now(timezone.utc))
        for ref in refs:
            if ref.arxiv_id in fetched:
                yield (ref, *fetched[ref.arxiv_id])

    @dlt.resource(name="reports", primary_key="arxiv_id", write_disposition="merge",
                  columns={"params_total_b": {"data_type": "double"}, "params_active_b": {"data_type": "double"},
                           "released_at": {"data_type": "date"}, "text_chars": {"data_type": "bigint"},
                           "fetched_at": {"data_type": "timestamp", "timezone": True}})
    def reports() -> Iterator[dict]:
        for ref, text, source, fetched_at in texts():
            yield {"model": ref.model, "arxiv_id": ref.arxiv_id, "params_total_b": ref.params_total_b,
                   "params_active_b": ref.params_active_b, "released_at": ref.released_at,
                   "text_chars": len(text), "text_source": source, "fetched_at": fetched_at}

    @dlt.resource(name="report_mentions", primary_key=["arxiv_id", "method_name"], write_disposition="merge",
                  columns={"occurrences": {"data_type": "bigint"}})
    def report_mentions() -> Iterator[list[dict]]:
        for ref, text, _source, _at in texts():
            rows = [{"arxiv_id": ref.arxiv_id, "method_name": m.method_name, "matched_text": m.matched_text,
                     "occurrences": m.occurrences} for m in extract_mentions(text, aliases)]
            if rows:
                yield rows

    return reports, report_mentions


class _web:
    """Context manager giving the arXiv web base URL (the loopback stand-in in sample mode)."""

    def __init__(self, mode: str, base_url: str | None) -> None:
        self.mode, self.base_url, self._cm = mode, base_url, None

    def __enter__(self) -> str:
        if self.base_url:
            return self.base_url.rstrip("/")
        if self.mode == "sample":
            from ingestion.sample.report_texts import serve_sample_arxiv_web

            self._cm = serve_sample_arxiv_web()
            return self._cm.__enter__()
        return os.environ.get("RLTRACK_ARXIV_WEB", DEFAULT_ARXIV_WEB).rstrip("/")

    def __exit__(self, *exc: object) -> None:
        if self._cm is not None:
            self._cm.__exit__(*exc)
