"""Worlds: a recorded world on disk replayed by `rltrack refresh --world DIR` end to end, a world of
bare mirrors, and the recorded-world servers in GitHub's and arXiv's shapes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import dlt
import duckdb
import pytest
import requests

from ingestion.arxiv.source import arxiv_source
from ingestion.git.source import git_history_source
from ingestion.world import World
from worlds.recorded import WorldFolderError, papers_from_atom, recorded_papers, serve_recorded_world

REPO_ROOT = Path(__file__).resolve().parents[1]
TINY = REPO_ROOT / "tests" / "worlds" / "tiny"


def count(con: duckdb.DuckDBPyConnection, table: str) -> int:
    return con.execute(f"select count(*) from {table}").fetchone()[0]


def test_refresh_replays_the_tiny_recorded_world(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RLTRACK_", "DAGSTER_"))}
    env["PYTHONPATH"] = str(REPO_ROOT)
    result = subprocess.run([sys.executable, "-m", "orchestration.cli", "refresh", "--world", str(TINY),
                             "--data-dir", str(tmp_path)], env=env, cwd=REPO_ROOT, capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert "Screened arXiv papers (Jan 2025 - Jun 2026)" in result.stdout
    with duckdb.connect(str(tmp_path / "published" / "warehouse.duckdb"), read_only=True) as con:
        assert count(con, "raw_arxiv.papers") == 4  # two from an Atom page, two from JSON lines
        assert count(con, "raw_github.issues") == 2 and count(con, "raw_github.pull_requests") == 1
        assert count(con, "raw_github.comments") == 2
        assert dict(con.execute("select framework_id, count(*) from raw_git.commits group by 1").fetchall()) == {
            "trl": 4, "verl": 3}
        assert con.execute("select method_name from raw_reports.report_mentions order by 1").fetchall() == [
            ("GRPO",), ("GSPO",)]
        assert con.execute("select framework_id, arxiv_id from marts.fct_method_adoptions order by 1, 2").fetchall() == [
            ("trl", "2503.20783"), ("trl", "2507.18071"), ("verl", "2503.14476")]
        # the general-method papers' arXiv HTML: one recorded page (reports/html/<id>.html), the rest 404
        front = dict(con.execute("select arxiv_id, status from raw_arxiv.paper_front_matter").fetchall())
        assert front["2507.18071"] == "read" and set(front.values()) <= {"read", "no_html"}
        assert con.execute("select releases_code, has_front_matter from marts.dim_papers where arxiv_id = '2507.18071'"
                           ).fetchone() == (True, True)
    # the bundles were cloned under the data folder, not written to
    assert (tmp_path / "worlds" / "tiny" / "repos" / "trl" / "HEAD").exists()


def _bare_mirror(path: Path) -> Path:
    """A bare repository standing in for a mirror of a framework (two commits, one naming a paper)."""
    work = path.with_name("work")
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    for i, line in enumerate(["x = 1", "loss_type = 'dr_grpo'  # arXiv:2503.20783"]):
        (work / "loss.py").write_text(line + "\n")
        subprocess.run(["git", "-C", str(work), "add", "-A"], check=True)
        subprocess.run(["git", "-C", str(work), "-c", "user.name=A", "-c", "user.email=a@example.org", "commit",
                        "-q", "-m", f"c{i}"], check=True, env={**os.environ, "GIT_AUTHOR_DATE": f"2025-03-0{i + 1}T00:00Z",
                                                              "GIT_COMMITTER_DATE": f"2025-03-0{i + 1}T00:00Z"})
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(path)], check=True)
    return path


def _pipeline(tmp: Path, name: str, dataset: str) -> dlt.Pipeline:
    return dlt.pipeline(pipeline_name=name, destination=dlt.destinations.duckdb(str(tmp / "w.duckdb")),
                        dataset_name=dataset, pipelines_dir=str(tmp / "dlt"))


def test_a_world_of_bare_mirrors_and_no_papers_loads_and_leaves_the_mirror_alone(tmp_path):
    mirror = _bare_mirror(tmp_path / "mirror" / "repo")
    refs_before = sorted(p.name for p in (mirror / "refs").rglob("*") if p.is_file())
    world_dir = tmp_path / "world"
    (world_dir / "arxiv").mkdir(parents=True)  # an empty paper set
    (world_dir / "world.json").write_text(json.dumps({"frameworks": ["trl"], "repos": {"trl": str(mirror)}}))
    with serve_recorded_world(world_dir, tmp_path / "data") as world:
        assert world.framework_ids == ("trl",)
        _pipeline(tmp_path, "git", "raw_git").run(git_history_source(world=world))
        _pipeline(tmp_path, "arxiv", "raw_arxiv").run(arxiv_source(world=world))
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        assert count(con, "raw_git.commits") == 2
        assert con.execute("select value from raw_git.commit_mentions where kind = 'arxiv_id'").fetchall() == [
            ("2503.20783",)]
        assert "papers" not in {r[0] for r in con.execute(
            "select table_name from information_schema.tables where table_schema = 'raw_arxiv'").fetchall()} or \
            count(con, "raw_arxiv.papers") == 0
    assert sorted(p.name for p in (mirror / "refs").rglob("*") if p.is_file()) == refs_before  # only read


def test_recorded_github_pages_like_github(tmp_path):
    repo = tmp_path / "w" / "github" / "o" / "r"
    (repo / "issues").mkdir(parents=True)
    items = [{"number": n, "id": n, "state": "open" if n % 2 else "closed", "title": f"t{n}",
              "created_at": f"2025-01-0{n}T00:00:00Z", "updated_at": f"2025-02-0{n}T00:00:00Z"} for n in range(1, 6)]
    (repo / "issues.json").write_text(json.dumps(items))
    (repo / "pulls").mkdir()
    (repo / "pulls" / "3.json").write_text(json.dumps({"number": 3, "merged_at": None}))
    with serve_recorded_world(tmp_path / "w", tmp_path / "data") as world:
        base = world.github_api
        first = requests.get(f"{base}/repos/o/r/issues", params={"state": "all", "sort": "updated",
                                                                  "direction": "asc", "per_page": 2}, timeout=5)
        assert [i["number"] for i in first.json()] == [1, 2] and 'rel="next"' in first.headers["Link"]
        since = requests.get(f"{base}/repos/o/r/issues", params={"state": "all", "since": "2025-02-04T00:00:00Z"},
                             timeout=5)
        assert sorted(i["number"] for i in since.json()) == [4, 5]
        assert [i["number"] for i in requests.get(f"{base}/repos/o/r/issues", timeout=5).json()] == [5, 3, 1]
        assert requests.get(f"{base}/repos/o/r/issues/comments", timeout=5).json() == []  # nothing recorded
        assert requests.get(f"{base}/repos/o/r/pulls/3", timeout=5).json()["number"] == 3
        assert requests.get(f"{base}/repos/o/r/pulls/4", timeout=5).status_code == 404
        assert requests.get(f"{base}/repos/o/other/issues", timeout=5).status_code == 404
        assert world.framework_ids == ()  # o/r is no registered framework


def test_recorded_papers_read_atom_pages_and_json_lines():
    atom = papers_from_atom(TINY / "arxiv" / "page-2025-03.xml")
    assert [(p.arxiv_id, p.versions, p.primary_category) for p in atom] == [
        ("2503.14476", 2, "cs.LG"), ("2503.20783", 1, "cs.LG")]
    assert atom[0].authors[0] == ("Qiying Yu", "ByteDance Seed")
    assert [p.arxiv_id for p in recorded_papers(TINY / "arxiv")] == [
        "2502.09999", "2503.14476", "2503.20783", "2507.18071"]


def test_bad_world_folders_fail_clearly(tmp_path):
    with pytest.raises(WorldFolderError, match="no such world folder"):
        with serve_recorded_world(tmp_path / "missing", tmp_path / "data"):
            pass
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "world.json").write_text(json.dumps({"githb_api": "x"}))
    with pytest.raises(WorldFolderError, match="unknown world keys"):
        with serve_recorded_world(tmp_path / "w", tmp_path / "data"):
            pass
    (tmp_path / "w" / "world.json").write_text(json.dumps({"repos": {"trl": "nowhere"}}))
    with pytest.raises(WorldFolderError, match="repository for 'trl' not found"):
        with serve_recorded_world(tmp_path / "w", tmp_path / "data"):
            pass


def test_live_world_takes_the_environment_overrides(monkeypatch, tmp_path):
    monkeypatch.setenv("RLTRACK_ARXIV_API", "http://mirror.example/api/query")
    monkeypatch.setenv("RLTRACK_GITHUB_API", "https://ghe.example/api/v3/")
    monkeypatch.setenv("RLTRACK_GIT_REPO_VERL", str(tmp_path))
    monkeypatch.setenv("RLTRACK_DATA_DIR", str(tmp_path))
    world = World.live()
    assert (world.arxiv_api, world.github_api) == ("http://mirror.example/api/query", "https://ghe.example/api/v3")
    assert world.repository("verl") == str(tmp_path) and world.repository("trl") is None
    assert world.repos_dir == tmp_path / "repos" and world.arxiv_politeness.min_interval_s == 3.0
    assert World.from_dict(json.loads(world.to_json())) == world
