"""`rltrack`: run a refresh; query, look up and report on the published (read-only) warehouse."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path


def _configure(args: argparse.Namespace, dagster: bool = False) -> None:
    """Flags win over the environment; everything downstream reads ingestion.config.

    Only a refresh (`dagster=True`) needs DAGSTER_HOME; readers create nothing in the data dir.
    """
    if getattr(args, "world", None):  # --sample, --live or --world DIR
        os.environ["RLTRACK_WORLD"] = args.world
    if getattr(args, "data_dir", None):
        os.environ["RLTRACK_DATA_DIR"] = str(Path(args.data_dir).resolve())
        if not getattr(args, "warehouse", None):  # the warehouse follows the data dir given
            os.environ.pop("RLTRACK_WAREHOUSE", None)
    if getattr(args, "warehouse", None):
        os.environ["RLTRACK_WAREHOUSE"] = str(Path(args.warehouse).resolve())
    from ingestion import config

    os.environ["RLTRACK_WAREHOUSE"] = str(config.warehouse_path())
    if dagster:
        os.environ.setdefault("DAGSTER_HOME", str(config.data_dir() / "dagster_home"))
        from orchestration.instance import prepare_dagster_home

        prepare_dagster_home(Path(os.environ["DAGSTER_HOME"]))  # writer pool and run-queue limits


def print_headline(path: Path | None = None) -> None:
    from orchestration.analyst.sql import format_table
    from orchestration.assets.publish import headline_rows
    from orchestration.warehouse import connect_read_only

    from orchestration.analyst.snapshot import describe

    con = connect_read_only(path)
    try:
        snapshot = describe(con)
        for line in snapshot.warnings:  # a stale or incomplete source, said before the figures
            print(f"WARNING {line}")
        print(f"{snapshot.name[0].upper()}{snapshot.name[1:]}:")
        print(format_table(["metric", "ours", "study"], headline_rows(con)))
        cohorts = con.execute(
            "select cohort_label, papers, included_within_horizon, ever_included, horizon_fully_observed "
            "from marts.fct_cohort_adoption order by cohort_quarter"
        ).fetchall()
        print()
        print(format_table(["cohort", "general-method papers", "included <=180d", "ever included",
                            "180d fully observed"], cohorts))
    finally:
        con.close()


def cmd_refresh(args: argparse.Namespace) -> int:
    _configure(args, dagster=True)
    from orchestration.dbt_project import parse_manifest
    from orchestration.warehouse import WarehouseCorrupt, check_warehouse_file

    try:
        check_warehouse_file()
    except WarehouseCorrupt as exc:
        print(f"rltrack: {exc}", file=sys.stderr)
        return 2

    started = time.monotonic()
    parse_manifest()  # when a model, test or seed changed since the last parse
    from dagster import DagsterInstance

    from orchestration.definitions import defs

    # Step-level events go to the Dagster instance (and its UI); the terminal gets INFO and up.
    log_level = os.environ.get("RLTRACK_LOG_LEVEL", "INFO")
    from orchestration.world import using_world
    from worlds.recorded import WorldFolderError

    try:
        with using_world():  # servers up and repositories ready before the sources run
            # every step runs whatever another did (a failed load costs its own source only)
            result = defs.resolve_job_def("refresh").execute_in_process(
                instance=DagsterInstance.get(), raise_on_error=False,
                run_config={"loggers": {"console": {"config": {"log_level": log_level}}}},
            )
    except WorldFolderError as exc:
        print(f"rltrack: {exc}", file=sys.stderr)
        return 2
    failed = sorted({e.step_key for e in result.all_events if e.is_step_failure})
    print(f"refresh {'finished' if result.success else 'ended with failed steps: ' + ', '.join(failed)} "
          f"in {time.monotonic() - started:.1f}s\n")
    print_status()
    if (published := _published_now()) is not None:
        print()
        print_headline(published)
    if not result.success:
        print("refresh incomplete: what loaded is published (see above); the rest is asked again next run",
              file=sys.stderr)
        return 1
    return 0


def _published_now() -> Path | None:
    from orchestration.warehouse import published_path

    return published_path() if published_path().exists() else None


def print_status() -> int:
    """Per source: last load, last complete load, rows, open failures, freshness. Returns the exit
    code `rltrack status` gives: 0 all complete and fresh, 1 open failures, 2 a stale source or none."""
    from orchestration.analyst.sql import format_table
    from orchestration.source_health import STATUS_FILE, read_status_file
    from orchestration.warehouse import published_path

    path = published_path().parent / STATUS_FILE
    status = read_status_file(path)
    if status is None:
        print(f"no source status at {path}; run `rltrack refresh` first", file=sys.stderr)
        return 2
    sources = status["sources"]
    print(f"last run {status['run_id']} at {status['written_at']} (fresh: a complete load within "
          f"{status['freshness_hours']:g} h)")
    print(format_table(["source", "last load", "last complete load", "rows", "open failures", "fresh"],
                       [(s["source"], s["last_load_at"] or "never", s["last_complete_at"] or "never", s["rows"],
                         len(s["open_failures"]), "no" if s["stale"] else "yes") for s in sources]))
    for s in sources:
        for f in s["open_failures"]:
            print(f"  {s['source']}: {f['item']}: {f['reason'][:200]} (failing since {f['first_failed_at']}, "
                  f"last {f['last_failed_at']}, {f['failures']}x)")
    if any(s["stale"] for s in sources):
        return 2
    return 1 if any(s["open_failures"] or not s["last_load_complete"] for s in sources) else 0


def cmd_status(args: argparse.Namespace) -> int:
    _configure(args)
    return print_status()


def cmd_headline(args: argparse.Namespace) -> int:
    _configure(args)
    print_headline()
    return 0


def _open_published(args: argparse.Namespace):
    _configure(args)
    from orchestration.warehouse import connect_read_only

    try:
        return connect_read_only(Path(args.db).resolve() if getattr(args, "db", None) else None)
    except FileNotFoundError as exc:
        print(exc, file=sys.stderr)
        return None


def cmd_sql(args: argparse.Namespace) -> int:
    import duckdb

    from orchestration.analyst.sql import ReadOnlyRefused, Shell, format_result, run_query

    con = _open_published(args)
    if con is None:
        return 2
    try:
        if not args.query or args.query == "-":  # the shell; reads piped statements too
            return Shell(con, args.format).loop()
        try:
            text = format_result(run_query(con, args.query), args.format)
        except ReadOnlyRefused as exc:
            print(exc, file=sys.stderr)
            return 3
        except duckdb.Error as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        if text:
            print(text)
        return 0
    finally:
        con.close()


def cmd_shell(args: argparse.Namespace) -> int:
    args.query = None
    return cmd_sql(args)


def cmd_lookup(args: argparse.Namespace) -> int:
    import json

    from orchestration.analyst.lookup import lookup, render

    con = _open_published(args)
    if con is None:
        return 2
    try:
        result = lookup(con, " ".join(args.query))
    finally:
        con.close()
    if args.json:
        print(json.dumps(result.as_dict(), indent=2, default=str))
    else:
        print(render(result), end="")
    return 0 if result.found else 1


def cmd_quarantine(args: argparse.Namespace) -> int:
    from orchestration.analyst.quarantine import COLUMNS, quarantined, summary
    from orchestration.analyst.sql import QueryResult, format_result

    con = _open_published(args)
    if con is None:
        return 2
    try:
        rows = quarantined(con, args.source)
    finally:
        con.close()
    if rows:
        print(format_result(QueryResult(list(COLUMNS), rows), args.format))
    if args.format == "table":
        print(summary(rows))
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from orchestration.analyst.report import write_report

    con = _open_published(args)
    if con is None:
        return 2
    from ingestion import config

    out = Path(args.out).resolve() if args.out else config.data_dir() / "report" / "report.html"
    try:
        write_report(con, out)
    finally:
        con.close()
    print(f"report written to {out}  (open file://{out})")
    return 0


def cmd_site(args: argparse.Namespace) -> int:
    from orchestration.analyst.site import render_site

    con = _open_published(args)
    if con is None:
        return 2
    from ingestion import config
    from orchestration.world import world_spec

    out = Path(args.out).resolve() if args.out else config.data_dir() / "site"
    sample = args.world == "sample" if args.world else world_spec() == "sample"
    try:
        index = render_site(con, out, sample=sample)
    except FileExistsError as exc:
        print(f"rltrack: {exc}", file=sys.stderr)
        return 2
    finally:
        con.close()
    print(f"site written to {out}  (open file://{index})")
    return 0


def cmd_pool_size(args: argparse.Namespace) -> int:
    """Papers per month the candidate-pool query returns, from arXiv's own counts (no harvest)."""
    _configure(args)
    import calendar
    from datetime import date

    from ingestion import config
    from ingestion.arxiv.source import ArxivClient, monthly_pool_sizes
    from orchestration.analyst.sql import format_table
    from orchestration.world import using_world

    first, last = config.study_window()
    if args.first:
        first = date.fromisoformat(args.first + "-01")
    if args.last:
        year, month = map(int, args.last.split("-"))
        last = date(year, month, calendar.monthrange(year, month)[1])
    with using_world(args.world) as world:
        polite = world.arxiv_politeness
        client = ArxivClient(world.arxiv_api, http=polite.client(), empty_retry_wait_s=polite.retry_wait_s)
        rows = []
        for m in monthly_pool_sizes(client, first, last):
            share = f"{m.pool_papers / m.category_papers:.1%}" if m.category_papers else "-"
            rows.append((m.month, m.category_papers, m.pool_papers, share))
            print(f"{m.month}: {m.pool_papers} of {m.category_papers}", file=sys.stderr, flush=True)
    print(format_table(["month", "category papers", "pool papers", "share"], rows))
    if rows:
        pool = [r[2] for r in rows]
        print(f"\npool: {sum(pool)} papers in {len(rows)} months, {sum(pool) / len(rows):.0f} a month")
    return 0


