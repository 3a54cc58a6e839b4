"""Tech reports under bad input: broken pages, odd bytes, odd seed ids, a failing server.

Each case runs the dlt source (live mode, seed swapped for a temporary one) against a loopback
arxiv.org stand-in into a temporary DuckDB, and checks that every report ends up loaded or in
`reports_quarantine` with a reason, that the rest of the load goes on, and that reruns change nothing.
"""

from __future__ import annotations

import csv
import functools
import gzip
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import dlt
import duckdb
import pytest

from ingestion.reports import source as tech_reports
from ingestion import world as world_module
from ingestion.http import PoliteClient
from ingestion.reports.source import canonical_arxiv_id, seed_reports, tech_reports_source
from ingestion.world import World
from worlds.loopback import serve_on_loopback

FILLER = "We describe the data mixture, the training schedule and the evaluation suite in detail. " * 4
ATTEMPTS = PoliteClient().max_retries + 1  # requests the client makes for one URL before giving up


# --- a loopback arxiv.org whose pages each test sets -------------------------------------------
@dataclass(frozen=True)
class Page:
    body: bytes
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    sent_bytes: int | None = None  # announce the whole body, send only this much, hang up


NOT_FOUND = Page(b"<html><body>No HTML for this paper</body></html>", 404)


class FakeArxivWeb:
    """Serves `pages` by path (404 otherwise) and logs each request path. Requests whose number
    (from 1) is in `failing` fail: 'drop' hangs up unanswered, 'busy' answers 503."""

    def __init__(self) -> None:
        self.pages: dict[str, Page] = {}
        self.requests: list[str] = []
        self.failing = range(0)
        self.failure = "drop"
        self.base_url = ""
        self._lock = threading.Lock()

    def answer(self, path: str) -> Page | None:
        """The page for this request, or None to hang up."""
        with self._lock:
            self.requests.append(path)
            number = len(self.requests)
        if number in self.failing:
            return None if self.failure == "drop" else Page(b"busy", 503)
        return self.pages.get(path, NOT_FOUND)

    def handler(self) -> type[BaseHTTPRequestHandler]:
        web = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                return

            def do_GET(self) -> None:  # noqa: N802
                page = web.answer(self.path)
                if page is None:
                    self.close_connection = True
                    return
                self.send_response(page.status)
                self.send_header("Content-Type", page.content_type)
                self.send_header("Content-Length", str(len(page.body)))
                self.end_headers()
                self.wfile.write(page.body[:page.sent_bytes])
                self.close_connection = page.sent_bytes is not None

        return Handler

    def serve(self, arxiv_id: str, html_text: str | None = None, abs_text: str | None = None) -> None:
        """Well-formed /html and /abs pages for a report (None: that page is a 404)."""
        if html_text is not None:
            self.pages[f"/html/{arxiv_id}"] = Page(html_page(html_text))
        if abs_text is not None:
            self.pages[f"/abs/{arxiv_id}"] = Page(abs_page(abs_text))


def html_page(text: str) -> bytes:
    return (f"<!DOCTYPE html><html><head><title>Report</title><script>var x = 'PPO';</script></head>"
            f"<body><article><p>{text}</p><p>{FILLER}</p></article></body></html>").encode()


def latexml_page(title: str, paragraphs: list[str], failed: bool = False) -> bytes:
    """An arXiv /html page in LaTeXML's shape: the site's header and alert banner around an
    `ltx_document` article. A failed conversion keeps the chrome and an error box, no paragraphs."""
    body = ("".join(f'<div class="ltx_para"><p class="ltx_p">{p}</p></div>' for p in paragraphs) if not failed
            else '<div class="ltx_ERROR undefined">\\usepackage</div><span class="ltx_ERROR">Fatal: conversion '
                 'stopped</span>')
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
            '<meta name="generator" content="LaTeXML"></head><body>'
            '<header class="mob_header"><a href="/">Back to arXiv</a><button>Toggle PPO theme</button></header>'
            '<div class="package-alerts ltx_document" role="status" aria-label="Conversion notes">'
            '<p>Parts of this rendering may be missing or wrong because some LaTeX packages are not supported '
            'yet. Those issues are tracked already, there is no need to report them.</p>'
            '<ul><li>failed: somepackage</li></ul><p>Authors: see the guidance on writing for HTML.</p></div>'
            '<div class="ltx_page_main"><div class="ltx_page_content"><article class="ltx_document">'
            f'<h1 class="ltx_title ltx_title_document">{title}</h1>'
            '<div class="ltx_authors"><span class="ltx_creator ltx_role_author">A. Author</span></div>'
            f'{body}</article></div><footer class="ltx_page_footer">Generated by LaTeXML</footer></div>'
            '</body></html>').encode()


