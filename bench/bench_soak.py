"""Soak bench: 30 simulated days of scheduled refreshes over a growing world, without and with faults.

    PYTHONPATH=$PWD /work/main/.venv/bin/python bench/bench_soak.py [--days 30] [--out /tmp/rltrack-soak]

The world is the bundled sample revealed day by day (`worlds/soak.py`: a few papers, commits and
thread changes a day). Each day runs the `refresh` job in this process (every load, dbt build,
checks, publish; not the tracker site, which the figures do not need) over the faulty world, and
the loads alone over the fault-free world, whose marts are built once, on the last day (a build is
~40 s on this machine; the faulty run's daily builds are the ones under test) (`worlds.soak.FaultPlan`: 5% of requests 5xx or dropped, one
month's feed page cut short for a week, a repository unreachable for three days, a force-pushed
branch, a GitHub rate limit without a reset header, a refresh killed mid-load and run again).
RLTRACK_FRESHNESS_HOURS is two simulated days. Printed: days with a published snapshot, mart rows
at the end against the fault-free run, rows lost or duplicated on any day, faults shown by
`rltrack status` on the days they lasted, wall time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

# raw table -> its key (rows lost or duplicated are counted on these)
KEYS = {
    "raw_arxiv.papers": "arxiv_id",
    "raw_arxiv.paper_features": "arxiv_id",
    "raw_git.commits": "repo, sha",
    "raw_git.commit_files": "repo, sha, path",
    "raw_github.issues": "framework_id, number",
    "raw_github.pull_requests": "framework_id, number",
    "raw_github.comments": "id",
    "raw_reports.reports": "arxiv_id",
}


def soak_jobs():
    """(the refresh without the tracker site, the loads alone)."""
    import dagster as dg

    from orchestration.assets.raw import RAW_ASSETS
    from orchestration.definitions import defs

    site = dg.AssetKey(["published", "tracker_site"])
    refresh = dg.define_asset_job("soak_refresh", selection=dg.AssetSelection.all() - dg.AssetSelection.assets(site))
    loads = dg.define_asset_job("soak_loads", selection=dg.AssetSelection.assets(*RAW_ASSETS))
    merged = dg.Definitions.merge(defs, dg.Definitions(jobs=[refresh, loads]))
    return merged.resolve_job_def("soak_refresh"), merged.resolve_job_def("soak_loads")


RUN_CONFIG = {"ops": {"load_github": {"config": {"max_rate_wait_s": 0.0}}},  # a rate limit stops the load
              "loggers": {"console": {"config": {"log_level": "ERROR"}}}}


def refresh(job, instance, world) -> bool:
    from orchestration.world import serving

    with serving(world):
        return job.execute_in_process(instance=instance, raise_on_error=False, run_config=RUN_CONFIG).success


def killed_refresh(job, instance, world, data: Path) -> str:
    """Run the refresh in a forked child and SIGKILL it once a load has a normalized package that is not
    loaded yet (between dlt's normalize and the end of its load: the load is cut mid-way)."""
    pid = os.fork()
    if pid == 0:  # the child: the servers keep answering from the parent's threads
        try:
            refresh(job, instance, world)
        finally:
            os._exit(0)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        pending = list((data / "dlt_pipelines").glob("*/load/normalized/*"))
        if pending:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return f"killed during the load of {pending[0].parts[-4]}"
        finished, _ = os.waitpid(pid, os.WNOHANG)
        if finished:
            return "not killed: the refresh finished first"
        time.sleep(0.002)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return "killed at the deadline"


def published_built_at(data: Path) -> str | None:
    import duckdb

    path = data / "published" / "warehouse.duckdb"
    if not path.exists():
        return None
    with duckdb.connect(str(path), read_only=True) as con:
        return str(con.execute("select built_at from rltrack_meta.dbt_build_inputs").fetchone()[0])


def raw_keys(data: Path) -> dict[str, list[tuple]]:
    """Every key of every KEYS table in the working warehouse (duplicates kept)."""
    import duckdb

    out = {}
    with duckdb.connect(str(data / "warehouse.duckdb"), read_only=True) as con:
        for table, key in KEYS.items():
            try:
                out[table] = sorted(con.execute(f"select {key} from {table}").fetchall())
            except duckdb.CatalogException:
                out[table] = []
    return out


def mart_digests(data: Path) -> dict[str, tuple[int, str]]:
    """(rows, content hash) of every mart of the published snapshot."""
    import duckdb

    with duckdb.connect(str(data / "published" / "warehouse.duckdb"), read_only=True) as con:
        marts = [t for (t,) in con.execute("select table_name from information_schema.tables "
                                           "where table_schema = 'marts' order by 1").fetchall()]
        return {m: tuple(con.execute(f"select count(*), coalesce(sum(hash(t)::hugeint), 0)::varchar "
                                     f"from marts.{m} as t").fetchone()) for m in marts}


def status_failing(data: Path) -> set[str]:
    """Sources `rltrack status` shows failing (open failures, an incomplete or unfinished last load)."""
    from orchestration.source_health import STATUS_FILE, read_status_file

    status = read_status_file(data / "published" / STATUS_FILE) or {"sources": []}
    return {s["source"] for s in status["sources"] if s["open_failures"] or not s["last_load_complete"]}


def lost_and_duplicated(before: dict, after: dict, final: dict) -> tuple[int, int]:
    """Rows gone since yesterday that the fault-free run holds at the end (commits a force push took
    off the branch are not there either), and keys held more than once."""
    from collections import Counter

    lost = dup = 0
    for table in KEYS:
        lost += len((set(before.get(table, [])) - set(after[table])) & set(final[table]))
        dup += sum(n - 1 for n in Counter(after[table]).values() if n > 1)
    return lost, dup


def soak(out: Path, days: int, plan, faulty: bool, final_keys: dict | None) -> dict:
    from dagster import DagsterInstance

    from ingestion import config
    from worlds.soak import SoakWorld, clock

    data = out / ("faulty" if faulty else "fault_free")
    shutil.rmtree(data, ignore_errors=True)
    os.environ["RLTRACK_DATA_DIR"] = str(data)
    os.environ.pop("RLTRACK_WAREHOUSE", None)
    (job, loads_job), instance = soak_jobs(), DagsterInstance.ephemeral()
    rows: list[dict] = []
    keys_by_day: list[dict] = []
    started = time.monotonic()
    with SoakWorld(data / "world", plan, faulty) as world:
        plan = plan if faulty else None
        for day in range(days):
            os.environ["RLTRACK_NOW"] = clock(day).isoformat()
            day_world = world.day(day)
            before = published_built_at(data)
            note, shown_by_kill = "", set()
            if plan and day == plan.kill_day:
                note = killed_refresh(job, instance, day_world, data)
                shown_by_kill = status_failing(data)  # between the kill and the scheduler's retry
            # the fault-free run loads daily and builds once, on the last day (time: a build is ~40 s)
            ok = refresh(job if faulty or day == days - 1 else loads_job, instance, day_world)
            keys = raw_keys(data)
            lost = dup = 0
            if final_keys is not None:
                lost, dup = lost_and_duplicated(keys_by_day[-1] if keys_by_day else {}, keys, final_keys)
            keys_by_day = [keys]
            failing = status_failing(data)
            expected = plan.expected(day) if plan else {}
            status = __import__("json").loads((data / "published" / "source_status.json").read_text())
            rows.append({"day": day, "published": published_built_at(data) not in (before, None), "run_ok": ok,
                         "sources_ok": sum(1 for s in status["sources"] if s["last_load_complete"]),
                         "expected": expected, "failing": failing, "shown_by_kill": shown_by_kill,
                         "lost": lost, "dup": dup, "note": note})
            print(f"  {'faulty' if faulty else 'fault-free'} day {day:2d} ({clock(day):%Y-%m-%d}): "
                  f"published={rows[-1]['published']} run_ok={ok} failing={sorted(failing) or '-'} "
                  f"expected={sorted(set(expected.values())) or '-'} lost={lost} dup={dup} {note}"
                  f"{' kill shown by ' + str(sorted(shown_by_kill)) if shown_by_kill else ''}",
                  flush=True)
    return {"rows": rows, "keys": keys_by_day, "marts": mart_digests(data), "wall_s": time.monotonic() - started,
            "freshness_hours": config.freshness_hours()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--out", default="/tmp/rltrack-soak")
    parser.add_argument("--quick", action="store_true", help="every fault within the first four days (a trial)")
    args = parser.parse_args()
    out = Path(args.out).resolve()
    from worlds.soak import STEP, FaultPlan

    plan = FaultPlan(malformed_days=range(1, 3), unreachable_days=range(1, 3), force_push_day=2, rate_limit_day=2,
                     kill_day=3) if args.quick else FaultPlan()

    os.environ["RLTRACK_FRESHNESS_HOURS"] = str(2 * STEP.total_seconds() / 3600)  # two scheduled days
    os.environ["DAGSTER_HOME"] = str(out / "dagster_home")
    (out / "dagster_home").mkdir(parents=True, exist_ok=True)
    total = time.monotonic()
    clean = soak(out, args.days, plan, faulty=False, final_keys=None)
    faulty = soak(out, args.days, plan, faulty=True, final_keys=clean["keys"][-1])
    report(clean, faulty, time.monotonic() - total)
    return 0


def report(clean: dict, faulty: dict, wall_s: float) -> None:
    rows = faulty["rows"]
    days = len(rows)
    published = sum(r["published"] for r in rows)
    some_source = sum(1 for r in rows if r["sources_ok"] > 0)
    same = [m for m in clean["marts"] if clean["marts"][m] == faulty["marts"].get(m)]
    differ = sorted(set(clean["marts"]) ^ set(faulty["marts"]) | {m for m in clean["marts"] if m not in same})
    lost, dup = sum(r["lost"] for r in rows), sum(r["dup"] for r in rows)
    end_lost = sum(len(set(clean["keys"][-1][t]) - set(faulty["keys"][-1][t])) for t in KEYS)
    end_extra = sum(len(set(faulty["keys"][-1][t]) - set(clean["keys"][-1][t])) for t in KEYS)
    fault_days = [(r["day"], f, s) for r in rows for f, s in r["expected"].items()]
    shown = [(d, f, s) for d, f, s in fault_days if s in rows[d]["failing"]]
    kill = [r for r in rows if r["note"]]
    kill_shown = all(r["shown_by_kill"] for r in kill)
    unexpected = [(r["day"], sorted(r["failing"] - set(r["expected"].values()))) for r in rows
                  if r["failing"] - set(r["expected"].values())]
    print()
    print(f"| figure | fault-free | faulty | target |")
    print(f"|---|---|---|---|")
    print(f"| days with a snapshot published that day | built on the last day only | "
          f"{published} of {days} | every day at least one source succeeded ({some_source} of {days}) |")
    print(f"| marts identical at the end (rows and content) | - | {len(same)} of {len(clean['marts'])}"
          f"{' (differ: ' + ', '.join(differ) + ')' if differ else ''} | all |")
    print(f"| mart rows at the end | {sum(n for n, _ in clean['marts'].values())} | "
          f"{sum(n for n, _ in faulty['marts'].values())} | identical |")
    print(f"| raw rows lost on any day / missing at the end | - | {lost} / {end_lost} | 0 |")
    print(f"| raw rows duplicated on any day / extra at the end | - | {dup} / {end_extra} | 0 |")
    print(f"| fault-days shown by `rltrack status` | - | {len(shown)} of {len(fault_days)} | all |")
    print(f"| killed refresh shown (load not finished) before its retry | - | "
          f"{'yes' if kill and kill_shown else 'no'} ({'; '.join(r['note'] for r in kill) or 'no kill'}) | yes |")
    print(f"| days a source showed failing beyond the schedule (5xx/drops past retries) | - | "
          f"{len(unexpected)} {unexpected if unexpected else ''} | reported |")
    print(f"| wall time | {clean['wall_s']:.0f} s | {faulty['wall_s']:.0f} s | |")
    print(f"\ntotal wall time {wall_s:.0f} s; freshness bound {faulty['freshness_hours']:g} h (two simulated days)")


if __name__ == "__main__":
    sys.exit(main())
