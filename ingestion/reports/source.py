"""Technical reports of large open-weight models and the RL methods each one names, as a dlt source.

The report list and the arXiv web endpoint come from the world (`ingestion.world`): live, the seed
`dbt_project/seeds/tech_reports.csv` and arxiv.org. Each report's full text is read from arXiv's
HTML rendering (`/html/<id>`), falling back to the abstract on `/abs/<id>`, as politely as the
world says (live: one request every three seconds).
Incremental: a report whose full text was read cleanly is read again only when its seed row, the
alias catalogue or `READER_VERSION` changes (or by a full rebuild); one read from less (its abstract,
a cut-off page, nothing) is asked again when those change or once the world's `report_recheck_s` has
passed (live: a day, as arXiv's HTML renderings appear within days; loopback worlds: every run).

Mentions are matched against the method catalogue seed (`method_catalogue.csv`):
- names ("Group Relative Policy Optimization"): case-insensitive, spaces or hyphens between words;
- acronyms ("GRPO", "Dr. GRPO"): case-sensitive, not inside a longer identifier (so "PPO" does
  not match "GRPPO");
- code tokens ("dr_grpo"): lower case, underscores count as a boundary;
- longer matches win over shorter ones inside them ("Dr. GRPO" is not also a GRPO mention);
- aliases flagged `is_common_word` (e.g. `gpg`) count only when the same text also names the method
  by a distinctive alias or its arXiv id.

Bad input never stops the load. A report that could not be read, or was read from less than its
full text, gets a `reports_quarantine` row (merge on arxiv_id, problem) with a reason:
- bad_id / duplicate: a seed id that is not an arXiv id, or names a report listed before (ids are
  keyed without version: `2505.09388v2` is `2505.09388`); not fetched;
- fetch_failed: arXiv kept failing, or the response broke off; not loaded this run, so rows from
  earlier runs stay as they were. After two such reports in a row the rest are not tried;
- abstract_only / partial_text / no_text: the HTML page was unusable (abstract loaded instead; a
  failed LaTeXML conversion, page chrome around no paragraphs, is unusable too), cut
  off (what it has is loaded), or neither page had text (loaded with text_source `none`).
`noted_at` says when a problem was last seen. A problem that is gone gets `resolved_at` (the run
that found it gone): seed problems when the seed no longer has them, the others when the report was
read again without them. The open problems are kept in the resource's dlt state for this.
"""

from __future__ import annotations

import bisect
import csv
import hashlib
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import date, datetime, timezone
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import dlt
import requests

from ingestion import config
from ingestion.http import MAX_FAILED_IN_A_ROW, PoliteClient, SourceUnavailable
from ingestion.text import canonical_old_id, page_text, undecodable
from ingestion.world import World

log = logging.getLogger(__name__)

SEEDS = config.REPO_ROOT / "dbt_project" / "seeds"
REPORTS_SEED = SEEDS / "tech_reports.csv"
CATALOGUE_SEED = SEEDS / "method_catalogue.csv"
MIN_FULL_TEXT_CHARS = 200  # an HTML page with less body (paragraph) text is a stub, not a report
QUARANTINE_TABLE = "reports_quarantine"
READER_VERSION = 2  # bump when reading pages or matching mentions changes: every report is read again


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


@dataclass(frozen=True)
class Problem:
    """Why a report is not in `reports` this run, or was loaded from less than its full text."""

    arxiv_id: str  # as the seed wrote it for bad_id / duplicate, else the canonical id
    model: str
    problem: str  # bad_id | duplicate | fetch_failed | abstract_only | partial_text | no_text
    reason: str


# --- inputs -------------------------------------------------------------------------------------
def seed_reports(path: Path | None = None) -> list[ReportRef]:
    """The reports of a report list (default: the seed); a ValueError naming the line and column for
    a value that does not parse."""
    path = path or REPORTS_SEED
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        return [_seed_ref(row, reader.line_num, path.name) for row in reader]


def _seed_ref(row: dict[str, str], line: int, file_name: str) -> ReportRef:
    def field(column: str, parse: Callable[[str], Any]) -> Any:
        value = (row.get(column) or "").strip()
        try:
            return parse(value) if value else None
        except ValueError:
            raise ValueError(f"{file_name} line {line}: bad {column} {value!r}") from None

    return ReportRef(row.get("model") or "", row.get("arxiv_id") or "", field("params_total_b", float),
                     field("params_active_b", float), field("released_at", date.fromisoformat))


