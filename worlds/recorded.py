"""A recorded world: a folder of API pages and repository paths, replayed on loopback.

Layout (worlds/README.md): `world.json` (manifest: registry subset, repositories), `arxiv/` (Atom
feed pages `*.xml` and/or papers as JSON lines `*.jsonl`), `github/<owner>/<repo>/<route>.json`
(GitHub REST payloads: `issues.json`, `issues/comments.json`, `pulls/<n>.json`, ...) and
`reports/` (`tech_reports.csv`, arXiv's pages `html/<id>.html` and `abs/<id>.html`; an html page
of a paper is read for its front matter too). The papers are
served by the sample's fake arXiv (query API and OAI-PMH), GitHub and the report pages by small
replay servers. Repositories (work trees or bare mirrors) are cloned bare under the data folder
before mining, so a mirror is only read.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ingestion import config
from ingestion.git.source import ensure_clone
from ingestion.world import World
from worlds.loopback import serve_on_loopback
from worlds.sample.fake_arxiv import serve_sample_arxiv
from worlds.sample.fake_github import _Handler as _GitHubHandler
from worlds.sample.fake_github import _sorted
from worlds.sample.world import Paper

MANIFEST = "world.json"
_ATOM = {"a": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom"}


class WorldFolderError(ValueError):
    """The folder is not a readable recorded world (the message says which file and why)."""


# --- arXiv -------------------------------------------------------------------------------------
def _when(value: str) -> datetime:
    return datetime.fromisoformat(value.strip().replace("Z", "+00:00"))


def _paper(arxiv_id: str, version: int, title: str, abstract: str, authors: list[tuple[str, str | None]],
           primary: str, categories: list[str], published: str, updated: str | None,
           comment: str | None, journal_ref: str | None, doi: str | None) -> Paper:
    return Paper(arxiv_id=arxiv_id, versions=version, title=" ".join(title.split()),
                 abstract=" ".join(abstract.split()), authors=tuple(authors), primary_category=primary,
                 categories=tuple(categories or [primary]), published=_when(published),
                 updated=_when(updated or published), comment=comment, journal_ref=journal_ref, doi=doi,
                 kind="recorded")


def papers_from_atom(path: Path) -> list[Paper]:
    """The entries of an Atom feed page as the query API returns it."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise WorldFolderError(f"{path}: not an Atom feed ({exc})") from None
    out = []
    for e in root.findall("a:entry", _ATOM):
        def text(tag: str) -> str | None:
            node = e.find(tag, _ATOM)
            return node.text.strip() if node is not None and node.text else None

        entry_id = (text("a:id") or "").rsplit("/abs/", 1)[-1]
        arxiv_id, _, version = entry_id.rpartition("v") if "v" in entry_id.split(".")[-1] else (entry_id, "", "1")
        primary = e.find("arxiv:primary_category", _ATOM)
        out.append(_paper(
            arxiv_id, int(version or 1), text("a:title") or "", text("a:summary") or "",
            [((a.findtext("a:name", "", _ATOM)).strip(), a.findtext("arxiv:affiliation", None, _ATOM))
             for a in e.findall("a:author", _ATOM)],
            primary.get("term", "") if primary is not None else "",
            [c.get("term", "") for c in e.findall("a:category", _ATOM)],
            text("a:published") or "", text("a:updated"), text("arxiv:comment"), text("arxiv:journal_ref"),
            text("arxiv:doi")))
    return out


