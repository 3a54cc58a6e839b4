"""arXiv's HTML rendering of a paper as a source of its front matter: code links in footnotes and the
authors' affiliations, which the arXiv API rarely carries.

arXiv serves most recent papers as LaTeXML output at `<arxiv_web>/html/<id>`. Its front matter is
everything in the `ltx_document` before the first section: the title (`ltx_title_document`), the
author block (`ltx_authors`: one `ltx_creator ltx_role_author` per author or group, with
`ltx_personname` and `ltx_author_notes` holding `ltx_contact ltx_role_affiliation|address|email`),
the abstract (`ltx_abstract`) and the footnotes attached to them (`ltx_note ltx_role_footnote`,
text in `ltx_note_content`: "Code: https://github.com/...", "Work done at ...").

- `parse_front_matter(html)` reads it with html.parser into a `FrontMatter` (authors with their
  affiliations, links, text); `FrontMatter.from_text` builds the same from front-matter text alone.
- `front_matter_features` judges it with the screening rules (ingestion/screening/rules.py): a link is the
  paper's code only as `releases_code` would judge it (`code_release_in`), affiliations go through
  `maintainer_match` with source "arXiv HTML".
- `arxiv_front_matter_source` is the dlt source: resource `paper_front_matter` (raw_arxiv, merge on
  arxiv_id), one row per paper asked, with `status`:
  `read` (front matter found), `no_html` (HTTP 404: arXiv has no HTML for many papers),
  `no_front_matter` (a page without a LaTeXML document or without title, authors and abstract: a
  failed conversion, or mostly undecodable bytes) or `fetch_failed` (arXiv kept failing; written
  only for a paper with no earlier row, so an earlier reading is never overwritten by a failure).
  Incremental (dlt state, the same rule `due` the Dagster asset applies to the warehouse rows): a
  paper read is not asked again until `READER_VERSION` changes; `no_html` and `no_front_matter`
  rows are asked again after the world's `front_matter_recheck_s` (live: a week), `fetch_failed`
  ones after `report_recheck_s` (live: a day). Pages are asked as politely as the world's
  `arxiv_web_politeness` says (live: one request every 3 s); after `MAX_FAILED_IN_A_ROW` failures
  in a row the run stops asking (the rest stay due for the next run).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from html.parser import HTMLParser
from typing import Any

import dlt
import requests

from ingestion.http import MAX_FAILED_IN_A_ROW, PoliteClient, SourceUnavailable
from ingestion.screening.rules import PaperText, code_release_in, maintainer_match
from ingestion.text import find_code_urls, page_text, undecodable
from ingestion.world import ARXIV_WEB, World

log = logging.getLogger(__name__)

READER_VERSION = 1  # bump when reading or judging front matter changes: every paper is read again
TABLE = "paper_front_matter"
AFFILIATION_SOURCE = "arXiv HTML"
STATUSES = ("read", "no_html", "no_front_matter", "fetch_failed")

COLUMNS = {
    "arxiv_id": {"data_type": "text", "nullable": False},
    "html_url": {"data_type": "text"},  # the page on arxiv.org (asked at the world's endpoint)
    "status": {"data_type": "text"},
    "problem": {"data_type": "text"},
    "releases_code": {"data_type": "bool"},
    "code_signal": {"data_type": "text"},
    "code_urls": {"data_type": "text"},
    "maintainer_framework_ids": {"data_type": "text"},
    "maintainer_signal": {"data_type": "text"},
    "has_affiliations": {"data_type": "bool"},
    "authors": {"data_type": "text"},
    "reader_version": {"data_type": "bigint"},
    "fetched_at": {"data_type": "timestamp", "timezone": True},
}


@dataclass(frozen=True)
class FrontMatter:
    """What a paper's front matter says: authors ({name, affiliation}; affiliation is '; '-joined
    labs, addresses and e-mail addresses, or None), the links in it, its text and its footnotes'."""

    authors: list[dict] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    text: str = ""
    title: str = ""
    footnotes: list[str] = field(default_factory=list)
    found: bool = True  # a LaTeXML document with a title, an author block or an abstract

    @classmethod
    def from_text(cls, text: str) -> FrontMatter:
        """From front-matter text without markup: links by regex, each non-empty line an affiliation
        (marks split: "1 ByteDance Seed 2 Tsinghua University" is two labs)."""
        lines = [" ".join(line.split()) for line in text.splitlines()]
        authors = [{"name": "", "affiliation": aff} for line in lines if line and (aff := _affiliation([line]))]
        return cls(authors=authors, urls=_urls_in(text), text=" ".join(" ".join(lines).split()))


