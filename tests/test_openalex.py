"""OpenAlex affiliations: recorded responses in the works API's JSON shape (written for these tests,
invented authors and labs), served by a loopback fake; the lookup feeding maintainer_framework_ids."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import dlt
import duckdb

from ingestion import config
from ingestion.http import PoliteClient
from ingestion.arxiv.openalex import AffiliationLookup, OpenAlexClient, arxiv_id_of, authors_of, paper_affiliations
from ingestion.screening.rules import screen

REGISTRY = config.frameworks()


def _work(arxiv_id: str, authorships: list[dict]) -> dict:
    return {"id": f"https://openalex.org/W{abs(hash(arxiv_id)) % 10**9}",
            "doi": f"https://doi.org/10.48550/arxiv.{arxiv_id}", "title": "A paper",
            "ids": {"openalex": "https://openalex.org/W1", "doi": f"https://doi.org/10.48550/arxiv.{arxiv_id}"},
            "authorships": authorships}


def _authorship(name: str, institutions: list[str], raw: list[str], position: str = "middle") -> dict:
    return {"author_position": position,
            "author": {"id": "https://openalex.org/A1", "display_name": name, "orcid": None},
            "institutions": [{"id": "https://openalex.org/I1", "display_name": i, "ror": None, "country_code": "CN",
                              "type": "company", "lineage": []} for i in institutions],
            "countries": ["CN"], "is_corresponding": False, "raw_author_name": name,
            "raw_affiliation_strings": raw,
            "affiliations": [{"raw_affiliation_string": r, "institution_ids": []} for r in raw]}


WORKS = {
    "2601.00001": _work("2601.00001", [
        _authorship("Ada Example", ["Tsinghua University"], ["Tsinghua University, Beijing"], "first"),
        _authorship("Bo Sample", [], ["ByteDance Seed, Beijing, China"], "last")]),
    "2601.00002": _work("2601.00002", [_authorship("Cy Person", ["Stanford University"], [])]),
    "2601.00003": _work("2601.00003", [_authorship("Di Nobody", [], [])]),  # no affiliation known
}


class FakeOpenAlex:
    """GET /works?filter=doi:a|b&per-page=N&cursor=...: one result per page, cursor paging."""

    def __init__(self) -> None:
        self.requests: list[dict[str, str]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                q = {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}
                fake.requests.append(q)
                dois = q["filter"].removeprefix("doi:").split("|")
                found = [WORKS[d.removeprefix("10.48550/arxiv.")] for d in dois
                         if d.removeprefix("10.48550/arxiv.") in WORKS]
                start = 0 if q["cursor"] == "*" else int(q["cursor"])
                page = found[start:start + 1]
                nxt = str(start + 1) if start + 1 < len(found) else None
                body = json.dumps({"meta": {"count": len(found), "db_response_time_ms": 3, "page": None,
                                            "per_page": 1, "next_cursor": nxt, "groups_count": None},
                                   "results": page, "group_by": []}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _client(url: str) -> OpenAlexClient:
    return OpenAlexClient(url, http=PoliteClient(min_interval_s=0.0, max_retries=0), mailto="team@example.org")


def test_works_are_found_by_arxiv_doi_with_cursor_paging_and_the_polite_pool():
    fake = FakeOpenAlex()
    try:
        works = list(_client(fake.url).works(["2601.00001", "2601.00002", "2601.00003", "2601.09999"]))
    finally:
        fake.close()
    assert sorted(arxiv_id_of(w) for w in works) == ["2601.00001", "2601.00002", "2601.00003"]
    assert len(fake.requests) == 3  # one work per page: the cursor was followed to the end
    assert all(r["mailto"] == "team@example.org" for r in fake.requests)
    assert fake.requests[0]["filter"].startswith("doi:10.48550/arxiv.2601.00001|")


def test_authors_of_joins_institutions_and_raw_strings():
    assert authors_of(WORKS["2601.00001"]) == [
        {"name": "Ada Example", "affiliation": "Tsinghua University; Tsinghua University, Beijing", "source": "OpenAlex"},
        {"name": "Bo Sample", "affiliation": "ByteDance Seed, Beijing, China", "source": "OpenAlex"}]


def test_lookup_feeds_maintainer_ids_with_signal_and_coverage_on_the_fixtures():
    fake = FakeOpenAlex()
    try:
        found = AffiliationLookup(_client(fake.url))(["2601.00001", "2601.00002", "2601.00003", "2601.09999"])
    finally:
        fake.close()
    covered = [a for a, authors in found.items() if any(x["affiliation"] for x in authors)]
    assert sorted(covered) == ["2601.00001", "2601.00002"]  # coverage 2 of 4 requested, on fixtures only
    from ingestion.arxiv.openalex import with_affiliations

    row = {"arxiv_id": "2601.00001", "title": "XPO: Policy Optimization for LLMs",
           "abstract": "We propose XPO, a reinforcement learning algorithm for language models.",
           "authors": json.dumps([{"name": "Ada Example", "affiliation": None}])}
    out = screen(with_affiliations(row, found["2601.00001"]), REGISTRY)
    assert json.loads(out["maintainer_framework_ids"]) == ["verl"]
    assert "OpenAlex affiliation 'ByteDance Seed" in out["maintainer_signal"]


def test_unreachable_openalex_switches_the_lookup_off_without_stopping():
    lookup = AffiliationLookup(_client("http://127.0.0.1:9"))  # nothing listens on the discard port
    assert lookup(["2601.00001"]) == {}
    assert lookup.failed
    assert lookup(["2601.00002"]) == {}  # off for the rest of the run: no second wait


def test_paper_affiliations_resource_loads_rows(tmp_path):
    fake = FakeOpenAlex()
    try:
        pipe = dlt.pipeline(pipeline_name="oa", destination=dlt.destinations.duckdb(str(tmp_path / "w.duckdb")),
                            dataset_name="raw_openalex", pipelines_dir=str(tmp_path / "dlt"))
        pipe.run(paper_affiliations(["2601.00001", "2601.00002"], client=_client(fake.url)))
        pipe.run(paper_affiliations(["2601.00001"], client=_client(fake.url)))  # merge: no duplicate
    finally:
        fake.close()
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        rows = con.sql("select arxiv_id, authors from raw_openalex.paper_affiliations order by 1").fetchall()
    assert [r[0] for r in rows] == ["2601.00001", "2601.00002"]
    assert json.loads(rows[1][1])[0]["affiliation"] == "Stanford University"


def test_arxiv_source_screens_with_the_looked_up_affiliations(tmp_path):
    from datetime import date, datetime, timezone

    from ingestion.arxiv.source import arxiv_source
    from worlds.sample.serve import serving_sample_arxiv

    asked: list[str] = []

    def lookup(ids):
        asked.extend(ids)
        return {i: [{"name": "X", "affiliation": "NVIDIA", "source": "OpenAlex"}] for i in ids}

    pipe = dlt.pipeline(pipeline_name="ax", destination=dlt.destinations.duckdb(str(tmp_path / "w.duckdb")),
                        dataset_name="raw_arxiv", pipelines_dir=str(tmp_path / "dlt"))
    with serving_sample_arxiv() as world:
        pipe.run(arxiv_source(world=world, window=(date(2025, 1, 1), date(2025, 1, 31)),
                              now=datetime(2026, 10, 1, tzinfo=timezone.utc), recent_days=0, affiliations=lookup))
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        rows = con.sql("select maintainer_framework_ids, maintainer_signal from raw_arxiv.paper_features").fetchall()
        authors = con.sql("select authors from raw_arxiv.papers").fetchall()
    assert asked and len(rows) == len(set(asked))
    assert all("nemo_rl" in json.loads(ids) and "OpenAlex affiliation 'NVIDIA'" in sig for ids, sig in rows)
    assert not any("OpenAlex" in a for (a,) in authors)  # the papers table keeps arXiv's own authors
