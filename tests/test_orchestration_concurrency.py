"""DuckDB's single writer: concurrent refreshes of one warehouse queue on the write lock, a refresh
that cannot get it in time stops with a clear message, and the file stays whole and readable."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import yaml

from orchestration.instance import INSTANCE_YAML, prepare_dagster_home
from orchestration.warehouse import write_lock

REPO_ROOT = Path(__file__).resolve().parents[1]
TABLES = ["raw_arxiv.papers", "raw_arxiv.paper_features", "raw_reports.reports", "raw_reports.report_mentions"]

# One refresh of the arXiv and technical-report sources (and their checks), run in its own process
# through the Dagster job machinery: the same locked write path as the dlt steps of `refresh`.
WORKER = """
import json, sys
import dagster as dg
from orchestration.definitions import defs
keys = [k for k in defs.resolve_asset_graph().get_all_asset_keys() if k.path[0] in ("raw_arxiv", "raw_reports")]
result = defs.resolve_implicit_global_asset_job_def().execute_in_process(
    asset_selection=keys, instance=dg.DagsterInstance.ephemeral(), raise_on_error=False)
errors = [e.step_failure_data.error.to_string() for e in result.all_events if e.is_step_failure]
print("RESULT " + json.dumps({"success": result.success, "errors": errors}))
"""


def start_worker(data_dir: Path, lock_timeout_s: float) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RLTRACK_")}
    env.update(RLTRACK_DATA_DIR=str(data_dir), RLTRACK_MODE="sample",
               RLTRACK_LOCK_TIMEOUT_S=str(lock_timeout_s), PYTHONPATH=str(REPO_ROOT))
    return subprocess.Popen([sys.executable, "-c", WORKER], cwd=REPO_ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def outcome(proc: subprocess.Popen) -> dict:
    out, _ = proc.communicate(timeout=600)
    line = next((l for l in out.splitlines() if l.startswith("RESULT ")), None)
    assert line, out[-4000:]
    return json.loads(line.removeprefix("RESULT "))


def counts(path: Path) -> dict[str, int]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {t: con.execute(f"select count(*) from {t}").fetchone()[0] for t in TABLES}
    finally:
        con.close()


def test_concurrent_refreshes_queue_or_refuse_and_never_corrupt(tmp_path, sample_refresh):
    expected = counts(sample_refresh[0] / "published" / "warehouse.duckdb")
    warehouse = tmp_path / "warehouse.duckdb"
    with write_lock(warehouse):  # a refresh already writing
        waiting = [start_worker(tmp_path, lock_timeout_s=600) for _ in range(2)]
        impatient = start_worker(tmp_path, lock_timeout_s=2)
        refused = outcome(impatient)
        time.sleep(1)
        ended = [p.communicate()[0][-3000:] for p in waiting if p.poll() is not None]
        assert not ended, f"the patient refreshes should wait for the lock; ended: {ended}"
    assert not refused["success"]
    assert any("is being written by another refresh" in e for e in refused["errors"]), refused["errors"]

    results = [outcome(p) for p in waiting]  # released: they now take the lock one after the other
    assert all(r["success"] for r in results), results
    assert counts(warehouse) == expected  # merge loads, twice: same rows, file intact and readable


def test_loading_the_definitions_leaves_a_running_load_alone(tmp_path):
    """A dlt pipeline made over a folder without saved state wipes it; loading the definitions (a new
    run, the webserver reloading code) must not do that to the folder a first load is writing."""
    in_flight = tmp_path / "dlt_pipelines" / "rltrack_arxiv" / "load" / "new" / "package.jsonl"
    in_flight.parent.mkdir(parents=True)
    in_flight.write_text('{"arxiv_id": "2503.14476"}\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("RLTRACK_")}
    env.update(RLTRACK_DATA_DIR=str(tmp_path), RLTRACK_MODE="sample", PYTHONPATH=str(REPO_ROOT))
    done = subprocess.run([sys.executable, "-c", "import orchestration.definitions"], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert in_flight.read_text() == '{"arxiv_id": "2503.14476"}\n'


def test_processes_loading_the_definitions_at_once_parse_the_dbt_project_once(tmp_path):
    """Webserver, daemon and runs may start together after a model changed: one `dbt parse`, and
    nobody reads a half-written manifest."""
    project = tmp_path / "dbt_project"
    shutil.copytree(REPO_ROOT / "dbt_project", project, ignore=shutil.ignore_patterns("target", "logs"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("RLTRACK_")}
    env.update(RLTRACK_DBT_PROJECT_DIR=str(project), RLTRACK_DATA_DIR=str(tmp_path / "data"),
               PYTHONPATH=str(REPO_ROOT))
    probe = ("import json; from orchestration.dbt_project import MANIFEST_PATH, parse_manifest; "
             "parsed = parse_manifest(); nodes = len(json.loads(MANIFEST_PATH.read_text())['nodes']); "
             "print('RESULT', parsed, nodes)")
    procs = [subprocess.Popen([sys.executable, "-c", probe], cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) for _ in range(3)]
    outputs = [p.communicate(timeout=300)[0] for p in procs]
    results = [next((line.split()[1:] for line in out.splitlines() if line.startswith("RESULT")), out[-2000:])
               for out in outputs]
    assert all(isinstance(r, list) for r in results), results
    assert sorted(parsed for parsed, _ in results) == ["False", "False", "True"]
    assert len({nodes for _, nodes in results}) == 1 and int(results[0][1]) > 100


def test_dagster_instance_limits_writers_to_one_at_a_time(tmp_path):
    config = yaml.safe_load(INSTANCE_YAML.read_text())
    assert config["concurrency"]["pools"]["default_limit"] == 1
    limits = config["concurrency"]["runs"]["tag_concurrency_limits"]
    assert {"key": "rltrack/warehouse", "value": "writer", "limit": 1} in limits
    home = prepare_dagster_home(tmp_path / "home")
    env = {**os.environ, "DAGSTER_HOME": str(home)}
    probe = ("from dagster import DagsterInstance; c = DagsterInstance.get().get_concurrency_config(); "
             "print(c.pool_config.default_pool_limit, c.run_queue_config.tag_concurrency_limits)")
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120)
    assert out.stdout.startswith("1 "), out.stderr[-2000:]
    assert "rltrack/warehouse" in out.stdout
