"""Rebuild the local, uncommitted cache of labelled papers' abstracts from public daily arXiv listings.

The learned screener is fitted and cross-validated on real abstracts that may not be committed; this
rebuilds their cache without a single search look-up. Public "daily arXiv" repositories keep each day's
arXiv listing as JSON lines (id, title, summary = the abstract, comment, categories) on a `data` branch;
bring some with the tool library's `fetch` (forks of dw-dengwei/daily-arXiv-ai-enhanced cover cs.CL,
cs.AI, cs.CV and part of cs.LG from 2025-03 on), then:

    python scripts/cache_papers_from_listings.py [--mirrors /work/.mirror] [--out data/real_world]

writes, for every labelled paper a listing holds and the cache does not:
- `<out>/papers/<id>.json` for the truth's papers (RLTRACK_PAPER_LABELS' ids);
- `<out>/fresh/<id>.json` for the committed blind labels (model/fresh_labels.csv), labels included;
- `<out>/listings.jsonl`, every listed paper once (the pool new blind samples are drawn from).
Papers no listing holds are printed; read those with `search` by title into `<out>/search_listings.jsonl`
(one JSON object a line: arxiv_id, title, abstract, comment, categories, source_url), which the next run
reads after the listings (`--extra`). Nothing written here is committed.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ingestion.screening import labelled  # noqa: E402


def git(repo: Path, *args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], input=stdin, capture_output=True, check=False).stdout


def listed_papers(repo: Path) -> dict[str, dict]:
    """{arxiv_id: paper} of every JSON-lines listing on the repository's branches (first seen wins)."""
    out: dict[str, dict] = {}
    for ref in git(repo, "for-each-ref", "--format=%(refname)", "refs/heads").decode().split():
        names = [n for n in git(repo, "ls-tree", "-r", "--name-only", ref).decode().split() if n.endswith(".jsonl")]
        blobs = git(repo, "cat-file", "--batch", stdin="".join(f"{ref}:{n}\n" for n in names).encode())
        at = 0
        while at < len(blobs):
            end = blobs.index(b"\n", at)
            header = blobs[at:end].split()
            if len(header) < 3 or header[1] == b"missing":
                at = end + 1
                continue
            size = int(header[2])
            for line in blobs[end + 1:end + 1 + size].decode("utf-8", "replace").splitlines():
                try:
                    d = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(d, dict) and d.get("id") and (d.get("summary") or d.get("abstract")):
                    out.setdefault(d["id"], {"arxiv_id": d["id"], "title": d.get("title"),
                                             "abstract": d.get("summary") or d.get("abstract"), "comment": d.get("comment"),
                                             "categories": d.get("categories") or []})
            at = end + 1 + size + 1
    return out


def cached_record(paper: dict, title: str) -> dict:
    return {"arxiv_id": paper["arxiv_id"], "title": paper.get("title") or title, "abstract": paper["abstract"],
            "comment": paper.get("comment"), "abstract_complete": True,
            "primary_category": (paper.get("categories") or [None])[0],
            "source": f"search: {paper['source_url']}" if paper.get("source_url") else "daily arXiv listing"}


def extra_papers(path: Path) -> dict[str, dict]:
    """{arxiv_id: paper} of a JSON-lines file of papers read one by one (lines without an abstract skipped)."""
    out: dict[str, dict] = {}
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        try:
            d = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(d, dict) and d.get("arxiv_id") and d.get("abstract"):
            out.setdefault(d["arxiv_id"], d)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--out", type=Path, default=REPO / "data" / "real_world")
    ap.add_argument("--extra", type=Path, action="append",
                    help="JSON lines of papers read one by one (default: <out>/search_listings.jsonl)")
    args = ap.parse_args(argv)
    listed: dict[str, dict] = {}
    for repo in sorted(args.mirrors.glob("*arxiv*/repo")) + sorted(args.mirrors.glob("*arXiv*/repo")):
        for k, v in listed_papers(repo).items():
            listed.setdefault(k, v)
    for extra in args.extra or [args.out / "search_listings.jsonl"]:
        for k, v in extra_papers(extra).items():
            listed.setdefault(k, v)
    (args.out / "papers").mkdir(parents=True, exist_ok=True)
    (args.out / "fresh").mkdir(parents=True, exist_ok=True)
    with (args.out / "listings.jsonl").open("w") as fh:
        fh.writelines(json.dumps(p) + "\n" for p in listed.values())
    missing, written = [], 0
    for r in csv.DictReader(labelled.TRUTH_LABELS.open()) if labelled.TRUTH_LABELS.exists() else []:
        f = args.out / "papers" / f"{r['arxiv_id']}.json"
        if not f.exists() and r["arxiv_id"] in listed:
            f.write_text(json.dumps(cached_record(listed[r["arxiv_id"]], r["title"])))
            written += 1
        elif not f.exists():
            missing.append(r["arxiv_id"])
    for r in csv.DictReader(labelled.FRESH_LABELS_CSV.open()):
        f = args.out / "fresh" / f"{r['arxiv_id']}.json"
        if not f.exists() and r["arxiv_id"] in listed:
            size = labelled.label_size(r["policy_size_b"])
            rec = {**cached_record(listed[r["arxiv_id"]], r["title"]), "sample": r.get("sample") or labelled.FIRST_SAMPLE,
                   "labels": {"is_rl_related": labelled.label_bool(r["is_rl_related"]), "kind": r["kind"], "policy_size_b": size,
                              "changes_loss": labelled.label_bool(r["changes_loss"]),
                              "releases_code": labelled.label_bool(r["releases_code"]),
                              "defined_methods": [m for m in (r["defined_methods"] or "").split(";") if m]}}
            f.write_text(json.dumps(rec))
            written += 1
        elif not f.exists():
            missing.append(r["arxiv_id"])
    print(f"{len(listed)} listed papers; {written} cache files written; {len(missing)} labelled papers in no listing")
    print(" ".join(missing))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