def papers_from_jsonl(path: Path) -> list[Paper]:
    """Papers one JSON object a line: arxiv_id, version, title, abstract, authors (names or
    {name, affiliation}), primary_category, categories, published, updated, comment, journal_ref, doi."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            p = json.loads(line)
            authors = [(a, None) if isinstance(a, str) else (a["name"], a.get("affiliation")) for a in p["authors"]]
            out.append(_paper(p["arxiv_id"], int(p.get("version", 1)), p["title"], p["abstract"], authors,
                              p["primary_category"], p.get("categories") or [], p["published"], p.get("updated"),
                              p.get("comment"), p.get("journal_ref"), p.get("doi")))
        except (ValueError, KeyError, TypeError) as exc:
            raise WorldFolderError(f"{path} line {n}: {type(exc).__name__} {exc}") from None
    return out


def recorded_papers(folder: Path) -> list[Paper]:
    """Every recorded paper, the latest version of each (pages may overlap)."""
    latest: dict[str, Paper] = {}
    for path in sorted(folder.glob("*.xml")) + sorted(folder.glob("*.jsonl")):
        for p in papers_from_atom(path) if path.suffix == ".xml" else papers_from_jsonl(path):
            if p.arxiv_id not in latest or p.versions >= latest[p.arxiv_id].versions:
                latest[p.arxiv_id] = p
    return sorted(latest.values(), key=lambda p: p.arxiv_id)


# --- GitHub ------------------------------------------------------------------------------------
def recorded_github(folder: Path) -> dict[str, dict[str, Any]]:
    """owner/repo -> {route: payload}: `github/<owner>/<repo>/<route>.json` answers
    GET /repos/<owner>/<repo>/<route> (`issues.json`, `issues/comments.json`, `pulls/<n>.json`, ...)."""
    out: dict[str, dict[str, Any]] = {}
    for repo_dir in sorted(p for p in folder.glob("*/*") if p.is_dir()):
        routes = {}
        for path in sorted(repo_dir.rglob("*.json")):
            try:
                routes[path.relative_to(repo_dir).with_suffix("").as_posix()] = json.loads(path.read_text("utf-8"))
            except ValueError as exc:
                raise WorldFolderError(f"{path}: not JSON ({exc})") from None
        out[f"{repo_dir.parent.name}/{repo_dir.name}"] = routes
    return out


class _ReplayGitHub(_GitHubHandler):
    """GitHub REST routes answered from recorded payloads: a list is filtered (`state`, `since`),
    sorted and paged by Link headers as GitHub does; an object is returned as it is."""

    recorded: dict[str, dict[str, Any]]

    def do_GET(self) -> None:  # noqa: N802 (http.server naming)
        parts = urlsplit(self.path)
        params = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        segs = [s for s in parts.path.split("/") if s]
        full = "/".join(segs[1:3]) if len(segs) >= 3 and segs[0] == "repos" else ""
        if full not in self.recorded:
            return self._send(404, {"message": "Not Found"})
        route = "/".join(segs[3:])
        if not route:
            owner, name = full.split("/")
            return self._send(200, {"full_name": full, "name": name, "owner": {"login": owner}})
        payload = self.recorded[full].get(route)
        if payload is None and not route.split("/")[-1].isdigit():
            payload = []  # a list the world recorded nothing of
        if payload is None:
            return self._send(404, {"message": "Not Found"})
        if not isinstance(payload, list):
            return self._send(200, payload)
        items = payload
        if "state" in params or route in ("issues", "pulls"):  # GitHub's default: open ones
            wanted = params.get("state", "open")
            items = [i for i in items if wanted == "all" or i.get("state") == wanted]
        if "since" in params:
            items = [i for i in items if (i.get("updated_at") or "") >= params["since"]]
        return self._page(_sorted(items, params, "created"), params, {})


@contextmanager
def serve_recorded_github(recorded: dict[str, dict[str, Any]]) -> Iterator[str]:
    handler = type("RecordedGitHub", (_ReplayGitHub,), {"recorded": recorded})
    with serve_on_loopback(handler, "recorded-github") as base_url:
        yield base_url


# --- report pages ------------------------------------------------------------------------------
@contextmanager
def serve_recorded_pages(folder: Path) -> Iterator[str]:
    """arXiv's /html/<id> and /abs/<id> answered from `folder`/html|abs/<id>.html (404 otherwise)."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return

        def do_GET(self) -> None:  # noqa: N802
            kind, _, page = urlsplit(self.path).path.strip("/").partition("/")
            arxiv_id = page.rsplit("v", 1)[0] if "v" in page.rsplit(".", 1)[-1] else page
            path = folder / kind / f"{arxiv_id.replace('/', '_')}.html"
            found = kind in ("html", "abs") and path.is_file()
            body = path.read_bytes() if found else b"<html><body>No HTML for this paper</body></html>"
            self.send_response(200 if found else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    with serve_on_loopback(Handler, "recorded-arxiv-web") as base_url:
        yield base_url


# --- the world ---------------------------------------------------------------------------------
def read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    if not folder.is_dir():
        raise WorldFolderError(f"{folder}: no such world folder")
    if not path.exists():
        return {}
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise WorldFolderError(f"{path}: not JSON ({exc})") from None
    if not isinstance(manifest, dict):
        raise WorldFolderError(f"{path}: expected a JSON object")
    return manifest


def _located(repos: dict[str, str], folder: Path, registry: dict) -> dict[str, str]:
    """framework_id -> the repository the manifest names (a path relative to the folder, or a URL)."""
    out = {}
    for fw_id, location in repos.items():
        if fw_id not in registry:
            raise WorldFolderError(f"{MANIFEST}: repos names {fw_id!r}, not in the registry")
        out[fw_id] = location if "://" in location else str((folder / location).resolve())
        if "://" not in location and not Path(out[fw_id]).exists():
            raise WorldFolderError(f"{MANIFEST}: repository for {fw_id!r} not found: {out[fw_id]}")
    return out


@contextmanager
def serve_recorded_world(folder: Path, data_dir: Path) -> Iterator[World]:
    """Replay the world recorded in `folder` for the length of a `with` block. Repositories are
    cloned (bare) under `data_dir`/worlds/<name>/repos and mined there, unless the manifest says
    `mine_in_place` (the miner then keeps its refs in them). Other manifest keys are World fields
    (e.g. `github_api` naming a server already running, `frameworks_csv`)."""
    folder = Path(folder).resolve()
    manifest = read_manifest(folder)
    name = str(manifest.pop("name", folder.name))
    ids = manifest.pop("frameworks", None)
    repos = dict(manifest.pop("repos", {}))
    in_place = bool(manifest.pop("mine_in_place", False))
    try:
        base = World.from_dict(manifest, base=folder)
    except (TypeError, ValueError) as exc:
        raise WorldFolderError(f"{folder / MANIFEST}: {exc}") from None
    registry = {f.framework_id: f for f in config.frameworks(csv_path=base.frameworks_csv)}
    github = recorded_github(folder / "github")
    if ids is None:  # the frameworks the world has something of
        repo_names = {r.lower() for r in github}
        ids = [f.framework_id for f in registry.values()
               if f.framework_id in repos or any(r.lower() in repo_names for r in f.all_repos)]
    unknown = set(ids) - set(registry)
    if unknown:
        raise WorldFolderError(f"{MANIFEST}: frameworks {sorted(unknown)} are not in the registry")
    for fw_id in ids:  # a framework's repository the world recorded no GitHub pages of: nothing there
        github.setdefault(registry[fw_id].repo, {})
    reports_csv = folder / "reports" / "tech_reports.csv"
    clones = data_dir / "worlds" / name / "repos"
    with ExitStack() as stack:
        parts: dict[str, Any] = {}
        if "arxiv_api" not in manifest:
            arxiv = stack.enter_context(serve_sample_arxiv(recorded_papers(folder / "arxiv")))
            parts.update(arxiv_api=arxiv, arxiv_oai=arxiv.replace("/api/query", "/oai2"))
        if "github_api" not in manifest:
            parts["github_api"] = stack.enter_context(serve_recorded_github(github))
        if "arxiv_web" not in manifest:
            parts["arxiv_web"] = stack.enter_context(serve_recorded_pages(folder / "reports"))
        if "reports_csv" not in manifest:
            parts["reports_csv"] = reports_csv if reports_csv.exists() else _empty_reports(data_dir / "worlds" / name)
        located = _located(repos, folder, registry)
        if not in_place:
            located = {fw: str(ensure_clone(path, clones / fw, registry[fw].default_branch))
                       for fw, path in located.items()}
        # recorded worlds hold real papers: the learned screener decides as in a live load (a manifest may turn it off)
        world = World.loopback(name, **parts, framework_ids=tuple(ids), repos_dir=clones,
                               repos=tuple(located.items()), learned_screener=True)
        yield world.replace(**{k: getattr(base, k) for k in manifest})  # what the manifest names


def _empty_reports(folder: Path) -> Path:
    """A report list without reports (a world that recorded none)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "tech_reports.csv"
    path.write_text("model,arxiv_id,params_total_b,params_active_b,released_at\n", encoding="utf-8")
    return path