def abs_page(text: str) -> bytes:
    return ('<!DOCTYPE html><html><body><blockquote class="abstract mathjax"><span class="descriptor">'
            f"Abstract:</span>{text}</blockquote></body></html>").encode()


@pytest.fixture()
def web() -> Iterator[FakeArxivWeb]:
    fake = FakeArxivWeb()
    with serve_on_loopback(fake.handler(), "fake-arxiv-faults") as base_url:
        fake.base_url = base_url
        yield fake


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries without waiting (the retry count is unchanged), so failing servers cost no time."""
    monkeypatch.setattr(world_module, "PoliteClient", functools.partial(PoliteClient, sleep=lambda _s: None))


@pytest.fixture()
def seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Write the report seed: one (model, arxiv_id) pair per report; optional extra columns per row."""
    path = tmp_path / "tech_reports.csv"
    monkeypatch.setattr(tech_reports, "REPORTS_SEED", path)

    def write(*reports: tuple[str, str], **overrides: str) -> None:
        with path.open("w", newline="", encoding="utf-8") as fh:
            out = csv.writer(fh)
            out.writerow(["model", "arxiv_id", "params_total_b", "params_active_b", "released_at"])
            for model, arxiv_id in reports:
                out.writerow([model, arxiv_id, overrides.get("params_total_b", "100"), "10", "2025-05-01"])

    return write


# --- loading and reading back ------------------------------------------------------------------
def load(tmp_path: Path, web: FakeArxivWeb, **world: object) -> dict[str, list[tuple]]:
    pipe = dlt.pipeline(pipeline_name="tech_reports_faults", dataset_name="raw_reports",
                        destination=dlt.destinations.duckdb(str(tmp_path / "w.duckdb")),
                        pipelines_dir=str(tmp_path / "dlt"))
    pipe.run(tech_reports_source(world=World.loopback("faults", arxiv_web=web.base_url, **world)))
    return tables(tmp_path)


def tables(tmp_path: Path) -> dict[str, list[tuple]]:
    """Sorted rows of the three tables (a table that was never created reads as empty)."""
    queries = {
        "reports": "select arxiv_id, text_source, text_chars from raw_reports.reports",
        "report_mentions": "select arxiv_id, method_name, occurrences from raw_reports.report_mentions",
        "reports_quarantine": "select arxiv_id, problem, reason from raw_reports.reports_quarantine "
                              "where resolved_at is null",
        "resolved": "select arxiv_id, problem from raw_reports.reports_quarantine where resolved_at is not null",
    }
    out: dict[str, list[tuple]] = {}
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        known = {r[0] for r in con.sql("select table_name from information_schema.tables").fetchall()}
        for name, sql in queries.items():
            table = sql.split("raw_reports.")[1].split()[0]
            out[name] = sorted(con.sql(sql).fetchall()) if table in known else []
    return out


def load_twice(tmp_path: Path, web: FakeArxivWeb) -> dict[str, list[tuple]]:
    """Load, load again from the same server, check the rerun left the same rows; return them."""
    first = load(tmp_path, web)
    again = load(tmp_path, web)
    assert keys(again) == keys(first)
    return again


def keys(got: dict[str, list[tuple]]) -> dict[str, list[tuple]]:
    """The primary keys in each table (quarantine reasons may name a port, so they are left out)."""
    return {name: [row[:2] for row in rows] for name, rows in got.items()}


