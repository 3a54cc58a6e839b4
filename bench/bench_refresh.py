"""Benchmark of a warehouse refresh on the large synthetic world (`worlds.large_world`).

Prints, in one run:
  full refresh   `rltrack refresh` on an empty warehouse: the Dagster `refresh` job in one process,
                 as a scheduled run executes it; time per step from the Dagster run (ingest arxiv,
                 git_history, github, tech_reports, dbt build, GX checks, factor model + publish,
                 tracker site)
  incremental    the same job after ~1% new data (new paper versions, commits, threads);
                 target: under 10% of the full refresh
  linking        `dbt run` of the linking models (int_methods__aliases, int_commits__paper_links,
                 int_threads__paper_mentions) at scale s and 2s; target: close to linear
  plans          EXPLAIN of every compiled model: any CROSS_PRODUCT / nested-loop join is listed
  memory         peak RSS of the process tree (sampled from /proc, all live descendants summed)
                 and the largest single process (wait4 rusage); target: under 4 GB

The fake arXiv and GitHub servers run in their own process; the job reads them as a world
(`RLTRACK_WORLD`: a world folder whose world.json names the servers, the generated registry and
repositories, mined in place), with the clock fixed at the world's `BENCH_NOW` (RLTRACK_NOW). Its
technical reports are the sample's. dbt reads a copy of dbt_project/ (RLTRACK_DBT_PROJECT_DIR, under the
work folder) whose seeds/frameworks.csv is the generated registry, so the shared project is never
touched.

Usage:
  /work/venv/bin/python bench/bench_refresh.py --scale 0.1            # ~10k papers, 20 x 1k commits
  /work/venv/bin/python bench/bench_refresh.py --scale 1 --no-doubling  # the full-size world
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

SOURCES = ("arxiv", "git_history", "github", "tech_reports")
LINKING_MODELS = ("int_methods__aliases", "int_commits__paper_links", "int_threads__paper_mentions")
# physical operators that compare every row with every row (PIECEWISE_MERGE_JOIN: inequality join, listed too)
BAD_JOIN_OPS = ("CROSS_PRODUCT", "NESTED_LOOP_JOIN", "BLOCKWISE_NL_JOIN", "PIECEWISE_MERGE_JOIN")
PY = sys.executable
DBT = str(Path(sys.executable).parent / "dbt")


# --- one source's load, inside its own process (the 2x world for the linking figure) ----------------
def run_stage(stage: str, urls: dict) -> None:
    from ingestion.pipelines import make_pipeline
    from ingestion.world import World
    from worlds.large_world import BENCH_NOW

    world = World.loopback("large", **served(urls), repos=World.live().repos)  # repos: RLTRACK_GIT_REPO_*
    if stage == "arxiv":
        from ingestion.arxiv.source import arxiv_source

        make_pipeline("arxiv").run(arxiv_source(world=world, now=BENCH_NOW))
    elif stage == "git_history":
        from ingestion.git.source import git_history_source

        make_pipeline("git_history").run(git_history_source(world=world))
    elif stage == "github":
        from ingestion.github.source import load_github

        load_github(make_pipeline("github"), world=world)
    else:
        raise SystemExit(f"unknown stage {stage}")


def served(urls: dict) -> dict:
    """World endpoints of the large world's servers (`large_world serve` prints their URLs)."""
    return {"arxiv_api": urls["arxiv"], "arxiv_oai": urls["arxiv"].replace("/api/query", "/oai2"),
            "github_api": urls["github"], **({"arxiv_web": urls["arxiv_web"]} if "arxiv_web" in urls else {})}


# --- measuring child processes --------------------------------------------------------------------
class ProcTree:
    """Samples /proc every `interval_s` for the live descendants of `root` (default: this process)
    and hands `sample()` their stat fields (after the command name) by pid."""

    def __init__(self, interval_s: float = 0.25, root: int | None = None) -> None:
        self.interval_s, self.root = interval_s, root
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def sample(self, stats: dict[int, list[str]]) -> None:
        raise NotImplementedError

    def _run(self) -> None:
        root = self.root or os.getpid()
        while not self._stop.wait(self.interval_s):
            stats: dict[int, list[str]] = {}
            for entry in os.listdir("/proc"):
                if not entry.isdigit():
                    continue
                try:
                    with open(f"/proc/{entry}/stat") as fh:
                        stats[int(entry)] = fh.read().rsplit(")", 1)[1].split()
                except (OSError, IndexError):
                    continue
            parents = {pid: int(fields[1]) for pid, fields in stats.items()}
            tree, frontier = {root} if self.root else set(), [root]
            while frontier:
                pid = frontier.pop()
                kids = [p for p, pp in parents.items() if pp == pid and p not in tree]
                tree.update(kids)
                frontier.extend(kids)
            self.sample({pid: stats[pid] for pid in tree if pid in stats})


