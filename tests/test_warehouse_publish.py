"""Publishing the read-only snapshot: atomic swap, the previous copy kept, readers never blocked."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import pytest

from orchestration import warehouse

REPO_ROOT = Path(__file__).resolve().parents[1]


def make_warehouse(path: Path, value: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(path))
    con.execute("create schema if not exists marts")
    con.execute("create or replace table marts.snapshot_marker as select ? as version", [value])
    con.close()
    return path


def read_version(path: Path) -> str:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return con.execute("select version from marts.snapshot_marker").fetchone()[0]
    finally:
        con.close()


def cli_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("RLTRACK_")}


def cli_sql(data_dir: Path, query: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "orchestration.cli", "sql", "--data-dir", str(data_dir),
                           "--format", "csv", query],
                          cwd=REPO_ROOT, env=cli_env(), capture_output=True, text=True, timeout=60)


def test_publish_copies_checkpointed_file_and_keeps_previous(tmp_path):
    wh = make_warehouse(tmp_path / "warehouse.duckdb", "v1")
    target = warehouse.publish(wh)
    assert target == tmp_path / "published" / "warehouse.duckdb"
    assert read_version(target) == "v1"
    assert not warehouse.previous_path(wh).exists()

    make_warehouse(wh, "v2")
    warehouse.publish(wh)
    assert read_version(target) == "v2"
    assert read_version(warehouse.previous_path(wh)) == "v1"
    leftovers = [p.name for p in target.parent.iterdir() if p.name.endswith((".tmp", ".prev"))]
    assert leftovers == []


def test_reader_of_old_snapshot_keeps_reading_it(tmp_path):
    wh = make_warehouse(tmp_path / "warehouse.duckdb", "v1")
    target = warehouse.publish(wh)
    old_reader = duckdb.connect(str(target), read_only=True)
    try:
        make_warehouse(wh, "v2")
        warehouse.publish(wh)  # swaps the file under the open reader
        assert old_reader.execute("select version from marts.snapshot_marker").fetchone()[0] == "v1"
        # a new reader (another process, as an analyst would be) sees the new snapshot
        assert cli_sql(tmp_path, "select version from marts.snapshot_marker").stdout.split() == ["version", "v2"]
    finally:
        old_reader.close()


WRITER = textwrap.dedent("""
    import sys, duckdb
    from pathlib import Path
    from orchestration.warehouse import write_lock
    wh = Path(sys.argv[1])
    with write_lock(wh):
        con = duckdb.connect(str(wh))
        con.execute("update marts.snapshot_marker set version = 'v2'")
        print("writing", flush=True)
        sys.stdin.readline()  # a long refresh step: runs until the test says so
        con.close()
""")


def test_query_during_a_running_refresh_reads_previous_snapshot(tmp_path, monkeypatch):
    wh = make_warehouse(tmp_path / "warehouse.duckdb", "v1")
    warehouse.publish(wh)
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(wh)], cwd=REPO_ROOT, env=cli_env(),
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline().strip() == "writing"
        started = time.monotonic()
        during = cli_sql(tmp_path, "select version from marts.snapshot_marker")
        assert during.returncode == 0, during.stderr
        assert during.stdout.split() == ["version", "v1"]
        assert time.monotonic() - started < 30  # answered, not queued behind the writer
        monkeypatch.setenv("RLTRACK_LOCK_TIMEOUT_S", "0.3")  # publishing waits for the writer
        with pytest.raises(warehouse.WarehouseBusy, match="being written by another refresh"):
            warehouse.publish(wh)
        monkeypatch.delenv("RLTRACK_LOCK_TIMEOUT_S")
    finally:
        writer.stdin.write("\n")
        writer.stdin.flush()
        writer.wait(timeout=30)
    assert writer.returncode == 0
    warehouse.publish(wh)  # the refresh's last step
    assert cli_sql(tmp_path, "select version from marts.snapshot_marker").stdout.split() == ["version", "v2"]


def test_connect_read_only_refuses_writes_and_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="rltrack refresh"):
        warehouse.connect_read_only(tmp_path / "published" / "warehouse.duckdb")
    wh = make_warehouse(tmp_path / "warehouse.duckdb", "v1")
    con = warehouse.connect_read_only(warehouse.publish(wh))
    try:
        with pytest.raises(duckdb.Error, match="read-only"):
            con.execute("delete from marts.snapshot_marker")
    finally:
        con.close()


def test_refresh_refuses_a_file_that_is_not_duckdb(tmp_path):
    """A garbage warehouse file gets a plain message naming it, and is left untouched."""
    import subprocess
    import sys

    garbage = tmp_path / "warehouse.duckdb"
    garbage.write_bytes(b"this is not a database" * 100)
    before = garbage.read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "orchestration.cli", "refresh", "--sample", "--data-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 2
    assert f"{garbage} is not a DuckDB database" in result.stderr
    assert "Traceback" not in result.stderr
    assert garbage.read_bytes() == before
