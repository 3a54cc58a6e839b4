"""The generated sample repositories carry exactly the world's adoption facts."""

from __future__ import annotations

import subprocess

import pytest

from ingestion.git.mining import mine_commits
from worlds.sample.git_repos import build_sample_repos
from worlds.sample.world import METHOD_TOKENS, build_world


@pytest.fixture(scope="module")
def repos(tmp_path_factory):
    return build_sample_repos(tmp_path_factory.mktemp("sample_repos"))


@pytest.fixture(scope="module")
def mined(repos):
    return {fw: list(mine_commits(path, "main")) for fw, path in repos.items()}


def head(path) -> str:
    return subprocess.run(["git", "-C", str(path), "rev-parse", "main"], capture_output=True,
                          text=True, check=True).stdout.strip()


def test_deterministic_and_idempotent(repos, tmp_path):
    again = build_sample_repos(tmp_path / "again", ["trl"])
    assert head(again["trl"]) == head(repos["trl"])
    stamp = repos["trl"] / ".git" / "rltrack-sample-inputs"
    before = stamp.stat().st_mtime_ns
    build_sample_repos(repos["trl"].parent, ["trl"])
    assert stamp.stat().st_mtime_ns == before


def test_every_adoption_is_found_on_main(mined):
    world = build_world()
    by_id = {p.arxiv_id: p for p in world.papers}
    for a in world.adoptions:
        commit = next(c for c in mined[a.framework] if c.committed_at == a.committed_at and c.message == a.message)
        added = {(m.kind, m.value) for m in commit.mentions if m.location == "added_line" and m.path == a.path}
        method = by_id[a.arxiv_id].method
        token = METHOD_TOKENS.get(method, method.lower().replace("-", "_"))
        assert ("token", token) in added or ("arxiv_id", a.arxiv_id) in added, a


def test_decoys_do_not_look_like_adoptions(mined):
    openrlhf_added = {m.value for c in mined["openrlhf"] for m in c.mentions if m.location == "added_line"}
    assert "vapo" not in openrlhf_added  # added and removed on a branch, never on main
    trl_ids = {m.value for c in mined["trl"] for m in c.mentions if m.kind == "arxiv_id"}
    assert "2507.20673" not in trl_ids  # never-merged experiment branch
    assert any(c.is_merge for c in mined["openrlhf"])
    gpg = [c for c in mined["trl"] if "gpg" in c.message]
    assert gpg and gpg[0].files[0].path == ".github/workflows/release.yml"


def test_maintainer_domains_present(mined):
    domains = {c.author_domain for c in mined["trl"]}
    assert "huggingface.co" in domains and len(domains) > 2


def test_fast_miner_matches_pydriller_on_sample(repos, mined):
    from ingestion.git.pydriller_path import pydriller_commits

    fast = {c.sha: c for c in mined["openrlhf"]}  # has merges, a rename and a binary file
    slow = {c.sha: c for c in pydriller_commits(repos["openrlhf"], "main")}
    assert fast.keys() == slow.keys()
    for sha, a in fast.items():
        b = slow[sha]
        assert sorted((f.path, f.change_type, f.added_lines, f.deleted_lines) for f in a.files) == \
            sorted((f.path, f.change_type, f.added_lines, f.deleted_lines) for f in b.files)
        assert {(m.location, m.path, m.value) for m in a.mentions} == \
            {(m.location, m.path, m.value) for m in b.mentions}


def test_sample_source_loads_and_reruns_idempotently(repos, tmp_path):
    import dlt
    import duckdb

    from ingestion.git.source import git_history_source
    from worlds.sample.serve import sample_world

    world = sample_world(repos=tuple((fw, str(path)) for fw, path in repos.items()))

    pipe = dlt.pipeline(pipeline_name="git_sample", destination=dlt.destinations.duckdb(str(tmp_path / "w.duckdb")),
                        dataset_name="raw_git", pipelines_dir=str(tmp_path / "dlt"))
    tables = ("commits", "commit_files", "commit_mentions", "repo_files_at_head")

    def counts():
        con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
        try:
            return {t: con.sql(f"select count(*) from raw_git.{t}").fetchall()[0][0] for t in tables}
        finally:
            con.close()

    pipe.run(git_history_source(world=world))
    first = counts()
    assert first["commits"] > 250 and first["repo_files_at_head"] >= 20
    pipe.run(git_history_source(world=world))
    assert counts() == first