def mentions(got: dict[str, list[tuple]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for arxiv_id, method, occurrences in got["report_mentions"]:
        out.setdefault(arxiv_id, {})[method] = occurrences
    return out


def quarantine(got: dict[str, list[tuple]]) -> dict[tuple[str, str], str]:
    return {(arxiv_id, problem): reason for arxiv_id, problem, reason in got["reports_quarantine"]}


GOOD_ID, OTHER_ID = "2501.12948", "2505.09388"
GOOD_TEXT = "We train with Group Relative Policy Optimization (GRPO), a loss with no critic."


# --- broken pages ------------------------------------------------------------------------------
@pytest.mark.parametrize("body, reason", [
    # html.parser raises AssertionError on an unknown marked section
    (b"<html><body><p>We use PPO.</p><![bogus[ x ]]><p>" + FILLER.encode() + b"</p></body></html>",
     "unparseable HTML"),
    # an unclosed <nav> hides the whole body
    (b"<html><body><nav>menu</nav><nav><p>We use PPO. " + FILLER.encode() + b"</p></body></html>",
     "almost no text"),
    # a gzip body sent without Content-Encoding: bytes, not text
    (gzip.compress(html_page("We use PPO. " + FILLER), mtime=0), "undecodable"),
    # a failed LaTeXML conversion: banners, header, an error box and the title, no paragraphs
    (latexml_page("PPO at Scale: A Technical Report", [], failed=True), "failed conversion"),
], ids=["unparseable", "no-visible-text", "binary", "latexml-conversion-failed"])
def test_unusable_html_page_falls_back_to_the_abstract_with_a_reason(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None], body: bytes, reason: str) -> None:
    seed(("Broken", GOOD_ID), ("Fine", OTHER_ID))
    web.pages[f"/html/{GOOD_ID}"] = Page(body)
    web.serve(GOOD_ID, abs_text="We fine-tune with an RLOO baseline and report RLOO advantages.")
    web.serve(OTHER_ID, html_text=GOOD_TEXT)
    got = load_twice(tmp_path, web)
    assert [r[:2] for r in got["reports"]] == [(GOOD_ID, "abs"), (OTHER_ID, "html")]
    assert mentions(got) == {GOOD_ID: {"RLOO": 2}, OTHER_ID: {"GRPO": 2}}  # not the PPO of the broken page
    assert list(quarantine(got)) == [(GOOD_ID, "abstract_only")]
    assert reason in quarantine(got)[(GOOD_ID, "abstract_only")]


def test_latexml_page_is_read_without_its_chrome_and_with_the_title_once(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None]) -> None:
    seed(("Good", GOOD_ID))
    web.pages[f"/html/{GOOD_ID}"] = Page(latexml_page("Scaling GRPO Recipes", [GOOD_TEXT, FILLER]))
    got = load_twice(tmp_path, web)
    assert [r[:2] for r in got["reports"]] == [(GOOD_ID, "html")]
    assert mentions(got) == {GOOD_ID: {"GRPO": 3}}  # title once + two in the text; no PPO from the chrome
    assert quarantine(got) == {}


def test_html_cut_off_keeps_the_text_it_has_with_a_reason(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None]) -> None:
    seed(("Cut", GOOD_ID))
    whole = html_page(f"{GOOD_TEXT} {FILLER} Later sections use PPO.")
    web.pages[f"/html/{GOOD_ID}"] = Page(whole[:whole.index(b"Later")])  # a complete response of half a page
    web.serve(GOOD_ID, abs_text="We use DPO.")
    got = load_twice(tmp_path, web)
    assert [r[:2] for r in got["reports"]] == [(GOOD_ID, "html")]
    assert mentions(got) == {GOOD_ID: {"GRPO": 2}}
    assert "cut off" in quarantine(got)[(GOOD_ID, "partial_text")]


