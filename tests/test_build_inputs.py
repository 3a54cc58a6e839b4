"""The digest of what the dbt build reads: it moves with any raw value or project file, and only then."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import duckdb
import pytest

from ingestion import config
from orchestration.build_inputs import (
    OBSERVED_AT,
    built_digest,
    inputs_digest,
    project_digest,
    raw_digest,
    store_digest,
)


@pytest.fixture()
def con():
    con = duckdb.connect()
    con.execute("create schema raw_github")
    con.execute("""create table raw_github.issues as select * from (values
        (1, 'Support GSPO', timestamptz '2026-01-01 00:00:00+00', 'load1', 'id1'),
        (2, 'DAPO clip-higher', timestamptz '2026-01-01 00:00:00+00', 'load1', 'id2'))
        t(number, title, fetched_at, _dlt_load_id, _dlt_id)""")
    con.execute("create table raw_github._dlt_loads as select 'load1' load_id")
    yield con
    con.close()


def test_rows_merged_again_unchanged_keep_the_digest(con):
    before = raw_digest(con)
    # a later load merges the same rows again: new dlt ids, a new time they were seen, other order
    con.execute("create or replace table raw_github.issues as select number, title, now() fetched_at, "
                "'load2' _dlt_load_id, 'x' || number _dlt_id from raw_github.issues order by number desc")
    con.execute("insert into raw_github._dlt_loads values ('load2')")
    assert raw_digest(con) == before


@pytest.mark.parametrize("change", [
    "update raw_github.issues set title = 'Support GSPO (2507.18071)' where number = 1",
    "insert into raw_github.issues values (3, 'RLOO', now(), 'load2', 'id3')",
    "delete from raw_github.issues where number = 2",
    "insert into raw_github.issues select * from raw_github.issues where number = 1",  # a duplicate row
    "create table raw_github.comments as select 1 as id",
    "alter table raw_github.issues add column state varchar",
])
def test_any_change_a_model_could_see_moves_the_digest(con, change):
    before = raw_digest(con)
    con.execute(change)
    assert raw_digest(con) != before


def test_tables_outside_the_raw_schemas_do_not_count(con):
    before = raw_digest(con)
    con.execute("create schema marts")
    con.execute("create table marts.dim_papers as select 1 as x")
    con.execute("create schema raw_github_staging")  # dlt's staging copy
    con.execute("create table raw_github_staging.issues as select 1 as number")
    assert raw_digest(con) == before


def test_project_digest_follows_project_files_not_dbt_output(tmp_path):
    project = tmp_path / "dbt_project"
    (project / "models").mkdir(parents=True)
    (project / "models" / "m.sql").write_text("select 1 as x")
    (project / "dbt_project.yml").write_text("name: p\n")
    before = project_digest(project)
    (project / "target").mkdir()
    (project / "target" / "manifest.json").write_text("{}")
    (project / "logs").mkdir()
    (project / "logs" / "dbt.log").write_text("...")
    assert project_digest(project) == before
    (project / "models" / "m.sql").write_text("select 2 as x")
    assert project_digest(project) != before
    (project / "models" / "m.sql").write_text("select 1 as x")
    (project / "models" / "n.sql").write_text("select 1 as x")
    assert project_digest(project) != before


def test_digest_is_kept_with_the_build_and_read_back_from_a_copy(tmp_path, con):
    path = tmp_path / "warehouse.duckdb"
    assert built_digest(path) is None  # no file yet
    duckdb.connect(str(path)).close()
    assert built_digest(path) is None  # built before digests were kept
    digest = inputs_digest(con, config.dbt_project_dir())
    with duckdb.connect(str(path)) as w:
        store_digest(w, "old")
        store_digest(w, digest)
    shutil.copy(path, tmp_path / "published.duckdb")
    assert built_digest(tmp_path / "published.duckdb") == digest


def test_no_model_reads_the_columns_the_digest_leaves_out():
    """OBSERVED_AT (when a source last saw a row) may be left out only while no model reads it."""
    models = Path(config.dbt_project_dir()) / "models"
    for path in models.rglob("*.sql"):
        for column in OBSERVED_AT:
            assert not re.search(rf"\b{column}\b", path.read_text()), f"{path.name} reads {column}"