# new style 2505.09388 (YYMM.NNNNN; four digits after the dot before 2015), old style hep-th/9901001
# or math.GT/0309136 (subject class dropped); an `arXiv:` prefix and a version suffix are allowed
_SEED_ARXIV_ID = re.compile(r"(?:arxiv:)?(?:(?P<new>(?P<yymm>\d\d(?:0[1-9]|1[0-2]))\.(?P<seq>\d{4,5}))"
                            r"|(?P<archive>[a-z][a-z\-]*)(?:\.[a-z]{2})?/(?P<number>\d{7}))(?:v\d+)?", re.I)


def canonical_arxiv_id(raw: str) -> str:
    """The versionless id `raw` names ('arXiv:2505.09388v2' -> '2505.09388'); ValueError if none."""
    m = _SEED_ARXIV_ID.fullmatch(raw.strip())
    if not m or (m["new"] and not _new_style_id_exists(m["yymm"], m["seq"])):
        raise ValueError(f"not an arXiv id: {raw!r}")
    return m["new"] or canonical_old_id(m["archive"], m["number"])


def _new_style_id_exists(yymm: str, seq: str) -> bool:
    """New-style ids began in April 2007 with four digits after the dot; five since January 2015."""
    return yymm >= "0704" and (len(seq) == 5) == (yymm >= "1501")


def checked_refs(refs: Sequence[ReportRef]) -> tuple[list[ReportRef], list[Problem]]:
    """Refs keyed by canonical id, the first listing of a report winning; other rows become problems."""
    kept: dict[str, ReportRef] = {}
    problems: list[Problem] = []
    for ref in refs:
        try:
            arxiv_id = canonical_arxiv_id(ref.arxiv_id)
        except ValueError as exc:
            problems.append(Problem(ref.arxiv_id, ref.model, "bad_id", str(exc)))
            continue
        if arxiv_id in kept:
            first = kept[arxiv_id]
            problems.append(Problem(ref.arxiv_id, ref.model, "duplicate",
                                    f"report {arxiv_id} is already listed as {first.model!r}; that listing is loaded"))
            continue
        kept[arxiv_id] = replace(ref, arxiv_id=arxiv_id)
    return list(kept.values()), problems


def catalogue() -> list[Alias]:
    with CATALOGUE_SEED.open(newline="", encoding="utf-8") as fh:
        return [Alias(r["method_id"], r["method_name"], r["arxiv_id"], r["alias"], r["alias_kind"],
                      r["is_common_word"].strip().lower() == "true")
                for r in csv.DictReader(fh)]


