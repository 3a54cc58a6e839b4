"""A loopback fake of the arXiv query API serving the sample world's papers as real-format Atom.

Supported: `search_query` made of AND-ed terms, each `cat:X`, `ti:X`/`abs:X` (word or "phrase"), an
OR-group of those in parentheses,
`submittedDate:[YYYYMMDDHHMM TO YYYYMMDDHHMM]` or `lastUpdatedDate:[...]`; `start`, `max_results`,
`sortBy` (submittedDate | lastUpdatedDate), `sortOrder`. Also OAI-PMH at /oai2: ListRecords with
metadataPrefix=arXivRaw, set, from, until and resumptionToken paging. Fault injection: see `Faults`.
"""

from __future__ import annotations

import base64
import random
import re
import socket
import struct
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape, quoteattr

from ingestion.arxiv.pool import phrase_in
from worlds.sample.world import Paper, build_world

_RANGE_RE = re.compile(r"^(submittedDate|lastUpdatedDate):\[(\d{12}) TO (\d{12})\]$")


@dataclass
class Faults:
    """Counters are consumed request by request (a retry sees the next state)."""

    fail_next: int = 0  # answer the next N requests with `fail_status`
    fail_status: int = 503
    oai_page_size: int = 100  # records per OAI-PMH ListRecords answer
    reset_next: int = 0  # drop the connection (RST) on the next N requests
    empty_first_pages: int = 0  # answer the next N first pages (start=0) with an empty feed
    empty_later_pages: int = 0  # answer the next N later pages (start>0) without entries
    malformed_ids: Sequence[str] = ()  # serve these papers with a broken <id>
    bad_date_ids: Sequence[str] = ()  # serve these papers with an unparseable <published>
    garbage_next: int = 0  # answer the next N requests with non-UTF-8 bytes
    error_rate: float = 0.0  # this share of requests, at random, answers 503 or drops the connection
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    cut_windows: Sequence[str] = ()  # search terms (e.g. a submittedDate range) whose pages come back cut short
    # arxiv_id -> (version, updated) to simulate a new version after the first load
    version_bumps: dict[str, tuple[int, datetime]] = field(default_factory=dict)


def _term_predicate(term: str) -> Callable[[Paper, datetime], bool]:
    """One search term compiled once into a test of (paper, last-updated date)."""
    term = term.strip()
    if term.startswith("(") and term.endswith(")"):
        options = [_term_predicate(t) for t in term[1:-1].split(" OR ")]
        return lambda paper, updated: any(test(paper, updated) for test in options)
    if term.startswith(("ti:", "abs:")):
        field, phrase = term.split(":", 1)
        return lambda paper, updated: phrase_in(phrase, paper.title if field == "ti" else paper.abstract)
    if term.startswith("cat:"):
        category = term[4:]
        return lambda paper, updated: category in _categories(paper)
    m = _RANGE_RE.match(term)
    if m:
        lo = datetime.strptime(m.group(2), "%Y%m%d%H%M").replace(tzinfo=timezone.utc)
        hi = datetime.strptime(m.group(3), "%Y%m%d%H%M").replace(tzinfo=timezone.utc, second=59)
        if m.group(1) == "submittedDate":
            return lambda paper, updated: lo <= paper.published <= hi
        return lambda paper, updated: lo <= updated <= hi
    raise ValueError(f"unsupported search term {term!r}")


