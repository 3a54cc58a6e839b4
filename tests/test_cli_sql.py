"""`rltrack sql` and the shell: formats, read-only refusal, errors, piped statements."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from unittest import mock

import duckdb
import pytest

from orchestration import warehouse
from orchestration.analyst.sql import QueryResult, ReadOnlyRefused, Shell, format_result, run_query
from orchestration.cli import main
from tests.test_warehouse_publish import REPO_ROOT, cli_env


@pytest.fixture(autouse=True)
def restore_environment():
    """main() sets RLTRACK_* and DAGSTER_HOME for the process; undo that after each test."""
    with mock.patch.dict(os.environ):
        yield


@pytest.fixture()
def data_dir(tmp_path):
    wh = tmp_path / "warehouse.duckdb"
    con = duckdb.connect(str(wh))
    con.execute("create schema marts")
    con.execute("""create table marts.dim_papers as select * from (values
        ('2507.18071', 'Group Sequence Policy Optimization', date '2025-07-24', true),
        ('2503.20783', 'Understanding R1-Zero-Like Training: A Critical Perspective', date '2025-03-26', null)
        ) as t(arxiv_id, title, first_version_date, is_general_method)""")
    con.close()
    warehouse.publish(wh)
    return tmp_path


def sql(data_dir, capsys, *args):
    code = main(["sql", "--data-dir", str(data_dir), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_table_csv_and_json(data_dir, capsys):
    q = "select arxiv_id, first_version_date, is_general_method from marts.dim_papers order by arxiv_id"
    code, out, _ = sql(data_dir, capsys, q)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["arxiv_id", "first_version_date", "is_general_method"]
    assert lines[2].split() == ["2503.20783", "2025-03-26"]  # NULL prints empty
    assert lines[-1] == "(2 rows)"

    code, out, _ = sql(data_dir, capsys, "--format", "csv", q)
    assert list(csv.reader(io.StringIO(out))) == [
        ["arxiv_id", "first_version_date", "is_general_method"],
        ["2503.20783", "2025-03-26", ""], ["2507.18071", "2025-07-24", "True"]]

    code, out, _ = sql(data_dir, capsys, "--format", "json", q)
    assert json.loads(out) == [
        {"arxiv_id": "2503.20783", "first_version_date": "2025-03-26", "is_general_method": None},
        {"arxiv_id": "2507.18071", "first_version_date": "2025-07-24", "is_general_method": True}]


@pytest.mark.parametrize("statement", [
    "delete from marts.dim_papers",
    "insert into marts.dim_papers select * from marts.dim_papers",
    "create table marts.scratch (a int)",
    "drop table marts.dim_papers",
    "update marts.dim_papers set title = 'x'",
])
def test_writes_are_refused_with_a_clear_message(data_dir, capsys, statement):
    code, out, err = sql(data_dir, capsys, statement)
    assert code == 3 and out == ""
    assert "refused: the published warehouse is read-only" in err
    assert "rltrack refresh" in err
    code, out, _ = sql(data_dir, capsys, "--format", "csv", "select count(*) as n from marts.dim_papers")
    assert out.split() == ["n", "2"]  # nothing changed


def test_sql_errors_and_missing_snapshot(data_dir, tmp_path_factory, capsys):
    code, _, err = sql(data_dir, capsys, "select nope from marts.dim_papers")
    assert code == 1 and err.startswith("error:") and "nope" in err
    empty = tmp_path_factory.mktemp("empty")
    code, _, err = sql(empty, capsys, "select 1")
    assert code == 2 and "no published warehouse" in err and "rltrack refresh" in err


def test_temp_tables_are_allowed(data_dir):
    con = warehouse.connect_read_only(data_dir / "published" / "warehouse.duckdb")
    try:
        run_query(con, "create temp table t as select 1 as a")
        assert run_query(con, "select a from t").rows == [(1,)]
        with pytest.raises(ReadOnlyRefused):
            run_query(con, "create table marts.t2 as select 1 as a")
    finally:
        con.close()


def test_format_result_clips_long_cells_only_in_tables():
    result = QueryResult(["body"], [("line one\n" + "x" * 200,)])
    table = format_result(result, "table")
    assert "\\n" in table and "…" in table and max(map(len, table.splitlines())) <= 80
    assert json.loads(format_result(result, "json"))[0]["body"].endswith("x" * 200)
    assert format_result(QueryResult([], []), "table") == ""


def test_shell_reads_piped_statements(data_dir):
    script = (".tables\n"
              "select count(*) as papers\n  from marts.dim_papers;\n"
              "delete from marts.dim_papers;\n"
              ".format json\n"
              "select arxiv_id from marts.dim_papers where is_general_method;\n"
              ".bogus\n.quit\nselect 'never reached';\n")
    proc = subprocess.run([sys.executable, "-m", "orchestration.cli", "shell", "--data-dir", str(data_dir)],
                          input=script, cwd=REPO_ROOT, env=cli_env(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "dim_papers" in out and "marts" in out  # .tables
    assert "papers\n------\n2" in out  # multi-line statement
    assert "refused: the published warehouse is read-only" in out
    assert '"arxiv_id": "2507.18071"' in out  # .format json
    assert "unknown command '.bogus'" in out
    assert "never reached" not in out


def test_shell_in_process_describe():
    con = duckdb.connect(":memory:")
    con.execute("create table t (a int, b varchar)")
    out = io.StringIO()
    Shell(con, stdin=io.StringIO(".describe t\n"), stdout=out).loop()
    assert "column_name" in out.getvalue() and "varchar" in out.getvalue().lower()
