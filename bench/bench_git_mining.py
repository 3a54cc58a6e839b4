"""Benchmark of git history mining on a real repository (default: a local clone of trl).

Measures, in one run and over the same first-parent history of the default branch:
  ceiling   `git log --first-parent --diff-merges=first-parent --numstat -p` read to the end
            (also the plain `git log --numstat -p` over all reachable commits, for reference)
  miner     ingestion.git.mining.mine_commits (metadata, files, mentions of added lines)
  naive     plain pydriller reading every modified file's diff (on the newest N commits, rate
            extrapolated), and our pydriller engine (same rows as the miner) on the same subset
  full load the dlt source into DuckDB (first run), then
  re-run    the dlt source again with no new commits (incremental, target < 2 s)

Usage:
  git clone /work/.mirror/huggingface+trl/repo /tmp/trl-clone   # once; never commit its content
  /work/venv/bin/python bench/bench_git_mining.py --repo /tmp/trl-clone [--naive-commits 300]
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingestion import config  # noqa: E402
from ingestion.git.mining import MiningStats, count_commits, mine_commits  # noqa: E402
from ingestion.git.mentions import _word_tokens  # noqa: E402

MIRROR = Path("/work/.mirror/huggingface+trl/repo")


class Clock:
    """Wall time and CPU time (this process + waited-for children such as git). CPU time is the
    fair measure on a shared machine: it does not grow when other jobs take the cores."""

    def __enter__(self) -> "Clock":
        self.wall0, self.cpu0 = time.perf_counter(), self._cpu()
        return self

    def __exit__(self, *exc) -> None:
        self.wall = time.perf_counter() - self.wall0
        self.cpu = self._cpu() - self.cpu0

    @staticmethod
    def _cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _drain(cmd: list[str]) -> tuple[Clock, int]:
    size = 0
    with Clock() as clock:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE)
        assert proc.stdout is not None
        while chunk := proc.stdout.read(1 << 20):
            size += len(chunk)
        proc.wait()
    return clock, size


def bench_ceiling(repo: Path, branch: str) -> dict:
    same_cmd = ["git", "-C", str(repo), "log", "--first-parent", "--diff-merges=first-parent",
                "--numstat", "-p", branch]
    plain_cmd = ["git", "-C", str(repo), "log", "--numstat", "-p", branch]
    same, size = _drain(same_cmd)
    plain, _ = _drain(plain_cmd)
    return {"same": same, "bytes": size, "plain": plain,
            "plain_commits": int(subprocess.run(["git", "-C", str(repo), "rev-list", "--count", branch],
                                                capture_output=True, text=True).stdout)}


def bench_miner(repo: Path, branch: str, max_count: int | None = None) -> tuple[Clock, MiningStats]:
    _word_tokens.cache_clear()  # every run starts cold, as a fresh process would
    stats = MiningStats()
    with Clock() as clock:
        for _ in mine_commits(repo, branch, stats, max_count=max_count):
            pass
    return clock, stats


def best_of(runs: int, measure):
    """The fastest of `runs` repeats (by wall time): timings on a shared machine only get slower."""
    results = [measure() for _ in range(runs)]
    return min(results, key=lambda r: r[0].wall)


def bench_naive_pydriller(repo: Path, branch: str, limit: int) -> tuple[Clock, int]:
    from pydriller import Repository

    n = 0
    with Clock() as clock:
        walk = Repository(str(repo), only_in_branch=branch, order="reverse").traverse_commits()
        for commit in walk:
            for mf in commit.modified_files:
                _ = mf.diff  # read every diff, as a straightforward pydriller miner would
            n += 1
            if n >= limit:
                break
        walk.close()  # ends pydriller's git processes so their CPU time is counted
        gc.collect()
    return clock, n


def bench_pydriller_engine(repo: Path, branch: str, limit: int) -> tuple[float, int]:
    from ingestion.git.pydriller_path import pydriller_commits

    start = time.perf_counter()
    n = sum(1 for _ in pydriller_commits(repo, branch, limit=limit))
    return time.perf_counter() - start, n


def bench_dlt(repo: Path, work: Path) -> tuple[float, float, int]:
    import dlt

    from ingestion.git.source import git_history_source
    from ingestion.world import World

    fw = config.Framework("bench", "bench", "bench/repo", (), "main", (), (), ("docs/",), False)
    os.environ["RLTRACK_GIT_REPO_BENCH"] = str(repo)
    pipe = dlt.pipeline(pipeline_name="git_bench", destination=dlt.destinations.duckdb(str(work / "w.duckdb")),
                        dataset_name="raw_git", pipelines_dir=str(work / "dlt"))
    start = time.perf_counter()
    pipe.run(git_history_source(world=World.live(), frameworks=[fw]))
    full = time.perf_counter() - start
    start = time.perf_counter()
    pipe.run(git_history_source(world=World.live(), frameworks=[fw]))
    rerun = time.perf_counter() - start
    import duckdb

    con = duckdb.connect(str(work / "w.duckdb"), read_only=True)
    rows = con.sql("select count(*) from raw_git.commit_mentions").fetchall()[0][0]
    con.close()
    return full, rerun, rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", type=Path, default=Path("/tmp/trl-clone"))
    ap.add_argument("--branch", default="main")
    ap.add_argument("--naive-commits", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the fastest counts")
    ap.add_argument("--skip-dlt", action="store_true", help="skip the dlt full load and re-run")
    args = ap.parse_args()
    if not args.repo.exists():
        if not MIRROR.exists():
            sys.exit(f"{args.repo} missing and no mirror at {MIRROR}")
        subprocess.run(["git", "clone", "-q", str(MIRROR), str(args.repo)], check=True)
    repo, branch = args.repo, args.branch
    total = count_commits(repo, branch)
    print(f"repository {repo} branch {branch}: {total} first-parent commits")

    runs = args.repeat
    subset, subset_stats = best_of(runs, lambda: bench_miner(repo, branch, args.naive_commits))
    naive, naive_n = best_of(runs, lambda: bench_naive_pydriller(repo, branch, args.naive_commits))
    ceiling = bench_ceiling(repo, branch)
    miner, stats = best_of(runs, lambda: bench_miner(repo, branch))
    engine_s, engine_n = bench_pydriller_engine(repo, branch, args.naive_commits)

    def line(label: str, clock: Clock, n: int) -> tuple[float, float]:
        print(f"{label:<52} wall {clock.wall:7.2f} s {n / clock.wall:7.1f} c/s | cpu {clock.cpu:7.2f} s "
              f"{n / clock.cpu:7.1f} c/s")
        return n / clock.wall, n / clock.cpu

    print(f"{'':<52} (c/s = commits per second; cpu = this process + git children; "
          f"best of {runs})")
    c_wall, c_cpu = line("ceiling  git log --first-parent --numstat -p", ceiling["same"], total)
    line(f"         git log --numstat -p (all {ceiling['plain_commits']} commits)", ceiling["plain"],
         ceiling["plain_commits"])
    m_wall, m_cpu = line("miner    git_mining.mine_commits, whole history", miner, total)
    s_wall, s_cpu = line(f"miner    same {subset_stats.commits} newest commits (cold cache)", subset, subset_stats.commits)
    n_wall, n_cpu = line(f"naive    pydriller reading every diff, {naive_n} newest", naive, naive_n)
    print(f"engine   git_pydriller (same rows as the miner), {engine_n} newest: wall {engine_s:.2f} s")
    print(f"=> miner / ceiling: {100 * m_wall / c_wall:.0f}% wall, {100 * m_cpu / c_cpu:.0f}% cpu (target >= 40%)")
    print(f"=> miner / pydriller on the same commits: {s_wall / n_wall:.1f}x wall, {s_cpu / n_cpu:.1f}x cpu "
          f"(target >= 5x); pydriller full history extrapolated {total / n_wall:.0f} s wall")
    print(f"stats    {stats.as_dict()}")
    if not args.skip_dlt:
        with tempfile.TemporaryDirectory(prefix="bench_git_") as tmp:
            full, rerun, rows = bench_dlt(repo, Path(tmp))
        print(f"dlt      full load {full:.1f} s ({rows} mention rows); incremental re-run, "
              f"no new commits: {rerun:.2f} s (target < 2 s)")


if __name__ == "__main__":
    main()
