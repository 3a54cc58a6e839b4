"""A world: everything the sources read, and how politely each endpoint is asked.

The sources take a `World` and know nothing else. `World.live()` is the real world: arXiv's and
GitHub's public endpoints and a clone of each framework under the data folder (with the
environment's overrides). Other worlds (the bundled sample, a recorded world on disk, the tests'
and the bench's worlds) are served on loopback by the `worlds` package and handed in the same way.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from ingestion import config
from ingestion.http import PoliteClient

ARXIV_API = "http://export.arxiv.org/api/query"
ARXIV_OAI = "http://export.arxiv.org/oai2"
ARXIV_WEB = "https://arxiv.org"
GITHUB_API = "https://api.github.com"
GIT_REMOTE_TEMPLATE = "https://github.com/{repo}.git"
REPO_ENV = "RLTRACK_GIT_REPO_"  # + FRAMEWORK_ID (upper case): a local repository or a clone URL


@dataclass(frozen=True)
class Politeness:
    """How an endpoint is asked: spacing between calls, retry backoff (doubling up to a cap), and the
    wait before asking again for a page that came back empty or unreadable."""

    min_interval_s: float = 0.0
    backoff_s: float = 0.01
    max_backoff_s: float = 0.1
    retry_wait_s: float = 0.0

    def client(self, **kwargs: Any) -> PoliteClient:
        """An HTTP client spacing and retrying calls this politely."""
        return PoliteClient(min_interval_s=self.min_interval_s, backoff_s=self.backoff_s,
                            max_backoff_s=self.max_backoff_s, **kwargs)


LOOPBACK = Politeness()  # a server on this machine: no spacing, quick retries
ARXIV_POLITE = Politeness(min_interval_s=3.0, backoff_s=2.0, max_backoff_s=60.0, retry_wait_s=5.0)  # arXiv's terms
GITHUB_POLITE = Politeness(min_interval_s=0.5, backoff_s=2.0, max_backoff_s=120.0)
ARXIV_WEB_POLITE = Politeness(min_interval_s=3.0, backoff_s=5.0, max_backoff_s=120.0)


@dataclass(frozen=True)
class World:
    """Endpoints, report list, registry subset and one repository location per framework."""

    name: str = "live"
    arxiv_api: str = ARXIV_API  # the query API (Atom)
    arxiv_oai: str = ARXIV_OAI  # OAI-PMH, for back-fills
    github_api: str = GITHUB_API
    arxiv_web: str = ARXIV_WEB  # /html/<id> and /abs/<id> pages of the tech reports
    reports_csv: Path | None = None  # the report list in seeds/tech_reports.csv's columns; None: that seed
    frameworks_csv: Path | None = None  # the registry in seeds/frameworks.csv's columns; None: config's
    framework_ids: tuple[str, ...] | None = None  # the registry subset this world has; None: all
    repos: tuple[tuple[str, str], ...] = ()  # framework_id -> local repository (used as is) or clone URL
    repos_dir: Path = Path("repos")  # where the other frameworks are cloned (bare), from `remote_template`
    remote_template: str = GIT_REMOTE_TEMPLATE  # `{repo}` is the registry's owner/name
    arxiv_politeness: Politeness = ARXIV_POLITE
    github_politeness: Politeness = GITHUB_POLITE
    arxiv_web_politeness: Politeness = ARXIV_WEB_POLITE
    arxiv_pool: bool = True  # harvest only the study's candidate pool (`ingestion.arxiv.pool`)
    affiliations: bool = True  # look authors' institutions up (OpenAlex) before screening
    model_screener: bool = True  # a language model screens too, when the environment configures one
    learned_screener: bool = True  # the committed learned model (ingestion/screening/model) decides the fields it was chosen for
    report_recheck_s: float = 86400.0  # a tech report read from less than its full text is asked again after this
    # a paper arXiv had no HTML (or no front matter) for is asked again after this (fetch failures:
    # after report_recheck_s)
    front_matter_recheck_s: float = 7 * 86400.0

    @classmethod
    def live(cls) -> World:
        """The public endpoints; RLTRACK_ARXIV_API / _ARXIV_OAI / _ARXIV_WEB / _GITHUB_API (a mirror,
        GitHub Enterprise), RLTRACK_GIT_REPO_<FRAMEWORK_ID> (a local repository or another clone
        URL), RLTRACK_GIT_REMOTE_TEMPLATE and RLTRACK_FRAMEWORKS_CSV override them."""
        env = os.environ.get
        return cls(
            arxiv_api=env("RLTRACK_ARXIV_API") or ARXIV_API,
            arxiv_oai=env("RLTRACK_ARXIV_OAI") or ARXIV_OAI,
            arxiv_web=(env("RLTRACK_ARXIV_WEB") or ARXIV_WEB).rstrip("/"),
            github_api=(env("RLTRACK_GITHUB_API") or GITHUB_API).rstrip("/"),
            repos=tuple(sorted((key.removeprefix(REPO_ENV).lower(), value) for key, value in os.environ.items()
                               if key.startswith(REPO_ENV) and value)),
            repos_dir=config.data_dir() / "repos",
            remote_template=env("RLTRACK_GIT_REMOTE_TEMPLATE") or GIT_REMOTE_TEMPLATE,
        )

    @classmethod
    def loopback(cls, name: str, **parts: Any) -> World:
        """A world served on this machine: every endpoint asked without spacing."""
        parts = {"arxiv_pool": False, "affiliations": False, "model_screener": False, "learned_screener": False,
                 "report_recheck_s": 0.0,
                 "front_matter_recheck_s": 0.0, **parts}
        return cls(name=name, arxiv_politeness=LOOPBACK, github_politeness=LOOPBACK,
                   arxiv_web_politeness=LOOPBACK, **parts)

    def replace(self, **changes: Any) -> World:
        return replace(self, **changes)

    def frameworks(self) -> list[config.Framework]:
        """The registry subset this world has."""
        registry = config.frameworks(csv_path=self.frameworks_csv)
        if self.framework_ids is None:
            return registry
        return [f for f in registry if f.framework_id in self.framework_ids]

    def registry(self) -> dict[str, config.Framework]:
        """Every framework of this world's registry file, by id (for explicit selections)."""
        return {f.framework_id: f for f in config.frameworks(csv_path=self.frameworks_csv)}

    def repository(self, framework_id: str) -> str | None:
        """The local repository or clone URL this world gives for a framework (None: clone from the
        remote template)."""
        return dict(self.repos).get(framework_id) or None

    # --- a world as JSON (a recorded world's world.json uses the same keys) ----------------------
    def to_json(self) -> str:
        data = asdict(self)
        data["repos"] = dict(self.repos)
        return json.dumps(data, default=str, indent=2)

    @classmethod
    def from_dict(cls, data: dict[str, Any], base: Path | None = None) -> World:
        """A world from a manifest's keys (unknown keys are an error; relative paths are from `base`)."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown world keys {sorted(unknown)} (known: {sorted(known)})")
        base = base or Path.cwd()
        out: dict[str, Any] = dict(data)
        for key in ("reports_csv", "frameworks_csv", "repos_dir"):
            if out.get(key) is not None:
                out[key] = (base / out[key]).resolve()
        if "framework_ids" in out and out["framework_ids"] is not None:
            out["framework_ids"] = tuple(out["framework_ids"])
        if "repos" in out:
            out["repos"] = tuple((k, _local_or_url(v, base)) for k, v in dict(out["repos"]).items())
        for key in ("arxiv_politeness", "github_politeness", "arxiv_web_politeness"):
            if key in out:
                out[key] = Politeness(**out[key])
        return cls(**out)


def _local_or_url(location: str, base: Path) -> str:
    return location if "://" in location or location.startswith("git@") else str((base / location).resolve())

