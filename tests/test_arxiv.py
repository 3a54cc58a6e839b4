"""arXiv source: Atom parsing, paging, window splitting, retries, quarantine and dlt incremental runs."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta, timezone

import dlt
import duckdb
import pytest

from ingestion import config
from ingestion.arxiv.source import ArxivClient, Window, arxiv_source, monthly_windows
from ingestion.arxiv.parse import (
    NS,
    ArxivFeedError,
    MalformedEntry,
    parse_entry,
    parse_feed,
    split_arxiv_id,
)
from ingestion.gaps import LoadGaps
from ingestion.http import PoliteClient
from ingestion.text import find_code_urls
from ingestion.world import LOOPBACK, World
from worlds.sample.fake_arxiv import FakeArxiv, Faults
from worlds.sample.serve import arxiv_world, serving_sample_arxiv
from worlds.sample.world import build_world

NOW = datetime(2026, 10, 1, 12, tzinfo=timezone.utc)
FETCHED = datetime(2026, 1, 1, tzinfo=timezone.utc)
CATS = ("cs.LG", "cs.CL", "cs.AI", "stat.ML")

ENTRY_XML = """<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom"
 xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
 <opensearch:totalResults>1</opensearch:totalResults>
 <opensearch:startIndex>0</opensearch:startIndex>
 <opensearch:itemsPerPage>10</opensearch:itemsPerPage>
 <entry>
  <id>http://arxiv.org/abs/2503.14476v2</id>
  <updated>2025-05-20T09:31:02Z</updated>
  <published>2025-03-18T17:36:49Z</published>
  <title>DAPO: An Open-Source LLM Reinforcement
    Learning System at Scale</title>
  <summary>  We propose the Decoupled Clip and Dynamic sAmpling Policy
  Optimization algorithm. Code at github.com/BytedTsinghua-SIA/DAPO.
