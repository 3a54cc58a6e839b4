"""What one process per run saves: the `refresh` job under Dagster's default multiprocess executor
(a process per step, each loading the definitions again) and under the in-process executor the
project uses (`orchestration/definitions.py`), on the bundled sample world.

Both are launched the same way (`dagster job execute` on a code location that adds the two jobs to
the project's assets and checks), into one Dagster instance and data folder that a first refresh
filled, so each timed run is an incremental refresh with no new data: the fixed cost of a run.

Usage:
  /work/venv/bin/python bench/bench_executor.py [--repeat 2] [--work /tmp/rltrack_bench_executor]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DAGSTER = str(Path(sys.executable).parent / "dagster")

LOCATION = '''"""The project's assets and checks with `refresh` under each executor (written by bench_executor.py)."""
import dagster as dg

import orchestration.definitions as project

defs = dg.Definitions(
    assets=list(project.defs.assets), asset_checks=list(project.defs.asset_checks),
    resources=dict(project.defs.resources),
    jobs=[dg.define_asset_job(f"refresh_{name}", selection=dg.AssetSelection.all(), executor_def=executor)
          for name, executor in (("multiprocess", dg.multiprocess_executor), ("in_process", dg.in_process_executor))],
)
'''


def timed_run(cmd: list[str], env: dict, log: Path) -> float:
    start = time.perf_counter()
    with log.open("w") as out:
        done = subprocess.run(cmd, env=env, cwd=REPO_ROOT, stdout=out, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed; log {log}")
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--work", type=Path, default=Path("/tmp/rltrack_bench_executor"))
    args = parser.parse_args(argv)
    if args.work.exists():
        shutil.rmtree(args.work)
    args.work.mkdir(parents=True)
    (args.work / "bench_location.py").write_text(LOCATION)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RLTRACK_")}
    env.update(RLTRACK_WORLD="sample", RLTRACK_DATA_DIR=str(args.work / "data"),
               DAGSTER_HOME=str(args.work / "data" / "dagster_home"),
               PYTHONPATH=os.pathsep.join([str(REPO_ROOT), str(args.work)]))
    first = timed_run([sys.executable, "-m", "orchestration.cli", "refresh"], env, args.work / "first.log")
    print(f"first refresh (fills the warehouse): {first:.1f} s")
    seconds: dict[str, list[float]] = {"in_process": [], "multiprocess": []}
    for i in range(args.repeat):
        for name in seconds:  # alternating, so drift on the machine hits both alike
            cmd = [DAGSTER, "job", "execute", "-f", str(args.work / "bench_location.py"), "-j", f"refresh_{name}"]
            seconds[name].append(timed_run(cmd, env, args.work / f"{name}_{i}.log"))
    for name, runs in seconds.items():
        print(f"refresh, no new data, {name:<13} " + ", ".join(f"{s:.1f} s" for s in runs))
    best = {name: min(runs) for name, runs in seconds.items()}
    print(f"=> one process per run saves {best['multiprocess'] - best['in_process']:.1f} s a run "
          f"({best['multiprocess'] / best['in_process']:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
