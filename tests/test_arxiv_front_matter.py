"""arXiv HTML front matter (ingestion/arxiv/front_matter.py): pages written here in the shape LaTeXML
gives arxiv.org/html/<id> (made-up papers, not copies of real ones), the features judged from them,
and the dlt source's fetching: 404, failures, retries, incremental runs and rechecks."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import dlt
import duckdb
import pytest

from ingestion import config
from ingestion.arxiv.front_matter import (READER_VERSION, FrontMatter, arxiv_front_matter_source, due,
                                          front_matter_features, parse_front_matter)
from ingestion.world import World
from worlds.loopback import serve_on_loopback

FRAMEWORKS = config.frameworks()

CHROME_TOP = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
              '<script>var code = "https://github.com/not/this";</script></head><body>'
              '<header class="desktop_header"><a href="https://arxiv.org/">arXiv</a>'
              '<a href="https://github.com/arXiv/html_feedback">Report an issue</a></header>'
              '<div class="ltx_page_main"><div class="ltx_page_content">')
CHROME_BOTTOM = ('</div></div><footer class="ltx_page_footer"><a href="https://info.arxiv.org/help">Help</a>'
                 '</footer></body></html>')


def page(title_html: str, authors_html: str = "", abstract: str = "We study a toy objective.",
         body: str = "<p class=\"ltx_p\">Body text https://github.com/body/link is not front matter.</p>") -> str:
    return (CHROME_TOP.format(title="x")
            + '<article class="ltx_document ltx_authors_1line">'
            + f'<h1 class="ltx_title ltx_title_document">{title_html}</h1>'
            + (f'<div class="ltx_authors">{authors_html}</div>' if authors_html else "")
            + '<div class="ltx_abstract"><h6 class="ltx_title ltx_title_abstract">Abstract</h6>'
            + f'<p class="ltx_p" id="id1.id1">{abstract}</p></div>'
            + f'<section class="ltx_section" id="S1"><h2 class="ltx_title ltx_title_section">'
            + f'<span class="ltx_tag ltx_tag_section">1 </span>Introduction</h2>'
            + f'<div class="ltx_para" id="S1.p1">{body}</div></section>'
            + '</article>' + CHROME_BOTTOM)


def footnote(n: int, content: str) -> str:
    return (f'<span class="ltx_note ltx_role_footnote" id="footnote{n}"><sup class="ltx_note_mark">{n}</sup>'
            '<span class="ltx_note_outer"><span class="ltx_note_content">'
            f'<sup class="ltx_note_mark">{n}</sup><span class="ltx_tag ltx_tag_note">{n}</span>{content}'
            '</span></span></span>')


def link(url: str, text: str | None = None) -> str:
    return f'<a class="ltx_ref ltx_url ltx_font_typewriter" href="{url}" title="">{text or url}</a>'


def creator(name: str, notes: str = "") -> str:
    return ('<span class="ltx_creator ltx_role_author">'
            f'<span class="ltx_personname">{name}</span>'
            + (f'<span class="ltx_author_notes">{notes}</span>' if notes else "")
            + '</span><span class="ltx_author_before">, </span>')


def affiliation(text: str) -> str:
    return f'<span class="ltx_contact ltx_role_affiliation">{text}</span>'


def email(address: str) -> str:
    return f'<span class="ltx_contact ltx_role_email"><a href="mailto:{address}">{address}</a></span>'


# a made-up paper: code linked from a footnote on the title, one lab per author with e-mails
TOYPO_TITLE = "ToyPO: Toy Policy Optimisation"
TOYPO = page(
    "ToyPO: Toy Policy Optimisation" + footnote(1, "Code: " + link("https://github.com/toylab/ToyPO")),
    creator("Ada Example", affiliation("ByteDance Seed") + email("ada@bytedance.com"))
    + creator("Ben Sample", affiliation("Example University, Springfield") + email("ben@example.edu")),
)
# all authors in one personname, labs after a line break with superscript marks
MARKED = page(
    "Marked Affiliations for RL",
    '<span class="ltx_creator ltx_role_author"><span class="ltx_personname">'
    'Cara Demo<sup class="ltx_sup">1</sup>, Dan Trial<sup class="ltx_sup">2</sup>'
    '<br class="ltx_break"><sup class="ltx_sup">1</sup>ByteDance Seed <sup class="ltx_sup">2</sup>Tsinghua University'
    '<br class="ltx_break">{cara,dan}@example.org</span></span>',
)


def test_footnote_link_and_one_lab_per_author():
    front = parse_front_matter(TOYPO)
    assert front.found and front.title == TOYPO_TITLE
    assert front.authors == [
        {"name": "Ada Example", "affiliation": "ByteDance Seed; ada@bytedance.com"},
        {"name": "Ben Sample", "affiliation": "Example University, Springfield; ben@example.edu"}]
    assert "https://github.com/toylab/ToyPO" in front.urls
    # chrome and body are not front matter
    assert not any("body/link" in u or "not/this" in u or "html_feedback" in u for u in front.urls)
    assert "Introduction" not in front.text and "Report an issue" not in front.text
    assert front.footnotes == ["Code: https://github.com/toylab/ToyPO"]
    f = front_matter_features("2601.00001", TOYPO_TITLE, front, FRAMEWORKS)
    assert f["releases_code"] is True
    assert f["code_signal"] == "footnote link: https://github.com/toylab/ToyPO"
    assert json.loads(f["maintainer_framework_ids"]) == ["verl"]
    assert f["maintainer_signal"] == "verl: arXiv HTML affiliation 'ByteDance Seed'"
    assert f["has_affiliations"] is True


def test_marked_affiliation_lines_split_into_labs():
    front = parse_front_matter(MARKED)
    assert front.authors == [{"name": "Cara Demo, Dan Trial",
                              "affiliation": "ByteDance Seed; Tsinghua University; cara@example.org; dan@example.org"}]
    f = front_matter_features("2601.00002", "Marked Affiliations for RL", front, FRAMEWORKS)
    assert json.loads(f["maintainer_framework_ids"]) == ["verl"]
    assert f["releases_code"] is False and f["code_signal"] is None


def test_tabular_author_block():
    cell = '<span class="ltx_td ltx_align_center">{}</span>'
    block = ('<span class="ltx_creator ltx_role_author"><span class="ltx_personname">'
             '<span class="ltx_tabular ltx_align_middle">'
             '<span class="ltx_tr">' + cell.format("Gil Table") + '</span>'
             '<span class="ltx_tr">' + cell.format("Hugging Face") + '</span>'
             '<span class="ltx_tr">' + cell.format("gil@example.com") + '</span>'
             '</span></span></span>')
    front = parse_front_matter(page("Tabular Authors", block))
    assert front.authors == [{"name": "Gil Table", "affiliation": "Hugging Face; gil@example.com"}]
    f = front_matter_features("2601.00010", "Tabular Authors", front, FRAMEWORKS)
    assert json.loads(f["maintainer_framework_ids"]) == ["trl"]


def test_email_domain_alone_marks_a_maintainer():
    front = parse_front_matter(page("Quiet Lab Paper", creator("Eve Case", email("eve@huggingface.co"))))
    f = front_matter_features("2601.00003", "Quiet Lab Paper", front, FRAMEWORKS)
    assert json.loads(f["maintainer_framework_ids"]) == ["trl"]
    assert "eve@huggingface.co" in f["maintainer_signal"]


def test_someone_elses_repository_and_model_links_are_not_the_papers_code():
    built_on = page("LoopRL: Looping Rollouts" + footnote(1, "Our trainer is built on "
                                                          + link("https://github.com/volcengine/verl") + "."),
                    creator("Fay Node", affiliation("Example University")))
    f = front_matter_features("2601.00004", "LoopRL: Looping Rollouts", parse_front_matter(built_on), FRAMEWORKS)
    assert f["releases_code"] is False, f["code_signal"]
    assert "https://github.com/volcengine/verl" in json.loads(f["code_urls"])
    model = page("LoopRL: Looping Rollouts" + footnote(1, "Model: " + link("https://huggingface.co/fay/looprl-7b")),
                 creator("Fay Node", affiliation("Example University")))
    f = front_matter_features("2601.00004", "LoopRL: Looping Rollouts", parse_front_matter(model), FRAMEWORKS)
    assert f["releases_code"] is False, f["code_signal"]


def test_link_with_other_anchor_text_is_judged_by_its_cue():
    front = parse_front_matter(page("Anchor Paper" + footnote(1, "Our code is "
                                                              + link("https://github.com/lab/anchor-paper", "here"))))
    f = front_matter_features("2601.00005", "Anchor Paper", front, FRAMEWORKS)
    assert f["releases_code"] is True and f["code_signal"] == "footnote link: https://github.com/lab/anchor-paper"


def test_page_without_author_block_and_failed_conversion():
    front = parse_front_matter(page("No Authors Here"))
    assert front.found and front.authors == []
    f = front_matter_features("2601.00006", "No Authors Here", front, FRAMEWORKS)
    assert f["has_affiliations"] is False and json.loads(f["maintainer_framework_ids"]) == []
    failed = ('<!DOCTYPE html><html><head><title>x</title></head><body><header>arXiv</header>'
              '<div class="package-alerts" role="status">Conversion to HTML had a Fatal error and exited abruptly. '
              'This document may be truncated or damaged.</div></body></html>')
    assert not parse_front_matter(failed).found
    # a document with neither title nor authors nor abstract is no front matter either
    assert not parse_front_matter('<html><body><article class="ltx_document"><div class="ltx_para">'
                                  '<p class="ltx_p">x</p></div></article></body></html>').found


def test_non_utf8_bytes_and_broken_markup():
    latin = TOYPO.replace("Ada Example", "Adé Exämple").encode("latin-1")
    front = parse_front_matter(latin)
    assert front.found and front.authors[0]["affiliation"] == "ByteDance Seed; ada@bytedance.com"
    assert "\ufffd" in front.authors[0]["name"]
    assert parse_front_matter(TOYPO[:len(TOYPO) // 2] + "<![foo[").found  # cut off: what came before stands


def test_from_text_reads_lines_as_affiliations():
    front = FrontMatter.from_text("ToyPO: Toy Policy Optimisation\nAda Example, Ben Sample\n"
                                  "1 ByteDance Seed 2 Tsinghua University\n"
                                  "Code: https://github.com/toylab/ToyPO\n"
                                  "Weights: https://www.huggingface.co/toylab/toypo-7b\n")
    assert front.urls == ["https://github.com/toylab/ToyPO", "https://www.huggingface.co/toylab/toypo-7b"]
    assert {"name": "", "affiliation": "ByteDance Seed; Tsinghua University"} in front.authors
    f = front_matter_features("2601.00001", TOYPO_TITLE, front, FRAMEWORKS)
    assert f["releases_code"] and json.loads(f["maintainer_framework_ids"]) == ["verl"]  # a link is no lab
    assert f["code_signal"] == "front matter link: https://github.com/toylab/ToyPO"


# --- the dlt source -----------------------------------------------------------------------------
class FakeArxivWeb:
    """/html/<id> answered from `pages` (404 otherwise); `errors[id]` answers that many 500s first."""

    def __init__(self, pages: dict[str, str | bytes], errors: dict[str, int] | None = None):
        self.pages = pages
        self.errors = dict(errors or {})
        self.asked: list[str] = []
        self.lock = threading.Lock()

    @contextmanager
    def serve(self) -> Iterator[str]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                return

            def do_GET(self) -> None:  # noqa: N802
                aid = self.path.strip("/").partition("/")[2]
                with fake.lock:
                    fake.asked.append(aid)
                    failing = fake.errors.get(aid, 0) > 0
                    if failing:
                        fake.errors[aid] -= 1
                body = fake.pages.get(aid)
                status = 500 if failing else 200 if body is not None else 404
                data = b"busy" if failing else (body.encode() if isinstance(body, str) else body or b"Not found")
                self.send_response(status)
                self.send_header("Content-Type", "text/html")  # no charset: read as UTF-8
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        with serve_on_loopback(Handler, "fake-arxiv-html") as url:
            yield url


def _world(url: str, **parts) -> World:
    return World.loopback("test", arxiv_web=url, **parts)


def _pipeline(tmp_path: Path) -> dlt.Pipeline:
    return dlt.pipeline(pipeline_name="front_matter_test", dataset_name="raw_arxiv",
                        destination=dlt.destinations.duckdb(str(tmp_path / "w.duckdb")),
                        pipelines_dir=str(tmp_path / "dlt"))


def _rows(tmp_path: Path) -> dict[str, dict]:
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        cur = con.execute("select * exclude (_dlt_load_id, _dlt_id) from raw_arxiv.paper_front_matter")
        names = [d[0] for d in cur.description]
        return {row[names.index("arxiv_id")]: dict(zip(names, row)) for row in cur.fetchall()}


def test_source_statuses_retry_and_incremental_runs(tmp_path):
    fake = FakeArxivWeb({"2601.00001": TOYPO, "2601.00002": MARKED,
                         "2601.00007": TOYPO.replace("Ada Example", "Adé").encode("latin-1"),
                         "2601.00008": "<html><body><div class='package-alerts'>Conversion failed</div></body></html>"},
                        errors={"2601.00002": 1})  # a 500, then the page
    ids = ["2601.00001", "2601.00002", "2601.00003", "2601.00007", "2601.00008"]
    with fake.serve() as url:
        world = _world(url, front_matter_recheck_s=3600.0, report_recheck_s=3600.0)
        pipe = _pipeline(tmp_path)
        pipe.run(arxiv_front_matter_source(world=world, arxiv_ids=ids, titles={"2601.00001": TOYPO_TITLE}))
        rows = _rows(tmp_path)
        assert {k: r["status"] for k, r in rows.items()} == {
            "2601.00001": "read", "2601.00002": "read", "2601.00003": "no_html", "2601.00007": "read",
            "2601.00008": "no_front_matter"}
        toy = rows["2601.00001"]
        assert toy["releases_code"] and toy["code_signal"] == "footnote link: https://github.com/toylab/ToyPO"
        assert json.loads(toy["maintainer_framework_ids"]) == ["verl"] and toy["has_affiliations"]
        assert json.loads(toy["authors"])[0] == {"name": "Ada Example", "affiliation": "ByteDance Seed; ada@bytedance.com",
                                                 "source": "arXiv HTML"}
        assert toy["html_url"] == "https://arxiv.org/html/2601.00001" and toy["reader_version"] == READER_VERSION
        assert fake.asked.count("2601.00002") == 2  # the 500 was retried
        # a second run asks nothing new
        asked = len(fake.asked)
        pipe.run(arxiv_front_matter_source(world=world, arxiv_ids=ids))
        assert len(fake.asked) == asked
        # after the recheck interval the 404 and the failed conversion are asked again, read papers are not
        later = datetime.now(timezone.utc) + timedelta(hours=2)
        pipe.run(arxiv_front_matter_source(world=world, arxiv_ids=ids, now=later))
        assert sorted(fake.asked[asked:]) == ["2601.00003", "2601.00008"]
        assert len(_rows(tmp_path)) == 5


def test_two_failures_in_a_row_stop_the_run_and_keep_earlier_readings(tmp_path, monkeypatch):
    from ingestion.arxiv import front_matter as arxiv_front_matter

    fake = FakeArxivWeb({"2601.00001": TOYPO, "2601.00002": MARKED})
    with fake.serve() as url:
        pipe = _pipeline(tmp_path)
        pipe.run(arxiv_front_matter_source(world=_world(url), arxiv_ids=["2601.00001"]))
        fake.errors = {a: 99 for a in ("2601.00001", "2601.00009", "2601.00002")}  # arXiv is down
        monkeypatch.setattr(arxiv_front_matter, "READER_VERSION", READER_VERSION + 1)  # every paper due again
        asked = len(fake.asked)
        pipe.run(arxiv_front_matter_source(world=_world(url), arxiv_ids=["2601.00001", "2601.00009", "2601.00002"]))
    rows = _rows(tmp_path)
    assert rows["2601.00001"]["status"] == "read"  # the earlier reading stays
    assert rows["2601.00009"]["status"] == "fetch_failed"  # no earlier row: the failure is written
    assert "2601.00002" not in rows
    assert set(fake.asked[asked:]) == {"2601.00001", "2601.00009"}  # stopped after two failures in a row


def test_due_rule():
    world = World.live()
    now = datetime(2026, 1, 10, tzinfo=timezone.utc)
    day = timedelta(days=1)
    assert due(None, now, world)
    assert not due(["read", (now - 100 * day).isoformat(), READER_VERSION], now, world)
    assert due(["read", now.isoformat(), READER_VERSION - 1], now, world)
    assert not due(["no_html", (now - 6 * day).isoformat(), READER_VERSION], now, world)
    assert due(["no_html", (now - 8 * day).isoformat(), READER_VERSION], now, world)
    assert due(["fetch_failed", (now - 2 * day).isoformat(), READER_VERSION], now, world)
    assert not due(["fetch_failed", (now - day / 2).isoformat(), READER_VERSION], now, world)