# --- reading the page ---------------------------------------------------------------------------
_URL = re.compile(r"https?://[^\s,;()\[\]{}<>\"'`]+", re.I)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_BRACED_EMAILS = re.compile(r"\{([\w.+\-,\s]+)\}\s*@([\w-]+(?:\.[\w-]+)+)")  # {alice,bob}@lab.org
# an affiliation mark at the start of a unit or between units: "1 ByteDance Seed 2 Tsinghua University"
_MARK = re.compile(r"(?:^|(?<=\s))(?:\d{1,2}|[*†‡§¶♠♣♡♢]+)\s*(?=[A-Z])")
_SECTION_CLASSES = {"ltx_section", "ltx_chapter", "ltx_part", "ltx_appendix", "ltx_bibliography", "ltx_index"}
_SKIP_CLASSES = {"ltx_ERROR", "ltx_note_mark", "ltx_tag_note", "ltx_page_header", "ltx_page_footer",
                 "package-alerts", "ltx_role_refnum"}
_SKIP_TAGS = {"head", "script", "style", "nav", "header", "footer", "annotation", "annotation-xml", "noscript",
              "button"}
_BLOCK = {"p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "br", "tr", "table", "section", "blockquote",
          "figcaption", "td", "th"}
# LaTeXML's tabulars (`\author{\begin{tabular}...}`) are spans: their rows and cells are lines too
_BLOCK_CLASSES = {"ltx_tabular", "ltx_tr", "ltx_td", "ltx_p", "ltx_para", "ltx_break"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_MARK_CHARS = re.compile(r"^[\s\d,*†‡§¶♠♣♡♢∗⋆&]+$")


def _urls_in(text: str) -> list[str]:
    """http(s) links and bare repository links ("github.com/x/y") in `text`, in order, de-duplicated."""
    found = [m.group(0).rstrip(".:!?") for m in _URL.finditer(text)] + find_code_urls(text)
    return list(dict.fromkeys(found))


def _emails(text: str) -> list[str]:
    out = []
    for m in _BRACED_EMAILS.finditer(text):
        out += [f"{user.strip()}@{m.group(2)}" for user in m.group(1).split(",") if user.strip()]
    out += _EMAIL.findall(_BRACED_EMAILS.sub(" ", text))
    return list(dict.fromkeys(out))


def _affiliation(lines: Iterable[str], emails: Iterable[str] = ()) -> str | None:
    """Affiliation lines as '; '-joined units: marks split labs, e-mail addresses are units of their own,
    links are left out (a www.huggingface.co link is no Hugging Face affiliation)."""
    units: list[str] = []
    for line in lines:
        rest = _EMAIL.sub(" ", _BRACED_EMAILS.sub(" ", _URL.sub(" ", line)))
        for unit in _MARK.split(rest.replace(";", "\n")):
            for piece in unit.split("\n"):
                piece = " ".join(piece.split()).strip(" ,.:")
                if piece and not _MARK_CHARS.match(piece) and piece not in units:
                    units.append(piece)
        units += _emails(line)
    return "; ".join(dict.fromkeys([*units, *emails])) or None


@dataclass
class _Author:
    lines: list[list[str]] = field(default_factory=lambda: [[]])  # personname text, by line
    affiliations: list[str] = field(default_factory=list)
    emails: list[str] = field(default_factory=list)


class _FrontMatterParser(HTMLParser):
    """Collects the front matter of a LaTeXML document (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title: list[str] = []
        self.footnotes: list[list[str]] = []
        self.footnote_hrefs: list[list[str]] = []
        self.hrefs: list[str] = []
        self.authors: list[_Author] = []
        self.in_document = self.seen_document = self.done = False
        self.has_title = self.has_authors = self.has_abstract = False
        self._open: list[tuple[str, set[str]]] = []
        self._contact: list[str] | None = None  # text of the affiliation/address/e-mail contact open
        self._contact_kind = ""
        self._sup_in_name: int = 0

    # which open element carries a class
    def _inside(self, cls: str) -> bool:
        return any(cls in classes for _, classes in self._open)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if self.done:
            return
        attr = dict(attrs)
        classes = set((attr.get("class") or "").split())
        if not self.in_document:
            if tag == "article" and "ltx_document" in classes or "ltx_document" in classes and tag == "div":
                self.in_document = self.seen_document = True
                self._open = [(tag, classes)]
            return
        if classes & _SECTION_CLASSES and not self._inside("ltx_note"):
            self.done = True  # the first section: the front matter is over
            return
        if tag in _BLOCK or classes & _BLOCK_CLASSES:
            self._newline()
        if tag in _VOID:
            return
        self._open.append((tag, classes))
        if "ltx_title_document" in classes:
            self.has_title = True
        if "ltx_authors" in classes:
            self.has_authors = True
        if "ltx_abstract" in classes:
            self.has_abstract = True
        if "ltx_creator" in classes or ("ltx_personname" in classes and not self._inside("ltx_creator")):
            self.authors.append(_Author())
        if "ltx_note_content" in classes:
            self.footnotes.append([])
            self.footnote_hrefs.append([])
        if "ltx_contact" in classes and self._inside("ltx_authors"):
            self._contact = []
            self._contact_kind = "email" if "ltx_role_email" in classes else "affiliation"
        if tag == "a" and (href := (attr.get("href") or "").strip()):
            if href.lower().startswith(("http://", "https://")):
                self.hrefs.append(href)
                if self._inside("ltx_note_content") and self.footnotes:
                    self.footnote_hrefs[-1].append(href)
            elif href.lower().startswith("mailto:") and self.authors and self._inside("ltx_authors"):
                self.authors[-1].emails.append(href[7:].split("?")[0])

    def handle_endtag(self, tag: str) -> None:
        if self.done or not self.in_document:
            return
        if tag in _BLOCK or any(t == tag and classes & _BLOCK_CLASSES for t, classes in self._open[-1:]):
            self._newline()
        if not any(t == tag for t, _ in self._open):
            return  # a stray end tag
        while self._open:
            open_tag, classes = self._open.pop()
            if "ltx_contact" in classes and self._contact is not None:
                text = " ".join("".join(self._contact).split())
                if self.authors and text:
                    author = self.authors[-1]
                    (author.emails if self._contact_kind == "email" else author.affiliations).append(text)
                self._contact = None
            if "ltx_note_content" in classes and self.footnotes:
                self.parts.append(" ")
            if not self._open:
                self.in_document = False
                self.done = True  # the document ended before any section
            if open_tag == tag:
                return

    def _newline(self) -> None:
        self.parts.append("\n")
        if self._contact is not None:
            self._contact.append("\n")
        if self.authors and self._in_name():
            self.authors[-1].lines.append([])

    def _in_name(self) -> bool:
        return (self._inside("ltx_personname") and not self._inside("ltx_note")
                and not self._inside("ltx_author_notes") and not self._inside("ltx_contact"))

    def handle_data(self, data: str) -> None:
        if self.done or not self.in_document:
            return
        if any(t in _SKIP_TAGS or classes & _SKIP_CLASSES for t, classes in self._open):
            return
        in_sup = any(t == "sup" or "ltx_sup" in classes for t, classes in self._open)
        self.parts.append(data)
        if self._inside("ltx_title_document") and not self._inside("ltx_note"):
            self.title.append(data)
        if self._inside("ltx_note_content") and self.footnotes:
            self.footnotes[-1].append(data)
        if self._contact is not None:
            self._contact.append(" ; " if in_sup and _MARK_CHARS.match(data) else data)
        elif self.authors and self._in_name():
            # a mark (superscript number or symbol) separates labs in an affiliation line
            self.authors[-1].lines[-1].append(" ; " if in_sup and _MARK_CHARS.match(data) else data)


def _decoded(page: str | bytes) -> str:
    return page.decode("utf-8", errors="replace") if isinstance(page, bytes) else page


def parse_front_matter(page: str | bytes) -> FrontMatter:
    """The front matter of an arXiv HTML page (LaTeXML output); `found` is False for a page without
    a LaTeXML document or without title, author block and abstract (a failed conversion)."""
    parser = _FrontMatterParser()
    try:
        parser.feed(_decoded(page))
        parser.close()
    except AssertionError:  # how html.parser gives up on e.g. an unknown `<![foo[` section
        pass  # what was read before it stands
    text = re.sub(r"[ \t\r\f\v]+", " ", "".join(parser.parts))
    text = "\n".join(line.strip() for line in text.split("\n") if line.strip())
    authors = []
    for a in parser.authors:
        lines = [" ".join("".join(line).split()) for line in a.lines]
        lines = [line for line in lines if line.strip(" ;")]
        name = re.sub(r"\s*;\s*", " ", _EMAIL.sub(" ", lines[0])) if lines else ""
        name = re.sub(r"\s+,", ",", " ".join(name.split())).strip(" ,")
        affiliation = _affiliation([*(line.replace(" ; ", "\n") for line in lines[1:]),
                                    *(aff.replace(" ; ", "\n") for aff in a.affiliations)],
                                   [e for em in a.emails for e in (_emails(em) or [em.strip()])])
        if name or affiliation:
            authors.append({"name": name, "affiliation": affiliation})
    flat = " ".join(text.split())
    footnotes = [" ".join([*"".join(f).split(), *(h for h in hrefs if h.split("://", 1)[-1] not in "".join(f))])
                 for f, hrefs in zip(parser.footnotes, parser.footnote_hrefs)]
    urls = list(dict.fromkeys([*parser.hrefs, *_urls_in(flat)]))
    found = parser.seen_document and (parser.has_title or parser.has_authors or parser.has_abstract)
    # an href whose anchor text is not the link ("code <a href=...>here</a>") is kept beside it in
    # the text, so the cues around it can judge it
    missing = [u for u in parser.hrefs if u.split("://", 1)[-1].rstrip("/") not in flat]
    flat = " ".join([flat, *missing]) if missing else flat
    return FrontMatter(authors=authors, urls=urls, text=flat, title=" ".join("".join(parser.title).split()),
                       footnotes=[f for f in footnotes if f], found=bool(found))


# --- judging it ---------------------------------------------------------------------------------
def front_matter_features(arxiv_id: str, title: str, front: FrontMatter, frameworks: Iterable) -> dict:
    """Code release and maintainer affiliation read from the front matter, by the screening rules."""
    title = title or front.title
    # repository links only (as `releases_code` reads code_urls); a project page counts after a cue
    code, signal = code_release_in(front.text, title, find_code_urls(" ".join(front.urls), front.text))
    if code and signal and signal.startswith("link: "):
        url = signal.removeprefix("link: ")
        bare = url.split("://", 1)[-1]
        where = "footnote" if any(bare in f for f in front.footnotes) else "front matter"
        signal = f"{where} link: {url}"
    elif code and signal:
        signal = f"front matter {signal}"
    affiliated = [a for a in front.authors if a.get("affiliation")]
    paper = PaperText(title, affiliations=tuple(a["affiliation"] for a in affiliated),
                      affiliation_sources=(AFFILIATION_SOURCE,) * len(affiliated))
    maintainers, maintainer_signal = maintainer_match(paper, frameworks)
    return {
        "arxiv_id": arxiv_id,
        "releases_code": code,
        "code_signal": signal,
        "code_urls": json.dumps(front.urls),
        "maintainer_framework_ids": json.dumps(maintainers),
        "maintainer_signal": maintainer_signal,
        "has_affiliations": bool(affiliated),
    }


# --- fetching -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Fetched:
    status: str  # read | no_html | no_front_matter | fetch_failed
    front: FrontMatter | None = None
    problem: str = ""


def read_front_matter(http: PoliteClient, base_url: str, arxiv_id: str) -> Fetched:
    """The paper's front matter from `/html/<id>`. Raises SourceUnavailable or a requests error when
    no response came (or it broke off); other answers than 200 and 404 are a fetch failure too."""
    resp = http.get(f"{base_url}/html/{arxiv_id}")
    if resp.status_code in (404, 410):
        return Fetched("no_html", problem=f"HTTP {resp.status_code}")
    if resp.status_code != 200:
        return Fetched("fetch_failed", problem=f"HTTP {resp.status_code}")
    page = page_text(resp)
    if undecodable(page):
        return Fetched("no_front_matter", problem="HTML page is mostly undecodable bytes")
    front = parse_front_matter(page)
    if not front.found:
        return Fetched("no_front_matter", front, "no LaTeXML front matter (a failed conversion?)")
    return Fetched("read", front)


def due(previous: Sequence | None, now: datetime, world: World) -> bool:
    """Is a paper with this earlier row ([status, fetched_at ISO, reader_version], or None) to be
    asked (again)? Read papers only when the reader changed; the others after the world's wait."""
    if not previous:
        return True
    status, at, version = previous
    if version != READER_VERSION:
        return True
    wait = {"no_html": world.front_matter_recheck_s, "no_front_matter": world.front_matter_recheck_s,
            "fetch_failed": world.report_recheck_s}.get(status)
    if wait is None:
        return False
    if isinstance(at, str):
        at = datetime.fromisoformat(at)
    if at.tzinfo is None:
        at = at.replace(tzinfo=timezone.utc)
    return (now - at).total_seconds() >= wait


@dlt.source(name="arxiv_front_matter", max_table_nesting=0)
def arxiv_front_matter_source(
    world: World | None = None,
    arxiv_ids: Sequence[str] | None = None,
    titles: Mapping[str, str] | None = None,
    now: datetime | None = None,
) -> Any:
    """Resource `paper_front_matter` (merge on arxiv_id) for `arxiv_ids` (titles help judge links
    named after the paper), read from the world's arXiv web endpoint (default: the live world)."""
    world = world or World.live()
    ids = list(dict.fromkeys(arxiv_ids or []))
    titles = dict(titles or {})
    registry = list(world.registry().values())  # maintainer affiliation is a fact of the paper

    @dlt.resource(name=TABLE, primary_key="arxiv_id", write_disposition="merge", columns=COLUMNS)
    def paper_front_matter() -> Iterator[dict]:
        state = dlt.current.source_state().setdefault("front_matter", {})  # arxiv_id -> [status, at, version]
        clock = now or datetime.now(timezone.utc)
        pending = [a for a in ids if due(state.get(a), clock, world)]
        if not pending:
            return
        base_url = world.arxiv_web.rstrip("/")
        http = world.arxiv_web_politeness.client()
        failed_in_a_row = 0
        for arxiv_id in pending:
            if failed_in_a_row >= MAX_FAILED_IN_A_ROW:
                log.warning("front matter: %d papers in a row failed; %d not asked this run", failed_in_a_row,
                            len(pending) - pending.index(arxiv_id))
                break
            try:
                got = read_front_matter(http, base_url, arxiv_id)
            except (SourceUnavailable, requests.RequestException) as exc:
                got = Fetched("fetch_failed", problem=f"{type(exc).__name__}: {exc}")
            failed_in_a_row = failed_in_a_row + 1 if got.status == "fetch_failed" else 0
            fetched_at = now or datetime.now(timezone.utc)
            if got.status == "fetch_failed":
                log.error("front matter %s: %s; asked again later", arxiv_id, got.problem)
                if state.get(arxiv_id) and state[arxiv_id][0] != "fetch_failed":
                    continue  # the earlier reading stays; still due, so asked again next run
            state[arxiv_id] = [got.status, fetched_at.isoformat(), READER_VERSION]
            yield front_matter_row(arxiv_id, titles.get(arxiv_id, ""), got, registry,
                                   f"{ARXIV_WEB}/html/{arxiv_id}", fetched_at)

    return paper_front_matter


def front_matter_row(arxiv_id: str, title: str, got: Fetched, frameworks: Iterable, html_url: str,
                     fetched_at: datetime) -> dict:
    features = (front_matter_features(arxiv_id, title, got.front, frameworks) if got.status == "read"
                and got.front else {"releases_code": False, "code_signal": None, "code_urls": "[]",
                                    "maintainer_framework_ids": "[]", "maintainer_signal": None,
                                    "has_affiliations": False})
    authors = [{**a, "source": AFFILIATION_SOURCE} for a in (got.front.authors if got.front else [])]
    return {**features, "arxiv_id": arxiv_id, "html_url": html_url, "status": got.status,
            "problem": got.problem or None, "authors": json.dumps(authors), "reader_version": READER_VERSION,
            "fetched_at": fetched_at}
