"""Precision and recall of every paper-screening classifier/extractor (ingestion/screening/rules.py).

Measured on the hand-labelled development set (worlds/sample/labelled_papers.py: LABELLED, the
rules were tuned on it, so its numbers are optimistic), on a held-out set never used for tuning
(HELD_OUT), and on the sample world's ground truth (worlds/sample/world.py).
Run: python scripts/screening_metrics.py [--errors] [--real]
The learned screener is measured by cross-validation: python -m ingestion.screening.train --cv; here,
under --real, only on fresh labelled papers its committed model was not fitted on.

`--real` also measures on real arXiv papers: hand labels of ../shared/truth/paper_labels_dev.csv
(RLTRACK_PAPER_LABELS) and the local, uncommitted cache of their abstracts
data/real_world/papers/<arxiv_id>.json (RLTRACK_REAL_PAPERS). The cached papers are served in
arXiv's Atom shape by the fake arXiv server and read back by the harvest's own client and parser,
so the screener sees exactly what a live load gives it. Reported: per-feature precision/recall,
kind confusions, policy-size exactness where the abstract states the labelled size, candidate-pool
recall (the pool query sent to the fake server; it must equal the local rule).

Real dev labels (195 cached abstracts), screener 1.0 (5949b6a) -> 2.0, same cache and path:
general_method P/R 0.69/0.83 -> 0.91/0.95; system -> general_method 13/17 -> 0/17; application ->
general_method 12/37 -> 1/37; changes_loss (general methods) 1.00/0.13 -> 0.87/0.85; releases_code
0.93/0.61 -> 0.91/0.79 (12 of the 62 positives show no code in the Atom fields); size exact where
stated 0.83 -> 0.93; is_rl_related R 0.92 -> 0.95; pool recall 0.98 (0.93 with RL AND LM terms only).
Screener 2.1: releases_code 0.907/0.790 -> 0.927/0.823 (a release stated inside a longer sentence; a site said
to hold only models or data is not code; every other figure unchanged). Of the 11 positives still missed, 6 state no code in any text the cache holds (abstract,
comment, page links; one states it only in an earlier version of its abstract), 2 only in a footnote on the
abstract of the paper's HTML, 3 only in links of third-party paper pages; none is in arXiv's Atom fields.
The "decided by" line counts the cue that decided each releases_code, right/wrong against the labels.

Also under `--real`, when the local folders exist:
- the same papers with abstract and comments from arXiv's own abstract pages where they were found
  (data/real_world/arxiv_pages; third-party copies drop links), and what the arXiv HTML front matter adds
  (code links in footnotes and the LaTeX abstract, authors' affiliations), read by ingestion/arxiv_front_matter;
- a fresh set of real papers outside the truth's lists, labelled blind by the study's definitions
  (data/real_world/fresh), in a tune half (read while writing screener 2.2) and a test half (never read).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingestion import config  # noqa: E402
from ingestion.arxiv.pool import in_pool  # noqa: E402
from ingestion.screening import learned  # noqa: E402
from ingestion.screening.labelled import fresh_tune_half, label_bool  # noqa: E402
from ingestion.screening.rules import KINDS, screen  # noqa: E402
from ingestion.screening.screener import screen as learned_screen  # noqa: E402


def learned_model_ids() -> list[str]:
    """The labelled ids the committed learned model was fitted on (its card)."""
    return json.loads(learned.ARTIFACT.read_text())["card"]["fitted_on"] if learned.ARTIFACT.exists() else []


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


REPO = Path(__file__).resolve().parents[1]
DEFAULT_LABELS = REPO.parent / "shared" / "truth" / "paper_labels_dev.csv"
DEFAULT_CACHE = REPO / "data" / "real_world" / "papers"
DEFAULT_PAGES = REPO / "data" / "real_world" / "arxiv_pages"  # what arXiv's own pages show
DEFAULT_FRESH = REPO / "data" / "real_world" / "fresh"  # papers outside the truth's lists, labelled blind


def served_rows(cached: list[dict], pool: bool = False) -> dict[str, dict]:
    """The cached papers served as Atom by the fake arXiv server, read back by the harvest's client
    and parser: {arxiv_id: raw_arxiv.papers row}. pool: send the live harvest's candidate-pool query."""
    from ingestion.arxiv.source import ArxivClient, Window
    from ingestion.arxiv.parse import parse_entry
    from ingestion.http import PoliteClient
    from worlds.sample.fake_arxiv import FakeArxiv
    from worlds.sample.world import Paper

    papers = []
    for c in cached:
        day = datetime.fromisoformat(c.get("first_version_date") or "2025-06-01").replace(tzinfo=timezone.utc)
        authors = tuple((a if isinstance(a, str) else a.get("name", ""), None) for a in c.get("authors") or ())
        cat = c.get("primary_category") or "cs.LG"
        papers.append(Paper(c["arxiv_id"], 1, c["title"], c["abstract"], authors, cat, (cat,), day, day,
                            c.get("comment"), None, None, kind="unknown"))
    categories = sorted({p.primary_category for p in papers})
    now = datetime.now(timezone.utc)
    rows = {}
    with FakeArxiv(papers) as fake:
        client = ArxivClient(fake.base_url, http=PoliteClient(min_interval_s=0.0), categories=categories, pool=pool)
        for page in client.iter_window(Window.for_days(date(1991, 1, 1), now.date())):
            for entry in page.entries:
                row = parse_entry(entry, now)
                rows[row["arxiv_id"]] = row
    return rows


