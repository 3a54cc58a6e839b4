"""The labelled real papers a learned screener is fitted and cross-validated on.

Two label sources, both our own hand labels by the definitions of ../shared/truth/README.md:
- the truth's `paper_labels_dev.csv`, whose abstracts sit in the local, uncommitted cache
  `data/real_world/papers/<arxiv_id>.json`;
- papers labelled blind outside the truth's lists, `data/real_world/fresh/<arxiv_id>.json` (a `labels`
  object beside the text), committed as ids, titles and labels only in `model/fresh_labels.csv`.
Each paper becomes the row a live load gives the screener (the arXiv parser's whitespace rule and
code-link reader), so what is fitted here is what runs.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from ingestion.arxiv.parse import normalise_ws
from ingestion.text import find_code_urls

REPO = Path(__file__).resolve().parents[2]
# the same settings as scripts/screening_metrics.py
TRUTH_LABELS = Path(os.environ.get("RLTRACK_PAPER_LABELS") or REPO.parent / "shared" / "truth" / "paper_labels_dev.csv")
PAPER_CACHE = Path(os.environ.get("RLTRACK_REAL_PAPERS") or REPO / "data" / "real_world" / "papers")
FRESH_FOLDER = Path(os.environ.get("RLTRACK_FRESH_PAPERS") or REPO / "data" / "real_world" / "fresh")
FRESH_LABELS_CSV = Path(__file__).resolve().parent / "model" / "fresh_labels.csv"
LABEL_FIELDS = ("is_rl_related", "kind", "policy_size_b", "changes_loss", "releases_code", "defined_methods")


# papers of the fresh set whose abstracts were read while writing rule screener 2.2 go to its tune half;
# the rest split by a hash of the id: the test half is what the rules were never written on
FRESH_READ_WHILE_TUNING = {"2509.21792", "2510.04206", "2605.15565", "2606.09138", "2501.08313", "2504.18583",
                           "2506.02867", "2503.10460", "2503.23829", "2504.21318", "2505.17667"}


# the samples of blind labels: the first (2026-11) drawn while rule screener 2.2 was written, split in a tune
# and a test half; the second (2026-12) a random sample of the candidate pool that no rule or model choice read;
# the third (2026-12) a random sample of the pool papers the rules call RL-related (where the kinds are hard to tell)
FIRST_SAMPLE, POOL_SAMPLE, RL_SAMPLE = "fresh-2026-11", "pool-2026-12", "rl-2026-12"


def fresh_tune_half(arxiv_id: str, sample: str = FIRST_SAMPLE) -> bool:
    if sample != FIRST_SAMPLE:
        return False
    return arxiv_id in FRESH_READ_WHILE_TUNING or int(hashlib.md5(arxiv_id.encode()).hexdigest(), 16) % 2 == 0


@dataclass(frozen=True)
class Labelled:
    arxiv_id: str
    row: dict  # a raw_arxiv.papers-like row: arxiv_id, title, abstract, comment, code_urls
    is_rl_related: bool
    kind: str
    changes_loss: bool
    releases_code: bool
    policy_size_b: float | None
    origin: str  # "truth" | "fresh"
    sample: str = ""  # of a fresh label: FIRST_SAMPLE | POOL_SAMPLE | RL_SAMPLE


def label_bool(value: object) -> bool:
    return value is True or str(value).strip().lower() == "true"


def label_size(value: object) -> float | None:
    return float(value) if value not in (None, "") else None


def paper_row(cached: dict) -> dict:
    """The row the arXiv parser makes of a cached paper (whitespace collapsed, code links read)."""
    abstract, comment = normalise_ws(cached.get("abstract")), normalise_ws(cached.get("comment"))
    return {"arxiv_id": cached["arxiv_id"], "title": normalise_ws(cached.get("title")) or "",
            "abstract": abstract or "", "comment": comment,
            "code_urls": json.dumps(find_code_urls(abstract, comment)), "authors": "[]"}


def _usable(cached: dict | None) -> bool:
    return bool(cached and cached.get("abstract") and cached.get("abstract_complete", True))


def truth_papers(labels: Path = TRUTH_LABELS, cache: Path = PAPER_CACHE) -> list[Labelled]:
    out = []
    for r in csv.DictReader(labels.open()) if labels.exists() else []:
        f = cache / f"{r['arxiv_id']}.json"
        cached = json.loads(f.read_text()) if f.exists() else None
        if _usable(cached):
            out.append(Labelled(r["arxiv_id"], paper_row(cached), label_bool(r["is_rl_related"]), r["kind"],
                                label_bool(r["changes_loss"]), label_bool(r["releases_code"]), label_size(r["policy_size_b"]), "truth"))
    return out


def sample_of(cached: dict) -> str:
    """The blind-label sample a cached fresh paper belongs to (papers of the pool sample carry their batch)."""
    return cached.get("sample") or (POOL_SAMPLE if cached.get("batch") else FIRST_SAMPLE)


def fresh_papers(folder: Path = FRESH_FOLDER, exclude: set[str] = frozenset()) -> list[Labelled]:
    out = []
    for f in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        cached = json.loads(f.read_text())
        lab = cached.get("labels")
        if not lab or not _usable(cached) or cached["arxiv_id"] in exclude or lab.get("kind") is None:
            continue
        out.append(Labelled(cached["arxiv_id"], paper_row(cached), label_bool(lab.get("is_rl_related")), lab["kind"],
                            label_bool(lab.get("changes_loss")), label_bool(lab.get("releases_code")),
                            label_size(lab.get("policy_size_b")), "fresh", sample_of(cached)))
    return out


def all_papers() -> list[Labelled]:
    """Every labelled paper with its text cached, truth first; a paper in both keeps the truth's label."""
    truth = truth_papers()
    return truth + fresh_papers(exclude={p.arxiv_id for p in truth})


def write_fresh_labels(folder: Path = FRESH_FOLDER, out: Path = FRESH_LABELS_CSV) -> int:
    """Commit-safe copy of the fresh labels: id, title and labels (never the abstract), merged into the
    committed file: a label of the local cache replaces that paper's row, and a committed label whose
    abstract is not cached here is kept (a cache is local and may hold only part). Returns rows."""
    rows = {r["arxiv_id"]: r for r in csv.DictReader(out.open())} if out.exists() else {}
    for f in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        cached = json.loads(f.read_text())
        if lab := cached.get("labels"):
            methods = lab.get("defined_methods") or []
            size = label_size(lab.get("policy_size_b"))
            known = rows.get(cached["arxiv_id"], {})  # a committed title stays (a new version may retitle)
            rows[cached["arxiv_id"]] = {"arxiv_id": cached["arxiv_id"],
                                        "title": known.get("title") or normalise_ws(cached.get("title")) or "",
                                        **{k: lab.get(k) for k in LABEL_FIELDS[:-1]},
                                        "policy_size_b": "" if size is None else f"{size:g}",
                                        "defined_methods": ";".join(methods) if isinstance(methods, list) else methods,
                                        "sample": sample_of(cached)}
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=["arxiv_id", "title", *LABEL_FIELDS, "sample"], lineterminator="\n")
        w.writeheader()
        w.writerows(sorted(({"sample": FIRST_SAMPLE, **r} for r in rows.values()), key=lambda r: r["arxiv_id"]))
    return len(rows)