# --- text ---------------------------------------------------------------------------------------
class _TextExtractor(HTMLParser):
    """Visible text of an HTML page, and how much of it is body text.

    Dropped: the `<head>` (its `<title>` repeats the page's heading), scripts, styles, navigation,
    maths annotations, and page chrome: arXiv's banners and alerts around a LaTeXML rendering
    (`role=status|alert|banner`, `package-alerts`), LaTeXML page headers/footers and its error
    boxes (`ltx_ERROR`). Body text is paragraph text (`<p>`, LaTeXML's `ltx_p`) outside the
    title, authors and abstract: a failed conversion has chrome and perhaps an abstract, no body."""

    SKIP = {"head", "script", "style", "nav", "header", "footer", "annotation", "annotation-xml", "noscript",
            "button"}
    SKIP_CLASSES = {"package-alerts", "ltx_page_header", "ltx_page_footer", "ltx_ERROR"}
    SKIP_ROLES = {"status", "alert", "banner", "navigation"}
    NOT_BODY_CLASSES = {"ltx_title", "ltx_authors", "ltx_abstract", "ltx_dates"}
    BLOCK = {"p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "br", "tr", "section", "blockquote",
             "figcaption", "td", "th", "span"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.body_chars = 0
        self._open: list[tuple[str, bool, bool]] = []  # (tag, hides its content, not body text)
        self._skip = self._not_body = self._paragraphs = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self.BLOCK:
            self.parts.append(" ")
        if tag in self.VOID:
            return
        attr = dict(attrs)
        classes = set((attr.get("class") or "").split())
        skip = tag in self.SKIP or bool(classes & self.SKIP_CLASSES) or attr.get("role") in self.SKIP_ROLES
        not_body = bool(classes & self.NOT_BODY_CLASSES) or tag.startswith("h") and tag[1:].isdigit()
        self._open.append((tag, skip, not_body))
        self._skip += skip
        self._not_body += not_body
        self._paragraphs += tag == "p"

    def handle_endtag(self, tag: str) -> None:
        if tag in self.BLOCK:
            self.parts.append(" ")
        if not any(t == tag for t, _, _ in self._open):
            return  # a stray end tag
        while self._open:
            open_tag, skip, not_body = self._open.pop()
            self._skip -= skip
            self._not_body -= not_body
            self._paragraphs -= open_tag == "p"
            if open_tag == tag:
                return

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        self.parts.append(data)
        if self._paragraphs and not self._not_body:
            self.body_chars += len(data.strip())


def html_text_and_body(page: str) -> tuple[str, int]:
    """(visible text of `page`, characters of body text in it); ValueError for markup html.parser
    cannot get past."""
    parser = _TextExtractor()
    try:
        parser.feed(page)
        parser.close()
    except AssertionError as exc:  # how html.parser rejects e.g. an unknown `<![foo[` section
        raise ValueError(f"unparseable HTML ({exc})") from None
    return re.sub(r"\s+", " ", "".join(parser.parts)).strip(), parser.body_chars


def html_to_text(page: str) -> str:
    """Visible text of `page`; ValueError for markup html.parser cannot get past."""
    return html_text_and_body(page)[0]


_ABSTRACT = re.compile(r'<blockquote[^>]*class="[^"]*abstract[^"]*"[^>]*>(.*?)</blockquote>', re.S | re.I)


def abstract_from_abs_page(page: str) -> str:
    match = _ABSTRACT.search(page)
    text = html_to_text(match.group(1)) if match else ""
    return re.sub(r"^Abstract:\s*", "", text)


def full_text(resp: requests.Response) -> tuple[str, str]:
    """(text, problem) from an /html response; no text when the page is missing or unusable."""
    if resp.status_code != 200:
        return "", f"no HTML page (HTTP {resp.status_code})"
    page = page_text(resp)
    if undecodable(page):
        return "", "HTML page is mostly undecodable bytes"
    try:
        text, body_chars = html_text_and_body(page)
    except ValueError as exc:
        return "", f"HTML page unusable: {exc}"
    if body_chars < MIN_FULL_TEXT_CHARS:  # e.g. a failed LaTeXML conversion: banners, no paragraphs
        return "", (f"HTML page has almost no text in its body ({body_chars} characters of paragraphs, "
                    f"{len(text)} in all: page chrome or a failed conversion)")
    if "</html" not in page[-1024:].lower():
        return text, "HTML page cut off (no </html>); its text may be incomplete"
    return text, ""


def abstract(resp: requests.Response) -> tuple[str, str]:
    """(text, problem) from an /abs response; no text when the page is missing or has no abstract."""
    if resp.status_code != 200:
        return "", f"no abstract page (HTTP {resp.status_code})"
    try:
        text = abstract_from_abs_page(page_text(resp))
    except ValueError as exc:
        return "", f"abstract page unusable: {exc}"
    return text, "" if text else "abstract page has no abstract"


@dataclass(frozen=True)
class ReportText:
    text: str
    source: str  # html (full text) | abs (abstract only) | none
    problem: str = ""  # what was wrong with the pages; empty when nothing was


# quarantine problem recorded for a report loaded with a problem, by text source
_TEXT_PROBLEMS = {"html": "partial_text", "abs": "abstract_only", "none": "no_text"}


def read_report(http: PoliteClient, base_url: str, arxiv_id: str) -> ReportText:
    """The full text from /html, else the abstract from /abs. A missing HTML page is no problem (many
    papers have none); an unusable one is. Raises SourceUnavailable or a requests error when a
    response never came or broke off."""
    html_resp = http.get(f"{base_url}/html/{arxiv_id}")
    text, html_problem = full_text(html_resp)
    if text:
        return ReportText(text, "html", html_problem)
    text, abs_problem = abstract(http.get(f"{base_url}/abs/{arxiv_id}"))
    if text:
        return ReportText(text, "abs", html_problem if html_resp.status_code == 200 else "")
    log.warning("report %s: no text (%s; %s)", arxiv_id, html_problem, abs_problem)
    return ReportText("", "none", f"{html_problem}; {abs_problem}")


def fetch_report_text(http: PoliteClient, base_url: str, arxiv_id: str) -> tuple[str, str]:
    """(text, source) where source is 'html' (full text) or 'abs' (abstract only) or 'none'."""
    got = read_report(http, base_url, arxiv_id)
    return got.text, got.source


def fetch_reports(http: PoliteClient, base_url: str,
                  refs: Sequence[ReportRef]) -> Iterator[tuple[ReportRef, ReportText | Problem]]:
    """Each ref with its text, or with a fetch_failed problem. After MAX_FAILED_IN_A_ROW failures in
    a row arXiv is taken to be down and the rest are not tried (each would wait out every retry)."""
    failed_in_a_row = 0
    for ref in refs:
        if failed_in_a_row >= MAX_FAILED_IN_A_ROW:
            yield ref, _fetch_failed(ref, f"not tried: {failed_in_a_row} reports in a row failed before it")
            continue
        try:
            got = read_report(http, base_url, ref.arxiv_id)
        except (SourceUnavailable, requests.RequestException) as exc:  # e.g. a body that broke off
            failed_in_a_row += 1
            yield ref, _fetch_failed(ref, f"{type(exc).__name__}: {exc}")
            continue
        failed_in_a_row = 0
        yield ref, got


def _fetch_failed(ref: ReportRef, reason: str) -> Problem:
    log.error("report %s: %s; kept for the next run", ref.arxiv_id, reason)
    return Problem(ref.arxiv_id, ref.model, "fetch_failed", f"{reason}; kept for the next run")


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
    by_method: dict[str, list[tuple[str, Alias]]] = {}
    for start, end, a in _longest_without_overlaps(hits):
        by_method.setdefault(a.method_name, []).append((text[start:end], a))
    out = []
    for method, found in by_method.items():
        distinctive = [f for f in found if not f[1].is_common_word]
        if not distinctive and found[0][1].arxiv_id not in text:
            continue  # only common-word hits (e.g. `gpg`): not evidence of the method
        forms = Counter(surface for surface, _ in found)
        out.append(Mention(method, forms.most_common(1)[0][0], len(found)))
    return sorted(out, key=lambda m: m.method_name)


def _longest_without_overlaps(hits: list[tuple[int, int, Alias]]) -> list[tuple[int, int, Alias]]:
    """Hits longest first; one overlapping a hit already accepted is dropped. The accepted spans are
    disjoint, so neighbours in start order (found by bisection) are the only ones to check."""
    hits = sorted(hits, key=lambda h: (-(h[1] - h[0]), h[0]))
    starts: list[int] = []  # accepted spans, ordered by start (and so by end too)
    ends: list[int] = []
    accepted = []
    for start, end, a in hits:
        i = bisect.bisect_right(starts, start)
        if (i and ends[i - 1] > start) or (i < len(starts) and starts[i] < end):
            continue
        starts.insert(i, start)
        ends.insert(i, end)
        accepted.append((start, end, a))
    return accepted


# --- dlt source ---------------------------------------------------------------------------------
@dlt.source(name="tech_reports", max_table_nesting=0)
def tech_reports_source(
    world: World | None = None,
    arxiv_ids: list[str] | None = None,
) -> Any:
    """Resources `reports` (merge on arxiv_id), `report_mentions` (merge on arxiv_id, method_name) and
    `reports_quarantine` (merge on arxiv_id, problem; see the module docstring), for the world's
    report list read from its arXiv web endpoint (default: the live world)."""
    world = world or World.live()
    refs, seed_problems = checked_refs(seed_reports(world.reports_csv))
    if arxiv_ids is not None:
        wanted = {canonical_arxiv_id(a) for a in arxiv_ids}
        refs = [r for r in refs if r.arxiv_id in wanted]
    aliases = catalogue()
    fetched: dict[str, tuple[ReportText, datetime]] = {}
    failed: dict[str, Problem] = {}  # not refetched by the second resource: one try per run

    catalogue_digest = _digest([READER_VERSION, *(asdict(a) for a in aliases)])

    def read_with(ref: ReportRef) -> str:
        """What a clean read of `ref` depended on: its seed row, the catalogue and the reader."""
        return _digest([asdict(ref), catalogue_digest])

    def texts() -> Iterator[tuple[ReportRef, ReportText, datetime]]:
        """Each report's text, fetched once per run and shared by the resources. A report whose
        full HTML text was read without a problem, with the same seed row and alias catalogue, is
        not fetched again (its rows stay as loaded; a full rebuild, which drops this state, reads
        every report again). Reports read from less than their full text are asked again once the
        world's `report_recheck_s` has passed: their HTML may appear."""
        state = dlt.current.source_state()
        clean = state.setdefault("read_cleanly", {})  # arxiv_id -> digest
        partly = state.setdefault("read_partly", {})  # arxiv_id -> [digest, when]
        now = datetime.now(timezone.utc)

        def recheck_due(ref: ReportRef) -> bool:
            digest, at = partly.get(ref.arxiv_id) or (None, None)
            return digest != read_with(ref) or (now - datetime.fromisoformat(at)).total_seconds() >= world.report_recheck_s

        pending = [r for r in refs if r.arxiv_id not in fetched and r.arxiv_id not in failed
                   and clean.get(r.arxiv_id) != read_with(r) and recheck_due(r)]
        if pending:
            http = world.arxiv_web_politeness.client()
            for ref, got in fetch_reports(http, world.arxiv_web.rstrip("/"), pending):
                if isinstance(got, Problem):  # asked again next run
                    failed[ref.arxiv_id] = got
                    clean.pop(ref.arxiv_id, None)
                    partly.pop(ref.arxiv_id, None)
                    continue
                fetched[ref.arxiv_id] = (got, datetime.now(timezone.utc))
                if got.source == "html" and not got.problem:  # full text: nothing to gain
                    clean[ref.arxiv_id] = read_with(ref)
                    partly.pop(ref.arxiv_id, None)
                else:
                    clean.pop(ref.arxiv_id, None)
                    partly[ref.arxiv_id] = [read_with(ref), now.isoformat()]
        for ref in refs:
            if ref.arxiv_id in fetched:
                yield (ref, *fetched[ref.arxiv_id])

    @dlt.resource(name="reports", primary_key="arxiv_id", write_disposition="merge",
                  columns={"model": {"data_type": "text"}, "arxiv_id": {"data_type": "text"},
                           "text_source": {"data_type": "text"},
                           "params_total_b": {"data_type": "double"}, "params_active_b": {"data_type": "double"},
                           "released_at": {"data_type": "date"}, "text_chars": {"data_type": "bigint"},
                           "fetched_at": {"data_type": "timestamp", "timezone": True}})
    def reports() -> Iterator[dict]:
        for ref, got, fetched_at in texts():
            yield {"model": ref.model, "arxiv_id": ref.arxiv_id, "params_total_b": ref.params_total_b,
                   "params_active_b": ref.params_active_b, "released_at": ref.released_at,
                   "text_chars": len(got.text), "text_source": got.source, "fetched_at": fetched_at}

    @dlt.resource(name="report_mentions", primary_key=["arxiv_id", "method_name"], write_disposition="merge",
                  columns={"arxiv_id": {"data_type": "text"}, "method_name": {"data_type": "text"},
                           "matched_text": {"data_type": "text"}, "occurrences": {"data_type": "bigint"}})
    def report_mentions() -> Iterator[list[dict]]:
        for ref, got, _at in texts():
            rows = [{"arxiv_id": ref.arxiv_id, "method_name": m.method_name, "matched_text": m.matched_text,
                     "occurrences": m.occurrences} for m in extract_mentions(got.text, aliases)]
            if rows:
                yield rows

    @dlt.resource(name=QUARANTINE_TABLE, primary_key=["arxiv_id", "problem"], write_disposition="merge",
                  columns={"noted_at": {"data_type": "timestamp", "timezone": True},
                           "resolved_at": {"data_type": "timestamp", "timezone": True, "nullable": True}})
    def reports_quarantine() -> Iterator[dict]:
        read = list(texts())  # every report fetched (or failed) by now
        current = [*seed_problems, *failed.values(),
                   *(Problem(ref.arxiv_id, ref.model, _TEXT_PROBLEMS[got.source], got.problem)
                     for ref, got, _at in read if got.problem)]
        noted_at = datetime.now(timezone.utc)
        for problem in current:
            yield quarantine_row(problem, noted_at)
        yield from resolved_rows(dlt.current.resource_state(), current, set(fetched), noted_at)

    return reports, report_mentions, reports_quarantine


def _digest(value: Any) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


SEED_PROBLEMS = ("bad_id", "duplicate")  # found by checking the whole seed, which every run does


def resolved_rows(state: dict, current: list[Problem], read_again: set[str], at: datetime) -> Iterator[dict]:
    """Rows closing the problems of earlier runs that are gone now; `state["open_problems"]` becomes
    this run's problems plus the earlier ones it could not judge (a report not read this run)."""
    now_open = {f"{p.arxiv_id}|{p.problem}": [asdict(p), at.isoformat()] for p in current}
    for key, (fields, last_noted) in state.get("open_problems", {}).items():
        if key in now_open:
            continue
        problem = Problem(**fields)
        if problem.problem in SEED_PROBLEMS or problem.arxiv_id in read_again:
            yield quarantine_row(problem, datetime.fromisoformat(last_noted), resolved_at=at)
        else:
            now_open[key] = [fields, last_noted]
    state["open_problems"] = now_open


def quarantine_row(problem: Problem, noted_at: datetime, resolved_at: datetime | None = None) -> dict:
    return {**asdict(problem), "noted_at": noted_at, "resolved_at": resolved_at}
