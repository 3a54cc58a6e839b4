"""The data dictionary: dbt's docs site, generated from a copy of the published snapshot.

`dbt docs generate` opens the warehouse read-write to read its catalog, which would collide with
a running refresh (the writing file) or with analysts (the published file, opened read-only by
them). So it runs against a private copy of the published snapshot, which is then removed.
`--static` makes `static_index.html` a single file that opens offline from file://.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import subprocess
import tempfile
from pathlib import Path

from orchestration import warehouse
from orchestration.dbt_project import DBT_PROJECT_DIR, dbt_env, dbt_executable


def generate_docs(out_dir: Path, snapshot: Path | None = None) -> Path:
    """Build the docs site into `out_dir`; returns the path of the offline single-file index."""
    snapshot = snapshot or warehouse.published_path()
    if not snapshot.exists():
        raise RuntimeError(f"no published warehouse at {snapshot}; run `rltrack refresh` first")
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="rltrack-docs-") as tmp:
        copy = Path(tmp) / "warehouse.duckdb"
        shutil.copyfile(snapshot, copy)
        env = {**dbt_env(), "RLTRACK_WAREHOUSE": str(copy)}
        proc = subprocess.run(
            [dbt_executable(), "docs", "generate", "--static", "--quiet",
             "--project-dir", str(DBT_PROJECT_DIR), "--profiles-dir", str(DBT_PROJECT_DIR),
             "--target-path", str(out_dir)],
            env=env, cwd=DBT_PROJECT_DIR, capture_output=True, text=True,
        )
    if proc.returncode != 0:
        raise RuntimeError(f"dbt docs generate failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    static = out_dir / "static_index.html"
    return static if static.exists() else out_dir / "index.html"


def serve_docs(folder: Path, port: int = 8580) -> None:
    """Serve the site on 127.0.0.1 until Ctrl-C (index.html needs a server; static_index.html does not)."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"serving {folder} on http://127.0.0.1:{port}/index.html (Ctrl-C to stop)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