def test_body_cut_mid_transfer_is_quarantined_and_loaded_by_the_next_run(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None]) -> None:
    seed(("Cut", GOOD_ID), ("Fine", OTHER_ID))
    whole = html_page(GOOD_TEXT)
    web.pages[f"/html/{GOOD_ID}"] = Page(whole, sent_bytes=len(whole) // 2)
    web.serve(OTHER_ID, html_text="We use DPO for preference tuning and DPO again in the final stage.")
    got = load(tmp_path, web)
    assert [r[0] for r in got["reports"]] == [OTHER_ID]
    assert mentions(got) == {OTHER_ID: {"DPO": 2}}
    assert "kept for the next run" in quarantine(got)[(GOOD_ID, "fetch_failed")]
    web.serve(GOOD_ID, html_text=GOOD_TEXT)  # the next run gets the whole page
    got = load_twice(tmp_path, web)
    assert [r[:2] for r in got["reports"]] == [(GOOD_ID, "html"), (OTHER_ID, "html")]
    assert mentions(got) == {GOOD_ID: {"GRPO": 2}, OTHER_ID: {"DPO": 2}}


def test_nul_and_non_utf8_bytes_do_not_hide_the_rest_of_the_page(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None]) -> None:
    seed(("Odd bytes", GOOD_ID))
    body = html_page(GOOD_TEXT).replace(b"We train", b"We\x00 train \xff\xfe\xc3(").replace(b"no critic", b"no\x00critic")
    web.pages[f"/html/{GOOD_ID}"] = Page(body)
    got = load_twice(tmp_path, web)
    assert [r[:2] for r in got["reports"]] == [(GOOD_ID, "html")]
    assert mentions(got) == {GOOD_ID: {"GRPO": 2}}
    assert got["reports_quarantine"] == []


def test_page_without_a_charset_is_read_as_utf8(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None]) -> None:
    """requests reads undeclared text/html as Latin-1: 'Dr.\\u00a0GRPO' became 'Dr.Â\\xa0GRPO', i.e. GRPO."""
    seed(("No charset", GOOD_ID))
    text = "the length-unbiased Dr.\u00a0GRPO loss; Dr.\u00a0GRPO normalisation"
    web.pages[f"/html/{GOOD_ID}"] = Page(html_page(text), content_type="text/html")
    got = load(tmp_path, web)
    assert mentions(got) == {GOOD_ID: {"Dr. GRPO": 2}}


@pytest.mark.timeout(60)  # a hang guard: the pairwise overlap check took minutes on this page
def test_very_long_report_with_many_mentions_loads_exact_counts(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None]) -> None:
    seed(("Long", GOOD_ID))
    web.serve(GOOD_ID, html_text="We use PPO and GRPO with Dr. GRPO. " * 30_000)
    got = load(tmp_path, web)
    assert got["reports"][0][2] > 1_000_000
    assert mentions(got) == {GOOD_ID: {"PPO": 30_000, "GRPO": 30_000, "Dr. GRPO": 30_000}}


# --- odd seed rows -----------------------------------------------------------------------------
@pytest.mark.parametrize("raw, canonical", [
    ("2505.09388", "2505.09388"), ("2505.09388v2", "2505.09388"), (" arXiv:2505.09388 ", "2505.09388"),
    ("0704.0001", "0704.0001"), ("hep-th/9901001", "hep-th/9901001"), ("math.GT/0309136v1", "math/0309136"),
])
def test_canonical_arxiv_id(raw: str, canonical: str) -> None:
    assert canonical_arxiv_id(raw) == canonical


@pytest.mark.parametrize("raw", ["", "2505.9388", "1312.00001", "2513.00001", "25050.09388", "../../etc/passwd",
                                 "2505.09388v", "see 2505.09388"])
def test_canonical_arxiv_id_rejects_non_ids(raw: str) -> None:
    with pytest.raises(ValueError, match="not an arXiv id"):
        canonical_arxiv_id(raw)


def test_seed_ids_are_keyed_without_version_and_odd_ones_quarantined(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None]) -> None:
    seed(("Qwen3", "2505.09388v2"), ("Old", "math.GT/0309136"), ("Qwen3 again", "2505.09388"),
         ("Typo", "2505.9388"), ("Path", "../admin"), ("Blank", ""))
    web.serve("2505.09388", html_text=GOOD_TEXT)
    web.serve("math/0309136", abs_text="An old paper on PPO and again PPO.")
    got = load_twice(tmp_path, web)
    assert [r[:2] for r in got["reports"]] == [("2505.09388", "html"), ("math/0309136", "abs")]
    assert mentions(got) == {"2505.09388": {"GRPO": 2}, "math/0309136": {"PPO": 2}}
    problems = quarantine(got)
    assert sorted(problems) == [("", "bad_id"), ("../admin", "bad_id"), ("2505.09388", "duplicate"),
                                ("2505.9388", "bad_id")]
    assert "Qwen3" in problems[("2505.09388", "duplicate")]  # names the listing that was kept
    assert set(web.requests) == {"/html/2505.09388", "/html/math/0309136", "/abs/math/0309136"}