def _version(page: dict) -> int:
    digits = re.sub(r"\D", "", str(page.get("version") or page.get("latest_version") or ""))
    return int(digits) if digits else 0


def _newest_page(pages: Path, arxiv_id: str, kind: str, usable) -> dict | None:
    """The newest cached arXiv page of `kind` ("abs" | "html") for a paper that `usable(page)` accepts
    (data/real_world/arxiv_pages/<id>.json), or None."""
    f = pages / f"{arxiv_id}.json"
    found = json.loads(f.read_text())["pages"] if f.exists() else []
    return max((p for p in found if p.get("page") == kind and usable(p)), key=_version, default=None)


def arxiv_page_text(pages: Path, arxiv_id: str) -> dict | None:
    """What arXiv's own abstract page shows for a paper: the abstract and comments of its newest version
    found, i.e. the metadata the API serves (an HTML rendering's abstract is the LaTeX one, which often
    differs); None when no such page with the whole abstract was found."""
    best = _newest_page(pages, arxiv_id, "abs", lambda p: p.get("abstract") and p.get("abstract_complete"))
    if best is None:
        return None
    return {"abstract": best["abstract"], "comment": best.get("comments"), "source_url": best.get("url")}


def arxiv_html_front_matter(pages: Path, arxiv_id: str):
    """The front matter of the paper's arXiv HTML rendering as cached (its newest version with an author
    block or a complete abstract), read by the source's own text reader; None when none was found.
    Links and code statements are read from the author block, footnotes and the (LaTeX) abstract;
    affiliations from the author block only."""
    from ingestion.arxiv.front_matter import FrontMatter

    best = _newest_page(pages, arxiv_id, "html", lambda p: p.get("front_matter") or p.get("abstract_complete"))
    if best is None:
        return None
    block = best.get("front_matter") or ""
    whole = FrontMatter.from_text("\n".join([block, best.get("abstract") or "", *(best.get("front_matter_urls") or [])]))
    return FrontMatter(authors=FrontMatter.from_text(block).authors, urls=whole.urls, text=whole.text,
                       footnotes=[block])


def front_matter_report(golds: list[Gold], pages: Path, frameworks=None) -> list[str]:
    """releases_code when the HTML front matter may add code evidence (as int_papers__features ORs it),
    and how many papers' front matter gives affiliations (and which maintainers)."""
    from ingestion.arxiv.front_matter import front_matter_features

    frameworks = frameworks if frameworks is not None else config.frameworks()
    tp = fp = fn = 0
    read = with_affiliations = gm_read = gm_affiliations = 0
    maintainers: Counter[str] = Counter()
    for g in golds:
        atom = screen(g.row, frameworks)
        front = arxiv_html_front_matter(pages, g.key)
        extra = front_matter_features(g.key, g.row["title"], front, frameworks) if front else None
        code = atom["releases_code"] or bool(extra and extra["releases_code"])
        tp += g.releases_code and code
        fp += code and not g.releases_code
        fn += g.releases_code and not code
        if extra:
            read += 1
            with_affiliations += extra["has_affiliations"]
            gm_read += g.kind == "general_method"
            gm_affiliations += g.kind == "general_method" and extra["has_affiliations"]
            maintainers.update(json.loads(extra["maintainer_framework_ids"]))
    p, r = _pr(tp, fp, fn)
    return [f"  {'releases_code (abstract OR front matter)':34s} {p:9.3f} {r:7.3f} {tp + fn:6d}",
            f"  HTML front matter cached for {read} of {len(golds)} papers; affiliations read from "
            f"{with_affiliations} of them ({with_affiliations / max(read, 1):.0%}); general methods: "
            f"{gm_affiliations} of {gm_read}",
            "  maintainer papers found through it: " + (", ".join(f"{k} {v}" for k, v in sorted(maintainers.items()))
                                                      or "none")]