</summary>
  <author><name>Qiying Yu</name><arxiv:affiliation>ByteDance Seed</arxiv:affiliation>
   <arxiv:affiliation>Tsinghua AIR</arxiv:affiliation></author>
  <author><name>Zheng Zhang</name></author>
  <arxiv:doi>10.1234/dapo.2025</arxiv:doi>
  <arxiv:comment>Project page https://huggingface.co/datasets/BytedTsinghua-SIA/DAPO-Math-17k,
   mirror (https://gitlab.com/someone/dapo).</arxiv:comment>
  <arxiv:journal_ref>NeurIPS 2025</arxiv:journal_ref>
  <link href="http://arxiv.org/abs/2503.14476v2" rel="alternate" type="text/html"/>
  <arxiv:primary_category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
  <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
  <category term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>
 </entry>
</feed>"""


def _client(url: str, **kw) -> ArxivClient:
    http = PoliteClient(min_interval_s=0, backoff_s=0.0, max_backoff_s=0.0, sleep=lambda s: None)
    return ArxivClient(url, http=http, empty_retry_wait_s=0, **kw)


def _world_ids(first: date, last: date) -> set[str]:
    w = Window.for_days(first, last)
    return {p.arxiv_id for p in build_world().papers
            if w.start <= p.published <= w.end.replace(second=59) and set(p.categories) & set(CATS)}


def _ids(pages) -> list[str]:
    return [split_arxiv_id(e.findtext("atom:id", "", NS))[0] for page in pages for e in page.entries]


# --- parsing ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "raw, expected",
    [
        ("http://arxiv.org/abs/2503.14476v2", ("2503.14476", 2)),
        ("http://arxiv.org/abs/0704.0001v1", ("0704.0001", 1)),
        ("http://arxiv.org/abs/math/0501001v1", ("math/0501001", 1)),
        ("http://arxiv.org/abs/hep-th/9901001v3", ("hep-th/9901001", 3)),
        ("http://arxiv.org/abs/math.GT/0309136v12", ("math/0309136", 12)),
        ("2501.03262v4", ("2501.03262", 4)),
    ],
)
def test_split_arxiv_id(raw, expected):
    assert split_arxiv_id(raw) == expected


@pytest.mark.parametrize("raw", ["http://arxiv.org/abs/not-an-id", "http://arxiv.org/abs/2503.14476", "", "25.1v1"])
def test_split_arxiv_id_rejects_bad_ids(raw):
    with pytest.raises(MalformedEntry):
        split_arxiv_id(raw)


def test_parse_entry_fields():
    page = parse_feed(ENTRY_XML.encode())
    assert page.total_results == 1 and page.items_per_page == 10
    row = parse_entry(page.entries[0], FETCHED)
    assert row["arxiv_id"] == "2503.14476" and row["latest_version"] == 2
    assert row["title"] == "DAPO: An Open-Source LLM Reinforcement Learning System at Scale"
    assert row["abstract"].startswith("We propose the Decoupled Clip and Dynamic sAmpling Policy Optimization")
    assert json.loads(row["authors"]) == [
        {"name": "Qiying Yu", "affiliation": "ByteDance Seed; Tsinghua AIR"},
        {"name": "Zheng Zhang", "affiliation": None},
    ]
    assert row["primary_category"] == "cs.LG" and json.loads(row["categories"]) == ["cs.LG", "cs.CL"]
    assert row["published_at"] == datetime(2025, 3, 18, 17, 36, 49, tzinfo=timezone.utc)
    assert row["updated_at"] == datetime(2025, 5, 20, 9, 31, 2, tzinfo=timezone.utc)
    assert row["doi"] == "10.1234/dapo.2025" and row["journal_ref"] == "NeurIPS 2025"
    assert json.loads(row["code_urls"]) == [
        "https://github.com/BytedTsinghua-SIA/DAPO",
        "https://huggingface.co/datasets/BytedTsinghua-SIA/DAPO-Math-17k",
        "https://gitlab.com/someone/dapo",
    ]
    assert row["fetched_at"] == FETCHED


def test_find_code_urls_ignores_other_links_and_dedupes():
    text = "See https://example.org/x and https://github.com/a/b. Also https://github.com/a/b; arxiv.org/abs/1"
    assert find_code_urls(text, None, "gitlab.inria.fr/team/repo") == [
        "https://github.com/a/b", "https://gitlab.inria.fr/team/repo"]


@pytest.mark.parametrize(
    "mutate, reason",
    [
        (lambda e: e.remove(e.find("atom:id", NS)), "entry without id"),
        (lambda e: setattr(e.find("atom:published", NS), "text", "March 18"), "unparseable published"),
        (lambda e: setattr(e.find("atom:id", NS), "text", "http://arxiv.org/abs/dapo-v2"), "unrecognised arXiv id"),
    ],
)
def test_malformed_entries_raise(mutate, reason):
    entry = parse_feed(ENTRY_XML.encode()).entries[0]
    mutate(entry)
    with pytest.raises(MalformedEntry, match=reason):
        parse_entry(entry, FETCHED)


def test_bad_pages_raise_with_context():
    with pytest.raises(ArxivFeedError, match="not UTF-8.*query=x"):
        parse_feed(b"<feed>\xff\xfe</feed>", context="(query=x)")
    with pytest.raises(ArxivFeedError, match="not well-formed"):
        parse_feed(b"<feed><entry></feed>")
    with pytest.raises(ArxivFeedError, match="expected an Atom feed"):
        parse_feed(b"<html>rate limited</html>")
    error_feed = (b'<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/api/errors#bad</id>'
                  b"<summary>malformed query</summary></entry></feed>")
    with pytest.raises(ArxivFeedError, match="malformed query"):
        parse_feed(error_feed)


def test_monthly_windows_clip_and_cover():
    wins = monthly_windows(date(2025, 1, 15), date(2025, 3, 10))
    assert [(w.start.date(), w.end.date()) for w in wins] == [
        (date(2025, 1, 15), date(2025, 1, 31)), (date(2025, 2, 1), date(2025, 2, 28)),
        (date(2025, 3, 1), date(2025, 3, 10))]
    assert wins[0].term() == "submittedDate:[202501150000 TO 202501312359]"
    a, b = wins[1].halves()
    assert a.start == wins[1].start and b.end == wins[1].end and b.start == a.end + timedelta(minutes=1)


# --- client against the fake API ------------------------------------------------------------
def test_paging_across_pages_returns_each_paper_once():
    window = Window.for_days(date(2025, 1, 1), date(2025, 6, 30))
    expected = _world_ids(date(2025, 1, 1), date(2025, 6, 30))
    with FakeArxiv() as fake:
        pages = list(_client(fake.base_url, page_size=7).iter_window(window))
        starts = [int(r["start"]) for r in fake.requests]
    ids = _ids(pages)
    assert len(expected) > 30 and sorted(ids) == sorted(expected)
    assert starts == list(range(0, len(expected), 7))
    q = fake.requests[0]
    assert q["sortBy"] == "submittedDate" and q["sortOrder"] == "ascending" and q["max_results"] == "7"
    assert q["search_query"] == ("(cat:cs.LG OR cat:cs.CL OR cat:cs.AI OR cat:stat.ML) AND "
                                 "submittedDate:[202501010000 TO 202506302359]")


def test_window_over_cap_is_split_in_halves():
    window = Window.for_days(date(2025, 1, 1), date(2025, 6, 30))
    expected = _world_ids(date(2025, 1, 1), date(2025, 6, 30))
    with FakeArxiv() as fake:
        pages = list(_client(fake.base_url, page_size=4, window_cap=10).iter_window(window))
        queries = {r["search_query"] for r in fake.requests}
    assert sorted(_ids(pages)) == sorted(expected)
    assert len(queries) > 8  # the 6-month window was split repeatedly
    assert all(p.total_results <= 10 for p in pages)  # only windows under the cap were paged


@pytest.mark.parametrize(
    "faults",
    [Faults(fail_next=2, fail_status=503), Faults(fail_next=1, fail_status=429), Faults(reset_next=1),
     Faults(empty_first_pages=2)],
    ids=["503-twice", "429", "connection-reset", "empty-first-page"],
)
def test_transient_failures_are_retried(faults):
    window = Window.for_days(date(2025, 2, 1), date(2025, 3, 31))
    expected = _world_ids(date(2025, 2, 1), date(2025, 3, 31))
    with FakeArxiv(faults=faults) as fake:
        ids = _ids(_client(fake.base_url, page_size=10).iter_window(window))
        n_requests = len(fake.requests)
    assert sorted(ids) == sorted(expected)
    assert n_requests > -(-len(expected) // 10)  # more requests than pages: something was retried


def test_empty_first_page_accepted_after_retries_when_window_is_empty():
    window = Window.for_days(date(2024, 1, 1), date(2024, 1, 31))
    with FakeArxiv() as fake:
        assert list(_client(fake.base_url).iter_window(window)) == []
        assert len(fake.requests) == 3  # first try + 2 retries


def test_unreadable_page_is_retried_then_raised_instead_of_dropped():
    window = Window.for_days(date(2025, 2, 1), date(2025, 3, 31))
    expected = _world_ids(date(2025, 2, 1), date(2025, 3, 31))
    with FakeArxiv(faults=Faults(garbage_next=2)) as fake:  # two bad answers, then a good one
        assert sorted(_ids(_client(fake.base_url).iter_window(window))) == sorted(expected)
    with FakeArxiv(faults=Faults(garbage_next=3)) as fake:
        with pytest.raises(ArxivFeedError, match="not UTF-8"):
            list(_client(fake.base_url).iter_window(window))
        assert len(fake.requests) == 3


def test_api_error_feed_is_raised_at_once():
    with FakeArxiv() as fake, pytest.raises(ArxivFeedError, match="unsupported search term"):
        _client(fake.base_url).fetch_page("au:smith", 0)  # the fake knows cat/ti/abs/date terms only
    assert len(fake.requests) == 1


def test_unreadable_page_costs_its_window_which_is_not_marked_done(tmp_path):
    pipe = _pipeline(tmp_path)
    gaps = LoadGaps()
    _run(pipe, window=SHORT, now=NOW, faults={"garbage_next": 100}, gaps=gaps)
    assert gaps and all("not UTF-8" in reason for reason in gaps.items.values())
    assert pipe.state["sources"]["arxiv"]["done_windows"] == []


# --- dlt runs -----------------------------------------------------------------------------
def _run(pipe, faults: dict | None = None, base_url: str | None = None, **kw):
    """Run the source over the sample's arXiv (a fake started with `faults`), or the one at `base_url`."""
    if base_url:
        return pipe.run(arxiv_source(world=arxiv_world(base_url), **kw))
    with serving_sample_arxiv(**(faults or {})) as world:
        return pipe.run(arxiv_source(world=world, **kw))


def _pipeline(tmp_path):
    return dlt.pipeline(
        pipeline_name="arxiv_test", destination=dlt.destinations.duckdb(str(tmp_path / "w.duckdb")),
        dataset_name="raw_arxiv", pipelines_dir=str(tmp_path / "dlt"),
    )


def _query(tmp_path, sql):
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        return con.sql(sql).fetchall()


WINDOW = (date(2025, 1, 1), date(2025, 9, 30))
SHORT = (date(2025, 1, 1), date(2025, 3, 31))  # for runs that need no particular paper after March


def test_sample_mode_run_is_incremental_and_updates_new_versions(tmp_path):
    expected = _world_ids(*WINDOW)
    pipe = _pipeline(tmp_path)
    _run(pipe, window=WINDOW, page_size=25, now=NOW)
    assert _query(tmp_path, "select count(*), count(distinct arxiv_id) from raw_arxiv.papers")[0] == (
        len(expected), len(expected))
    assert {r[0] for r in _query(tmp_path, "select arxiv_id from raw_arxiv.papers")} == expected
    assert _query(tmp_path, "select latest_version from raw_arxiv.papers where arxiv_id = '2503.14476'") == [(2,)]
    assert len(pipe.state["sources"]["arxiv"]["done_windows"]) == 9

    # second run: every month is done; only the recent-updates window is asked, nothing changes
    bumped_at = NOW - timedelta(days=2)
    with FakeArxiv(faults=Faults(version_bumps={"2503.14476": (3, bumped_at)})) as fake:
        _run(pipe, window=WINDOW, base_url=fake.base_url, now=NOW)
        queries = [r["search_query"] for r in fake.requests]
    assert queries and all("lastUpdatedDate:[202609171200 TO 202610011200]" in q for q in queries)
    assert _query(tmp_path, "select count(*), count(distinct arxiv_id) from raw_arxiv.papers")[0] == (
        len(expected), len(expected))
    row = _query(tmp_path, "select latest_version, updated_at from raw_arxiv.papers where arxiv_id = '2503.14476'")
    assert row == [(3, bumped_at)]


def test_endpoint_and_clock_come_from_the_environment(tmp_path, monkeypatch):
    """RLTRACK_ARXIV_API (a mirror or test server) and RLTRACK_NOW (replaying a past refresh)."""
    pipe = _pipeline(tmp_path)
    _run(pipe, window=SHORT, now=NOW)
    bumped_at = NOW - timedelta(days=1)
    with FakeArxiv(faults=Faults(version_bumps={"2503.14476": (3, bumped_at)})) as fake:
        monkeypatch.setenv("RLTRACK_ARXIV_API", fake.base_url)
        monkeypatch.setenv("RLTRACK_NOW", NOW.replace(tzinfo=None).isoformat())  # naive: read as UTC
        # the first run screened by the rules alone (loopback): the same screener, so nothing is screened again
        live = World.live().replace(arxiv_politeness=LOOPBACK, learned_screener=False)
        pipe.run(arxiv_source(world=live, window=SHORT))
        queries = [r["search_query"] for r in fake.requests]
    assert queries and all("lastUpdatedDate:[202609171200 TO 202610011200]" in q for q in queries)
    assert _query(tmp_path, "select latest_version from raw_arxiv.papers where arxiv_id = '2503.14476'") == [(3,)]

    monkeypatch.setenv("RLTRACK_NOW", "next tuesday")
    with pytest.raises(ValueError, match="RLTRACK_NOW must be an ISO timestamp"):
        config.now()


def test_malformed_entries_are_quarantined_and_the_load_goes_on(tmp_path):
    expected = _world_ids(*WINDOW)
    faults = {"malformed_ids": ["2503.14476"], "bad_date_ids": ["2507.18071"]}
    pipe = _pipeline(tmp_path)
    _run(pipe, window=WINDOW, now=NOW, faults=faults)
    ids = {r[0] for r in _query(tmp_path, "select arxiv_id from raw_arxiv.papers")}
    assert ids == expected - {"2503.14476", "2507.18071"}
    rows = sorted(_query(tmp_path, "select entry_key, reason, raw_xml from raw_arxiv.papers_quarantine"))
    assert [(k, r) for k, r, _ in rows] == [
        ("http://arxiv.org/abs/2507.18071v2", "unparseable published 'yesterday-ish'"),
        ("http://arxiv.org/abs/not-an-id-2503.14476", "unrecognised arXiv id 'http://arxiv.org/abs/not-an-id-2503.14476'"),
    ]
    assert all(x.startswith("<") and "entry" in x for *_, x in rows)


def test_incomplete_window_is_refetched_next_run(tmp_path):
    expected = _world_ids(*SHORT)
    pipe = _pipeline(tmp_path)
    # every later page of the run comes back empty: only first pages (3 papers per month) arrive
    _run(pipe, window=SHORT, page_size=3, now=NOW,
                          faults={"empty_later_pages": 1000})
    partial = _query(tmp_path, "select count(*) from raw_arxiv.papers")[0][0]
    done = pipe.state["sources"]["arxiv"]["done_windows"]
    assert partial < len(expected) and len(done) < 3
    _run(pipe, window=SHORT, page_size=3, now=NOW)
    assert _query(tmp_path, "select count(*), count(distinct arxiv_id) from raw_arxiv.papers")[0] == (
        len(expected), len(expected))
    assert len(pipe.state["sources"]["arxiv"]["done_windows"]) == 3


def test_open_window_is_not_marked_done(tmp_path):
    pipe = _pipeline(tmp_path)
    now = datetime(2025, 3, 2, tzinfo=timezone.utc)  # March has just begun
    _run(pipe, window=(date(2025, 1, 1), date(2025, 3, 31)), now=now)
    assert pipe.state["sources"]["arxiv"]["done_windows"] == [
        "2025-01-01T00:00/2025-01-31T23:59"]  # February is within the settle period, March is open


def test_paper_features_are_loaded_for_every_paper(tmp_path):
    pipe = _pipeline(tmp_path)
    _run(pipe, window=SHORT, now=NOW)
    n_papers = _query(tmp_path, "select count(*) from raw_arxiv.papers")[0][0]
    assert _query(tmp_path, "select count(*), count(distinct arxiv_id) from raw_arxiv.paper_features")[0] == (
        n_papers, n_papers)
    row = _query(tmp_path, "select is_rl_related, paper_kind, policy_size_b, changes_loss, releases_code, "
                           "defined_methods, maintainer_framework_ids from raw_arxiv.paper_features "
                           "where arxiv_id = '2503.14476'")
    assert row == [(True, "general_method", 32.0, True, True, '["DAPO"]', '["verl"]')]


def test_new_screener_version_refetches_and_rescreens_everything(tmp_path, monkeypatch):
    import ingestion.screening.rules as screening_mod

    pipe = _pipeline(tmp_path)
    _run(pipe, window=SHORT, now=NOW)
    with FakeArxiv() as fake:  # same version: only the recent-updates window is asked
        _run(pipe, window=SHORT, base_url=fake.base_url, now=NOW)
        assert all("lastUpdatedDate" in r["search_query"] for r in fake.requests)
    monkeypatch.setattr(screening_mod, "SCREENER_VERSION", "test-next")  # the one version the source reads
    with FakeArxiv() as fake:
        _run(pipe, window=SHORT, base_url=fake.base_url, now=NOW)
        assert sum("submittedDate:[2025" in r["search_query"] and "lastUpdatedDate" not in r["search_query"]
                   for r in fake.requests) == 3
    n_papers = _query(tmp_path, "select count(*) from raw_arxiv.papers")[0][0]
    assert _query(tmp_path, "select screener_version, count(*) from raw_arxiv.paper_features group by 1") == [
        ("test-next", n_papers)]


# --- real API error answers: https error ids, 200 and 400 -------------------------------------
def _error_feed(scheme: str) -> bytes:
    """The shape of the API's error answer (one entry whose id is under /api/errors)."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
  <id>{scheme}://arxiv.org/api/Xm1pRrs6fKk</id>
  <title>arXiv Query: search_query=&amp;id_list=2503.1447&amp;start=0&amp;max_results=10</title>
  <updated>2026-01-01T00:00:00Z</updated>
  <link href="{scheme}://arxiv.org/api/query?id_list=2503.1447" type="application/atom+xml"/>
  <opensearch:itemsPerPage>1</opensearch:itemsPerPage>
  <opensearch:totalResults>1</opensearch:totalResults>
  <opensearch:startIndex>0</opensearch:startIndex>
  <entry>
    <id>{scheme}://arxiv.org/api/errors#incorrect_id_format_for_2503.1447</id>
    <title>Error</title>
    <summary>incorrect id format for 2503.1447</summary>
    <updated>2026-01-01T00:00:00Z</updated>
    <link href="{scheme}://arxiv.org/api/errors#incorrect_id_format_for_2503.1447" rel="alternate" type="text/html"/>
    <author><name>arXiv api core</name></author>
  </entry>
</feed>""".encode()


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_error_feed_is_an_error_with_either_scheme(scheme):
    with pytest.raises(ArxivFeedError, match="incorrect id format for 2503.1447"):
        parse_feed(_error_feed(scheme))


def _answer(status: int, body: bytes):
    import requests

    resp = requests.Response()
    resp.status_code, resp._content = status, body
    return resp


@pytest.mark.parametrize("status", [200, 400])
def test_error_answer_keeps_the_api_message_and_is_not_quarantined(monkeypatch, status):
    monkeypatch.setattr(PoliteClient, "get", lambda self, url, params=None: _answer(status, _error_feed("https")))
    with pytest.raises(ArxivFeedError, match="incorrect id format for 2503.1447") as err:
        _client("http://arxiv.invalid/api/query").fetch_page("id:2503.1447", 0)
    assert ("HTTP 400" in str(err.value)) == (status == 400)


def test_non_feed_error_answer_shows_its_text(monkeypatch):
    monkeypatch.setattr(PoliteClient, "get", lambda self, url, params=None: _answer(400, b"Bad Request: start < 0"))
    with pytest.raises(ArxivFeedError, match="HTTP 400: Bad Request: start < 0"):
        _client("http://arxiv.invalid/api/query").fetch_page("cat:cs.LG", -1)


def test_single_version_paper_is_updated_when_submitted():
    """Atom's <updated> of a v1 entry may move with metadata edits; updated_at is the version's
    submission time, as the OAI path reads it from the version list."""
    xml = (ENTRY_XML.replace("2503.14476v2", "2503.14476v1")
           .replace("<updated>2025-05-20T09:31:02Z", "<updated>2025-04-02T11:00:00Z"))
    row = parse_entry(parse_feed(xml.encode()).entries[0], FETCHED)
    assert row["latest_version"] == 1 and row["updated_at"] == row["published_at"]


# the live path: arXiv's comment and links in the summary reach the screener (Atom shape of the API answer)
@pytest.mark.parametrize(
    "summary_end, comment, expected",
    [
        ("", "<arxiv:comment>21 pages, 6 figures. Code: https://anonymous.4open.science/r/xpo-9F2C</arxiv:comment>",
         "link: https://anonymous.4open.science/r/xpo-9F2C"),
        ("", "<arxiv:comment>Accepted at a workshop. Project page and code: https://someone.github.io/xpo/</arxiv:comment>",
         "link after a cue: https://someone.github.io/xpo/"),
        (" We release the trained policies along with all our training code.", "", "release in a sentence"),
        ("", "<arxiv:comment>Accepted at a workshop; 9 pages</arxiv:comment>", None),
    ],
)
def test_comment_and_summary_reach_the_screener(summary_end, comment, expected):
    from ingestion.screening.rules import screen

    xml = ENTRY_XML.replace("Code at github.com/BytedTsinghua-SIA/DAPO.", "Experiments on AIME." + summary_end)
    xml = re.sub(r"<arxiv:comment>.*?</arxiv:comment>", comment, xml, flags=re.S)
    row = parse_entry(parse_feed(xml.encode()).entries[0], FETCHED)
    out = screen(row, [])
    assert out["releases_code"] is (expected is not None)
    assert (out["code_signal"] or "").startswith(expected or "")


def test_learned_screener_decides_and_a_new_model_screens_everything_again(tmp_path, monkeypatch):
    import copy

    from ingestion.screening import learned
    from ingestion.screening.rules import SCREENER_VERSION

    model = learned.load()
    if model is None:
        pytest.skip("no committed model artifact")
    pipe = _pipeline(tmp_path)
    with FakeArxiv() as fake:
        world = arxiv_world(fake.base_url).replace(learned_screener=True)
        pipe.run(arxiv_source(world=world, window=SHORT, now=NOW))
    rows = _query(tmp_path, "select screener, screener_model, screener_version, kind_signal from raw_arxiv.paper_features")
    assert rows and {r[:3] for r in rows} == {("learned", model.version, f"{SCREENER_VERSION}+{model.version}")}
    assert all(r[3] for r in rows)  # every decision says why
    newer = copy.copy(model)
    newer.version = "l-next"
    monkeypatch.setattr(learned, "load", lambda *a: newer)
    with FakeArxiv() as fake:
        pipe.run(arxiv_source(world=world.replace(arxiv_api=fake.base_url), window=SHORT, now=NOW))
        assert sum("submittedDate:[2025" in r["search_query"] and "lastUpdatedDate" not in r["search_query"]
                   for r in fake.requests) == 3
    assert {r[0] for r in _query(tmp_path, "select screener_version from raw_arxiv.paper_features")} == {
        f"{SCREENER_VERSION}+l-next"}