def test_problems_that_are_gone_are_resolved_and_unjudged_ones_stay_open(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None]) -> None:
    seed(("Broken", GOOD_ID), ("Typo", "2505.9388"))
    web.pages[f"/html/{GOOD_ID}"] = Page(b"<html><body><nav>menu</nav><nav><p>" + FILLER.encode() + b"</p></body></html>")
    web.serve(GOOD_ID, abs_text="We use DPO.")
    got = load(tmp_path, web)
    assert sorted(quarantine(got)) == [(GOOD_ID, "abstract_only"), ("2505.9388", "bad_id")]

    # the page now breaks off: this run cannot tell whether the abstract-only problem is gone
    whole = html_page(GOOD_TEXT)
    web.pages[f"/html/{GOOD_ID}"] = Page(whole, sent_bytes=len(whole) // 2)
    got = load(tmp_path, web)
    assert sorted(quarantine(got)) == [(GOOD_ID, "abstract_only"), (GOOD_ID, "fetch_failed"), ("2505.9388", "bad_id")]
    assert got["resolved"] == []

    # a whole page, and the seed's typo fixed: every problem is resolved, the rows stay as history
    seed(("Broken", GOOD_ID))
    web.serve(GOOD_ID, html_text=GOOD_TEXT)
    got = load_twice(tmp_path, web)
    assert got["reports_quarantine"] == []
    assert got["resolved"] == [(GOOD_ID, "abstract_only"), (GOOD_ID, "fetch_failed"), ("2505.9388", "bad_id")]
    assert [r[:2] for r in got["reports"]] == [(GOOD_ID, "html")]

    # the same problem coming back opens its row again (a changed seed row makes the report read again)
    web.pages[f"/html/{GOOD_ID}"] = Page(whole, sent_bytes=len(whole) // 2)
    seed(("Broken", GOOD_ID), params_total_b="235")
    got = load(tmp_path, web)
    assert list(quarantine(got)) == [(GOOD_ID, "fetch_failed")]
    assert got["resolved"] == [(GOOD_ID, "abstract_only"), ("2505.9388", "bad_id")]


def test_a_report_read_cleanly_is_not_fetched_again_until_its_seed_row_or_the_catalogue_changes(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None], monkeypatch: pytest.MonkeyPatch) -> None:
    seed(("Clean", GOOD_ID), ("Abstract only", OTHER_ID))
    web.serve(GOOD_ID, html_text=GOOD_TEXT)
    web.serve(OTHER_ID, abs_text="We use DPO.")
    first = load(tmp_path, web)
    assert sorted(web.requests) == [f"/abs/{OTHER_ID}", f"/html/{GOOD_ID}", f"/html/{OTHER_ID}"]

    web.requests.clear()
    assert load(tmp_path, web) == first  # rows unchanged
    assert sorted(web.requests) == [f"/abs/{OTHER_ID}", f"/html/{OTHER_ID}"]  # the problem report only

    web.requests.clear()
    seed(("Clean", GOOD_ID), ("Abstract only", OTHER_ID), params_total_b="235")  # seed rows changed
    load(tmp_path, web)
    assert f"/html/{GOOD_ID}" in web.requests

    web.requests.clear()
    monkeypatch.setattr(tech_reports, "READER_VERSION", tech_reports.READER_VERSION + 1)
    load(tmp_path, web)
    assert f"/html/{GOOD_ID}" in web.requests


def test_a_report_read_from_its_abstract_is_asked_again_only_after_the_recheck_interval(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None]) -> None:
    seed(("Clean", GOOD_ID), ("Abstract only", OTHER_ID))
    web.serve(GOOD_ID, html_text=GOOD_TEXT)
    web.serve(OTHER_ID, abs_text="We use DPO.")
    first = load(tmp_path, web, report_recheck_s=3600)
    assert sorted(web.requests) == [f"/abs/{OTHER_ID}", f"/html/{GOOD_ID}", f"/html/{OTHER_ID}"]

    web.requests.clear()
    assert load(tmp_path, web, report_recheck_s=3600) == first  # within the hour: nothing asked, rows kept
    assert web.requests == []
    assert [r[:2] for r in first["reports"]] == [(GOOD_ID, "html"), (OTHER_ID, "abs")]

    web.serve(OTHER_ID, html_text=GOOD_TEXT)  # its HTML rendering appeared
    seed(("Clean", GOOD_ID), ("Abstract only", OTHER_ID), params_total_b="235")  # a changed seed row: asked now
    got = load(tmp_path, web, report_recheck_s=3600)
    assert f"/html/{OTHER_ID}" in web.requests
    assert [r[:2] for r in got["reports"]] == [(GOOD_ID, "html"), (OTHER_ID, "html")]

    web.requests.clear()  # read cleanly now: not asked again, whatever the interval
    load(tmp_path, web, report_recheck_s=0)
    assert web.requests == []


