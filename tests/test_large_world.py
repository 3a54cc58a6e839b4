"""The large synthetic world: sizes, determinism, growth, and that the real sources load it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import dlt
import duckdb

from ingestion import config
from ingestion.arxiv.source import arxiv_source
from ingestion.git.source import git_history_source
from ingestion.github.source import GitHubClient, github_source
from ingestion.world import World
from worlds.large_world import (
    BENCH_NOW,
    COMMENTS_PER_THREAD_CYCLE,
    LargeWorld,
    Size,
    serve_large_arxiv,
    serve_large_github,
)
from worlds.sample.serve import arxiv_world

TINY = 0.002  # 200 papers, 20 commits per framework, 160 threads


def head(repo: Path) -> str:
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "refs/heads/main"],
                          capture_output=True, text=True, check=True).stdout.strip()


def test_full_size_matches_the_issue():
    size = Size.at(1.0)
    assert (size.papers, size.frameworks, size.commits_per_framework) == (100_000, 20, 10_000)
    mean_comments = sum(COMMENTS_PER_THREAD_CYCLE) / len(COMMENTS_PER_THREAD_CYCLE)
    assert size.threads * (1 + mean_comments) == 200_000  # issues, PRs and comments together


def test_world_is_deterministic_and_ids_unique():
    a, b = LargeWorld(TINY, frameworks=3), LargeWorld(TINY, frameworks=3)
    assert a.papers == b.papers and a.github_repos == b.github_repos
    assert len({p.arxiv_id for p in a.papers}) == len(a.papers) == 200
    assert len({p.method for p in a.papers if p.method}) == sum(1 for p in a.papers if p.method)


def test_repos_are_deterministic_and_growth_extends_history(tmp_path):
    world, grown = LargeWorld(TINY, frameworks=2), LargeWorld(TINY, frameworks=2, grown=True)
    one, two = world.build_repos(tmp_path / "one"), world.build_repos(tmp_path / "two")
    assert [head(p) for p in one.values()] == [head(p) for p in two.values()]
    before = head(one["synth00"])
    grown.build_repos(tmp_path / "one")  # extends the existing repository in place
    after = head(one["synth00"])
    count = subprocess.run(["git", "-C", str(one["synth00"]), "rev-list", "--count", "main"],
                           capture_output=True, text=True, check=True).stdout.strip()
    assert int(count) == grown.commit_count() == 21
    assert subprocess.run(["git", "-C", str(one["synth00"]), "merge-base", "--is-ancestor", before, after]).returncode == 0
    fresh = grown.build_repos(tmp_path / "fresh")  # same SHAs as building the grown world at once
    assert head(fresh["synth00"]) == after


def test_growth_is_about_one_percent():
    base, grown = LargeWorld(0.01, frameworks=4), LargeWorld(0.01, frameworks=4, grown=True)
    changed = sum(a != b for a, b in zip(base.papers, grown.papers))
    assert changed == len(base.papers) // 100
    threads = sum(map(len, base.github_repos.values()))
    new_threads = sum(map(len, grown.github_repos.values())) - threads
    assert 0.005 * threads <= new_threads <= 0.02 * threads


def _pipeline(tmp: Path, name: str, dataset: str) -> dlt.Pipeline:
    return dlt.pipeline(pipeline_name=name, destination=dlt.destinations.duckdb(str(tmp / "w.duckdb")),
                        dataset_name=dataset, pipelines_dir=str(tmp / "dlt"))


def test_sources_load_the_world_in_its_real_formats(tmp_path, monkeypatch):
    world = LargeWorld(TINY, frameworks=2)
    monkeypatch.setenv("RLTRACK_FRAMEWORKS_CSV", str(world.write_frameworks_csv(tmp_path / "fw.csv")))
    assert [f.framework_id for f in config.frameworks() if f.in_sample] == ["synth00", "synth01"]
    repos = tuple((fw, str(path)) for fw, path in world.build_repos(tmp_path / "repos").items())
    with serve_large_arxiv(world) as url:
        _pipeline(tmp_path, "arxiv", "raw_arxiv").run(arxiv_source(world=arxiv_world(url), now=BENCH_NOW))
    with serve_large_github(world) as url:
        client = GitHubClient(url, min_interval_s=0.0, sleep=lambda s: None)
        _pipeline(tmp_path, "github", "raw_github").run(github_source(world=World.loopback("large", github_api=url),
                                                                      client=client))
    assert client.errors == [] and client.stop_reason is None  # the renamed repo answers 301, not 404
    _pipeline(tmp_path, "git", "raw_git").run(git_history_source(world=World.loopback("large", repos=repos)))
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        def count(table: str) -> int:
            return con.execute(f"select count(*) from {table}").fetchone()[0]

        assert count("raw_arxiv.papers") == len(world.papers)
        assert count("raw_github.issues") + count("raw_github.pull_requests") == sum(map(len, world.github_repos.values()))
        assert count("raw_github.comments") == sum(len(t.comments) for ts in world.github_repos.values() for t in ts)
        assert count("raw_git.commits") == 2 * world.commit_count()
        cited = con.execute("select count(*) from raw_git.commit_mentions m join raw_arxiv.papers p "
                        "on m.value = p.arxiv_id where m.kind = 'arxiv_id'").fetchone()[0]
        assert cited > 0  # commits cite papers of the same world
