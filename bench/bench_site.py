"""Benchmark of `rltrack site`: build the tracker site from a published snapshot and print its cost.

Prints the build time, the number of pages, the size of the home page (the matrix) and of the whole
site, and the search index size. Point it at a large warehouse, e.g. the one `bench_refresh.py`
leaves in its work folder:

  python bench/bench_site.py --db /tmp/rltrack_bench/data/published/warehouse.duckdb
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))


def size_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, required=True, help="published warehouse to read")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args(argv)
    import duckdb

    from orchestration.analyst.site import render_site

    con = duckdb.connect(str(args.db), read_only=True)
    papers, adoptions, frameworks = con.execute(
        "select (select count(*) from marts.dim_papers), (select count(*) from marts.fct_method_adoptions), "
        "(select count(*) from marts.dim_frameworks where commits_mined > 0)").fetchone()
    print(f"rltrack site bench: {args.db} ({papers} papers, {adoptions} adoptions, {frameworks} frameworks)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "site"
        for run in range(args.runs):
            started = time.perf_counter()
            index = render_site(con, out)
            seconds = time.perf_counter() - started
            print(f"  run {run + 1}: {seconds:.2f} s")
        pages = list(out.rglob("*.html"))
        print(f"  pages: {len(pages)} ({len(list((out / 'methods').iterdir()))} methods, "
              f"{len(list((out / 'frameworks').iterdir()))} frameworks)")
        print(f"  home page (matrix): {index.stat().st_size / 1e6:.2f} MB; search index "
              f"{(out / 'assets' / 'search-index.js').stat().st_size / 1e6:.2f} MB; whole site {size_mb(out):.1f} MB")
    print(f"  peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
