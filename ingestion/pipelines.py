"""dlt pipelines: one per source, all loading into the same DuckDB warehouse file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import dlt
import yaml
from dlt.extract.source import DltSource

from ingestion import config

# source name -> dataset (DuckDB schema) it lands in
DATASETS = {
    "arxiv": "raw_arxiv",
    "arxiv_front_matter": "raw_arxiv",  # its own pipeline (and dlt state), beside the arXiv API's tables
    "git_history": "raw_git",
    "github": "raw_github",
    "tech_reports": "raw_reports",
}


def make_pipeline(
    name: str,
    dataset: str | None = None,
    warehouse: Path | None = None,
    pipelines_dir: Path | None = None,
) -> dlt.Pipeline:
    warehouse = warehouse or config.warehouse_path()
    warehouse.parent.mkdir(parents=True, exist_ok=True)
    pipelines_dir = pipelines_dir or config.data_dir() / "dlt_pipelines"
    return dlt.pipeline(
        pipeline_name=f"rltrack_{name}",
        # jsonl load files: memory stays flat with row count (insert_values grew to GBs at 100k papers)
        destination=dlt.destinations.duckdb(str(warehouse), preferred_loader_file_format="jsonl"),
        dataset_name=dataset or DATASETS[name],
        pipelines_dir=str(pipelines_dir),
    )


DBT_SOURCES = config.REPO_ROOT / "dbt_project" / "models" / "staging" / "_sources.yml"
# dlt data types -> DuckDB column types, for tables created before any row arrived
_DUCKDB_TYPES = {"text": "VARCHAR", "bigint": "BIGINT", "double": "DOUBLE", "bool": "BOOLEAN",
                 "timestamp": "TIMESTAMP WITH TIME ZONE", "date": "DATE", "json": "JSON",
                 "decimal": "DECIMAL(38, 9)", "time": "TIME", "binary": "BLOB", "wei": "DECIMAL(38, 0)"}


def _duckdb_type(column: dict) -> str:
    if column["data_type"] == "timestamp" and column.get("timezone") is False:
        return "TIMESTAMP"
    return _DUCKDB_TYPES.get(column["data_type"], "VARCHAR")


def duckdb_columns(columns: dict[str, dict]) -> list[str]:
    """`"name" TYPE` for each declared dlt column with a type (dlt's own columns left out)."""
    return [f'"{name}" {_duckdb_type(col)}' for name, col in columns.items()
            if col.get("data_type") and not name.startswith("_dlt_")]


def declared_tables(dataset: str) -> list[str]:
    """The tables of `dataset` that dbt's sources declare (what staging reads)."""
    sources = yaml.safe_load(DBT_SOURCES.read_text(encoding="utf-8"))["sources"]
    return [t["name"] for s in sources if s.get("schema", s["name"]) == dataset for t in s.get("tables", [])]


def create_declared_tables(pipeline: dlt.Pipeline, source: DltSource, siblings: Sequence[DltSource] = ()) -> list[str]:
    """Create, empty, every table dbt declares for the pipeline's dataset that no load has created
    yet (a source that yielded no rows: every report page a 404, a repository with no commits),
    with the columns its resource declares plus dlt's own. dlt only creates a table when rows
    arrive, and adds any column it lacks to an existing table, so later loads go on as usual.
    siblings: the other sources that load into the same dataset (raw_arxiv has two: the arXiv API's
    and the HTML front matter's), whose resources give the columns of their tables.
    Returns the tables created."""
    dataset = pipeline.dataset_name
    created = []
    with pipeline.sql_client() as client:
        if not client.has_dataset():
            client.create_dataset()
        existing = {r[0] for r in client.execute_sql(
            "select table_name from information_schema.tables where table_schema = ?", dataset)}
        for table in declared_tables(dataset):
            if table in existing:
                continue
            resource = next((s.resources[table] for s in (source, *siblings) if table in s.resources), None)
            hints = resource.compute_table_schema().get("columns", {}) if resource is not None else {}
            columns = duckdb_columns(hints)
            columns += ['"_dlt_load_id" VARCHAR NOT NULL', '"_dlt_id" VARCHAR NOT NULL']
            client.execute_sql(f"create table {client.make_qualified_table_name(table)} ({', '.join(columns)})")
            created.append(table)
    return created
