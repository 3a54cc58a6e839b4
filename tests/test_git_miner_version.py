"""A new miner version reaches a warehouse mined by an older one: on the next load every commit is
mined again, its rows carry the new version, and staging keeps only what the new version found
(on a repository these tests create, loaded by the git source, staged by dbt)."""

from __future__ import annotations

import subprocess

import duckdb

from ingestion.git import jobs, mining, rows
from ingestion.git.rows import miner_version
from orchestration.dbt_project import DBT_PROJECT_DIR, dbt_executable
from tests.test_git_history import FW, Repo, run


def _with_miner(monkeypatch, version: str, extra_token: str | None) -> None:
    """Pretend to be miner `version`, which also finds `extra_token` in every text it scans."""
    monkeypatch.setattr(rows, "miner_version", lambda: version)
    monkeypatch.setattr(jobs, "miner_version", lambda: version)
    real = mining.contextual_mentions

    def scan(text, path, location, file_added=False):
        found = real(text, path, location, file_added)
        if extra_token:
            found.add("token", extra_token, "code_name")
        return found

    monkeypatch.setattr(mining, "contextual_mentions", scan)


def _staged_mentions(tmp_path) -> set[tuple[str, str]]:
    warehouse = tmp_path / "w.duckdb"
    result = subprocess.run(
        [dbt_executable(), "run", "--select", "stg_git__commit_mentions", "stg_git__commits",
         "--project-dir", str(DBT_PROJECT_DIR), "--profiles-dir", str(DBT_PROJECT_DIR),
         "--target-path", str(tmp_path / "target"), "--log-path", str(tmp_path / "logs")],
        env={"PATH": "/usr/bin:/bin", "RLTRACK_WAREHOUSE": str(warehouse), "HOME": str(tmp_path)},
        capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:]
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        return set(con.sql("select sha, mention_value from staging.stg_git__commit_mentions").fetchall())
    finally:
        con.close()


def test_a_new_miner_version_mines_every_commit_again_and_staging_drops_the_old_rows(tmp_path, monkeypatch):
    r = Repo(tmp_path / "r")
    first = r.commit("feat: gspo", {"a.py": "loss_type = 'gspo'\n"})
    second = r.commit("feat: cispo", {"b.py": "loss_type = 'cispo'\n"})

    with monkeypatch.context() as m:
        _with_miner(m, "old", "stale_name")
        run(tmp_path, r)
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    assert {v for (v,) in con.sql("select distinct miner_version from raw_git.commits").fetchall()} == {"old"}
    con.close()

    run(tmp_path, r)  # the current miner: nothing new on the branch, yet every commit is mined again
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    assert con.sql("select sha, miner_version from raw_git.commits order by sha").fetchall() == sorted(
        [(first, miner_version()), (second, miner_version())])
    # the old version's extra rows stay in the raw table (a merge cannot know them), marked by their version
    stale = con.sql("select distinct miner_version from raw_git.commit_mentions where value = 'stale_name'")
    assert stale.fetchall() == [("old",)]
    con.close()

    staged = _staged_mentions(tmp_path)
    assert {v for _, v in staged} >= {"gspo", "cispo"}
    assert not any(v == "stale_name" for _, v in staged)

    def latest_load() -> str:
        con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
        try:
            return con.sql("select max(_dlt_load_id) from raw_git.commit_mentions").fetchall()[0][0]
        finally:
            con.close()

    before = latest_load()
    run(tmp_path, r)  # the same version again: nothing is mined
    assert latest_load() == before


def test_state_of_an_unversioned_load_is_mined_again(tmp_path):
    """A warehouse mined before versions were kept (its state has no miner version) is mined again once."""
    r = Repo(tmp_path / "r")
    r.commit("feat: gspo", {"a.py": "loss_type = 'gspo'\n"})
    job = jobs.MiningJob(FW, r.path, "main", r.git("rev-parse", "HEAD"),
                         {"sha": r.git("rev-parse", "HEAD"), "repo": "toy-org/toy"}, [])
    assert job.mined_by_another_miner
    current = jobs.MiningJob(FW, r.path, "main", job.head,
                             {**job.previous, "miner_version": miner_version()}, [])
    assert not current.mined_by_another_miner
    assert not jobs.MiningJob(FW, r.path, "main", job.head, {}, []).mined_by_another_miner