def test_bad_seed_number_is_a_clear_error(seed: Callable[..., None]) -> None:
    seed(("Bad", GOOD_ID), params_total_b="lots")
    with pytest.raises(ValueError, match=r"tech_reports.csv line 2: bad params_total_b 'lots'"):
        seed_reports()


# --- a failing server --------------------------------------------------------------------------
def test_report_missing_everywhere_loads_as_none_with_a_reason(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None]) -> None:
    seed(("Gone", GOOD_ID), ("Fine", OTHER_ID))
    web.serve(OTHER_ID, html_text=GOOD_TEXT)
    got = load_twice(tmp_path, web)
    assert [r[:2] for r in got["reports"]] == [(GOOD_ID, "none"), (OTHER_ID, "html")]
    assert got["reports"][0][2] == 0
    assert mentions(got) == {OTHER_ID: {"GRPO": 2}}
    assert quarantine(got) == {(GOOD_ID, "no_text"): "no HTML page (HTTP 404); no abstract page (HTTP 404)"}


@pytest.mark.parametrize("failure", ["drop", "busy"])
def test_server_failing_mid_run_stops_early_and_the_next_run_completes(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None], failure: str) -> None:
    ids = ["2501.12948", "2504.13914", "2505.00949", "2505.07291"]
    seed(*[(f"Model {i}", aid) for i, aid in enumerate(ids)])
    for aid in ids:
        web.serve(aid, html_text=f"{GOOD_TEXT} ({aid})")
    web.failing, web.failure = range(2, 10**6), failure  # the first report's page is served, then nothing
    got = load(tmp_path, web)
    # two reports in a row wait out every retry, then the run stops asking
    assert len(web.requests) == 1 + 2 * ATTEMPTS
    assert [r[0] for r in got["reports"]] == ids[:1]
    assert mentions(got) == {ids[0]: {"GRPO": 2}}
    problems = quarantine(got)
    assert sorted(problems) == [(aid, "fetch_failed") for aid in ids[1:]]
    assert ("HTTP 503" if failure == "busy" else "ConnectionError") in problems[(ids[1], "fetch_failed")]
    assert "not tried" in problems[(ids[3], "fetch_failed")]
    web.failing = range(0)  # the server is back
    got = load_twice(tmp_path, web)
    assert [r[:2] for r in got["reports"]] == [(aid, "html") for aid in ids]
    assert mentions(got) == {aid: {"GRPO": 2} for aid in ids}


def test_transient_503s_are_retried_without_a_trace(
        tmp_path: Path, web: FakeArxivWeb, seed: Callable[..., None]) -> None:
    seed(("Fine", GOOD_ID))
    web.serve(GOOD_ID, html_text=GOOD_TEXT)
    web.failing, web.failure = range(1, 3), "busy"
    got = load(tmp_path, web)
    assert len(web.requests) == 3
    assert [r[:2] for r in got["reports"]] == [(GOOD_ID, "html")]
    assert got["reports_quarantine"] == []
