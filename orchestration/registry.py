"""The framework registry the user extends: `rltrack frameworks add | list | remove`.

The default registry is the dbt seed (the nine frameworks). The first `add` or `remove` copies it
to `<data dir>/frameworks.csv` and edits that copy (written whole, then renamed into place), so the
registry lives with the data it describes and the dbt project is never edited. Every source reads
it through `config.frameworks()`, and dbt through `stg_registry__frameworks`.
"""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ingestion import config
from ingestion.world import GIT_REMOTE_TEMPLATE, REPO_ENV

COLUMNS = ("framework_id", "display_name", "repo", "former_repos", "default_branch", "maintainer_orgs",
           "maintainer_domains", "docs_paths", "in_sample")
_REPO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+$")
_ID_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
LS_REMOTE_TIMEOUT_S = 120


class RegistryError(ValueError):
    """A registry change that cannot be made (the message says why)."""


@dataclass(frozen=True)
class NewFramework:
    repo: str
    framework_id: str | None = None
    display_name: str | None = None
    docs_paths: tuple[str, ...] = ()
    maintainer_orgs: tuple[str, ...] = ()
    maintainer_domains: tuple[str, ...] = ()
    default_branch: str | None = None


def framework_id_for(repo: str) -> str:
    """`NovaSky-AI/SkyRL` -> `skyrl`: the repository's name, lower snake case."""
    name = re.sub(r"[^a-z0-9]+", "_", repo.rpartition("/")[2].lower()).strip("_")
    return name if name[:1].isalpha() else f"fw_{name}"


def repository_location(framework_id: str, repo: str) -> str:
    """Where the live world reads the framework from: `RLTRACK_GIT_REPO_<ID>` (a local repository or
    clone URL), else `RLTRACK_GIT_REMOTE_TEMPLATE` (GitHub by default)."""
    local = os.environ.get(REPO_ENV + framework_id.upper())
    template = os.environ.get("RLTRACK_GIT_REMOTE_TEMPLATE") or GIT_REMOTE_TEMPLATE
    return local or template.format(repo=repo)


def default_branch(location: str) -> str:
    """The branch the repository's HEAD names (`git ls-remote --symref`; a local path or a URL)."""
    try:
        proc = subprocess.run(["git", "ls-remote", "--symref", location, "HEAD"], capture_output=True, text=True,
                              timeout=LS_REMOTE_TIMEOUT_S, env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RegistryError(f"cannot read {location}: {exc}") from None
    match = re.search(r"^ref:\s*refs/heads/(\S+)\s+HEAD$", proc.stdout, re.M)
    if proc.returncode != 0 or not match:
        reason = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "no HEAD branch"
        raise RegistryError(f"cannot detect the default branch of {location} ({reason}); "
                            "give it with --branch")
    return match.group(1)


def read_rows(path: Path | None = None) -> list[dict[str, str]]:
    with Path(path or config.frameworks_csv()).open(newline="", encoding="utf-8") as fh:
        return [{c: (r.get(c) or "") for c in COLUMNS} for r in csv.DictReader(fh)]


def _write_rows(rows: list[dict[str, str]]) -> Path:
    """Write the registry the user edits (the override file, else the data dir's copy), whole."""
    target = Path(os.environ["RLTRACK_FRAMEWORKS_CSV"]) if os.environ.get("RLTRACK_FRAMEWORKS_CSV") \
        else config.user_frameworks_csv()
    target.parent.mkdir(parents=True, exist_ok=True)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.write_text(buf.getvalue(), encoding="utf-8")
    os.replace(tmp, target)
    return target


def add(new: NewFramework) -> tuple[dict[str, str], Path]:
    """Add a framework to the registry; returns its row and the registry file written."""
    repo = new.repo.strip().removeprefix("https://github.com/").removesuffix(".git").strip("/")
    if not _REPO_RE.match(repo):
        raise RegistryError(f"expected OWNER/NAME, got {new.repo!r}")
    fw_id = new.framework_id or framework_id_for(repo)
    if not _ID_RE.match(fw_id):
        raise RegistryError(f"framework id {fw_id!r}: lower case letters, digits and _, starting with a letter")
    rows = read_rows()
    for r in rows:
        if r["framework_id"] == fw_id:
            raise RegistryError(f"framework id {fw_id!r} is already registered ({r['repo']}); choose another with --id")
        known = [r["repo"], *config.split_list(r["former_repos"])]
        if repo.lower() in (k.lower() for k in known):
            raise RegistryError(f"{repo} is already registered as {r['framework_id']!r}")
    branch = new.default_branch or default_branch(repository_location(fw_id, repo))
    row = {
        "framework_id": fw_id, "display_name": new.display_name or repo.rpartition("/")[2], "repo": repo,
        "former_repos": "", "default_branch": branch, "maintainer_orgs": ";".join(new.maintainer_orgs),
        "maintainer_domains": ";".join(new.maintainer_domains),
        "docs_paths": ";".join(new.docs_paths or ("docs/",)), "in_sample": "false",
    }
    return row, _write_rows([*rows, row])


def remove(framework_id: str) -> Path:
    """Take a framework off the registry (rows already loaded stay in the raw tables; the models
    read only registered frameworks)."""
    rows = read_rows()
    kept = [r for r in rows if r["framework_id"] != framework_id]
    if len(kept) == len(rows):
        raise RegistryError(f"no framework {framework_id!r} in the registry ({config.frameworks_csv()})")
    if not kept:
        raise RegistryError("the registry cannot be left empty")
    return _write_rows(kept)
