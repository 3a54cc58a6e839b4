"""Parsing of arXiv API Atom pages into `raw_arxiv.papers` rows (see ingestion/README.md).

A page that is not UTF-8 or not XML raises `ArxivFeedError` (nothing is silently dropped); a single
malformed entry raises `MalformedEntry`, which the source turns into a `papers_quarantine` row.

Both paths (Atom query API, OAI-PMH arXivRaw) give the same row for the same paper:
- `published_at` is when version 1 was submitted; `updated_at` is when the latest version
  (`latest_version`) was submitted, so a single-version paper has `updated_at = published_at`.
  Atom's `<updated>` of a v1 entry can move with metadata-only changes; OAI lists the version
  dates, so the version date is the one both paths can agree on.
- authors are `{name, affiliation}` with Unicode names (arXivRaw's TeX accents are converted by
  pylatexenc); arXivRaw's numbered and group affiliations are resolved to each author.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import datetime, timezone

from ingestion.text import canonical_old_id, find_code_urls

NS = {
    "atom": "http://www.w3.org/2005/Atom",
    "arxiv": "http://arxiv.org/schemas/atom",
    "opensearch": "http://a9.com/-/spec/opensearch/1.1/",
}
# The API's error entries: `http://arxiv.org/api/errors#...` (older answers) or `https://...` (current).
_ERROR_ID_RE = re.compile(r"^https?://(?:export\.)?arxiv\.org/api/errors\b")
RAW_XML_LIMIT = 4000

# New style 2503.14476v2 (4 or 5 digits after the dot), old style math/0501001v1 or math.GT/0309136v1.
_ID_RE = re.compile(
    r"^(?:https?://(?:export\.)?arxiv\.org/abs/)?"
    r"(?P<id>\d{4}\.\d{4,5}|[a-z][a-z\-]*(?:\.[A-Za-z\-]{2,})?/\d{7})"
    r"(?:v(?P<version>\d+))?$"
)
_WS_RE = re.compile(r"\s+")
class ArxivFeedError(RuntimeError):
    """A whole page could not be read (bad encoding, bad XML, or an API error feed)."""


class UnreadablePage(ArxivFeedError):
    """The page is not UTF-8, not XML or not an Atom feed (e.g. a proxy or rate-limit text page)."""


class MalformedEntry(ValueError):
    """One entry could not be turned into a row; `key` names it as well as we can."""

    def __init__(self, reason: str, key: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.key = key


@dataclass(frozen=True)
class FeedPage:
    total_results: int
    start_index: int
    items_per_page: int
    entries: tuple[ET.Element, ...]


def split_arxiv_id(raw: str) -> tuple[str, int]:
    """'http://arxiv.org/abs/2503.14476v2' -> ('2503.14476', 2); 'math.GT/0309136v1' -> ('math/0309136', 1)."""
    m = _ID_RE.match(raw.strip())
    if not m:
        raise MalformedEntry(f"unrecognised arXiv id {raw.strip()!r}", raw.strip() or "<empty id>")
    if m.group("version") is None:
        raise MalformedEntry(f"arXiv id without version {raw.strip()!r}", raw.strip())
    arxiv_id = m.group("id")
    if "/" in arxiv_id:
        arxiv_id = canonical_old_id(*arxiv_id.split("/"))
    return arxiv_id, int(m.group("version"))


def normalise_ws(text: str | None) -> str | None:
    if text is None:
        return None
    text = _WS_RE.sub(" ", text).strip()
    return text or None


PLAUSIBLE_YEARS = (1991, 2100)  # arXiv opened in 1991


def parse_timestamp(value: str | None, field: str, key: str) -> datetime:
    if not value or not value.strip():
        raise MalformedEntry(f"missing {field}", key)
    try:
        ts = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        if ts.tzinfo is None:
            ts = ts.replace(tzinfo=timezone.utc)
        ts = ts.astimezone(timezone.utc)
    except (ValueError, OverflowError):  # OverflowError: e.g. year 1 with a positive UTC offset
        raise MalformedEntry(f"unparseable {field} {value.strip()!r}", key) from None
    if not PLAUSIBLE_YEARS[0] <= ts.year <= PLAUSIBLE_YEARS[1]:
        raise MalformedEntry(f"implausible {field} {value.strip()!r}", key)
    return ts


def parse_feed(content: bytes, *, context: str = "") -> FeedPage:
    """Decode and parse one Atom page. Raises ArxivFeedError with `context` (e.g. the query) on failure."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadablePage(f"arXiv page is not UTF-8 ({exc.reason} at byte {exc.start}) {context}") from exc
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise UnreadablePage(f"arXiv page is not well-formed XML ({exc}) {context}") from exc
    if root.tag != f"{{{NS['atom']}}}feed":
        raise UnreadablePage(f"arXiv page root is {root.tag!r}, expected an Atom feed {context}")
    entries = tuple(root.findall("atom:entry", NS))
    for entry in entries:  # the API reports bad queries as a feed with one error entry
        entry_id = (entry.findtext("atom:id", "", NS) or "").strip()
        if _ERROR_ID_RE.match(entry_id):
            summary = normalise_ws(entry.findtext("atom:summary", "", NS))
            raise ArxivFeedError(f"arXiv API error: {summary} {context}")

    def _int(tag: str, default: int) -> int:
        value = root.findtext(tag, None, NS)
        try:
            return int(value.strip()) if value and value.strip() else default
        except ValueError:
            raise ArxivFeedError(f"arXiv page has non-integer {tag}={value!r} {context}") from None

    return FeedPage(
        total_results=_int("opensearch:totalResults", 0),
        start_index=_int("opensearch:startIndex", 0),
        items_per_page=_int("opensearch:itemsPerPage", len(entries)),
        entries=entries,
    )