def cmd_docs(args: argparse.Namespace) -> int:
    _configure(args)
    from orchestration.analyst.docs import generate_docs, serve_docs

    from ingestion import config

    target = Path(args.out).resolve() if args.out else config.data_dir() / "dbt_docs"
    try:
        index = generate_docs(target)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"data dictionary: {index}")
    if args.serve:
        serve_docs(index.parent, args.port)
    return 0


def cmd_frameworks(args: argparse.Namespace) -> int:
    """The registry the user extends: list, add OWNER/NAME, remove ID."""
    _configure(args)
    from ingestion import config
    from orchestration import registry
    from orchestration.analyst.sql import format_table

    try:
        if args.action == "add":
            row, path = registry.add(registry.NewFramework(
                repo=args.repo, framework_id=args.id, display_name=args.name, docs_paths=tuple(args.docs or ()),
                maintainer_orgs=tuple(args.org or ()), maintainer_domains=tuple(args.domain or ()),
                default_branch=args.branch))
            print(f"added {row['framework_id']} ({row['repo']}, default branch {row['default_branch']}) to {path}; "
                  "the next refresh mines its history and threads")
        elif args.action == "remove":
            path = registry.remove(args.framework_id)
            print(f"removed {args.framework_id} from {path}")
    except registry.RegistryError as exc:
        print(f"rltrack: {exc}", file=sys.stderr)
        return 2
    if args.action == "list":
        rows = [(f.framework_id, f.display_name, f.repo, f.default_branch, "; ".join(f.docs_paths),
                 "; ".join(f.maintainer_orgs)) for f in config.frameworks()]
        print(format_table(["id", "name", "repository", "branch", "docs", "maintainers"], rows))
        print(f"\nregistry: {config.frameworks_csv()}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rltrack", description=__doc__)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", help="data folder (default ./data or RLTRACK_DATA_DIR)")
    common.add_argument("--warehouse", help="DuckDB file refreshes write (default <data-dir>/warehouse.duckdb)")
    sub = parser.add_subparsers(dest="command", required=True)

    refresh = sub.add_parser("refresh", parents=[common], help="load sources, build marts, publish, print headline")
    world = refresh.add_mutually_exclusive_group()
    world.add_argument("--sample", dest="world", action="store_const", const="sample",
                       help="bundled offline sample world (default)")
    world.add_argument("--live", dest="world", action="store_const", const="live",
                       help="arXiv, GitHub and git over the network")
    world.add_argument("--world", dest="world", type=lambda p: str(Path(p).resolve()), metavar="DIR",
                       help="replay a recorded world folder (see worlds/README.md)")
    refresh.set_defaults(func=cmd_refresh)

    status = sub.add_parser("status", parents=[common], help="per source: last load, last complete load, rows, "
                            "open failures, freshness (exit 0 all well, 1 open failures, 2 a stale source)")
    status.set_defaults(func=cmd_status)

    headline = sub.add_parser("headline", parents=[common], help="print the headline table of the published warehouse")
    headline.set_defaults(func=cmd_headline)

    reader = argparse.ArgumentParser(add_help=False, parents=[common])
    reader.add_argument("--db", help="DuckDB file to read instead of the published snapshot")

    sql = sub.add_parser("sql", parents=[reader], help="run SQL on the published warehouse (read-only); "
                         "no query starts an interactive shell")
    sql.add_argument("query", nargs="?", help="SQL to run; omit for the shell (or pipe statements on stdin)")
    sql.add_argument("--format", choices=["table", "csv", "json"], default="table")
    sql.set_defaults(func=cmd_sql)

    shell = sub.add_parser("shell", parents=[reader], help="interactive read-only SQL shell")
    shell.add_argument("--format", choices=["table", "csv", "json"], default="table")
    shell.set_defaults(func=cmd_shell)

    look = sub.add_parser("lookup", parents=[reader], help="is a method already in a framework or proposed? "
                          "(arXiv id, arXiv URL or method name)")
    look.add_argument("query", nargs="+", help="e.g. 2507.18071, 2503.14476v2, https://arxiv.org/abs/..., 'Dr. GRPO'")
    look.add_argument("--json", action="store_true", help="machine-readable output")
    look.set_defaults(func=cmd_lookup)

    quarantine = sub.add_parser("quarantine", parents=[reader], help="list what every source set aside "
                                "(arXiv entries, git files and commits, GitHub objects, tech reports, front-matter pages) and why")
    from orchestration.analyst.quarantine import QUARANTINE_TABLES

    quarantine.add_argument("--source", action="append", choices=list(QUARANTINE_TABLES),
                            help="only this source (repeatable)")
    quarantine.add_argument("--format", choices=["table", "csv", "json"], default="table")
    quarantine.set_defaults(func=cmd_quarantine)

    report = sub.add_parser("report", parents=[reader], help="write the static HTML report (one file, offline)")
    report.add_argument("--out", help="output file (default <data-dir>/report/report.html)")
    report.set_defaults(func=cmd_report)

    site = sub.add_parser("site", parents=[reader], help="write the static tracker site (methods, frameworks, "
                          "proposals, failures; opens offline)")
    site.add_argument("--out", help="output folder (default <data-dir>/site)")
    site.add_argument("--world", choices=["sample", "live"],
                      help="which world the snapshot came from, for its links (default RLTRACK_MODE); "
                           "sample links are marked as such")
    site.set_defaults(func=cmd_site)

    pool = sub.add_parser("pool-size", parents=[common], help="papers per month the candidate-pool query "
                          "returns (arXiv's counts, two requests a month; no harvest)")
    pool_world = pool.add_mutually_exclusive_group()
    pool_world.add_argument("--sample", dest="world", action="store_const", const="sample")
    pool_world.add_argument("--live", dest="world", action="store_const", const="live")
    pool_world.add_argument("--world", dest="world", type=lambda p: str(Path(p).resolve()), metavar="DIR")
    pool.add_argument("--from", dest="first", metavar="YYYY-MM", help="first month (default: the study window's)")
    pool.add_argument("--to", dest="last", metavar="YYYY-MM", help="last month (default: the study window's)")
    pool.set_defaults(func=cmd_pool_size)

    frameworks = sub.add_parser("frameworks", parents=[common], help="the tracked frameworks: list, add OWNER/NAME, "
                                "remove ID (a registry kept in the data dir)")
    actions = frameworks.add_subparsers(dest="action", required=True)
    actions.add_parser("list", parents=[common], help="the registry").set_defaults(func=cmd_frameworks)
    add = actions.add_parser("add", parents=[common], help="track a framework from the next refresh on")
    add.add_argument("repo", help="its GitHub repository, OWNER/NAME")
    add.add_argument("--id", help="framework id (default: the repository's name, lower snake case)")
    add.add_argument("--name", help="display name (default: the repository's name)")
    add.add_argument("--docs", action="append", metavar="PATH", help="a docs folder (repeatable; default docs/)")
    add.add_argument("--org", action="append", metavar="ORG", help="a maintaining organisation (repeatable)")
    add.add_argument("--domain", action="append", metavar="DOMAIN",
                     help="an e-mail domain only the maintainers use (repeatable)")
    add.add_argument("--branch", help="default branch (default: detected from the repository)")
    add.set_defaults(func=cmd_frameworks)
    remove = actions.add_parser("remove", parents=[common], help="stop tracking a framework")
    remove.add_argument("framework_id")
    remove.set_defaults(func=cmd_frameworks)

    docs = sub.add_parser("docs", parents=[common], help="generate the dbt docs site (data dictionary)")
    docs.add_argument("--out", help="folder for the site (default <data-dir>/dbt_docs)")
    docs.add_argument("--serve", action="store_true", help="serve it on http://127.0.0.1:PORT")
    docs.add_argument("--port", type=int, default=8580)
    docs.set_defaults(func=cmd_docs)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
