"""Benchmark of git history mining on a real repository (default: a local clone of trl).

Measures, in one run and over the same first-parent history of the default branch:
  ceiling   `git log --first-parent --diff-merges=first-parent --numstat -p` read to the end
            (also the plain `git log --numstat -p` over all reachable commits, for reference)
  miner     ingestion.git_mining.mine_commits (metadata, files, mentions of added lines)
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
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingestion import config  # noqa: E402
from ingestion.git_mining import MiningStats, count_commits, mine_commits  # noqa: E402

MIRROR = Path("/work/.mirror/huggingface+trl/repo")


def _drain(cmd: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE)
    size = 0
    assert proc.stdout is not None
    while chunk := proc.stdout.read(1 << 20):
        size += len(chunk)
    proc.wait()
    return time.perf_counter() - start, size


def bench_ceiling(repo: Path, branch: str) -> dict:
    same_cmd = ["git", "-C", str(repo), "log", "--first-parent", "--diff-merges=first-parent",
                "--numstat", "-p", branch]
    plain_cmd = ["git", "-C", str(repo), "log", "--numstat", "-p", branch]
    t_same, size = _drain(same_cmd)
    t_plain, _ = _drain(plain_cmd)
    return {"seconds": t_same, "bytes": size, "plain_seconds": t_plain,
            "plain_commits": int(subprocess.run(["git", "-C", str(repo), "rev-list", "--count", branch],
                                                capture_output=True, text=True).stdout)}


def bench_miner(repo: Path, branch: str) -> tuple[float, MiningStats]:
    stats = MiningStats()
    start = time.perf_counter()
    for _ in mine_commits(repo, branch, stats):
        pass
    return time.perf_counter() - start, stats


def bench_naive_pydriller(repo: Path, branch: str, limit: int) -> tuple[float, int]:
    from pydriller import Repository

    start = time.perf_counter()
    n = 0
    for commit in Repository(str(repo), only_in_branch=branch, order="reverse").traverse_commits():
        for mf in commit.modified_files:
            _ = mf.diff  # read every diff, as a straightforward pydriller miner would
        n += 1
        if n >= limit:
            break
    return time.perf_counter() - start, n


def bench_pydriller_engine(repo: Path, branch: str, limit: int) -> tuple[float, int]:
    from ingestion.git_pydriller import pydriller_commits

    start = time.perf_counter()
    n = sum(1 for _ in pydriller_commits(repo, branch, limit=limit))
    return time.perf_counter() - start, n


def bench_dlt(repo: Path, work: Path) -> tuple[float, float, int]:
    import dlt

    from ingestion.git_history import git_history_source

    fw = config.Framework("bench", "bench", "bench/repo", (), "main", (), (), ("docs/",), False)
    os.environ["RLTRACK_GIT_REPO_BENCH"] = str(repo)
    pipe = dlt.pipeline(pipeline_name="git_bench", destination=dlt.destinations.duckdb(str(work / "w.duckdb")),
                        dataset_name="raw_git", pipelines_dir=str(work / "dlt"))
    start = time.perf_counter()
    pipe.run(git_history_source(mode="live", frameworks=[fw]))
    full = time.perf_counter() - start
    start = time.perf_counter()
    pipe.run(git_history_source(mode="live", frameworks=[fw]))
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
    ap.add_argument("--skip-dlt", action="store_true", help="skip the dlt full load and re-run")
    args = ap.parse_args()
    if not args.repo.exists():
        if not MIRROR.exists():
            sys.exit(f"{args.repo} missing and no mirror at {MIRROR}")
        subprocess.run(["git", "clone", "-q", str(MIRROR), str(args.repo)], check=True)
    repo, branch = args.repo, args.branch
    total = count_commits(repo, branch)
    print(f"repository {repo} branch {branch}: {total} first-parent commits")

    ceiling = bench_ceiling(repo, branch)
    miner_s, stats = bench_miner(repo, branch)
    naive_s, naive_n = bench_naive_pydriller(repo, branch, args.naive_commits)
    engine_s, engine_n = bench_pydriller_engine(repo, branch, args.naive_commits)

    ceil_rate = total / ceiling["seconds"]
    miner_rate = total / miner_s
    naive_rate = naive_n / naive_s
    print(f"ceiling  git log --first-parent --numstat -p : {ceiling['seconds']:7.2f} s  "
          f"{ceil_rate:8.1f} commits/s  ({ceiling['bytes'] / 1e6:.0f} MB)")
    print(f"         git log --numstat -p (all {ceiling['plain_commits']} commits): {ceiling['plain_seconds']:7.2f} s  "
          f"{ceiling['plain_commits'] / ceiling['plain_seconds']:8.1f} commits/s")
    print(f"miner    git_mining.mine_commits          : {miner_s:7.2f} s  {miner_rate:8.1f} commits/s  "
          f"= {100 * miner_rate / ceil_rate:.0f}% of ceiling (target >= 40%)")
    print(f"naive    pydriller, every diff ({naive_n} newest): {naive_s:7.2f} s  {naive_rate:8.1f} commits/s  "
          f"-> miner is {miner_rate / naive_rate:.1f}x (target >= 5x); full history extrapolated "
          f"{total / naive_rate:.0f} s")
    print(f"engine   git_pydriller (same rows, {engine_n}): {engine_s:7.2f} s  {engine_n / engine_s:8.1f} commits/s")
    print(f"stats    {stats.as_dict()}")
    if not args.skip_dlt:
        with tempfile.TemporaryDirectory(prefix="bench_git_") as tmp:
            full, rerun, rows = bench_dlt(repo, Path(tmp))
        print(f"dlt      full load {full:.1f} s ({rows} mention rows); incremental re-run, "
              f"no new commits: {rerun:.2f} s (target < 2 s)")


if __name__ == "__main__":
    main()
