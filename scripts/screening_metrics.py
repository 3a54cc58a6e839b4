"""Precision and recall of every paper-screening classifier/extractor (ingestion/screening.py).

Measured on the hand-labelled development set (worlds/sample/labelled_papers.py: LABELLED, the
rules were tuned on it, so its numbers are optimistic), on a held-out set never used for tuning
(HELD_OUT), and on the sample world's ground truth (worlds/sample/world.py).
Run: python scripts/screening_metrics.py [--errors]

First measurements on held-out text, before any tuning on it (precision/recall):
- SECOND_BATCH (28 papers, later folded into LABELLED): is_rl_related 0.955/0.913, kind=general_method
  1.00/0.70, kind=analysis 0.60/1.00, kind=not_rl 0.67/0.80, policy_size_b 0.947/0.900,
  changes_loss 1.00/0.80, defined_methods 1.00/0.80; all others 1.00/1.00.
- HELD_OUT (32 papers, after correcting two labels that contradicted the written definitions):
  kind=benchmark 0.67/1.00, kind=analysis 1.00/0.75, policy_size_b 0.955/0.955, releases_code
  1.00/0.75; all others 1.00/1.00.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingestion import config  # noqa: E402
from ingestion.screening import KINDS, screen  # noqa: E402


@dataclass(frozen=True)
class Gold:
    key: str
    row: dict  # a raw_arxiv.papers-like row
    kind: str
    size_b: float | None
    changes_loss: bool
    releases_code: bool
    methods: frozenset[str]
    maintainers: frozenset[str]


def labelled_gold(held_out: bool = False) -> list[Gold]:
    from worlds.sample.labelled_papers import HELD_OUT, LABELLED

    out = []
    for i, r in enumerate(HELD_OUT if held_out else LABELLED):
        row = {"arxiv_id": f"L{i:03d}", "title": r.title, "abstract": r.abstract, "comment": r.comment,
               "authors": [{"name": f"A{j}", "affiliation": a} for j, a in enumerate(r.affiliations)]}
        out.append(Gold(r.title, row, r.kind, r.size_b, r.changes_loss, r.releases_code,
                        frozenset(r.methods), frozenset(r.maintainers)))
    return out


def world_gold() -> list[Gold]:
    from worlds.sample.world import build_world

    out = []
    for p in build_world().papers:
        row = {"arxiv_id": p.arxiv_id, "title": p.title, "abstract": p.abstract, "comment": p.comment,
               "authors": [{"name": n, "affiliation": a} for n, a in p.authors]}
        out.append(Gold(p.arxiv_id, row, p.kind, p.policy_size_b, p.changes_loss, p.releases_code,
                        frozenset([p.method] if p.method else []),
                        frozenset([p.maintainer_of] if p.maintainer_of else [])))
    return out


def _pr(tp: int, fp: int, fn: int) -> tuple[float, float]:
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0)


def evaluate(golds: list[Gold], frameworks=None) -> tuple[dict[str, tuple[float, float, int]], list[str]]:
    """{metric: (precision, recall, support)} and a list of error descriptions."""
    frameworks = frameworks if frameworks is not None else config.frameworks()
    counts: dict[str, list[int]] = {}
    errors: list[str] = []

    def add(name: str, tp=0, fp=0, fn=0) -> None:
        c = counts.setdefault(name, [0, 0, 0])
        c[0] += tp
        c[1] += fp
        c[2] += fn

    def binary(name: str, gold: bool, pred: bool, key: str) -> None:
        add(name, tp=gold and pred, fp=pred and not gold, fn=gold and not pred)
        if gold != pred:
            errors.append(f"{name}: gold={gold} pred={pred} | {key}")

    for g in golds:
        f = screen(g.row, frameworks)
        binary("is_rl_related", g.kind != "not_rl", f["is_rl_related"], g.key)
        for kind in KINDS:
            add(f"kind={kind}", tp=g.kind == kind == f["paper_kind"], fp=f["paper_kind"] == kind != g.kind,
                fn=g.kind == kind != f["paper_kind"])
        if g.kind != f["paper_kind"]:
            errors.append(f"paper_kind: gold={g.kind} pred={f['paper_kind']} ({f['kind_signal']}) | {g.key}")
        pred_size = f["policy_size_b"]
        same = pred_size is not None and g.size_b is not None and abs(pred_size - g.size_b) < 1e-6
        add("policy_size_b", tp=same, fp=pred_size is not None and not same, fn=g.size_b is not None and not same)
        if not same and (pred_size is not None or g.size_b is not None):
            errors.append(f"policy_size_b: gold={g.size_b} pred={pred_size} ({f['size_signal']}) | {g.key}")
        binary("changes_loss", g.changes_loss, f["changes_loss"], g.key)
        binary("releases_code", g.releases_code, f["releases_code"], g.key)
        for name, gold_set, pred_set in (
            ("defined_methods", g.methods, set(json.loads(f["defined_methods"]))),
            ("maintainer_framework_ids", g.maintainers, set(json.loads(f["maintainer_framework_ids"]))),
        ):
            add(name, tp=len(gold_set & pred_set), fp=len(pred_set - gold_set), fn=len(gold_set - pred_set))
            if gold_set != pred_set:
                errors.append(f"{name}: gold={sorted(gold_set)} pred={sorted(pred_set)} | {g.key}")
    metrics = {}
    for name, (tp, fp, fn) in counts.items():
        p, r = _pr(tp, fp, fn)
        metrics[name] = (p, r, tp + fn)
    return metrics, errors


def _print(title: str, metrics: dict[str, tuple[float, float, int]]) -> None:
    print(f"\n{title}")
    print(f"  {'classifier / extractor':28s} {'precision':>9s} {'recall':>7s} {'gold+':>6s}")
    for name, (p, r, n) in metrics.items():
        print(f"  {name:28s} {p:9.3f} {r:7.3f} {n:6d}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--errors", action="store_true", help="list every disagreement")
    args = ap.parse_args(argv)
    sets = (("hand-labelled set (rules tuned on it)", labelled_gold()),
            ("held-out hand-labelled set (never tuned on)", labelled_gold(held_out=True)),
            ("sample world ground truth", world_gold()))
    for title, golds in sets:
        metrics, errors = evaluate(golds)
        _print(f"{title} ({len(golds)} papers)", metrics)
        if args.errors:
            for e in errors:
                print("   ", e)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