def real_gold(labels: Path, cache: Path, page_links: bool = False, pages: Path | None = None
              ) -> tuple[list[Gold], int]:
    """Labelled papers whose complete abstract is cached (and how many labelled papers are not).
    page_links: also give the screener the links the cache read from the paper's page (footnotes),
    which the Atom feed does not carry. pages: take the abstract and comments from arXiv's own pages
    where they were found (third-party copies often drop links and arXiv's comments)."""
    cached = []
    for r in csv.DictReader(labels.open()):
        f = cache / f"{r['arxiv_id']}.json"
        c = json.loads(f.read_text()) if f.exists() else None
        own = arxiv_page_text(pages, r["arxiv_id"]) if pages else None
        if c and own:
            c = {**c, **own, "abstract_complete": True}
        if c and c.get("abstract") and c.get("abstract_complete", True):
            cached.append((r, c))
    rows = served_rows([c for _, c in cached])
    in_query = set(served_rows([c for _, c in cached], pool=True))
    golds = []
    for r, c in cached:
        size = float(r["policy_size_b"]) if r["policy_size_b"].strip() else None
        methods = frozenset(m.strip() for m in r["defined_methods"].split(";") if m.strip())
        row = rows[r["arxiv_id"]]
        if page_links:
            row = {**row, "code_urls": json.dumps(sorted(set(json.loads(row["code_urls"])) | set(c.get("code_urls") or [])))}
        row["pool_query_matched"] = r["arxiv_id"] in in_query
        golds.append(Gold(r["arxiv_id"], row, r["kind"], size, label_bool(r["changes_loss"]),
                          label_bool(r["releases_code"]), methods, frozenset()))
    n_labels = sum(1 for _ in csv.DictReader(labels.open()))
    return golds, n_labels - len(golds)


def fresh_gold(folder: Path) -> list[Gold]:
    """A second real set: papers outside the truth's lists, read from arXiv's abstract pages and labelled
    blind by the study's definitions (data/real_world/fresh/<id>.json, local and uncommitted)."""
    cached = [json.loads(f.read_text()) for f in sorted(folder.glob("*.json"))]
    cached = [c for c in cached if c.get("abstract") and c.get("labels")]
    rows = served_rows(cached)
    in_query = set(served_rows(cached, pool=True))
    golds = []
    for c in cached:
        lab, row = c["labels"], rows[c["arxiv_id"]]
        row["pool_query_matched"] = c["arxiv_id"] in in_query
        size = lab.get("policy_size_b")
        golds.append(Gold(c["arxiv_id"], row, lab["kind"], float(size) if size not in (None, "") else None,
                          bool(lab.get("changes_loss")), bool(lab.get("releases_code")),
                          frozenset(lab.get("defined_methods") or ()), frozenset()))
    return golds


def _states_size(row: dict, size_b: float) -> bool:
    """Does the title or abstract state this size (7B, 7 billion, 30.5B, -235B-A22B)?"""
    num = f"{size_b:g}"
    return bool(re.search(rf"(?<![\d.]){re.escape(num)}(?:\.0)?\s*-?(?:B\b|billion)", f"{row['title']} {row['abstract']}"))