class TreeRss(ProcTree):
    """The peak summed RSS of all live descendants of this process."""

    peak_kb = 0

    def sample(self, stats: dict[int, list[str]]) -> None:
        page_kb = os.sysconf("SC_PAGE_SIZE") // 1024
        self.peak_kb = max(self.peak_kb, sum(int(f[21]) * page_kb for f in stats.values()))


def timed(cmd: list[str], env: dict, label: str, log_dir: Path) -> dict:
    """Run `cmd`, return seconds and the peak RSS of its largest process (wait4)."""
    log = log_dir / f"{label}.log"
    start = time.perf_counter()
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=REPO_ROOT)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        tail = log.read_text(errors="replace")[-3000:]
        raise RuntimeError(f"{label} failed (exit {proc.returncode}); log {log}:\n{tail}")
    return {"seconds": seconds, "max_rss_mb": usage.ru_maxrss / 1024, "work_seconds": _dbt_seconds(cmd)}


def _dbt_seconds(cmd: list[str]) -> float | None:
    """dbt's own clock (run_results elapsed_time, after start-up) for a dbt command."""
    if cmd[0] != DBT:
        return None
    results = Path(cmd[cmd.index("--project-dir") + 1]) / "target" / "run_results.json"
    return json.loads(results.read_text())["elapsed_time"] if results.exists() else None


def step_seconds(dagster_home: Path) -> dict[str, float]:
    """Seconds per step of the newest `refresh` run in this Dagster instance."""
    import dagster as dg

    instance = dg.DagsterInstance.from_config(str(dagster_home))
    try:
        run = instance.get_runs(filters=dg.RunsFilter(job_name="refresh"), limit=1)[0]
        return {s.step_key: (s.end_time or 0) - (s.start_time or 0)
                for s in instance.get_run_step_stats(run.run_id)}
    finally:
        instance.dispose()


def stage_of(step_key: str) -> str:
    if step_key.startswith("load_"):
        return "ingest " + step_key.removeprefix("load_")
    if step_key == "dbt_warehouse":
        return "dbt build"
    if "tracker_site" in step_key:
        return "tracker site"
    return "checks (GX)" if "gx_" in step_key else "factor model + publish"


