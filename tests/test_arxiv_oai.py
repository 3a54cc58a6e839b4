"""arXiv OAI-PMH back-fill (ListRecords, arXivRaw): parsing, resumption paging, dlt runs."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

import dlt
import duckdb
import pytest

from ingestion.arxiv.source import OaiClient, arxiv_source, oai_sets
from ingestion.arxiv.parse import ArxivFeedError, MalformedEntry, parse_oai_page, parse_oai_record
from ingestion.http import PoliteClient
from worlds.sample.fake_arxiv import FakeArxiv, Faults
from worlds.sample.serve import arxiv_world, serving_sample_arxiv

NOW = datetime(2026, 10, 1, 12, tzinfo=timezone.utc)
FETCHED = datetime(2026, 1, 1, tzinfo=timezone.utc)
WINDOW = (date(2025, 1, 1), date(2025, 9, 30))
SHORT = (date(2025, 1, 1), date(2025, 3, 31))
HEAD = ('<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">'
        "<responseDate>2026-01-01T00:00:00Z</responseDate><request>x</request>")
RECORD = """<record><header><identifier>oai:arXiv.org:2503.14476</identifier><datestamp>2025-05-20</datestamp>
<setSpec>cs</setSpec></header><metadata><arXivRaw xmlns="http://arxiv.org/OAI/arXivRaw/">
<id>2503.14476</id><submitter>Qiying Yu</submitter>
<version version="v1"><date>Tue, 18 Mar 2025 17:36:49 GMT</date><size>1200kb</size></version>
<version version="v2"><date>Tue, 20 May 2025 09:31:02 GMT</date><size>1300kb</size></version>
<title>DAPO: An Open-Source LLM Reinforcement
  Learning System at Scale</title>