def entry_key(entry: ET.Element) -> str:
    """The best identifier for an entry, even a broken one (used in quarantine rows)."""
    entry_id = normalise_ws(entry.findtext("atom:id", None, NS))
    if entry_id:
        return entry_id
    title = normalise_ws(entry.findtext("atom:title", None, NS))
    return f"<no id> {title or ''}".strip()


def raw_xml(entry: ET.Element) -> str:
    return ET.tostring(entry, encoding="unicode")[:RAW_XML_LIMIT]


def parse_entry(entry: ET.Element, fetched_at: datetime) -> dict:
    """One Atom entry -> one `papers` row. Raises MalformedEntry."""
    key = entry_key(entry)
    raw_id = entry.findtext("atom:id", None, NS)
    if not raw_id or not raw_id.strip():
        raise MalformedEntry("entry without id", key)
    arxiv_id, version = split_arxiv_id(raw_id)
    published = parse_timestamp(entry.findtext("atom:published", None, NS), "published", key)
    updated = parse_timestamp(entry.findtext("atom:updated", None, NS), "updated", key)
    if version == 1:  # updated_at is when the latest version was submitted (see the module docstring)
        updated = published
    title = normalise_ws(entry.findtext("atom:title", None, NS))
    if not title:
        raise MalformedEntry("entry without title", key)
    abstract = normalise_ws(entry.findtext("atom:summary", None, NS))
    authors = []
    for author in entry.findall("atom:author", NS):
        name = tex_to_unicode(normalise_ws(author.findtext("atom:name", None, NS)) or "")
        affiliations = [normalise_ws(a.text) for a in author.findall("arxiv:affiliation", NS)]
        affiliations = [a for a in affiliations if a]
        if name:
            authors.append({"name": name, "affiliation": "; ".join(affiliations) or None})
    categories = [c.get("term") for c in entry.findall("atom:category", NS) if c.get("term")]
    primary = entry.find("arxiv:primary_category", NS)
    primary_category = primary.get("term") if primary is not None else None
    if not primary_category and categories:
        primary_category = categories[0]
    comment = normalise_ws(entry.findtext("arxiv:comment", None, NS))
    journal_ref = normalise_ws(entry.findtext("arxiv:journal_ref", None, NS))
    doi = normalise_ws(entry.findtext("arxiv:doi", None, NS))
    return {
        "arxiv_id": arxiv_id,
        "latest_version": version,
        "title": title,
        "abstract": abstract,
        "authors": json.dumps(authors, ensure_ascii=False),
        "primary_category": primary_category,
        "categories": json.dumps(categories),
        "published_at": published,
        "updated_at": updated,
        "comment": comment,
        "journal_ref": journal_ref,
        "doi": doi,
        "code_urls": json.dumps(find_code_urls(abstract, comment)),
        "fetched_at": fetched_at,
    }