# --- the bench ----------------------------------------------------------------------------------------
class Bench:
    def __init__(self, work: Path, scale: float, frameworks: int) -> None:
        self.work, self.scale, self.frameworks = work, scale, frameworks
        self.logs = work / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)

    def world_dir(self, scale: float) -> Path:
        return self.work / f"world_{scale:g}"

    def env(self, scale: float, name: str) -> dict:
        from worlds.large_world import LargeWorld

        world_dir = self.world_dir(scale)
        data = self.work / name
        env = {k: v for k, v in os.environ.items() if not k.startswith("RLTRACK_")}
        env.update(RLTRACK_DATA_DIR=str(data),
                   RLTRACK_WAREHOUSE=str(data / "warehouse.duckdb"),
                   RLTRACK_FRAMEWORKS_CSV=str(world_dir / "frameworks.csv"), PYTHONPATH=str(REPO_ROOT))
        for f in LargeWorld(scale, self.frameworks).frameworks:
            env[f"RLTRACK_GIT_REPO_{f.framework_id.upper()}"] = str(world_dir / "repos" / f.framework_id)
        return env

    def world_folder(self, scale: float, name: str, urls: dict) -> Path:
        """A world folder for the refresh: the running servers, the generated registry and repositories."""
        from worlds.large_world import LargeWorld

        folder = self.work / name / "world"
        folder.mkdir(parents=True, exist_ok=True)
        repos = self.world_dir(scale) / "repos"
        (folder / "world.json").write_text(json.dumps({
            "name": f"large_{scale:g}", **served(urls), "mine_in_place": True,
            "frameworks_csv": str(self.world_dir(scale) / "frameworks.csv"),
            "reports_csv": str(self.world_dir(scale) / "tech_reports.csv"),
            "repos": {f.framework_id: str(repos / f.framework_id) for f in LargeWorld(scale, self.frameworks).frameworks},
        }, indent=2))
        return folder

    def build_world(self, scale: float, grown: bool) -> float:
        start = time.perf_counter()
        args = ["build", "--scale", str(scale), "--frameworks", str(self.frameworks),
                "--out", str(self.world_dir(scale))] + (["--grown"] if grown else [])
        subprocess.run([PY, "-m", "worlds.large_world", *args], check=True, cwd=REPO_ROOT,
                       stdout=subprocess.DEVNULL)
        return time.perf_counter() - start

    def dbt_project(self, scale: float) -> Path:
        """A copy of dbt_project/ whose framework seed is the generated registry."""
        target = self.work / f"dbt_project_{scale:g}"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(REPO_ROOT / "dbt_project", target,
                        ignore=shutil.ignore_patterns("target", "logs", "dbt_packages"))
        shutil.copy(self.world_dir(scale) / "frameworks.csv", target / "seeds" / "frameworks.csv")
        return target

    def serve(self, scale: float, grown: bool):
        args = [PY, "-m", "worlds.large_world", "serve", "--scale", str(scale),
                "--frameworks", str(self.frameworks)] + (["--grown"] if grown else [])
        proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=REPO_ROOT, text=True)
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the fake servers did not start")
        return proc, json.loads(line)

    @staticmethod
    def stop(proc) -> float:
        proc.stdin.close()
        _, _, usage = os.wait4(proc.pid, 0)
        return usage.ru_maxrss / 1024

    def refresh(self, scale: float, name: str, urls: dict, project: Path, label: str) -> dict:
        """`rltrack refresh` (the Dagster `refresh` job, in one process) against the fake servers."""
        from worlds.large_world import BENCH_NOW

        env = self.env(scale, name)
        env.update(RLTRACK_WORLD=str(self.world_folder(scale, name, urls)),
                   RLTRACK_NOW=BENCH_NOW.isoformat(), RLTRACK_DBT_PROJECT_DIR=str(project),
                   DAGSTER_HOME=str(self.work / name / "dagster_home"))
        job = timed([PY, "-m", "orchestration.cli", "refresh"], env, f"{label}_refresh", self.logs)
        steps = step_seconds(Path(env["DAGSTER_HOME"]))
        stages: dict[str, float] = {}
        for key, seconds in steps.items():
            stage = stage_of(key)
            stages[stage] = stages.get(stage, 0.0) + seconds
        return {"seconds": job["seconds"], "max_rss_mb": job["max_rss_mb"], "stages": stages,
                "steps": len(steps), "slowest": _slowest_nodes(build_target(project), self.logs / f"{label}_run_results.json")}

    def linking(self, scale: float, name: str, project: Path, label: str, repeat: int = 2) -> dict:
        env = self.env(scale, name)
        dbt_args = ["--project-dir", str(project), "--profiles-dir", str(project)]
        best = None
        for i in range(repeat):
            r = timed([DBT, "run", "-s", *LINKING_MODELS, *dbt_args], env, f"{label}_linking{i}", self.logs)
            best = r if best is None or r["work_seconds"] < best["work_seconds"] else best
        return best

    def counts(self, scale: float, name: str) -> dict:
        import duckdb

        con = duckdb.connect(self.env(scale, name)["RLTRACK_WAREHOUSE"], read_only=True)
        try:
            out = {}
            for t in ("raw_arxiv.papers", "raw_git.commits", "raw_git.commit_mentions", "raw_github.issues",
                      "raw_github.pull_requests", "raw_github.comments", "intermediate.int_commits__paper_links",
                      "intermediate.int_threads__paper_mentions", "marts.fct_method_adoptions"):
                try:
                    out[t] = con.execute(f"select count(*) from {t}").fetchone()[0]
                except duckdb.Error:
                    out[t] = None
            return out
        finally:
            con.close()

    def plans(self, scale: float, name: str, project: Path) -> dict[str, list[str]]:
        """Models whose EXPLAIN shows a cross product or nested-loop join, with the operators."""
        import duckdb

        compiled = (build_target(project) or project / "target") / "compiled" / "rltrack" / "models"
        con = duckdb.connect(self.env(scale, name)["RLTRACK_WAREHOUSE"], read_only=True)
        found: dict[str, list[str]] = {}
        checked = 0
        try:
            for sql_file in sorted(compiled.rglob("*.sql")):
                if "unit_test" in sql_file.name:
                    continue
                try:
                    plan = json.loads(con.execute("EXPLAIN (FORMAT json) " + sql_file.read_text()).fetchall()[0][1])
                except duckdb.Error:
                    continue
                checked += 1
                ops = _row_by_row_joins(plan)
                if ops:
                    found[sql_file.stem] = ops
        finally:
            con.close()
        found["_models_explained"] = [str(checked)]
        return found


