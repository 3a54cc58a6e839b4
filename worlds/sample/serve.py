"""The bundled sample as a world: its arXiv API, GitHub API and arXiv web pages served on loopback,
its report list, and its git repositories built (deterministically) on disk."""

from __future__ import annotations

import csv
import fcntl
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from ingestion import config
from ingestion.world import World
from worlds.sample.fake_arxiv import serve_sample_arxiv
from worlds.sample.fake_github import serve_sample_github
from worlds.sample.git_repos import build_sample_repos
from worlds.sample.report_texts import serve_sample_arxiv_web
from worlds.sample.world import REPORTS


def sample_framework_ids() -> tuple[str, ...]:
    """The registry's frameworks the sample world has (`in_sample`)."""
    return tuple(f.framework_id for f in config.frameworks() if f.in_sample)


def write_reports_csv(path: Path) -> Path:
    """The sample's report list in the seed's columns."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["model", "arxiv_id", "params_total_b", "params_active_b", "released_at"])
        for r in REPORTS:
            out.writerow([r.model, r.arxiv_id, r.params_total_b, "" if r.params_active_b is None else r.params_active_b,
                          r.released_at.isoformat()])
    return path


def build_sample_files(folder: Path) -> tuple[dict[str, Path], Path]:
    """The sample's git repositories and report list under `folder` (rebuilt only when their inputs
    changed; one process at a time)."""
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        repos = build_sample_repos(folder / "repos", sample_framework_ids())
        return repos, write_reports_csv(folder / "tech_reports.csv")


@contextmanager
def serve_sample_world(folder: Path, arxiv_faults: dict | None = None) -> Iterator[World]:
    """The sample world for the length of a `with` block; files under `folder`."""
    repos, reports_csv = build_sample_files(folder)
    with ExitStack() as stack:
        arxiv = stack.enter_context(serve_sample_arxiv(**(arxiv_faults or {})))
        github = stack.enter_context(serve_sample_github())
        web = stack.enter_context(serve_sample_arxiv_web())
        yield arxiv_world(arxiv).replace(
            github_api=github, arxiv_web=web, reports_csv=reports_csv,
            repos=tuple((fw, str(path)) for fw, path in repos.items()), repos_dir=folder / "repos",
        )


# --- parts of the sample world, for tests that serve one source (with faults) ------------------
def sample_world(**parts: object) -> World:
    """The sample's registry subset on loopback politeness, with the endpoints given."""
    return World.loopback("sample", framework_ids=sample_framework_ids(), **parts)


def arxiv_world(api_url: str) -> World:
    """A world whose arXiv query API (and OAI-PMH beside it) is the fake at `api_url`."""
    return sample_world(arxiv_api=api_url, arxiv_oai=api_url.replace("/api/query", "/oai2"))


@contextmanager
def serving_sample_arxiv(**faults: object) -> Iterator[World]:
    with serve_sample_arxiv(**faults) as url:
        yield arxiv_world(url)


@contextmanager
def serving_sample_github(**faults: object) -> Iterator[World]:
    with serve_sample_github(**faults) as url:
        yield sample_world(github_api=url)
