"""The Dagster instance folder ($DAGSTER_HOME) with rltrack's dagster.yaml (run queue and pool limits).

`python -m orchestration.instance [DIR]` prepares DIR (default: <data dir>/dagster_home) and prints it.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

INSTANCE_YAML = Path(__file__).with_name("dagster.yaml")


def prepare_dagster_home(home: Path) -> Path:
    """Create `home` and put rltrack's dagster.yaml in it unless one is already there."""
    home.mkdir(parents=True, exist_ok=True)
    target = home / "dagster.yaml"
    if not target.exists():
        shutil.copyfile(INSTANCE_YAML, target)
    return home


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv:
        home = Path(argv[0])
    else:
        from ingestion import config

        home = config.data_dir() / "dagster_home"
    print(prepare_dagster_home(home.resolve()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
