"""`rltrack frameworks add | list | remove`: a registry the user extends, kept in the data dir, read by
every source and by dbt. End to end: a framework outside the default registry (a generated git
repository whose default branch is not `main`, with a GitHub thread) is added, and the next refresh
mines its history and threads; lookup, site, report and the marts include it."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from ingestion import config
from orchestration import registry

REPO_ROOT = Path(__file__).resolve().parents[1]
TINY = REPO_ROOT / "tests" / "worlds" / "tiny"

HISTORY = [  # (date, message, files) of the new framework, on its default branch `trunk`
    ("2025-01-10", "init", {"tinyrl/__init__.py": "", "README.md": "# TinyRL\n"}),
    ("2025-08-02", "feat: sequence-level loss", {"tinyrl/losses.py": (
        'def loss(cfg):\n    """Sequence-level ratios (https://arxiv.org/abs/2507.18071)."""\n'
        '    if cfg.loss_type == "gspo":\n        return 1\n')}),
]


def _cli(*args: str, data_dir: Path, env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RLTRACK_", "DAGSTER_"))}
    env.update(PYTHONPATH=str(REPO_ROOT), **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "orchestration.cli", *args, "--data-dir", str(data_dir)],
                          env=env, cwd=REPO_ROOT, capture_output=True, text=True, timeout=900)


def _generated_repo(path: Path, branch: str = "trunk") -> Path:
    subprocess.run(["git", "init", "-q", "-b", branch, str(path)], check=True)
    for day, message, files in HISTORY:
        for name, text in files.items():
            (path / name).parent.mkdir(parents=True, exist_ok=True)
            (path / name).write_text(text)
        subprocess.run(["git", "-C", str(path), "add", "-A"], check=True)
        stamp = f"{day}T12:00:00Z"
        subprocess.run(["git", "-C", str(path), "-c", "user.name=A", "-c", "user.email=a@acme.example", "commit",
                        "-q", "-m", message], check=True,
                       env={**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp})
    return path


def _issue(number: int, title: str, body: str) -> dict:
    return {"url": f"https://api.github.com/repos/acme/TinyRL/issues/{number}", "id": 4000000000 + number,
            "node_id": f"I_{number}", "number": number, "title": title,
            "html_url": f"https://github.com/acme/TinyRL/issues/{number}",
            "user": {"login": "someone", "id": 7, "type": "User"}, "labels": [], "state": "open",
            "comments": 0, "created_at": "2025-07-25T08:00:00Z", "updated_at": "2025-07-25T08:00:00Z",
            "closed_at": None, "author_association": "NONE", "body": body, "state_reason": None}


