"""Source health: load outcomes and open failures kept across runs, said by `rltrack status`, the
quarantine list, the headline and the pages; a failing source never stops the others in a refresh."""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone
from unittest import mock

import duckdb
import pytest

from orchestration import warehouse
from orchestration.analyst.quarantine import NOT_LOADED, quarantined
from orchestration.analyst.snapshot import describe
from orchestration.analyst.svg import step_chart
from orchestration.cli import main
from orchestration.source_health import (FAILURES_TABLE, STATUS_FILE, banner_lines, duckdb_runner, record_load,
                                         record_start, source_status, write_status_file)

DAY0 = datetime(2026, 3, 1, 4, tzinfo=timezone.utc)


@pytest.fixture(autouse=True)
def restore_environment():
    with mock.patch.dict(os.environ):
        yield


def at(day: int) -> None:
    os.environ["RLTRACK_NOW"] = (DAY0 + timedelta(days=day)).isoformat()


def test_failures_keep_first_and_last_time_and_resolve_when_read_again():
    con = duckdb.connect()
    run = duckdb_runner(con)
    at(0)
    record_load(run, "git_history", "r0", DAY0, {}, None, 10, 10)
    at(1)
    record_load(run, "git_history", "r1", DAY0, {"repository a/b": "unreachable"}, None, 10, 0)
    at(2)
    record_load(run, "git_history", "r2", DAY0, {"repository a/b": "still unreachable"}, None, 10, 0)
    (status,) = source_status(run, ["git_history"], freshness_hours=48)
    assert not status.last_load_complete and not status.stale  # day 0 was complete, 48 h ago
    (failure,) = status.open_failures
    assert (failure["reason"], failure["failures"]) == ("still unreachable", 2)
    assert failure["first_failed_at"].startswith("2026-03-02") and failure["last_failed_at"].startswith("2026-03-03")
    assert banner_lines([status]) == [f"git_history: not read since {failure['first_failed_at']}: repository a/b "
                                      "(still unreachable)"]
    at(3)
    assert source_status(run, ["git_history"], freshness_hours=48)[0].stale  # no complete load for 72 h
    record_load(run, "git_history", "r3", DAY0, {}, None, 12, 2)
    (status,) = source_status(run, ["git_history"], freshness_hours=48)
    assert status.healthy and status.rows == 12
    assert con.execute(f"select count(*) from {FAILURES_TABLE} where resolved_at is not null").fetchone() == (1,)


def test_a_load_of_some_frameworks_resolves_nothing_and_a_killed_load_shows_unfinished():
    con = duckdb.connect()
    run = duckdb_runner(con)
    at(0)
    record_load(run, "github", "r0", DAY0, {"listing a/b": "HTTP 502"}, None, 5, 5)
    record_load(run, "github", "r1", DAY0, {}, None, 5, 0, resolve=False)
    assert [f["item"] for f in source_status(run, ["github"])[0].open_failures] == ["listing a/b"]
    record_load(run, "arxiv", "r1", DAY0, {}, None, 7, 7)
    at(1)
    record_start(run, "arxiv", "r2", DAY0 + timedelta(days=1))  # the process died before record_load
    arxiv = source_status(run, ["arxiv"])[0]
    assert not arxiv.last_load_complete and "did not finish" in arxiv.error
    record_start(run, "arxiv", "r3", DAY0 + timedelta(days=1))  # retried at the same (replayed) time
    record_load(run, "arxiv", "r3", DAY0 + timedelta(days=1), {}, None, 7, 7)
    assert source_status(run, ["arxiv"])[0].healthy


def _published(tmp_path, failures: dict[str, str]) -> None:
    path = tmp_path / "warehouse.duckdb"
    con = duckdb.connect(str(path))
    con.execute("create schema marts")
    con.execute("create table marts.dim_frameworks as select date '2026-02-27' as last_commit_at")
    run = duckdb_runner(con)
    at(0)
    for source in ("arxiv", "git_history"):
        record_load(run, source, "r0", DAY0, {}, None, 3, 3)
    if failures:
        record_load(run, "arxiv", "r1", DAY0, failures, None, 3, 0)
    write_status_file(source_status(run, ["arxiv", "git_history"]), tmp_path / "published" / STATUS_FILE, "r0")
    con.close()
    warehouse.publish(path)