<authors>Qiying Yu (ByteDance Seed, Beijing), Zheng Zhang, and Wei Li</authors>
<categories>cs.LG cs.CL</categories><comments>Code: https://github.com/BytedTsinghua-SIA/DAPO</comments>
<doi>10.1234/dapo</doi><abstract>  We propose DAPO.
</abstract></arXivRaw></metadata></record>"""


def _page(body: str) -> bytes:
    return (HEAD + body + "</OAI-PMH>").encode()


def test_parse_oai_record():
    page = parse_oai_page(_page(f"<ListRecords>{RECORD}<resumptionToken cursor='0' completeListSize='1'/>"
                                "</ListRecords>"))
    assert page.resumption_token is None and page.complete_list_size == 1
    row = parse_oai_record(page.records[0], FETCHED)
    assert (row["arxiv_id"], row["latest_version"]) == ("2503.14476", 2)
    assert row["published_at"] == datetime(2025, 3, 18, 17, 36, 49, tzinfo=timezone.utc)
    assert row["updated_at"] == datetime(2025, 5, 20, 9, 31, 2, tzinfo=timezone.utc)
    assert row["title"] == "DAPO: An Open-Source LLM Reinforcement Learning System at Scale"
    assert json.loads(row["authors"]) == [
        {"name": "Qiying Yu", "affiliation": "ByteDance Seed, Beijing"},
        {"name": "Zheng Zhang", "affiliation": None}, {"name": "Wei Li", "affiliation": None}]
    assert row["primary_category"] == "cs.LG" and json.loads(row["categories"]) == ["cs.LG", "cs.CL"]
    assert row["doi"] == "10.1234/dapo" and json.loads(row["code_urls"]) == ["https://github.com/BytedTsinghua-SIA/DAPO"]


def test_oai_errors_deleted_records_and_bad_records():
    assert parse_oai_page(_page('<error code="noRecordsMatch">none</error>')).records == ()
    with pytest.raises(ArxivFeedError, match="badResumptionToken"):
        parse_oai_page(_page('<error code="badResumptionToken">expired</error>'))
    deleted = ('<record><header status="deleted"><identifier>oai:arXiv.org:1</identifier>'
               "<datestamp>2025-01-01</datestamp></header></record>")
    assert parse_oai_page(_page(f"<ListRecords>{deleted}</ListRecords>")).records == ()
    bad = RECORD.replace("Tue, 18 Mar 2025 17:36:49 GMT", "someday")
    record = parse_oai_page(_page(f"<ListRecords>{bad}</ListRecords>")).records[0]
    with pytest.raises(MalformedEntry, match="unparseable version date"):
        parse_oai_record(record, FETCHED)


def test_resumption_tokens_are_followed_and_retries_happen():
    assert oai_sets(("cs.LG", "cs.CL", "stat.ML")) == ["cs", "stat"]
    http = PoliteClient(min_interval_s=0, backoff_s=0, max_backoff_s=0, sleep=lambda s: None)
    with FakeArxiv(faults=Faults(oai_page_size=7, fail_next=1, fail_status=503)) as fake:
        client = OaiClient(fake.base_url.replace("/api/query", "/oai2"), http=http, retry_wait_s=0)
        pages = list(client.iter_pages("cs", date(2025, 1, 1), date(2025, 6, 30)))
        later = fake.requests[2:]
    ids = [parse_oai_record(r, FETCHED)["arxiv_id"] for p in pages for r in p.records]
    assert len(pages) > 3 and len(ids) == len(set(ids)) == pages[0].complete_list_size
    assert later and all(set(r) == {"verb", "resumptionToken"} for r in later)


def _pipeline(tmp_path, name):
    return dlt.pipeline(pipeline_name=name, destination=dlt.destinations.duckdb(str(tmp_path / f"{name}.duckdb")),
                        dataset_name="raw_arxiv", pipelines_dir=str(tmp_path / "dlt"))


def _rows(tmp_path, name, table="papers"):
    cols = ("arxiv_id, latest_version, title, abstract, authors, primary_category, categories, published_at, "
            "updated_at, comment, journal_ref, doi, code_urls") if table == "papers" else "* exclude (_dlt_load_id, _dlt_id)"
    with duckdb.connect(str(tmp_path / f"{name}.duckdb"), read_only=True) as con:
        return sorted(con.sql(f"select {cols} from raw_arxiv.{table}").fetchall())


def test_oai_backfill_loads_the_same_rows_as_the_query_api(tmp_path):
    with serving_sample_arxiv() as world:
        _pipeline(tmp_path, "q").run(arxiv_source(world=world, window=WINDOW, now=NOW))
        _pipeline(tmp_path, "o").run(arxiv_source(world=world, window=WINDOW, now=NOW, harvest="oai"))
    assert len(_rows(tmp_path, "q")) > 80
    assert _rows(tmp_path, "o") == _rows(tmp_path, "q")
    assert _rows(tmp_path, "o", "paper_features") == _rows(tmp_path, "q", "paper_features")


def test_oai_runs_are_incremental_and_quarantine_bad_records(tmp_path):
    pipe = _pipeline(tmp_path, "o")
    with serving_sample_arxiv(malformed_ids=["2503.20783"], oai_page_size=50) as world:
        pipe.run(arxiv_source(world=world, window=SHORT, now=NOW, harvest="oai"))
    assert pipe.state["sources"]["arxiv"]["oai_harvested_until"] == "2026-10-01"
    with duckdb.connect(str(tmp_path / "o.duckdb"), read_only=True) as con:
        assert con.sql("select entry_key, reason from raw_arxiv.papers_quarantine").fetchall() == [
            ("oai:arXiv.org:2503.20783", "unrecognised arXiv id 'broken id 2503.20783v2'")]
    bumped = NOW - timedelta(hours=2)
    with FakeArxiv(faults=Faults(version_bumps={"2503.14476": (3, bumped)})) as fake:
        pipe.run(arxiv_source(world=arxiv_world(fake.base_url), window=SHORT, now=NOW + timedelta(days=1),
                              harvest="oai"))
        assert {r["from"] for r in fake.requests if "from" in r} == {"2026-10-01"}
    with duckdb.connect(str(tmp_path / "o.duckdb"), read_only=True) as con:
        assert con.sql("select latest_version, updated_at from raw_arxiv.papers where arxiv_id='2503.14476'"
                       ).fetchall() == [(3, bumped)]
        # a quarantined record comes back only when its datestamp changes (as with a done window)
        assert con.sql("select count(*) from raw_arxiv.papers where arxiv_id='2503.20783'").fetchall() == [(0,)]


def test_both_paths_agree_on_updated_at_of_a_single_version_paper():
    """updated_at is the latest version's submission time: OAI's last version date, Atom's
    <published> for v1 (its <updated> may be a later metadata edit)."""
    from ingestion.arxiv.parse import parse_entry, parse_feed

    single = RECORD.replace('<version version="v2"><date>Tue, 20 May 2025 09:31:02 GMT</date><size>1300kb</size>'
                            "</version>", "")
    oai = parse_oai_record(parse_oai_page(_page(f"<ListRecords>{single}</ListRecords>")).records[0], FETCHED)
    atom_xml = ("<feed xmlns='http://www.w3.org/2005/Atom'><entry><id>http://arxiv.org/abs/2503.14476v1</id>"
                "<updated>2025-04-02T11:00:00Z</updated><published>2025-03-18T17:36:49Z</published>"
                "<title>DAPO</title></entry></feed>")
    atom = parse_entry(parse_feed(atom_xml.encode()).entries[0], FETCHED)
    assert oai["latest_version"] == atom["latest_version"] == 1
    assert oai["updated_at"] == atom["updated_at"] == atom["published_at"] == oai["published_at"]


# --- real arXivRaw author strings -------------------------------------------------------------
def _authors(raw: str) -> list[dict]:
    from xml.sax.saxutils import escape

    record = RECORD.replace("Qiying Yu (ByteDance Seed, Beijing), Zheng Zhang, and Wei Li", escape(raw))
    page = parse_oai_page(_page(f"<ListRecords>{record}</ListRecords>"))
    return json.loads(parse_oai_record(page.records[0], FETCHED)["authors"])


def test_numbered_affiliations_are_resolved_and_not_glued_to_the_last_name():
    assert _authors("Ann Lee (1,2), Bo Wu (2) and Cy Tam (1 and 3) "
                    "((1) University A, Dept. X, (2) Institute B, (3) Lab C)") == [
        {"name": "Ann Lee", "affiliation": "University A, Dept. X; Institute B"},
        {"name": "Bo Wu", "affiliation": "Institute B"},
        {"name": "Cy Tam", "affiliation": "University A, Dept. X; Lab C"}]
    # numbers with no list to resolve them name no affiliation
    assert _authors("Ann Lee (1), Bo Wu (2)") == [{"name": "Ann Lee", "affiliation": None},
                                                  {"name": "Bo Wu", "affiliation": None}]
    # in the numbered form an author without numbers has no affiliation (no group)
    assert _authors("Ann Lee, Bo Wu (1) ((1) Univ X)") == [{"name": "Ann Lee", "affiliation": None},
                                                           {"name": "Bo Wu", "affiliation": "Univ X"}]


def test_group_affiliation_applies_to_every_author_of_the_group():
    assert _authors("Ann Lee, Bo Wu (Univ X), Cy Tam (Univ Y), Di Ho") == [
        {"name": "Ann Lee", "affiliation": "Univ X"}, {"name": "Bo Wu", "affiliation": "Univ X"},
        {"name": "Cy Tam", "affiliation": "Univ Y"}, {"name": "Di Ho", "affiliation": None}]


def test_tex_accents_become_unicode_like_the_atom_path():
    assert _authors(r"Emmanuel Thom\'e, Micha{\l} S{\l}upi\'nski and J\"org M\"uller (Texas A&M, 50% Lab)") == [
        {"name": "Emmanuel Thomé", "affiliation": "Texas A&M, 50% Lab"},
        {"name": "Michał Słupiński", "affiliation": "Texas A&M, 50% Lab"},
        {"name": "Jörg Müller", "affiliation": "Texas A&M, 50% Lab"}]


def test_candidate_pool_gives_the_same_rows_through_the_query_and_oai(tmp_path):
    """The live harvest sends the pool query; OAI cannot filter by text and applies it locally."""
    with serving_sample_arxiv() as world:
        _pipeline(tmp_path, "q").run(arxiv_source(world=world, window=WINDOW, now=NOW, pool=True))
        _pipeline(tmp_path, "o").run(arxiv_source(world=world, window=WINDOW, now=NOW, harvest="oai", pool=True))
        _pipeline(tmp_path, "all").run(arxiv_source(world=world, window=WINDOW, now=NOW))
    pooled = _rows(tmp_path, "q")
    assert pooled and _rows(tmp_path, "o") == pooled and len(pooled) < len(_rows(tmp_path, "all"))
    with duckdb.connect(str(tmp_path / "all.duckdb"), read_only=True) as con:
        in_pool = {r[0] for r in con.sql("select arxiv_id from raw_arxiv.paper_features where in_pool").fetchall()}
    assert {r[0] for r in pooled} == in_pool  # the flag on every screened row is the same query