def real_report(golds: list[Gold], frameworks=None, screener=screen) -> list[str]:
    """The issue's table: per-feature P/R, kind confusions, size exactness, pool recall. screener: the
    rules' `screen` by default, or ingestion.screening.screener's (rules and the learned model)."""
    frameworks = frameworks if frameworks is not None else config.frameworks()
    preds = {g.key: screener(g.row, frameworks) for g in golds}
    counts: dict[str, list[int]] = {}

    def add(name: str, gold: bool, pred: bool) -> None:
        c = counts.setdefault(name, [0, 0, 0])
        c[0] += gold and pred
        c[1] += pred and not gold
        c[2] += gold and not pred

    confusion: Counter[tuple[str, str]] = Counter()
    size_stated = size_exact = 0
    pool_rl = pool_hit = 0
    for g in golds:
        f = preds[g.key]
        add("is_rl_related", g.kind != "not_rl", f["is_rl_related"])
        for kind in sorted({g.kind, f["paper_kind"]}):
            add(f"kind = {kind}", g.kind == kind, f["paper_kind"] == kind)
        confusion[g.kind, f["paper_kind"]] += 1
        if g.kind == "general_method":
            add("changes_loss (general methods)", g.changes_loss, f["changes_loss"])
            add("policy >= 30B (general methods)", (g.size_b or 0) >= 30, (f["policy_size_b"] or 0) >= 30)
        add("releases_code", g.releases_code, f["releases_code"])
        if g.size_b is not None and _states_size(g.row, g.size_b):
            size_stated += 1
            size_exact += f["policy_size_b"] is not None and abs(f["policy_size_b"] - g.size_b) < 1e-6
        if g.kind != "not_rl":
            pool_rl += 1
            pool_hit += g.row["pool_query_matched"]
            assert g.row["pool_query_matched"] == in_pool(g.row["title"], g.row["abstract"])  # query == local rule
    lines = [f"  {'feature':34s} {'precision':>9s} {'recall':>7s} {'gold+':>6s}"]
    for name in sorted(counts, key=lambda n: (not n.startswith("kind"), n)):
        tp, fp, fn = counts[name]
        p, r = _pr(tp, fp, fn)
        lines.append(f"  {name:34s} {p:9.3f} {r:7.3f} {tp + fn:6d}")
    lines.append(f"  policy size exact where stated     {size_exact}/{size_stated} = "
                 f"{size_exact / max(size_stated, 1):.3f}")
    lines.append(f"  candidate pool recall (RL papers)  {pool_hit}/{pool_rl} = {pool_hit / max(pool_rl, 1):.3f}"
                 "  (the arXiv query, answered by the fake server)")
    decided: Counter[tuple[str, bool]] = Counter()  # releases_code: the cue that decided, right or wrong
    for g in golds:
        if signal := preds[g.key]["code_signal"]:
            decided[signal.split(":")[0], g.releases_code] += 1
    lines.append("  releases_code decided by (cue: right/wrong): " + "; ".join(
        f"{cue} {decided[cue, True]}/{decided[cue, False]}" for cue in sorted({c for c, _ in decided})))
    n_kind = Counter(g.kind for g in golds)
    for a, b in (("system", "general_method"), ("general_method", "system"),
                 ("application", "general_method"), ("general_method", "application")):
        n = confusion[a, b]
        lines.append(f"  confusion {a} -> {b}: {n}/{n_kind[a]} = {n / max(n_kind[a], 1):.3f}")
    lines.append("  kind confusions (label -> screened: count):")
    for (a, b), n in sorted(confusion.items(), key=lambda kv: -kv[1]):
        if a != b:
            lines.append(f"    {a} -> {b}: {n}")
    return lines


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
    ap.add_argument("--real", action="store_true", help="also measure on the cached real abstracts")
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
    if args.real:
        labels = Path(os.environ.get("RLTRACK_PAPER_LABELS") or DEFAULT_LABELS)
        cache = Path(os.environ.get("RLTRACK_REAL_PAPERS") or DEFAULT_CACHE)
        golds, missing = real_gold(labels, cache)
        print(f"\nreal arXiv papers, dev labels ({len(golds)} with a cached complete abstract; {missing} not cached)")
        print("\n".join(real_report(golds)))
        pages = Path(os.environ.get("RLTRACK_ARXIV_PAGES") or DEFAULT_PAGES)
        if pages.is_dir():
            own, _ = real_gold(labels, cache, pages=pages)
            n_own = sum(arxiv_page_text(pages, g.key) is not None for g in own)
            print(f"\nthe same papers, abstract and comments from arXiv's abstract pages where found ({n_own} of {len(own)}):")
            print("\n".join(real_report(own)))
            print("  with arXiv's HTML front matter (author block, footnotes, LaTeX abstract), as the "
                  "arxiv_front_matter source reads it:")
            print("\n".join(front_matter_report(golds, pages)))
        fresh = Path(os.environ.get("RLTRACK_FRESH_PAPERS") or DEFAULT_FRESH)
        fresh_golds = fresh_gold(fresh) if fresh.is_dir() else []
        for half, golds_half in (("tune", [g for g in fresh_golds if fresh_tune_half(g.key)]),
                                 ("test", [g for g in fresh_golds if not fresh_tune_half(g.key)])):
            if not golds_half:
                continue
            print(f"\nfresh real papers (not in the truth's lists, labelled blind), {half} half ({len(golds_half)} papers"
                  + ("; rules were changed only by reading the tune half)" if half == "test" else ")") + ":")
            print("\n".join(real_report(golds_half)))
            if args.errors and half == "tune":
                for e in evaluate(golds_half)[1]:
                    if not e.startswith(("maintainer_framework_ids", "defined_methods")):
                        print("   ", e)
        learned_model = learned.load()
        unseen = [g for g in fresh_golds if learned_model and g.key not in set(learned_model_ids())]
        if unseen:
            print(f"\nfresh real papers the learned model {learned_model.version} was not fitted on ({len(unseen)}), "
                  "rules alone then the screener a load runs (rules + learned model):")
            print("\n".join(real_report(unseen)))
            print("\n".join(real_report(unseen, screener=learned_screen)))
        linked, _ = real_gold(labels, cache, page_links=True)
        print("  with the links of the papers' pages (footnoted URLs; not in the Atom feed):")
        print("\n".join(x for x in real_report(linked) if "releases_code" in x))
        if args.errors:
            for e in evaluate(golds)[1]:
                if not e.startswith(("maintainer_framework_ids", "defined_methods")):
                    print("   ", e)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