def test_status_headline_quarantine_and_pages_say_what_is_missing(tmp_path, capsys):
    _published(tmp_path, {"window 2025-03-01T00:00/2025-03-31T23:59": "not well-formed XML (query=...)"})
    assert main(["status", "--data-dir", str(tmp_path)]) == 1  # open failures, nothing stale yet
    out = capsys.readouterr().out
    assert "window 2025-03-01T00:00/2025-03-31T23:59" in out and "failing since 2026-03-01" in out
    os.environ["RLTRACK_NOW"] = (DAY0 + timedelta(days=5)).isoformat()
    con = warehouse.connect_read_only(warehouse.published_path(tmp_path / "warehouse.duckdb"))
    rows = quarantined(con, ["arxiv"])
    assert [(r[0], r[1], r[2]) for r in rows] == [("arxiv", "window 2025-03-01T00:00/2025-03-31T23:59", NOT_LOADED)]
    snapshot = describe(con)
    con.close()
    assert "observation end 2026-02-27" in snapshot.name and str(tmp_path) not in snapshot.name
    assert [line.split(":")[0] for line in snapshot.warnings] == ["arxiv", "git_history"]  # both stale by now
    assert "stale: last complete load 2026-03-01" in snapshot.warnings[0]
    assert "not read since 2026-03-01" in snapshot.warnings[0]


def test_status_without_failures_exits_zero_and_without_a_status_two(tmp_path, capsys):
    _published(tmp_path, {})
    os.environ["RLTRACK_FRESHNESS_HOURS"] = "48"
    assert main(["status", "--data-dir", str(tmp_path)]) == 0
    status = json.loads((tmp_path / "published" / STATUS_FILE).read_text())
    assert {s["source"] for s in status["sources"]} == {"arxiv", "git_history"}
    assert main(["status", "--data-dir", str(tmp_path / "elsewhere")]) == 2


def test_every_framework_of_the_registry_is_in_the_legend():
    names = [f"framework number {i}" for i in range(9)]
    svg = step_chart("c", "t", [(n, [(0.0, 0.0), (1.0, 1.0)], "#000") for n in names], x_max=1.0,
                     x_label="x", y_label="y")
    legend = svg.split("<g class='legend'>")[1].split("</g>")[0]
    assert all(f">{n}</text>" in legend for n in names)
    xs = [float(part.split("'")[1]) for part in legend.split("<text x=")[1:]]
    assert max(xs) < 900  # every name starts inside the 900-unit-wide chart


def test_a_refresh_whose_arxiv_month_is_unreadable_loads_builds_and_publishes_the_rest(tmp_path, monkeypatch, capsys):
    """The measured fault: one month's feed page cut short. Every other load runs, the marts are
    built and published, the month is listed as not loaded, and the refresh exits 1."""
    from contextlib import contextmanager

    import orchestration.world as world_module
    from worlds.sample.serve import serve_sample_world

    march = "submittedDate:[202503010000 TO 202503312359]"

    @contextmanager
    def faulty_sample(spec=None):
        with serve_sample_world(tmp_path / "sample_world", arxiv_faults={"cut_windows": (march,)}) as world, \
                world_module.serving(world):
            yield world

    monkeypatch.setattr(world_module, "using_world", faulty_sample)
    assert main(["refresh", "--sample", "--data-dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    verdict = next(line for line in out.splitlines() if line.startswith("refresh "))
    assert verdict.startswith("refresh ended with failed steps: rltrack_meta__source_status in "), verdict
    warning = next(line for line in out.splitlines() if line.startswith("WARNING "))
    assert warning.startswith("WARNING arxiv: stale: last complete load never; not read since "), warning
    assert "The snapshot built" in out
    con = warehouse.connect_read_only(warehouse.published_path(tmp_path / "warehouse.duckdb"))
    try:
        months = {m for (m,) in con.execute("select distinct strftime(published_at, '%Y-%m') from raw_arxiv.papers")
                  .fetchall()}
        assert "2025-02" in months and "2025-04" in months and "2025-03" not in months
        for table in ("raw_git.commits", "raw_github.issues", "marts.fct_method_adoptions"):
            assert con.execute(f"select count(*) from {table}").fetchone()[0] > 0, table
    finally:
        con.close()
    assert main(["status", "--data-dir", str(tmp_path)]) == 2  # arXiv never loaded completely: stale
    assert "arxiv: window 2025-03-01T00:00/2025-03-31T23:59: " in capsys.readouterr().out
    assert main(["quarantine", "--data-dir", str(tmp_path), "--source", "arxiv", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [r["item"] for r in listed if r["where"] == NOT_LOADED] == ["window 2025-03-01T00:00/2025-03-31T23:59"]
