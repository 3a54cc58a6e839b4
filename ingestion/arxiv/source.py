"""arXiv source: the arXiv query API (Atom) -> `raw_arxiv.papers` / `papers_quarantine`, plus
`paper_features` (screening of each parsed paper by `ingestion.screening.screener`: the rules and the
learned model, or by a language model
when one is configured: `ingestion.screening.language_model`, whose answers are cached in `model_screenings`).

Loading is organised in date windows (calendar months of the study window by default). A window
is queried as `(cat:A OR cat:B ...) AND <pool> AND submittedDate:[YYYYMMDDHHMM TO YYYYMMDDHHMM]`
(<pool>: the study's candidate-pool query of `ingestion/arxiv/pool.py`, live mode by default), paged
`page_size` at a time, and split in halves while it matches more than `window_cap` papers (the API
does not page past 30,000). dlt source state records the windows that were loaded completely; a
re-run only fetches the others plus a "recent updates" window (papers updated in the last
`recent_days`), so new versions of already loaded papers update their rows (merge on arxiv_id).
A new `screening.rules.SCREENER_VERSION` or a new learned model (`ingestion/screening/model/`) resets the
loaded windows, so all papers are screened again.

`harvest="oai"` back-fills through OAI-PMH instead (ListRecords, metadataPrefix=arXivRaw, by
datestamp, following resumption tokens; incremental through state["oai_harvested_until"]). Both
paths produce identical rows (tested).

The endpoints and their politeness come from the world (`ingestion.world`); the sample and the
recorded worlds serve the same APIs on loopback.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone

import dlt

from ingestion import config
from ingestion.arxiv.parse import (
    ArxivFeedError,
    FeedPage,
    MalformedEntry,
    OaiPage,
    UnreadablePage,
    oai_quarantine_row,
    parse_entry,
    parse_feed,
    parse_oai_page,
    normalise_ws,
    parse_oai_record,
    quarantine_row,
)
from ingestion.arxiv.pool import POOL_QUERY, in_pool
from ingestion.gaps import LoadGaps
from ingestion.http import MAX_FAILED_IN_A_ROW, PoliteClient, SourceUnavailable
from ingestion.screening.language_model import (CACHE_COLUMNS, CACHE_KEY, CACHE_TABLE, ModelScreener, default_screener,
                                      read_cached_answers)
from ingestion.screening.language_model import FEATURE_COLUMNS as MODEL_FEATURE_COLUMNS
from ingestion.arxiv.openalex import default_lookup, with_affiliations
from ingestion.screening.screener import screen, screener_version
from ingestion.world import ARXIV_API as API_URL
from ingestion.world import ARXIV_OAI as OAI_URL
from ingestion.world import ARXIV_POLITE, World

log = logging.getLogger(__name__)

DEFAULT_CATEGORIES = ("cs.LG", "cs.CL", "cs.AI", "stat.ML")
MAX_PAGE_SIZE = 2000
API_PAGING_LIMIT = 30000  # the API will not return results past this offset
LIVE_MIN_INTERVAL_S = ARXIV_POLITE.min_interval_s  # arXiv asks for one request every 3 seconds
WINDOW_SETTLE = timedelta(days=3)  # a window is complete once announcements for it are surely out
QUERY_TS = "%Y%m%d%H%M"

# Declared so every contract column exists even when a load has no value for it (e.g. journal_ref).
PAPER_COLUMNS = {
    "arxiv_id": {"data_type": "text", "nullable": False},
    "latest_version": {"data_type": "bigint"},
    "title": {"data_type": "text"},
    "abstract": {"data_type": "text"},
    "authors": {"data_type": "text"},
    "primary_category": {"data_type": "text"},
    "categories": {"data_type": "text"},
    "published_at": {"data_type": "timestamp"},
    "updated_at": {"data_type": "timestamp"},
    "comment": {"data_type": "text"},
    "journal_ref": {"data_type": "text"},
    "doi": {"data_type": "text"},
    "code_urls": {"data_type": "text"},
    "fetched_at": {"data_type": "timestamp"},
}
FEATURE_COLUMNS = {
    "arxiv_id": {"data_type": "text", "nullable": False},
    "is_rl_related": {"data_type": "bool"},
    "paper_kind": {"data_type": "text"},
    "kind_signal": {"data_type": "text"},
    "policy_size_b": {"data_type": "double"},
    "size_signal": {"data_type": "text"},
    "changes_loss": {"data_type": "bool"},
    "loss_signal": {"data_type": "text"},
    "releases_code": {"data_type": "bool"},
    "code_signal": {"data_type": "text"},
    "model_report": {"data_type": "bool"},
    "model_report_signal": {"data_type": "text"},
    "in_pool": {"data_type": "bool"},
    "defined_methods": {"data_type": "text"},
    "maintainer_framework_ids": {"data_type": "text"},
    "maintainer_signal": {"data_type": "text"},
    "screener_version": {"data_type": "text"},
    **MODEL_FEATURE_COLUMNS,
}
QUARANTINE_COLUMNS = {
    "entry_key": {"data_type": "text"},
    "reason": {"data_type": "text"},
    "raw_xml": {"data_type": "text"},
    "fetched_at": {"data_type": "timestamp"},
}


class WindowIncomplete(RuntimeError):
    """Paging stopped early (a page stayed empty); the window is not marked as loaded."""


@dataclass(frozen=True)
class Window:
    """A range of submission (or update) times, inclusive at minute resolution."""

    start: datetime
    end: datetime

    @classmethod
    def for_days(cls, first: date, last: date) -> Window:
        return cls(
            datetime.combine(first, time(0, 0), timezone.utc),
            datetime.combine(last, time(23, 59), timezone.utc),
        )

    @property
    def key(self) -> str:
        return f"{self.start:%Y-%m-%dT%H:%M}/{self.end:%Y-%m-%dT%H:%M}"

    def halves(self) -> tuple[Window, Window]:
        minutes = int((self.end - self.start).total_seconds() // 60)
        mid = self.start + timedelta(minutes=minutes // 2)
        return Window(self.start, mid), Window(mid + timedelta(minutes=1), self.end)

    @property
    def splittable(self) -> bool:
        return self.end - self.start >= timedelta(minutes=1)

    def term(self, field: str = "submittedDate") -> str:
        return f"{field}:[{self.start:{QUERY_TS}} TO {self.end:{QUERY_TS}}]"


def category_term(categories: Sequence[str]) -> str:
    return "(" + " OR ".join(f"cat:{c}" for c in categories) + ")"


def monthly_windows(first: date, last: date) -> list[Window]:
    """Calendar-month windows covering [first, last], clipped at both ends."""
    out = []
    cur = first
    while cur <= last:
        next_month = date(cur.year + cur.month // 12, cur.month % 12 + 1, 1)
        out.append(Window.for_days(cur, min(last, next_month - timedelta(days=1))))
        cur = next_month
    return out


class ArxivClient:
    """Pages through query results and splits windows that match too many papers."""

    def __init__(
        self,
        base_url: str = API_URL,
        *,
        http: PoliteClient | None = None,
        categories: Sequence[str] = DEFAULT_CATEGORIES,
        page_size: int = MAX_PAGE_SIZE,
        window_cap: int = API_PAGING_LIMIT,
        empty_retries: int = 2,
        empty_retry_wait_s: float = 5.0,
        unreadable_retries: int = 2,
        pool: bool = False,
    ) -> None:
        if not 1 <= page_size <= MAX_PAGE_SIZE:
            raise ValueError(f"page_size must be in 1..{MAX_PAGE_SIZE}")
        self.base_url = base_url
        self.http = http or PoliteClient(min_interval_s=LIVE_MIN_INTERVAL_S)
        self.categories = tuple(categories)
        self.page_size = page_size
        self.window_cap = window_cap
        self.empty_retries = empty_retries
        self.empty_retry_wait_s = empty_retry_wait_s
        self.unreadable_retries = unreadable_retries
        self.pool = pool  # AND the candidate-pool query (ingestion/arxiv/pool.py) to every query

    def fetch_page(self, search_query: str, start: int, sort_by: str = "submittedDate") -> FeedPage:
        params = {
            "search_query": search_query,
            "start": start,
            "max_results": self.page_size,
            "sortBy": sort_by,
            "sortOrder": "ascending",
        }
        context = f"(query={search_query!r}, start={start})"
        return _get_parsed(self.http, self.base_url, params, parse_feed, context,
                           self.unreadable_retries, self.empty_retry_wait_s)

    def _fetch_nonempty(self, search_query: str, start: int, sort_by: str) -> FeedPage:
        """Fetch a page, retrying a few times when it comes back without entries (a known API quirk)."""
        page = self.fetch_page(search_query, start, sort_by)
        for attempt in range(self.empty_retries):
            if page.entries:
                break
            log.info("arXiv returned an empty page %s start=%d, retry %d", search_query, start, attempt + 1)
            self.http.sleep(self.empty_retry_wait_s)
            page = self.fetch_page(search_query, start, sort_by)
        return page

    def query(self, window: Window, *, field: str = "submittedDate", extra_terms: Sequence[str] = (),
              pool: bool | None = None) -> str:
        pool_terms = [POOL_QUERY] if (self.pool if pool is None else pool) else []
        return " AND ".join([category_term(self.categories), *pool_terms, window.term(field), *extra_terms])

    def count(self, window: Window, *, pool: bool | None = None) -> int:
        """How many papers submitted inside `window` the query matches (arXiv's totalResults), without paging."""
        search_query = self.query(window, pool=pool)
        params = {"search_query": search_query, "start": 0, "max_results": 1}
        page = _get_parsed(self.http, self.base_url, params, parse_feed, f"(count {search_query!r})",
                           self.unreadable_retries, self.empty_retry_wait_s)
        return page.total_results

    def iter_window(
        self, window: Window, *, field: str = "submittedDate", extra_terms: Sequence[str] = ()
    ) -> Iterator[FeedPage]:
        """Yield every page of a window (splitting it while over the cap). Raises WindowIncomplete."""
        search_query = self.query(window, field=field, extra_terms=extra_terms)
        first = self._fetch_nonempty(search_query, 0, field)
        if first.total_results > self.window_cap and window.splittable:
            log.info("window %s has %d results > cap %d, splitting", window.key, first.total_results, self.window_cap)
            for half in window.halves():
                yield from self.iter_window(half, field=field, extra_terms=extra_terms)
            return
        if not first.entries:
            if first.total_results:
                raise WindowIncomplete(f"{search_query}: totalResults={first.total_results} but no entries")
            return  # a truly empty window
        total = min(first.total_results, self.window_cap)
        yield first
        start = len(first.entries)
        while start < total:
            page = self._fetch_nonempty(search_query, start, field)
            if not page.entries:
                raise WindowIncomplete(f"{search_query}: empty page at start={start} of {total}")
            yield page
            start += len(page.entries)


@dataclass(frozen=True)
class PoolMonth:
    month: str  # YYYY-MM
    category_papers: int  # submitted that month in the harvested categories
    pool_papers: int  # of those, matched by the candidate-pool query


def monthly_pool_sizes(client: ArxivClient, first: date, last: date) -> Iterator[PoolMonth]:
    """Per calendar month of [first, last]: the categories' papers and the candidate pool's (two counts a month)."""
    for window in monthly_windows(first, last):
        yield PoolMonth(window.start.strftime("%Y-%m"), client.count(window, pool=False), client.count(window, pool=True))


def _get_parsed(http: PoliteClient, url: str, params: dict, parse, context: str, retries: int, wait_s: float):
    """GET and parse; an unreadable page (proxy/rate-limit text, bad bytes) is retried, then raised."""
    for attempt in range(retries + 1):
        resp = http.get(url, params=params)
        if resp.status_code != 200:
            raise ArxivFeedError(f"arXiv answered HTTP {resp.status_code}: {_error_message(resp.content, parse)} "
                                 f"{context}")
        try:
            return parse(resp.content, context=context)
        except UnreadablePage as exc:  # never skipped: after the retries it stops the run
            if attempt == retries:
                raise
            log.warning("unreadable arXiv page, retry %d: %s", attempt + 1, exc)
            http.sleep(wait_s)
    raise AssertionError("unreachable")


def _error_message(content: bytes, parse) -> str:
    """What an error answer says: the API's error entry (a 400 carries an error feed), else its text."""
    try:
        parse(content)
    except ArxivFeedError as exc:
        if not isinstance(exc, UnreadablePage):
            return str(exc).strip()
    except Exception:  # noqa: BLE001 - any body we cannot read is shown as text below
        pass
    return normalise_ws(content[:300].decode("utf-8", errors="replace")) or "(empty body)"


class OaiClient:
    """OAI-PMH ListRecords (metadataPrefix=arXivRaw) by datestamp, following resumption tokens.

    For back-fills: one request returns up to ~1000 records of a whole archive (set), and the
    datestamp (last metadata change) makes harvesting naturally incremental. 503 + Retry-After
    (arXiv's flow control) is handled by PoliteClient.
    """

    def __init__(self, base_url: str = OAI_URL, *, http: PoliteClient | None = None, unreadable_retries: int = 2,
                 retry_wait_s: float = 5.0) -> None:
        self.base_url = base_url
        self.http = http or PoliteClient(min_interval_s=LIVE_MIN_INTERVAL_S)
        self.unreadable_retries = unreadable_retries
        self.retry_wait_s = retry_wait_s

    def iter_pages(self, set_spec: str, day_from: date, day_until: date) -> Iterator[OaiPage]:
        params = {"verb": "ListRecords", "metadataPrefix": "arXivRaw", "set": set_spec,
                  "from": day_from.isoformat(), "until": day_until.isoformat()}
        while True:
            context = f"(OAI set={set_spec} {day_from}..{day_until} token={params.get('resumptionToken')})"
            page = _get_parsed(self.http, self.base_url, params, parse_oai_page, context,
                               self.unreadable_retries, self.retry_wait_s)
            yield page
            if not page.resumption_token:
                return
            params = {"verb": "ListRecords", "resumptionToken": page.resumption_token}


def oai_sets(categories: Sequence[str]) -> list[str]:
    """OAI sets holding the categories: cs.LG -> cs, stat.ML -> stat."""
    return sorted({c.split(".")[0] for c in categories})


@dlt.source(name="arxiv")
def arxiv_source(
    world: World | None = None,
    window: tuple[date, date] | None = None,
    categories: Sequence[str] = DEFAULT_CATEGORIES,
    page_size: int = MAX_PAGE_SIZE,
    window_cap: int = API_PAGING_LIMIT,
    recent_days: int = 14,
    now: datetime | None = None,
    harvest: str = "query",
    pool: bool | None = None,
    affiliations: Callable[[Sequence[str]], dict[str, list[dict]]] | None = None,
    model_screener: ModelScreener | None = None,
    gaps: LoadGaps | None = None,
):
    """arXiv papers of `categories` submitted inside `window` (default: the study window), from the
    world's arXiv endpoints (default: the live world), asked as politely as the world says.
    `now` fixes the clock (tests).
    harvest: 'query' (the search API by submission-date windows, default) or 'oai' (OAI-PMH
    ListRecords by datestamp for back-fills; incremental through state["oai_harvested_until"]).
    pool: harvest only the study's candidate pool (`ingestion.arxiv.pool`; default: the world's
    `arxiv_pool`, true for the live world). Every screened row also says whether the paper is in
    the pool (`in_pool`).
    affiliations: arxiv ids -> authors with affiliations, added before screening (default when the
    world's `affiliations` is on, as in the live world: OpenAlex, `ingestion.arxiv.openalex.default_lookup`).
    model_screener: asks a language model to screen the pool's papers (`ingestion.screening.language_model`;
    default when the world's `model_screener` is on, as in the live world, and the environment
    configures an endpoint); the rules decide whenever it is off or cannot answer.
    gaps: where the windows that could not be read are noted (an unreadable page after its
    retries, an HTTP error, the API unreachable): each costs its window, which stays due; the
    windows read are loaded and marked done.
    """
    if harvest not in ("query", "oai"):
        raise ValueError(f"harvest must be 'query' or 'oai', got {harvest!r}")
    world = world or World.live()
    first_day, last_day = window or config.study_window()
    polite = world.arxiv_politeness
    pool = world.arxiv_pool if pool is None else pool
    affiliations = affiliations or (default_lookup() if world.affiliations else None)
    model_screener = model_screener or (default_screener() if world.model_screener else None)
    gaps = LoadGaps() if gaps is None else gaps

    @dlt.resource(name="arxiv_pages", selected=False)
    def arxiv_pages() -> Iterator[list[dict]]:
        """Parsed pages: lists of {'paper': row} / {'quarantine': row} items (first, after a full
        rebuild, the cached model answers as {'model_answer': row}: loaded again, they are kept)."""
        clock = now or config.now()
        state = dlt.current.source_state()
        rebuilt = "screener_version" not in state  # a first load, or drop_sources (tables dropped with state)
        cached = read_cached_answers() if model_screener or rebuilt else []
        if model_screener:
            model_screener.remember(cached)
        if rebuilt and cached:
            yield [{"model_answer": a} for a in cached]
        version = screener_version(world.learned_screener)
        if state.get("screener_version") != version:
            # new screening rules or a new learned model: fetch everything again so every paper is screened again
            state["done_windows"] = []
            state.pop("oai_harvested_until", None)
            state["screener_version"] = version
        http = polite.client()
        if harvest == "oai":
            oai = OaiClient(world.arxiv_oai, http=http, retry_wait_s=polite.retry_wait_s)
            yield from _harvest_oai(oai, state, categories, (first_day, last_day), clock, pool)
            return
        client = ArxivClient(world.arxiv_api, http=http, categories=categories, page_size=page_size,
                             window_cap=window_cap, empty_retry_wait_s=polite.retry_wait_s, pool=pool)
        yield from _harvest_query(client, state, (first_day, last_day), clock, recent_days, gaps)

    @dlt.transformer(
        data_from=arxiv_pages,
        name="papers",
        primary_key="arxiv_id",
        write_disposition="merge",
        columns=PAPER_COLUMNS,
    )
    def papers(items: list[dict]) -> Iterator[list[dict]]:
        rows = [i["paper"] for i in items if "paper" in i]
        if rows:
            yield rows

    @dlt.transformer(
        data_from=arxiv_pages, name="papers_quarantine", write_disposition="append", columns=QUARANTINE_COLUMNS
    )
    def papers_quarantine(items: list[dict]) -> Iterator[list[dict]]:
        rows = [i["quarantine"] for i in items if "quarantine" in i]
        if rows:
            yield rows

    registry = list(world.registry().values())  # maintainer affiliation is a fact of the paper

    @dlt.transformer(data_from=arxiv_pages, name="arxiv_screening", selected=False)
    def screening(items: list[dict]) -> Iterator[list[dict]]:
        """Screened pages: lists of {'features': row} / {'model_answer': row} items."""
        answers = [i["model_answer"] for i in items if "model_answer" in i]  # carried from the cache
        papers = [i["paper"] for i in items if "paper" in i]
        found = affiliations([p["arxiv_id"] for p in papers]) if affiliations and papers else {}
        papers = [with_affiliations(p, found.get(p["arxiv_id"])) for p in papers]
        rows = [screen(p, registry, world.learned_screener) for p in papers]
        if model_screener and papers:
            rows, new = model_screener.screen(papers, rows)
            answers += new
        if rows or answers:
            yield [{"features": r} for r in rows] + [{"model_answer": a} for a in answers]

    @dlt.transformer(
        data_from=screening, name="paper_features", primary_key="arxiv_id", write_disposition="merge",
        columns=FEATURE_COLUMNS,
    )
    def paper_features(items: list[dict]) -> Iterator[list[dict]]:
        if rows := [i["features"] for i in items if "features" in i]:
            yield rows

    @dlt.transformer(
        data_from=screening, name=CACHE_TABLE, primary_key=CACHE_KEY, write_disposition="merge",
        columns=CACHE_COLUMNS,
    )
    def model_screenings(items: list[dict]) -> Iterator[list[dict]]:
        """The model's answers: this run's and the cached ones (so full rebuilds keep them)."""
        if rows := [i["model_answer"] for i in items if "model_answer" in i]:
            yield rows

    return arxiv_pages, papers, papers_quarantine, screening, paper_features, model_screenings


WINDOW_FAULTS = (WindowIncomplete, ArxivFeedError, SourceUnavailable)  # cost a window, not the harvest


def _harvest_query(client: ArxivClient, state: dict, window: tuple[date, date], clock: datetime,
                   recent_days: int, gaps: LoadGaps) -> Iterator[list[dict]]:
    """Monthly windows not loaded yet, then the recent-updates window; marks complete windows done.
    A window that cannot be read is noted in `gaps` and left due; after MAX_FAILED_IN_A_ROW windows
    in a row found the API unreachable, the rest are not asked this run (noted too)."""
    first_day, last_day = window
    done: list[str] = state.setdefault("done_windows", [])
    study = Window.for_days(first_day, last_day)
    jobs: list[tuple[Window, str, tuple[str, ...]]] = [
        (w, "submittedDate", ()) for w in monthly_windows(first_day, last_day) if w.key not in done and w.start <= clock
    ]
    if recent_days > 0:  # new versions of papers of the study window, whatever month they are in
        jobs.append((Window(clock - timedelta(days=recent_days), clock), "lastUpdatedDate", (study.term(),)))
    seen: dict[str, int] = {}
    unreachable: list[str] = []
    for win, field, extra in jobs:
        item = f"window {win.key}" if field == "submittedDate" else f"recent updates {win.key}"
        if len(unreachable) >= MAX_FAILED_IN_A_ROW:
            gaps.add(item, f"not asked: arXiv unreachable ({unreachable[-1]})")
            continue
        try:
            for page in client.iter_window(win, field=field, extra_terms=extra):
                yield _rows(page, clock, seen)
        except WINDOW_FAULTS as exc:  # the pages read are kept; the window stays due
            gaps.add(item, exc)
            unreachable = [*unreachable, str(exc)] if isinstance(exc, SourceUnavailable) else []
            continue
        unreachable = []
        if field == "submittedDate" and win.end + WINDOW_SETTLE < clock:
            done.append(win.key)  # only after every page of it was yielded


def _harvest_oai(client: OaiClient, state: dict, categories: Sequence[str], window: tuple[date, date],
                 clock: datetime, pool: bool = False) -> Iterator[list[dict]]:
    """OAI-PMH records changed since the last harvest, for papers submitted inside the window."""
    study = Window.for_days(*window)
    day_from = date.fromisoformat(state.get("oai_harvested_until") or window[0].isoformat())
    seen: dict[str, int] = {}
    for set_spec in oai_sets(categories):
        for page in client.iter_pages(set_spec, day_from, clock.date()):
            yield _oai_rows(page, clock, seen, set(categories), study, pool)
    # the last day is harvested again next time (records of that day may still arrive)
    state["oai_harvested_until"] = clock.date().isoformat()


def _rows(page: FeedPage, fetched_at: datetime, seen: dict[str, int]) -> list[dict]:
    """Parse a page; malformed entries become quarantine items, repeats within a run are skipped."""
    items = []
    for entry in page.entries:
        try:
            row = parse_entry(entry, fetched_at)
        except MalformedEntry as exc:
            items.append({"quarantine": quarantine_row(entry, exc.reason, fetched_at)})
            continue
        if seen.get(row["arxiv_id"], 0) >= row["latest_version"]:
            continue
        seen[row["arxiv_id"]] = row["latest_version"]
        items.append({"paper": row})
    return items


def _oai_rows(page: OaiPage, fetched_at: datetime, seen: dict[str, int], wanted: set[str], study: Window,
              pool: bool = False) -> list[dict]:
    """Like _rows for OAI records, keeping only wanted categories submitted inside the study window
    (and, with `pool`, the papers the pool query matches: OAI-PMH cannot filter by text)."""
    items = []
    for record in page.records:
        try:
            row = parse_oai_record(record, fetched_at)
        except MalformedEntry as exc:
            items.append({"quarantine": oai_quarantine_row(record, exc.reason, fetched_at)})
            continue
        if not wanted & set(json.loads(row["categories"])):
            continue
        if not study.start <= row["published_at"] <= study.end.replace(second=59):
            continue
        if pool and not in_pool(row["title"], row["abstract"]):
            continue
        if seen.get(row["arxiv_id"], 0) >= row["latest_version"]:
            continue
        seen[row["arxiv_id"]] = row["latest_version"]
        items.append({"paper": row})
    return items