def test_add_detects_the_branch_and_writes_the_data_dirs_registry(tmp_path, monkeypatch):
    repo = _generated_repo(tmp_path / "tinyrl")
    monkeypatch.setenv("RLTRACK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("RLTRACK_FRAMEWORKS_CSV", raising=False)
    monkeypatch.setenv("RLTRACK_GIT_REPO_TINYRL", str(repo))
    assert config.frameworks_csv() == config.FRAMEWORKS_SEED  # the default: the nine
    row, path = registry.add(registry.NewFramework(repo="acme/TinyRL", maintainer_orgs=("Acme",)))
    assert path == tmp_path / "data" / "frameworks.csv" == config.frameworks_csv()
    assert (row["framework_id"], row["default_branch"], row["docs_paths"]) == ("tinyrl", "trunk", "docs/")
    assert [f.framework_id for f in config.frameworks()][-1] == "tinyrl" and len(config.frameworks()) == 10
    assert len(config.frameworks(config.FRAMEWORKS_SEED)) == 9  # the dbt project is not edited
    with pytest.raises(registry.RegistryError, match="already registered"):
        registry.add(registry.NewFramework(repo="acme/tinyrl", framework_id="other", default_branch="main"))
    with pytest.raises(registry.RegistryError, match="OWNER/NAME"):
        registry.add(registry.NewFramework(repo="not a repo", default_branch="main"))
    with pytest.raises(registry.RegistryError, match="default branch"):
        registry.add(registry.NewFramework(repo="acme/gone", framework_id="gone"))  # no such repository
    registry.remove("tinyrl")
    assert len(config.frameworks()) == 9
    with pytest.raises(registry.RegistryError, match="no framework"):
        registry.remove("tinyrl")


def test_an_added_framework_is_tracked_from_its_first_refresh(tmp_path):
    data = tmp_path / "data"
    repo = _generated_repo(tmp_path / "tinyrl")
    added = _cli("frameworks", "add", "acme/TinyRL", "--name", "TinyRL", "--org", "Acme", data_dir=data,
                 env_extra={"RLTRACK_GIT_REPO_TINYRL": str(repo)})
    assert added.returncode == 0, added.stderr
    assert "default branch trunk" in added.stdout
    listed = _cli("frameworks", "list", data_dir=data)
    assert "acme/TinyRL" in listed.stdout and str(data / "frameworks.csv") in listed.stdout
    with (data / "frameworks.csv").open() as fh:
        assert [r["framework_id"] for r in csv.DictReader(fh)][-1] == "tinyrl"

    world = tmp_path / "world"  # papers of the tiny recorded world, the new framework's repository and thread
    shutil.copytree(TINY / "arxiv", world / "arxiv")
    (world / "github" / "acme" / "TinyRL").mkdir(parents=True)
    (world / "github" / "acme" / "TinyRL" / "issues.json").write_text(json.dumps(
        [_issue(3, "Support GSPO", "Please add GSPO (arXiv:2507.18071) as a loss type.")]))
    (world / "world.json").write_text(json.dumps({"frameworks": ["tinyrl"], "repos": {"tinyrl": str(repo)}}))
    refreshed = _cli("refresh", "--world", str(world), data_dir=data)
    assert refreshed.returncode == 0, refreshed.stdout[-3000:] + refreshed.stderr[-3000:]

    with duckdb.connect(str(data / "published" / "warehouse.duckdb"), read_only=True) as con:
        assert con.execute("select count(*), min(branch) from raw_git.commits where framework_id = 'tinyrl'"
                           ).fetchone() == (2, "trunk")
        assert con.execute("select number from raw_github.issues where framework_id = 'tinyrl'").fetchall() == [(3,)]
        assert con.execute("select framework_id, arxiv_id, cast(adopted_on as varchar) from marts.fct_method_adoptions"
                           ).fetchall() == [("tinyrl", "2507.18071", "2025-08-02")]
        assert con.execute("select display_name, commits_mined from marts.dim_frameworks where framework_id = 'tinyrl'"
                           ).fetchone() == ("TinyRL", 2)
    looked = _cli("lookup", "GSPO", data_dir=data)
    assert looked.returncode == 0 and "ALREADY IN tinyrl" in looked.stdout, looked.stdout
    site = _cli("site", "--out", str(tmp_path / "site"), data_dir=data)
    assert site.returncode == 0, site.stderr
    assert any("tinyrl" in p.name.lower() for p in (tmp_path / "site").rglob("*.html"))
    report = _cli("report", "--out", str(tmp_path / "report.html"), data_dir=data)
    assert report.returncode == 0 and "TinyRL" in (tmp_path / "report.html").read_text()

    # taken off the registry: the next refresh leaves it out of the models (its raw rows stay)
    removed = _cli("frameworks", "remove", "tinyrl", data_dir=data)
    assert removed.returncode == 0, removed.stderr
    (world / "world.json").write_text(json.dumps({  # the world without it, with another framework
        "frameworks": ["trl"], "repos": {"trl": str(TINY / "repos" / "trl.bundle")}}))
    again = _cli("refresh", "--world", str(world), data_dir=data)
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    with duckdb.connect(str(data / "published" / "warehouse.duckdb"), read_only=True) as con:
        for table in ("marts.dim_frameworks", "marts.fct_method_adoptions", "intermediate.int_threads__unified"):
            assert not con.execute(f"select * from {table} where framework_id = 'tinyrl'").fetchall(), table
        assert con.execute("select count(*) from raw_git.commits where framework_id = 'tinyrl'").fetchone()[0] == 2