def _row_by_row_joins(node) -> list[str]:
    """'OPERATOR(left est. rows x right est. rows)' for each row-by-row join in a DuckDB JSON plan."""
    if isinstance(node, list):
        return [op for child in node for op in _row_by_row_joins(child)]
    out = []
    if node.get("name") in BAD_JOIN_OPS:
        sides = [c.get("extra_info", {}).get("Estimated Cardinality", "?") for c in node.get("children", [])]
        out.append(f"{node['name']}({' x '.join(sides)})")
    return out + _row_by_row_joins(node.get("children", []))


def build_target(project: Path) -> Path | None:
    """The target folder of the newest `dbt build` (dagster-dbt gives each invocation its own)."""
    found = [p for p in (project / "target").rglob("run_results.json")
             if json.loads(p.read_text())["args"].get("which") == "build"]
    return max(found, key=lambda p: p.stat().st_mtime).parent if found else None


def _slowest_nodes(target: Path | None, keep_as: Path, n: int = 6) -> list[tuple[str, float]]:
    """The `n` dbt nodes that took longest (run_results.json is kept beside the logs)."""
    if target is None:
        return []
    shutil.copy(target / "run_results.json", keep_as)
    nodes = json.loads((target / "run_results.json").read_text())["results"]
    ranked = sorted(nodes, key=lambda r: r["execution_time"], reverse=True)[:n]
    return [(r["unique_id"].split(".", 2)[-1], r["execution_time"]) for r in ranked]


STAGE_ORDER = ("ingest arxiv", "ingest git_history", "ingest github", "ingest tech_reports", "dbt build",
               "checks (GX)", "factor model + publish", "tracker site")


