"""First git load of the nine frameworks' real histories, then a no-change re-run.

Reads bare mirrors of the framework repositories on this machine (never committed): by default
`/work/.mirror/<owner>+<name>/repo` under each framework's current or former name, or
`RLTRACK_GIT_REPO_<FRAMEWORK_ID>`, or `--repo ID=PATH`. Each mirror is cloned with `--shared`
into the work folder first (refs only, objects borrowed), so the loader's bookkeeping ref never
writes into the mirror. Mirrors that are partial clones (no blobs >= 4 MiB) exercise the quarantine.

Prints, for the first load and the re-run: wall and CPU seconds (the first load also per dlt step:
extract, which includes mining, normalize, load), commits per framework, rows per `raw_git` table
(and mention rows per commit), and the quarantined items. The load uses the product's pipeline
settings (`ingestion.pipelines.make_pipeline`); `RLTRACK_GIT_WORKERS` sets the mining processes.

Usage:
  python bench/bench_real_history.py [--mirrors /work/.mirror] [--repo nemo_rl=/path/to/repo ...]
                                     [--frameworks trl verl ...] [--work /tmp/real-history]
  python bench/bench_real_history.py --repo roll=/no/such/repo   # one framework unreadable: the
                                     # others load, it is listed as a whole-repository quarantine row
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_git_mining import Clock  # noqa: E402
from ingestion import config
from ingestion.world import World  # noqa: E402

MIRRORS = Path("/work/.mirror")


def mirror_for(fw: config.Framework, mirrors: Path, given: dict[str, str]) -> Path | None:
    """The repository to read for `fw`: --repo, then RLTRACK_GIT_REPO_<ID>, then a mirror named
    after its current or a former owner/name."""
    explicit = given.get(fw.framework_id) or os.environ.get(f"RLTRACK_GIT_REPO_{fw.framework_id.upper()}")
    if explicit:
        return Path(explicit)
    for name in fw.all_repos:
        path = mirrors / name.replace("/", "+") / "repo"
        if path.is_dir():
            return path
    return None


def shared_clone(source: Path, target: Path, branch: str) -> Path:
    """A `--shared` clone of `source`, or `source` itself when it cannot be cloned (a bad path: the
    load then shows how the source records a repository it cannot read)."""
    proc = subprocess.run(["git", "clone", "-q", "--bare", "--shared", "--single-branch", "--no-tags",
                           "--branch", branch, str(source), str(target)], capture_output=True, check=False)
    return target if proc.returncode == 0 else source


def raw_git_figures(warehouse: Path, load_id: str | None = None) -> dict[str, int]:
    import duckdb

    with duckdb.connect(str(warehouse), read_only=True) as con:
        tables = [r[0] for r in con.sql("select table_name from information_schema.tables where "
                                        "table_schema = 'raw_git' and table_name not like '\\_dlt%' escape '\\'")
                  .fetchall()]
        where = f" where _dlt_load_id = '{load_id}'" if load_id else ""
        return {t: con.sql(f"select count(*) from raw_git.{t}{where}").fetchall()[0][0] for t in sorted(tables)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirrors", type=Path, default=MIRRORS)
    ap.add_argument("--repo", action="append", default=[], metavar="ID=PATH", help="a framework's repository")
    ap.add_argument("--frameworks", nargs="*", help="framework ids (default: the whole registry)")
    ap.add_argument("--work", type=Path, help="work folder (default: a temporary one, removed afterwards)")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")

    import duckdb

    from ingestion.git.source import git_history_source
    from ingestion.pipelines import make_pipeline

    given = dict(item.split("=", 1) for item in args.repo)
    registry = config.frameworks()
    chosen = [f for f in registry if not args.frameworks or f.framework_id in args.frameworks]
    work = args.work or Path(tempfile.mkdtemp(prefix="rltrack-real-history-"))
    shutil.rmtree(work / "repos", ignore_errors=True)
    shutil.rmtree(work / "dlt", ignore_errors=True)
    (work / "w.duckdb").unlink(missing_ok=True)
    frameworks = []
    for fw in chosen:
        source = mirror_for(fw, args.mirrors, given)
        if source is None:
            print(f"{fw.framework_id:10s} no repository found; skipped")
            continue
        os.environ[f"RLTRACK_GIT_REPO_{fw.framework_id.upper()}"] = str(
            shared_clone(source, work / "repos" / fw.framework_id, fw.default_branch))
        frameworks.append(fw)
        print(f"{fw.framework_id:10s} {source}")

    def load() -> tuple[Clock, str, dict[str, Clock]]:
        """One load with the product's pipeline settings, its dlt steps timed apart (extract
        includes mining: the worker processes' CPU counts once they are joined)."""
        pipe = make_pipeline("git_history", warehouse=work / "w.duckdb", pipelines_dir=work / "dlt")
        world = World.live().replace(repos_dir=work / "unused")
        phases: dict[str, Clock] = {}
        with Clock() as clock:
            for phase, step in (("extract", lambda: pipe.extract(git_history_source(world=world, frameworks=frameworks))),
                                ("normalize", pipe.normalize), ("load", pipe.load)):
                with Clock() as phases[phase]:
                    info = step()
        return clock, info.loads_ids[-1] if info.loads_ids else "", phases

    load_before = os.getloadavg()[0]
    try:
        first, first_load, first_phases = load()
        again, again_load, _ = load()
        rows = raw_git_figures(work / "w.duckdb")
        with duckdb.connect(str(work / "w.duckdb"), read_only=True) as con:
            per_fw = con.sql("select framework_id, count(*) from raw_git.commits group by 1 order by 1").fetchall()
            quarantined = con.sql("select framework_id, sha, path, reason, resolved_at is null from "
                                  "raw_git.git_quarantine order by framework_id, sha, path").fetchall()
        commits = rows.get("commits", 0)
        print("\ncommits per framework: " + ", ".join(f"{f} {n}" for f, n in per_fw))
        print(f"first load   wall {first.wall:7.1f} s  cpu {first.cpu:7.1f} s  {commits} commits  (load average "
              f"before {load_before:.1f}, after {os.getloadavg()[0]:.1f})")
        print("  " + ", ".join(f"{p} {c.wall:.1f} s wall / {c.cpu:.1f} s cpu" for p, c in first_phases.items()))
        print(f"no-change    wall {again.wall:7.1f} s  cpu {again.cpu:7.1f} s  rows written "
              f"{sum(raw_git_figures(work / 'w.duckdb', again_load).values()) if again_load else 0}")
        print("rows per table: " + ", ".join(f"{t} {n:,}" for t, n in rows.items()))
        if commits:
            print(f"commit_mentions per commit: {rows.get('commit_mentions', 0) / commits:.1f}")
        print(f"quarantined items: {len(quarantined)} ({sum(q[-1] for q in quarantined)} open)")
        for fw_id, sha, path, reason, is_open in quarantined:
            where = path or ("(whole commit)" if sha else "(whole repository)")
            print(f"  {fw_id:9s} {sha[:12]:12s} {where}: {'' if is_open else '[resolved] '}{reason[:70]}")
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