def quarantine_row(entry: ET.Element, reason: str, fetched_at: datetime) -> dict:
    return {"entry_key": entry_key(entry), "reason": reason, "raw_xml": raw_xml(entry), "fetched_at": fetched_at}


# --- OAI-PMH (ListRecords, metadataPrefix=arXivRaw) -------------------------------------------------
OAI_NS = {"oai": "http://www.openarchives.org/OAI/2.0/", "raw": "http://arxiv.org/OAI/arXivRaw/"}
_AUTHOR_SPLIT_RE = re.compile(r",\s*(?:and\s+)?|\s+and\s+")
_AUTHOR_AFFIL_RE = re.compile(r"^(?P<name>[^()]+?)\s*\((?P<affil>[^()]*)\)\s*$")


@dataclass(frozen=True)
class OaiPage:
    records: tuple[ET.Element, ...]  # <record> elements that are not deleted
    resumption_token: str | None
    complete_list_size: int | None


def parse_oai_page(content: bytes, *, context: str = "") -> OaiPage:
    """One ListRecords answer. `noRecordsMatch` is an empty page; other OAI errors raise ArxivFeedError."""
    try:
        root = ET.fromstring(content.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise UnreadablePage(f"OAI page is not UTF-8 ({exc.reason} at byte {exc.start}) {context}") from exc
    except ET.ParseError as exc:
        raise UnreadablePage(f"OAI page is not well-formed XML ({exc}) {context}") from exc
    if root.tag != f"{{{OAI_NS['oai']}}}OAI-PMH":
        raise UnreadablePage(f"OAI page root is {root.tag!r} {context}")
    error = root.find("oai:error", OAI_NS)
    if error is not None:
        if error.get("code") == "noRecordsMatch":
            return OaiPage((), None, 0)
        raise ArxivFeedError(f"OAI-PMH error {error.get('code')}: {normalise_ws(error.text)} {context}")
    listing = root.find("oai:ListRecords", OAI_NS)
    if listing is None:
        raise ArxivFeedError(f"OAI page has no ListRecords {context}")
    records = tuple(r for r in listing.findall("oai:record", OAI_NS)
                    if r.find("oai:header", OAI_NS) is None or r.find("oai:header", OAI_NS).get("status") != "deleted")
    token_el = listing.find("oai:resumptionToken", OAI_NS)
    token = (token_el.text or "").strip() if token_el is not None else ""
    size = token_el.get("completeListSize") if token_el is not None else None
    return OaiPage(records, token or None, int(size) if size and size.isdigit() else None)


def _split_outside_parens(text: str) -> list[str]:
    """Split an arXivRaw author list on ',' / ' and ' that are not inside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and (m := _AUTHOR_SPLIT_RE.match(text, i)) and (ch == "," or ch.isspace()):
            if m.end() > i:
                parts.append(text[start:i])
                start = m.end()
    parts.append(text[start:])
    return parts


# `Name (1, 2)` / `Name (1 and 2)`: references into the numbered list `((1) Univ A, (2) Univ B)`
_AFFIL_REFS_RE = re.compile(r"^\d+(?:\s*(?:,|and|&)\s*\d+)*$")
_NUMBERED_LIST_RE = re.compile(r"\s*\(\s*(\(\d+\).*)\)\s*$", re.DOTALL)
_NUMBER_RE = re.compile(r"\((\d+)\)")
_TEX_SPECIAL_RE = re.compile(r"(?<!\\)([%&#])")  # literal in author lists, special to TeX


def tex_to_unicode(text: str) -> str:
    """`Thom\\'e` -> `Thomé`, `S{\\l}upi\\'nski` -> `Słupiński` (pylatexenc); plain text is kept as is."""
    if "\\" not in text and "{" not in text:
        return text
    from pylatexenc.latex2text import LatexNodes2Text

    return normalise_ws(LatexNodes2Text().latex_to_text(_TEX_SPECIAL_RE.sub(r"\\\1", text))) or ""


def _numbered_affiliations(raw: str) -> tuple[str, dict[str, str]]:
    """Cut the trailing `((1) Univ A, (2) Univ B)` list off an author string: (authors, {'1': 'Univ A'})."""
    m = _NUMBERED_LIST_RE.search(raw)
    if not m or not m.group(1).startswith("("):
        return raw, {}
    pieces = _NUMBER_RE.split(m.group(1))  # ['', '1', ' Univ A, ', '2', ' Univ B']
    table = {num: (normalise_ws(text.strip().rstrip(",;").strip()) or "")
             for num, text in zip(pieces[1::2], pieces[2::2])}
    return raw[:m.start()], table


def _oai_authors(raw: str | None) -> list[dict]:
    """arXivRaw's author string -> [{name, affiliation}]. `A (X), B` gives A the affiliation X;
    `A, B (X)` gives X to A and B (a group); `A (1,2), B (2) ((1) X, (2) Y)` resolves the numbers."""
    names, table = _numbered_affiliations(normalise_ws(raw) or "")
    out: list[dict] = []
    group: list[dict] = []  # authors since the last affiliation, who share the next named one
    for part in _split_outside_parens(names):
        part = part.strip()
        if not part:
            continue
        m = _AUTHOR_AFFIL_RE.match(part)
        name, affil = (m.group("name"), normalise_ws(m.group("affil"))) if m else (part, None)
        author = {"name": tex_to_unicode(name.strip()), "affiliation": None}
        out.append(author)
        group.append(author)
        if not affil:
            continue
        if _AFFIL_REFS_RE.match(affil):  # numbered: this author's own (none if no list resolves them)
            author["affiliation"] = "; ".join(table[r] for r in re.findall(r"\d+", affil) if table.get(r)) or None
        else:
            for member in group:
                member["affiliation"] = tex_to_unicode(affil)
        group = []
    return out


def oai_record_key(record: ET.Element) -> str:
    return normalise_ws(record.findtext("oai:header/oai:identifier", None, OAI_NS)) or "<no identifier>"


def parse_oai_record(record: ET.Element, fetched_at: datetime) -> dict:
    """One arXivRaw record -> one `papers` row (same contract as parse_entry). Raises MalformedEntry."""
    from email.utils import parsedate_to_datetime

    key = oai_record_key(record)
    meta = record.find("oai:metadata/raw:arXivRaw", OAI_NS)
    if meta is None:
        raise MalformedEntry("record without arXivRaw metadata", key)
    raw_id = normalise_ws(meta.findtext("raw:id", None, OAI_NS))
    if not raw_id:
        raise MalformedEntry("record without id", key)
    versions = []
    for v in meta.findall("raw:version", OAI_NS):
        number = (v.get("version") or "").lstrip("v")
        date_text = normalise_ws(v.findtext("raw:date", None, OAI_NS))
        try:
            when = parsedate_to_datetime(date_text).astimezone(timezone.utc)
        except (TypeError, ValueError):
            raise MalformedEntry(f"unparseable version date {date_text!r}", key) from None
        if not number.isdigit():
            raise MalformedEntry(f"bad version label {v.get('version')!r}", key)
        versions.append((int(number), when))
    if not versions:
        raise MalformedEntry("record without versions", key)
    arxiv_id, _ = split_arxiv_id(f"{raw_id}v{max(n for n, _ in versions)}")
    versions.sort()
    title = normalise_ws(meta.findtext("raw:title", None, OAI_NS))
    if not title:
        raise MalformedEntry("record without title", key)
    abstract = normalise_ws(meta.findtext("raw:abstract", None, OAI_NS))
    comment = normalise_ws(meta.findtext("raw:comments", None, OAI_NS))
    categories = (normalise_ws(meta.findtext("raw:categories", None, OAI_NS)) or "").split()
    return {
        "arxiv_id": arxiv_id,
        "latest_version": versions[-1][0],
        "title": title,
        "abstract": abstract,
        "authors": json.dumps(_oai_authors(meta.findtext("raw:authors", None, OAI_NS)), ensure_ascii=False),
        "primary_category": categories[0] if categories else None,
        "categories": json.dumps(categories),
        "published_at": versions[0][1],
        "updated_at": versions[-1][1],
        "comment": comment,
        "journal_ref": normalise_ws(meta.findtext("raw:journal-ref", None, OAI_NS)),
        "doi": normalise_ws(meta.findtext("raw:doi", None, OAI_NS)),
        "code_urls": json.dumps(find_code_urls(abstract, comment)),
        "fetched_at": fetched_at,
    }


def oai_quarantine_row(record: ET.Element, reason: str, fetched_at: datetime) -> dict:
    return {"entry_key": oai_record_key(record), "reason": reason, "raw_xml": raw_xml(record),
            "fetched_at": fetched_at}