def _ts(value: datetime) -> str:
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class FakeArxiv:
    """Context manager running the fake API on 127.0.0.1:<free port>; `requests` logs every query."""

    def __init__(self, papers: Sequence[Paper] | None = None, faults: Faults | None = None) -> None:
        self.papers = tuple(papers if papers is not None else build_world().papers)
        self.faults = faults or Faults()
        self.requests: list[dict[str, str]] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/api/query"

    def __enter__(self) -> FakeArxiv:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server API)
                fake._handle(self)

            def log_message(self, *args) -> None:  # keep test output quiet
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address) -> None:  # resets are deliberate
                pass

        self._server = Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    # --- request handling ---------------------------------------------------------------
    def _oai(self, params: dict[str, str]) -> str:
        return _oai_page(self, params)

    def _version(self, paper: Paper) -> tuple[int, datetime]:
        return self.faults.version_bumps.get(paper.arxiv_id, (paper.versions, paper.updated))

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        url = urlsplit(h.path)
        params = {k: v[0] for k, v in parse_qs(url.query).items()}
        with self._lock:
            self.requests.append(params)
            f = self.faults
            if f.error_rate and f.rng.random() < f.error_rate:
                if f.rng.random() < 0.5:
                    f.fail_next += 1
                else:
                    f.reset_next += 1
            if f.reset_next > 0:
                f.reset_next -= 1
                h.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                h.connection.close()
                h.close_connection = True
                return
            if f.fail_next > 0:
                f.fail_next -= 1
                self._send(h, f.fail_status, b"Service temporarily unavailable", "text/plain")
                return
            if f.garbage_next > 0:
                f.garbage_next -= 1
                self._send(h, 200, b"<?xml version='1.0'?><feed>\xff\xfe\x00broken", "application/atom+xml")
                return
            start = int(params.get("start", 0))
            empty = start == 0 and f.empty_first_pages > 0
            if empty:
                f.empty_first_pages -= 1
            no_entries = start > 0 and f.empty_later_pages > 0
            if no_entries:
                f.empty_later_pages -= 1
        if url.path == "/oai2":
            self._send(h, 200, self._oai(params).encode("utf-8"), "text/xml; charset=utf-8")
            return
        if url.path != "/api/query":
            self._send(h, 404, b"not found", "text/plain")
            return
        try:
            selected = self._select(params.get("search_query", ""), params.get("sortBy", "relevance"),
                                    params.get("sortOrder", "descending"))
        except ValueError as exc:
            self._send(h, 200, self._error_feed(str(exc)).encode(), "application/atom+xml; charset=utf-8")
            return
        max_results = min(int(params.get("max_results", 10)), 2000)
        page = [] if empty or no_entries else selected[start:start + max_results]
        total = 0 if empty else len(selected)
        body = self._feed(params, page, total, start, max_results).encode("utf-8")
        if any(term in params.get("search_query", "") for term in self.faults.cut_windows):
            body = body[: len(body) // 2]  # a proxy cutting the answer short
        self._send(h, 200, body, "application/atom+xml; charset=utf-8")

    @staticmethod
    def _send(h: BaseHTTPRequestHandler, status: int, body: bytes, ctype: str) -> None:
        h.send_response(status)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    def _select(self, search_query: str, sort_by: str, order: str) -> list[Paper]:
        terms = [t for t in search_query.split(" AND ") if t.strip()]
        if not terms:
            raise ValueError("empty search_query")
        tests = [_term_predicate(t) for t in terms]
        out = [p for p in self.papers if all(test(p, self._version(p)[1]) for test in tests)]
        if sort_by == "lastUpdatedDate":
            out.sort(key=lambda p: (self._version(p)[1], p.arxiv_id))
        else:
            out.sort(key=lambda p: (p.published, p.arxiv_id))
        if order == "descending":
            out.reverse()
        return out

    # --- rendering ------------------------------------------------------------------------
    def _feed(self, params: dict[str, str], papers: list[Paper], total: int, start: int, per_page: int) -> str:
        query = escape(params.get("search_query", ""))
        parts = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"'
            ' xmlns:arxiv="http://arxiv.org/schemas/atom">',
            '  <link href="http://arxiv.org/api/query" rel="self" type="application/atom+xml"/>',
            f"  <title type=\"html\">ArXiv Query: search_query={query}</title>",
            "  <id>http://arxiv.org/api/sample</id>",
            f"  <updated>{_ts(datetime.now(timezone.utc))}</updated>",
            f"  <opensearch:totalResults>{total}</opensearch:totalResults>",
            f"  <opensearch:startIndex>{start}</opensearch:startIndex>",
            f"  <opensearch:itemsPerPage>{per_page}</opensearch:itemsPerPage>",
        ]
        parts.extend(self._entry(p) for p in papers)
        parts.append("</feed>")
        return "\n".join(parts)

    def _entry(self, p: Paper) -> str:
        version, updated = self._version(p)
        abs_url = f"http://arxiv.org/abs/{p.arxiv_id}v{version}"
        entry_id = abs_url
        if p.arxiv_id in self.faults.malformed_ids:
            entry_id = f"http://arxiv.org/abs/not-an-id-{p.arxiv_id}"
        published = "yesterday-ish" if p.arxiv_id in self.faults.bad_date_ids else _ts(p.published)
        lines = [
            "  <entry>",
            f"    <id>{escape(entry_id)}</id>",
            f"    <updated>{_ts(updated)}</updated>",
            f"    <published>{published}</published>",
            f"    <title>{escape(_wrap(p.title))}</title>",
            f"    <summary>  {escape(_wrap(p.abstract))}\n</summary>",
        ]
        for name, affiliation in p.authors:
            lines.append("    <author>")
            lines.append(f"      <name>{escape(name)}</name>")
            if affiliation:
                lines.append(f"      <arxiv:affiliation>{escape(affiliation)}</arxiv:affiliation>")
            lines.append("    </author>")
        if p.doi:
            lines.append(f"    <arxiv:doi>{escape(p.doi)}</arxiv:doi>")
            lines.append(f"    <link title=\"doi\" href={quoteattr('http://dx.doi.org/' + p.doi)} rel=\"related\"/>")
        if p.comment:
            lines.append(f"    <arxiv:comment>{escape(p.comment)}</arxiv:comment>")
        if p.journal_ref:
            lines.append(f"    <arxiv:journal_ref>{escape(p.journal_ref)}</arxiv:journal_ref>")
        lines.append(f"    <link href=\"{abs_url}\" rel=\"alternate\" type=\"text/html\"/>")
        lines.append(f"    <link title=\"pdf\" href=\"http://arxiv.org/pdf/{p.arxiv_id}v{version}\" rel=\"related\" "
                     "type=\"application/pdf\"/>")
        lines.append(f"    <arxiv:primary_category term=\"{p.primary_category}\" "
                     "scheme=\"http://arxiv.org/schemas/atom\"/>")
        for cat in _categories(p):
            lines.append(f"    <category term=\"{cat}\" scheme=\"http://arxiv.org/schemas/atom\"/>")
        lines.append("  </entry>")
        return "\n".join(lines)

    @staticmethod
    def _error_feed(message: str) -> str:
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">'
            "<opensearch:totalResults>1</opensearch:totalResults>"
            "<opensearch:startIndex>0</opensearch:startIndex><opensearch:itemsPerPage>1</opensearch:itemsPerPage>"
            "<entry><id>http://arxiv.org/api/errors#incorrect_search_query</id><title>Error</title>"
            f"<summary>{escape(message)}</summary></entry></feed>"
        )