def fmt_refresh(r: dict, full: dict | None = None) -> str:
    """Seconds per stage (and the share of the full refresh's, for the incremental one)."""
    share = (lambda a, b: f"{a / b:>8.1%}" if b else f"{'':>8}") if full else (lambda a, b: "")
    lines = [f"  {'stage':<24}{'s':>8}" + (f"{'of full':>8}" if full else "")]
    for name in STAGE_ORDER:
        seconds = r["stages"].get(name, 0.0)
        lines.append(f"  {name:<24}{seconds:>8.1f}" + share(seconds, full and full["stages"].get(name, 0.0)))
    steps = sum(r["stages"].values())
    overhead = r["seconds"] - steps
    lines.append(f"  {'steps (' + str(r['steps']) + ')':<24}{steps:>8.1f}"
                 + share(steps, full and sum(full["stages"].values())))
    lines.append(f"  {'process, outside steps':<24}{overhead:>8.1f}"
                 + share(overhead, full and full["seconds"] - sum(full["stages"].values())))
    lines.append(f"  {'refresh (wall)':<24}{r['seconds']:>8.1f}" + share(r["seconds"], full and full["seconds"]))
    lines.append("  (steps: Dagster step start to end; outside steps: Python start-up, loading the definitions,"
                 " run bookkeeping)")
    if r.get("slowest"):
        lines.append("  dbt build, slowest nodes: " + ", ".join(f"{n} {t:.1f}s" for n, t in r["slowest"]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=0.1, help="1.0 = 100k papers, 20x10k commits, 200k threads+comments")
    parser.add_argument("--frameworks", type=int, default=20)
    parser.add_argument("--work", type=Path, default=Path("/tmp/rltrack_bench"))
    parser.add_argument("--no-doubling", action="store_true", help="skip the 2x-scale linking measurement")
    parser.add_argument("--stage", help=argparse.SUPPRESS)
    parser.add_argument("--urls", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.stage:
        run_stage(args.stage, json.loads(args.urls))
        return 0

    s = args.scale
    if args.work.exists():
        shutil.rmtree(args.work)
    bench = Bench(args.work, s, args.frameworks)
    from worlds.large_world import LargeWorld

    size = LargeWorld(s, args.frameworks).size
    print(f"rltrack refresh bench: scale {s:g} = {size.papers} papers, {size.frameworks} frameworks x "
          f"{size.commits_per_framework} commits, {size.threads} threads (+~1.5 comments each); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus", flush=True)
    with TreeRss() as tree:
        gen = bench.build_world(s, grown=False)
        project = bench.dbt_project(s)
        print(f"world generated in {gen:.1f}s (repos with git fast-import)", flush=True)
        server, urls = bench.serve(s, grown=False)
        full = bench.refresh(s, "data", urls, project, "full")
        server_rss = bench.stop(server)
        print("\nFULL refresh (empty warehouse)\n" + fmt_refresh(full), flush=True)
        counts = bench.counts(s, "data")
        print("  rows: " + ", ".join(f"{k.split('.')[-1]}={v}" for k, v in counts.items()), flush=True)

        link_s = bench.linking(s, "data", project, f"linking_{s:g}")
        plans = bench.plans(s, "data", project)

        gen_grow = bench.build_world(s, grown=True)
        server, urls = bench.serve(s, grown=True)
        incr = bench.refresh(s, "data", urls, project, "incremental")
        server_rss = max(server_rss, bench.stop(server))
        print(f"\nINCREMENTAL refresh after ~1% new data (grown world built in {gen_grow:.1f}s)\n"
              + fmt_refresh(incr, full))
        print(f"  incremental / full: {incr['seconds'] / full['seconds']:.1%} of the wall time "
              f"(target < 10%)", flush=True)
        counts_grown = bench.counts(s, "data")
        print("  rows: " + ", ".join(f"{k.split('.')[-1]}={v}" for k, v in counts_grown.items()), flush=True)

        link_2s = None
        if not args.no_doubling:
            s2 = 2 * s
            bench.build_world(s2, grown=False)
            project2 = bench.dbt_project(s2)
            server, urls = bench.serve(s2, grown=False)
            env2 = bench.env(s2, "data_2x")
            for source in ("arxiv", "git_history", "github"):
                timed([PY, __file__, "--stage", source, "--urls", json.dumps(urls)], env2, f"2x_{source}", bench.logs)
            bench.stop(server)
            dbt_args = ["--project-dir", str(project2), "--profiles-dir", str(project2)]
            timed([DBT, "seed", *dbt_args], env2, "2x_seed", bench.logs)
            timed([DBT, "run", "-s", *[f"+{m}" for m in LINKING_MODELS], *dbt_args], env2, "2x_upstream", bench.logs)
            link_2s = bench.linking(s2, "data_2x", project2, f"linking_{s2:g}")
            counts_2s = bench.counts(s2, "data_2x")
    print("\nLINKING models (dbt run -s " + " ".join(LINKING_MODELS) + ", best of 2)")
    print(f"  scale {s:g}: {link_s['work_seconds']:.2f}s in the models ({link_s['seconds']:.1f}s wall)  max RSS {link_s['max_rss_mb']:.0f} MB  "
          f"({counts['raw_git.commit_mentions']} mentions, {counts['raw_arxiv.papers']} papers)")
    if link_2s:
        print(f"  scale {2 * s:g}: {link_2s['work_seconds']:.2f}s in the models ({link_2s['seconds']:.1f}s wall)  max RSS {link_2s['max_rss_mb']:.0f} MB  "
              f"({counts_2s['raw_git.commit_mentions']} mentions, {counts_2s['raw_arxiv.papers']} papers)")
        print(f"  ratio 2s/s of the model time: {link_2s['work_seconds'] / link_s['work_seconds']:.2f} "
              f"(linear = 2.0)")
    explained = plans.pop("_models_explained")[0]
    print(f"\nPLANS: EXPLAIN of {explained} compiled models and tests; row-by-row joins (estimated rows per side;"
          " a side of 1 row is a parameter join, harmless):")
    for model, ops in plans.items():
        print(f"  {model}: {', '.join(ops)}")
    if not plans:
        print("  none")
    print(f"\nMEMORY: peak RSS of the process tree (sum of live processes, sampled) {tree.peak_kb / 1024:.0f} MB; "
          f"largest single process of a refresh {max(full['max_rss_mb'], incr['max_rss_mb']):.0f} MB; "
          f"fake servers {server_rss:.0f} MB (target < 4096 MB)")
    print(f"load average at the end {os.getloadavg()[0]:.1f}; logs in {bench.logs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
