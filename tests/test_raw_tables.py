"""Every raw table dbt's sources declare exists after any successful load, rows or not, with the
columns staging reads: each source is loaded once with nothing to load, then every staging model
over it runs (rendered from its SQL) against the warehouse."""

from __future__ import annotations

import csv
from datetime import date, datetime, timezone
from pathlib import Path

import dlt
import duckdb
import jinja2
import pytest

from ingestion import config
from ingestion.reports import source as tech_reports
from ingestion.arxiv.source import arxiv_source
from ingestion.git.source import git_history_source
from ingestion.github.source import GitHubClient, github_source
from ingestion.pipelines import create_declared_tables, declared_tables
from orchestration.assets.raw import sibling_sources
from ingestion.reports.source import tech_reports_source
from ingestion.world import World
from tests.test_git_history import Repo
from tests.test_tech_reports_faults import FakeArxivWeb
from worlds.loopback import serve_on_loopback
from worlds.sample.fake_github import running_fake_github
from worlds.sample.serve import sample_world, serving_sample_arxiv

STAGING = config.REPO_ROOT / "dbt_project" / "models" / "staging"


def staging_sql(dataset: str) -> dict[str, str]:
    """Each staging model that reads `dataset`, rendered as plain SQL (sources as schema.table)."""
    env = jinja2.Environment()
    env.globals.update(source=lambda schema, table: f"{schema}.{table}",
                       utc_timestamp=lambda column: f"cast({column} as timestamptz)", config=lambda **_: "",
                       column_names=lambda relation: [])  # as dbt parses: no columns known
    macros = (config.REPO_ROOT / "dbt_project" / "macros" / "latest_row.sql").read_text(encoding="utf-8")
    out = {}
    for path in sorted(STAGING.glob("stg_*.sql")):
        sql = path.read_text(encoding="utf-8")
        if f"source('{dataset}'" in sql:
            out[path.stem] = env.from_string(macros + sql).render()
    return out


def load_nothing_then_check(tmp_path: Path, name: str, dataset: str, source) -> None:
    pipe = dlt.pipeline(pipeline_name=f"empty_{name}", dataset_name=dataset,
                        destination=dlt.destinations.duckdb(str(tmp_path / "w.duckdb")),
                        pipelines_dir=str(tmp_path / "dlt"))
    pipe.run(source)
    create_declared_tables(pipe, source, sibling_sources(name))
    assert create_declared_tables(pipe, source, sibling_sources(name)) == []  # idempotent
    models = staging_sql(dataset)
    assert models and declared_tables(dataset)
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        present = {r[0] for r in con.sql("select table_name from information_schema.tables "
                                         f"where table_schema = '{dataset}'").fetchall()}
        assert set(declared_tables(dataset)) <= present
        for model, sql in models.items():
            con.sql(sql).fetchall()  # every column staging reads exists (raises otherwise)


def test_arxiv_window_without_papers(tmp_path: Path) -> None:
    with serving_sample_arxiv() as world:
        source = arxiv_source(world=world, window=(date(2019, 1, 1), date(2019, 1, 31)),
                              now=datetime(2019, 6, 1, tzinfo=timezone.utc))
        load_nothing_then_check(tmp_path, "arxiv", "raw_arxiv", source)


def test_front_matter_without_papers(tmp_path: Path) -> None:
    """raw_arxiv has two sources: either one's load creates the other's declared tables with their columns."""
    from ingestion.arxiv.front_matter import arxiv_front_matter_source

    source = arxiv_front_matter_source(world=World.loopback("empty", arxiv_web="http://127.0.0.1:9"), arxiv_ids=[])
    load_nothing_then_check(tmp_path, "arxiv_front_matter", "raw_arxiv", source)


def test_git_repository_without_commits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fw = config.Framework("toy", "Toy", "toy-org/toy", (), "main", ("Toy",), ("toy.dev",), ("docs/",), True)
    repo = Repo(tmp_path / "r")
    monkeypatch.setenv("RLTRACK_GIT_REPO_TOY", str(repo.path))
    load_nothing_then_check(tmp_path, "git", "raw_git", git_history_source(world=World.live(), frameworks=[fw]))
    # the first commit then loads into the tables created empty, as into tables dlt made
    repo.commit("feat: gspo", {"a.py": "loss = 'gspo'\n"})
    pipe = dlt.pipeline(pipeline_name="empty_git", dataset_name="raw_git", pipelines_dir=str(tmp_path / "dlt"),
                        destination=dlt.destinations.duckdb(str(tmp_path / "w.duckdb")))
    for _ in range(2):
        pipe.run(git_history_source(world=World.live(), frameworks=[fw]))
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        assert con.sql("select count(*) from raw_git.commits").fetchall() == [(1,)]
        assert con.sql("select location from raw_git.commit_mentions where value = 'gspo' order by 1").fetchall() == [
            ("added_line",), ("message",)]


def test_github_repository_without_threads(tmp_path: Path) -> None:
    trl = next(f for f in config.frameworks() if f.framework_id == "trl")
    with running_fake_github({trl.repo: []}, {}) as (base, _):
        client = GitHubClient(base, min_interval_s=0.0)
        load_nothing_then_check(tmp_path, "github", "raw_github",
                                github_source(world=sample_world(github_api=base), client=client, frameworks=["trl"]))


def test_tech_reports_whose_pages_are_all_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = tmp_path / "tech_reports.csv"
    with seed.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["model", "arxiv_id", "params_total_b", "params_active_b", "released_at"],
                                  ["Gone", "2501.12948", "100", "10", "2025-05-01"]])
    monkeypatch.setattr(tech_reports, "REPORTS_SEED", seed)
    fake = FakeArxivWeb()  # every page a 404
    with serve_on_loopback(fake.handler(), "fake-arxiv-404") as base_url:
        load_nothing_then_check(tmp_path, "reports", "raw_reports",
                                tech_reports_source(world=World.loopback("404", arxiv_web=base_url)))
    assert fake.requests  # the pages were asked for