def _oai_page(fake: FakeArxiv, params: dict[str, str]) -> str:
    """ListRecords (arXivRaw) over the papers; datestamp = day of the latest version."""
    if "resumptionToken" in params:
        set_spec, day_from, day_until, offset = base64.urlsafe_b64decode(params["resumptionToken"]).decode().split("|")
        offset_i = int(offset)
    else:
        if params.get("verb") != "ListRecords" or params.get("metadataPrefix") != "arXivRaw":
            return _oai_error("badArgument", "only verb=ListRecords&metadataPrefix=arXivRaw is served")
        set_spec, day_from, day_until, offset_i = (params.get("set", ""), params.get("from", "0000-01-01"),
                                                   params.get("until", "9999-12-31"), 0)
    chosen = sorted(
        (p for p in fake.papers
         if (not set_spec or any(c.split(".")[0] == set_spec for c in _categories(p)))
         and day_from <= f"{fake._version(p)[1]:%Y-%m-%d}" <= day_until),
        key=lambda p: (fake._version(p)[1], p.arxiv_id),
    )
    if not chosen:
        return _oai_error("noRecordsMatch", "no records")
    size = fake.faults.oai_page_size
    page = chosen[offset_i:offset_i + size]
    nxt = offset_i + size
    token = (base64.urlsafe_b64encode(f"{set_spec}|{day_from}|{day_until}|{nxt}".encode()).decode()
             if nxt < len(chosen) else "")
    records = "\n".join(_oai_record(fake, p) for p in page)
    return (_OAI_HEAD + f"<ListRecords>\n{records}\n<resumptionToken cursor=\"{offset_i}\" "
            f"completeListSize=\"{len(chosen)}\">{token}</resumptionToken>\n</ListRecords>\n</OAI-PMH>")


