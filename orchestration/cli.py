"""`rltrack`: run a refresh, print the headline table, query the published warehouse."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path


def _configure(args: argparse.Namespace) -> None:
    """Flags win over the environment; everything downstream reads ingestion.config."""
    if getattr(args, "mode", None):
        os.environ["RLTRACK_MODE"] = args.mode
    if getattr(args, "data_dir", None):
        os.environ["RLTRACK_DATA_DIR"] = str(Path(args.data_dir).resolve())
    if getattr(args, "warehouse", None):
        os.environ["RLTRACK_WAREHOUSE"] = str(Path(args.warehouse).resolve())
    from ingestion import config

    os.environ["RLTRACK_WAREHOUSE"] = str(config.warehouse_path())
    os.environ.setdefault("DAGSTER_HOME", str(config.data_dir() / "dagster_home"))
    Path(os.environ["DAGSTER_HOME"]).mkdir(parents=True, exist_ok=True)


def format_table(headers: list[str], rows: list[tuple]) -> str:
    cells = [[str(h) for h in headers]] + [["" if v is None else str(v) for v in r] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    line = lambda row: "  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip()  # noqa: E731
    return "\n".join([line(cells[0]), line(["-" * w for w in widths]), *map(line, cells[1:])])


def print_headline(path: Path | None = None) -> None:
    from orchestration.assets.publish import headline_rows
    from orchestration.warehouse import connect_read_only

    con = connect_read_only(path)
    try:
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
    _configure(args)
    from orchestration.dbt_project import parse_manifest

    started = time.monotonic()
    parse_manifest(force=True)
    from dagster import DagsterInstance

    from orchestration.definitions import defs

    result = defs.get_job_def("refresh").execute_in_process(instance=DagsterInstance.get())
    if not result.success:
        print("refresh failed; see the log above", file=sys.stderr)
        return 1
    print(f"refresh finished in {time.monotonic() - started:.1f}s\n")
    print_headline()
    return 0


def cmd_headline(args: argparse.Namespace) -> int:
    _configure(args)
    print_headline()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rltrack", description=__doc__)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", help="data folder (default ./data or RLTRACK_DATA_DIR)")
    common.add_argument("--warehouse", help="DuckDB file refreshes write (default <data-dir>/warehouse.duckdb)")
    sub = parser.add_subparsers(dest="command", required=True)

    refresh = sub.add_parser("refresh", parents=[common], help="load sources, build marts, publish, print headline")
    mode = refresh.add_mutually_exclusive_group()
    mode.add_argument("--sample", dest="mode", action="store_const", const="sample",
                      help="bundled offline sample world (default)")
    mode.add_argument("--live", dest="mode", action="store_const", const="live",
                      help="arXiv, GitHub and git over the network")
    refresh.set_defaults(func=cmd_refresh)

    headline = sub.add_parser("headline", parents=[common], help="print the headline table of the published warehouse")
    headline.set_defaults(func=cmd_headline)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
