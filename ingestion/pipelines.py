"""dlt pipelines: one per source, all loading into the same DuckDB warehouse file."""

from __future__ import annotations

from pathlib import Path

import dlt

from ingestion import config

# source name -> dataset (DuckDB schema) it lands in
DATASETS = {
    "arxiv": "raw_arxiv",
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