_OAI_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" '
             'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n<responseDate>2026-01-01T00:00:00Z</responseDate>\n'
             '<request verb="ListRecords">http://export.arxiv.org/oai2</request>\n')


def _oai_error(code: str, message: str) -> str:
    return _OAI_HEAD + f'<error code="{code}">{escape(message)}</error>\n</OAI-PMH>'


def _oai_record(fake: FakeArxiv, p: Paper) -> str:
    n, updated = fake._version(p)
    step = (updated - p.published) / (n - 1) if n > 1 else timedelta(0)
    versions = "".join(
        f'<version version="v{i + 1}"><date>{format_datetime(p.published + step * i, usegmt=True)}</date>'
        f"<size>512kb</size><source_type>D</source_type></version>"
        for i in range(n)
    )
    if p.arxiv_id in fake.faults.bad_date_ids:
        versions = '<version version="v1"><date>yesterday-ish</date></version>'
    people = _raw_authors(p.authors)
    authors = ", ".join(people[:-1]) + " and " + people[-1] if len(people) > 1 else people[0]
    optional = "".join(
        f"<{tag}>{escape(value)}</{tag}>"
        for tag, value in (("comments", p.comment), ("journal-ref", p.journal_ref), ("doi", p.doi)) if value
    )
    cats = _categories(p)
    raw_id = f"broken id {p.arxiv_id}" if p.arxiv_id in fake.faults.malformed_ids else p.arxiv_id
    return (
        f"<record><header><identifier>oai:arXiv.org:{p.arxiv_id}</identifier>"
        f"<datestamp>{updated:%Y-%m-%d}</datestamp><setSpec>{p.primary_category.split('.')[0]}</setSpec></header>"
        f'<metadata><arXivRaw xmlns="http://arxiv.org/OAI/arXivRaw/"><id>{escape(raw_id)}</id>'
        f"<submitter>{escape(p.authors[0][0])}</submitter>{versions}<title>{escape(_wrap(p.title))}</title>"
        f"<authors>{escape(authors)}</authors><categories>{' '.join(cats)}</categories>{optional}"
        f"<license>http://arxiv.org/licenses/nonexclusive-distrib/1.0/</license>"
        f"<abstract>  {escape(_wrap(p.abstract))}\n</abstract></arXivRaw></metadata></record>"
    )


def _raw_authors(authors) -> list[str]:
    """arXivRaw author entries. `A, B (X)` gives X to A and B, so a list where an author without an
    affiliation precedes one with it is written in the numbered form: `A, B (1) ((1) X)`."""
    grouped = any(not aff and any(a for _, a in authors[i + 1:]) for i, (_, aff) in enumerate(authors))
    if not grouped:
        return [f"{name} ({aff})" if aff else name for name, aff in authors]
    numbers = {aff: str(n) for n, aff in enumerate(dict.fromkeys(a for _, a in authors if a), 1)}
    people = [f"{name} ({numbers[aff]})" if aff else name for name, aff in authors]
    people[-1] += " (" + ", ".join(f"({n}) {aff}" for aff, n in numbers.items()) + ")"
    return people


def _categories(p: Paper) -> list[str]:
    """All categories, primary first (as arXiv lists them)."""
    return [p.primary_category, *(c for c in p.categories if c != p.primary_category)]


def _wrap(text: str, width: int = 78) -> str:
    """arXiv hard-wraps titles and abstracts; the parser must normalise the whitespace back."""
    words, lines, cur = text.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    lines.append(cur)
    return "\n  ".join(lines)


@contextmanager
def serve_sample_arxiv(papers: Sequence[Paper] | None = None, **faults) -> Iterator[str]:
    """Run the fake API over the sample world (or `papers`); yields its base URL. `faults`: see Faults."""
    with FakeArxiv(papers, Faults(**faults)) as fake:
        yield fake.base_url
