"""`rltrack quarantine`: every source's quarantined items in one listing; the run history's SQLite pragma."""

from __future__ import annotations

import json
import os
import sqlite3
from unittest import mock

import duckdb
import pytest
import sqlalchemy as sa
from sqlalchemy.pool import NullPool

from orchestration import warehouse
from orchestration.analyst.quarantine import QUARANTINE_TABLES
from orchestration.cli import main
from orchestration.instance import quick_run_history


@pytest.fixture(autouse=True)
def restore_environment():
    with mock.patch.dict(os.environ):
        yield


def _warehouse(path, with_tables: bool = True):
    """The six quarantine tables in the columns the sources write (dlt's own columns included)."""
    con = duckdb.connect(str(path))
    for schema in ("raw_arxiv", "raw_git", "raw_github", "raw_reports", "marts"):
        con.execute(f"create schema {schema}")
    if with_tables:
        con.execute("""create table raw_arxiv.papers_quarantine as select 'oai:arXiv.org:2501.00001' entry_key,
            'missing <published>' reason, '<entry/>' raw_xml, timestamp '2026-01-02 03:04:05' fetched_at,
            'l1' _dlt_load_id, 'i1' _dlt_id""")
        con.execute("""create table raw_git.git_quarantine as select 'roll' framework_id, 'alibaba/ROLL' repo,
            '35bea6a23ea2c0ffee' sha, 'data/big.jsonl' path, '4eea4ce3' object_id,
            'unreadable git object 4eea4ce3' reason, timestamptz '2026-01-02 03:04:05+00' noted_at,
            'l1' _dlt_load_id, 'i2' _dlt_id
            union all select 'skyrl', 'NovaSky-AI/SkyRL', '0f7641b50636aaaa', '', '', 'commit not mined',
            timestamptz '2026-01-02 03:04:05+00', 'l1', 'i3'""")
        con.execute("""create table raw_github.github_quarantine as select 'issues' resource, 'trl' framework_id,
            'huggingface/trl' repo, '3801' item_key, 'missing created_at' reason, '{}' raw_json,
            timestamptz '2026-01-02 03:04:05+00' fetched_at, 'l1' _dlt_load_id, 'i4' _dlt_id""")
        con.execute("""create table raw_github.thread_gaps as select 'trl' framework_id, 'huggingface/trl' repo,
            3900 number, 'pull_request' kind, 'reviews' part, 'HTTP 404' reason,
            timestamptz '2026-01-02 03:04:05+00' detected_at, 'open' state,
            timestamptz '2026-01-02 03:04:05+00' state_at, 'l1' _dlt_load_id, 'i9' _dlt_id
            union all select 'trl', 'huggingface/trl', 3901, 'pull_request', 'reviews', 'HTTP 404',
            timestamptz '2026-01-01 00:00:00+00', 'resolved', timestamptz '2026-01-02 00:00:00+00', 'l1', 'i10'""")
        con.execute("""create table raw_reports.reports_quarantine as select '2508.10925' arxiv_id,
            'gpt-oss-120b' model, 'no_text' problem, 'no HTML page (HTTP 404)' reason,
            timestamptz '2026-01-02 03:04:05+00' noted_at, null::timestamptz resolved_at, 'l1' _dlt_load_id,
            'i5' _dlt_id
            union all select '2505.09388', 'Qwen3', 'abstract_only', 'gone', timestamptz '2026-01-01 00:00:00+00',
            timestamptz '2026-01-02 00:00:00+00', 'l1', 'i6'""")
        con.execute("""create table raw_arxiv.paper_front_matter as select '2504.10187' arxiv_id,
            'fetch_failed' status, 'HTTP 503' problem, timestamptz '2026-01-02 03:04:05+00' fetched_at,
            'l1' _dlt_load_id, 'i7' _dlt_id
            union all select '2505.00001', 'no_html', 'HTTP 404', timestamptz '2026-01-02 03:04:05+00', 'l1', 'i8'""")
    con.close()
    warehouse.publish(path)


def test_every_source_is_listed_and_resolved_report_problems_are_not(tmp_path, capsys):
    _warehouse(tmp_path / "warehouse.duckdb")
    assert main(["quarantine", "--data-dir", str(tmp_path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["source"], r["item"], r["where"]) for r in rows] == [
        ("arxiv", "oai:arXiv.org:2501.00001", "arXiv"),
        ("git_history", "35bea6a23ea2 data/big.jsonl", "roll"),
        ("git_history", "0f7641b50636 (whole commit)", "skyrl"),
        ("github", "issues 3801", "huggingface/trl"),
        ("tech_reports", "2508.10925 no_text", "gpt-oss-120b"),
        ("github_thread_parts", "#3900 reviews", "huggingface/trl"),
        ("arxiv_front_matter", "2504.10187 fetch_failed", "arXiv HTML"),
    ]
    assert {r["source"] for r in rows} == set(QUARANTINE_TABLES)

    assert main(["quarantine", "--data-dir", str(tmp_path), "--source", "git_history"]) == 0
    out = capsys.readouterr().out
    assert "data/big.jsonl" in out and "arXiv" not in out
    assert out.rstrip().endswith("2 quarantined item(s): arxiv 0, git_history 2, github 0, tech_reports 0, "
                                 "github_thread_parts 0, arxiv_front_matter 0")


def test_a_warehouse_without_quarantine_tables_lists_nothing(tmp_path, capsys):
    _warehouse(tmp_path / "warehouse.duckdb", with_tables=False)
    assert main(["quarantine", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == ("0 quarantined item(s): arxiv 0, git_history 0, github 0, "
                                                 "tech_reports 0, github_thread_parts 0, arxiv_front_matter 0")


def test_run_history_under_dagster_home_is_written_without_fsync_and_other_sqlite_is_untouched(tmp_path):
    quick_run_history()
    home, elsewhere = tmp_path / "dagster_home", tmp_path / "other"
    (home / "history").mkdir(parents=True)
    elsewhere.mkdir()
    os.environ["DAGSTER_HOME"] = str(home)

    def synchronous(path) -> int:
        engine = sa.create_engine(f"sqlite:///{path}", poolclass=NullPool)
        with engine.connect() as conn:
            value = conn.execute(sa.text("pragma synchronous")).scalar()
        engine.dispose()
        return value

    assert synchronous(home / "history" / "x.db") == 0  # OFF
    assert synchronous(elsewhere / "y.db") == 2  # FULL, SQLite's default
    assert sqlite3.connect(str(home / "z.db")).execute("pragma synchronous").fetchone()[0] == 2  # not SQLAlchemy
