"""Fit, cross-validate and write the learned screener.

    python -m ingestion.screening.train          # rebuild model/screener.json, MODEL_CARD.md, fresh_labels.csv
    python -m ingestion.screening.train --cv     # also print rules / learned / combined, cross-validated

Labels: ingestion/screening/labelled.py (the truth's dev labels and the fresh blind labels, with the
local cache of their abstracts). Cross-validation is repeated stratified k-fold by paper (strata:
kind, general methods split by loss change); within each training fold the vectoriser's vocabulary
and IDF, the regularisation strength (an inner 3-fold search) and the decision thresholds are fitted,
and only the held-out fold is scored. 95% intervals: percentile bootstrap over papers of the
out-of-fold answers. The field-by-field choice of screener is the best cross-validated F1 on the
papers the rules were never written on (the fresh test half, labelled.fresh_tune_half): on the
truth's papers, which the rules were written reading, the rules and their cues look better than
they are, so choosing there would favour them.
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import scipy
import sklearn
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold
from sklearn.multiclass import OneVsRestClassifier

from ingestion.screening import labelled
from ingestion.screening.features import document, rule_cues
from ingestion.screening.learned import ARTIFACT, RL_KINDS, VECTORISER, Head, LearnedScreener
from ingestion.screening.rules import KINDS, PaperText

SEED = 20260
FOLDS, REPEATS, BOOTSTRAP = 5, 2, 1000
CS = (1.0, 4.0, 16.0)
MAX_TERMS, MIN_DF = 4000, 2
MIN_UNTUNED = 100  # labelled papers the rules were never written on, enough to choose the screener on
CUE_WEIGHT = 0.3  # the cues' scale beside TF-IDF (one 5-fold CV compared 0.3, 1 and 3 on all labels)
SCREENERS = ("rules", "learned", "combined")
MODEL_DIR = ARTIFACT.parent
CARD = MODEL_DIR / "MODEL_CARD.md"
# what is scored: name -> (field, positive value, restricted to gold general methods)
SCORES = {"is_rl_related": ("is_rl_related", True, False), "general_method": ("kind", "general_method", False),
          "changes_loss (of general methods)": ("changes_loss", True, True), "releases_code": ("releases_code", True, False)}
TARGETS = {"general_method": (0.90, 0.90), "changes_loss (of general methods)": (0.85, 0.80),
           "releases_code": (0.85, 0.90), "is_rl_related": (0.95, 0.95)}


class Data:
    """The labelled papers as arrays: texts, cues (computed once) and gold labels."""

    def __init__(self, papers: list[labelled.Labelled]) -> None:
        self.papers = papers
        texts = [PaperText.from_row(p.row) for p in papers]
        self.texts = [document(t) for t in texts]
        self.cues = [rule_cues(t) for t in texts]
        self.cue_names = sorted(self.cues[0]) if self.cues else []
        self.gold = {"is_rl_related": np.array([p.is_rl_related for p in papers]),
                     "kind": np.array([p.kind for p in papers]),
                     "changes_loss": np.array([p.changes_loss for p in papers]),
                     "releases_code": np.array([p.releases_code for p in papers])}
        self.strata = np.array([f"{p.kind}{'+loss' if p.kind == 'general_method' and p.changes_loss else ''}"
                                for p in papers])

    def rules(self, idx: np.ndarray) -> dict[str, list]:
        cues = [self.cues[i] for i in idx]
        kinds = [next((k for k in KINDS if c[f"cue: rules: {k}"]), "not_rl") for c in cues]
        return {"is_rl_related": [bool(c["cue: rules: rl related"]) for c in cues], "kind": kinds,
                "changes_loss": [bool(c["cue: rules: changes loss"]) for c in cues],
                "releases_code": [bool(c["cue: rules: releases code"]) for c in cues]}


def _lr(c: float) -> LogisticRegression:
    return LogisticRegression(C=c, class_weight="balanced", solver="liblinear", max_iter=1000, random_state=SEED)


def _fit_lr(x, y, c: float) -> LogisticRegression:
    """A logistic regression; with more than two classes one-vs-rest (liblinear, fast on sparse text),
    kept as one LogisticRegression whose rows are the per-class weights (softmax over their scores)."""
    if len(set(y)) <= 2:
        return _lr(c).fit(x, y)
    ovr = OneVsRestClassifier(_lr(c)).fit(x, y)
    model = LogisticRegression()
    model.classes_ = ovr.classes_
    model.coef_ = np.vstack([e.coef_ for e in ovr.estimators_])
    model.intercept_ = np.concatenate([e.intercept_ for e in ovr.estimators_])
    model.n_features_in_ = model.coef_.shape[1]
    return model


def _tune(x, y, target: tuple[float, float] | None = None) -> tuple[float, float]:
    """(C, threshold) from inner 3-fold out-of-fold probabilities on the training rows only: the C with
    the best log-loss, then (two classes) the threshold that comes nearest to both of the field's
    precision/recall targets (the best F1 without targets)."""
    counts = Counter(y)
    if len(counts) < 2 or min(counts.values()) < 3:
        return CS[0], 0.5
    best = (np.inf, CS[0], None)
    for c in CS:
        probs = np.zeros((len(y), len(counts)))
        for tr, te in StratifiedKFold(3, shuffle=True, random_state=SEED).split(np.zeros(len(y)), y):
            m = _fit_lr(x[tr], y[tr], c)
            probs[np.ix_(te, np.searchsorted(np.array(sorted(counts)), m.classes_))] = m.predict_proba(x[te])
        truth = np.searchsorted(np.array(sorted(counts)), y)
        loss = -np.log(np.clip(probs[np.arange(len(y)), truth], 1e-9, 1)).sum()
        if loss < best[0]:
            best = (loss, c, probs)
    _, c, probs = best
    if len(counts) > 2:
        return c, 0.5
    positive = probs[:, 1]
    gold = y.astype(bool)

    def merit(t: float) -> tuple[float, float]:
        tp = ((positive >= t) & gold).sum()
        p, r = tp / max((positive >= t).sum(), 1), tp / max(gold.sum(), 1)
        if target is None:
            return 2 * p * r / max(p + r, 1e-9), 0.0
        return min(p / target[0], r / target[1]), 2 * p * r / max(p + r, 1e-9)  # both targets, then F1

    return c, max((round(float(t), 2) for t in np.arange(0.15, 0.86, 0.05)), key=lambda t: (merit(t), -abs(t - 0.5)))


def fit(data: Data, idx: np.ndarray, inputs: str | dict[str, str], chosen: dict[str, str] | None = None
        ) -> LearnedScreener:
    """A screener fitted on the papers `idx` only: vocabulary, IDF, C and thresholds included. inputs:
    "learned" (words) or "combined" (words and cues), for every head or per head ("rules": combined,
    fitted but not used)."""
    per_head = inputs if isinstance(inputs, dict) else {h: inputs for h in SCORES_FIELDS}
    vec = TfidfVectorizer(min_df=MIN_DF, max_features=MAX_TERMS, **VECTORISER)
    vec.fit([data.texts[i] for i in idx])
    screener = LearnedScreener(vec, data.cue_names, {}, chosen or dict(per_head), cue_weight=CUE_WEIGHT)
    x = screener.matrix([data.texts[i] for i in idx], [data.cues[i] for i in idx])
    gold = {k: v[idx] for k, v in data.gold.items()}
    rl = gold["is_rl_related"] & (gold["kind"] != "not_rl")
    method = gold["kind"] == "general_method"
    for head, rows, y in (("is_rl_related", slice(None), gold["is_rl_related"].astype(int)),
                          ("kind", rl, gold["kind"][rl]),
                          ("changes_loss", method, gold["changes_loss"][method].astype(int)),
                          ("releases_code", slice(None), gold["releases_code"].astype(int))):
        head_inputs = "learned" if per_head[head] == "learned" else "combined"
        cols = screener.n_words if head_inputs == "learned" else x.shape[1]
        xs = x[rows] if isinstance(rows, slice) else x[np.flatnonzero(rows)]
        c, threshold = _tune(xs[:, :cols], y, HEAD_TARGETS.get(head))
        screener.heads[head] = Head(_fit_lr(xs[:, :cols], y, c), head_inputs, threshold)
    return screener


SCORES_FIELDS = ("is_rl_related", "kind", "changes_loss", "releases_code")
HEAD_TARGETS = {"is_rl_related": TARGETS["is_rl_related"], "changes_loss": TARGETS["changes_loss (of general methods)"],
                "releases_code": TARGETS["releases_code"]}


def _prf(gold: np.ndarray, pred: np.ndarray) -> tuple[float, float, float]:
    tp = (gold & pred).sum()
    p = tp / pred.sum() if pred.sum() else 1.0
    r = tp / gold.sum() if gold.sum() else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def score(data: Data, preds: dict[str, np.ndarray], rows: np.ndarray) -> dict[str, np.ndarray]:
    """{score name: (gold, pred) boolean arrays} over `rows` (indices into data, repeats allowed)."""
    out = {}
    for name, (field, positive, methods_only) in SCORES.items():
        keep = rows[data.gold["kind"][rows] == "general_method"] if methods_only else rows
        gold = data.gold[field][keep] == positive if field == "kind" else data.gold[field][keep].astype(bool)
        if field == "is_rl_related":
            gold = data.gold["is_rl_related"][keep].astype(bool)
        out[name] = (gold, np.asarray(preds[field])[keep] == positive)
    return out


def cross_validate(data: Data, folds: int = FOLDS, repeats: int = REPEATS, rows: np.ndarray | None = None,
                   quiet: bool = False) -> dict[str, list[dict[str, np.ndarray]]]:
    """{screener: [out-of-fold predictions of every field, one dict per repeat]}."""
    rows = np.arange(len(data.papers)) if rows is None else rows
    cv = RepeatedStratifiedKFold(n_splits=folds, n_repeats=repeats, random_state=SEED)
    out = {s: [] for s in SCREENERS}
    current: dict[str, dict[str, np.ndarray]] = {}
    for n, (tr, te) in enumerate(cv.split(np.zeros(len(rows)), data.strata[rows])):
        if n % folds == 0:
            current = {s: {f: np.empty(len(data.papers), dtype=object) for f in SCORES_FIELDS} for s in SCREENERS}
            for s in SCREENERS:
                out[s].append(current[s])
        tr, te = rows[tr], rows[te]
        for s in SCREENERS:
            if s == "rules":
                pred = data.rules(te)
            else:
                m = fit(data, tr, s)
                pred = m.predict(m.matrix([data.texts[i] for i in te], [data.cues[i] for i in te]))
            for f in SCORES_FIELDS:
                current[s][f][te] = pred[f]
        if not quiet:
            print(f"  fold {n + 1}/{folds * repeats}", file=sys.stderr, end="\r")
    return out


def summarise(data: Data, oof: dict[str, list], rows: np.ndarray) -> dict[str, dict[str, dict]]:
    """{screener: {score: {p, r, f1, p_ci, r_ci, f1_ci}}}: mean over repeats, bootstrap CI over papers."""
    rng = np.random.default_rng(SEED)
    boots = [rng.choice(rows, len(rows)) for _ in range(BOOTSTRAP)]
    out = {}
    for s, repeats in oof.items():
        out[s] = {}
        for name in SCORES:
            point = np.mean([_prf(*score(data, rep, rows)[name]) for rep in repeats], axis=0)
            samples = np.array([np.mean([_prf(*score(data, rep, b)[name]) for rep in repeats], axis=0) for b in boots])
            lo, hi = np.percentile(samples, [2.5, 97.5], axis=0)
            out[s][name] = {"p": point[0], "r": point[1], "f1": point[2],
                            "ci": [[round(float(a), 3), round(float(b), 3)] for a, b in zip(lo, hi)]}
    return out


def table(summary: dict, title: str) -> list[str]:
    lines = [title, f"  {'score':34s} {'target P/R':>10s}  " + "  ".join(f"{s + ' P [95% CI] / R [95% CI] / F1':^52s}"
                                                            for s in SCREENERS)]
    for name in SCORES:
        cells = []
        for s in SCREENERS:
            m = summary[s][name]
            (plo, phi), (rlo, rhi), _ = m["ci"]
            cells.append(f"{m['p']:.3f} [{plo:.2f},{phi:.2f}] / {m['r']:.3f} [{rlo:.2f},{rhi:.2f}] / {m['f1']:.3f}")
        t = TARGETS[name]
        lines.append(f"  {name:34s} {t[0]:.2f}/{t[1]:.2f}  " + "  ".join(f"{c:52s}" for c in cells))
    return lines


def choose(summary: dict) -> dict[str, str]:
    """Per field, the screener with the best cross-validated F1 (ties: the simpler one)."""
    by_field = {"is_rl_related": "is_rl_related", "kind": "general_method",
                "changes_loss": "changes_loss (of general methods)", "releases_code": "releases_code"}
    return {f: max(SCREENERS, key=lambda s: (round(summary[s][n]["f1"], 3), -SCREENERS.index(s)))
            for f, n in by_field.items()}


def learning_curve(data: Data, sizes: list[int], chosen: dict[str, str]) -> list[str]:
    """Cross-validated F1 of each field's chosen screener on nested random subsets of the labels."""
    order = np.random.default_rng(SEED).permutation(len(data.papers))
    field_of = {name: field for name, (field, _, _) in SCORES.items()}
    lines = [f"learning curve (5-fold CV on the first n labels of one random order; F1 of the chosen screener):",
             f"  {'n':>5s} " + " ".join(f"{n + ' (' + chosen[field_of[n]] + ')':>44s}" for n in SCORES)]
    for n in sizes:
        rows = np.sort(order[:n])  # nested subsets: each n holds the smaller ones
        oof = cross_validate(data, FOLDS, 1, rows, quiet=True)
        f1 = {name: _prf(*score(data, oof[chosen[field_of[name]]][0], rows)[name])[2] for name in SCORES}
        lines.append(f"  {n:5d} " + " ".join(f"{f1[name]:44.3f}" for name in SCORES))
    return lines


def card_text(card: dict) -> str:
    lines = [f"# Learned paper screener {card['version']}", "",
             "Logistic regressions over word/phrase TF-IDF (1-2 grams) of title, abstract and arXiv comment, "
             "and the rule screener's cues as features (`ingestion/screening/learned.py`). Rebuilt by "
             "`python -m ingestion.screening.train`; `--cv` prints the cross-validated table.", "",
             f"- fitted on {card['n_papers']} labelled real papers ({card['origins']}); ids in `screener.json` → `card.fitted_on`",
             f"- label counts: kind {card['label_counts']['kind']}; is_rl_related {card['label_counts']['is_rl_related']}; "
             f"changes_loss among general methods {card['label_counts']['changes_loss']}; releases_code {card['label_counts']['releases_code']}",
             f"- chosen screener per field (best cross-validated F1 on the fresh papers the rules were never written on): {card['chosen']}",
             f"- cross-validation: {card['cv']}",
             f"- libraries: {card['libraries']}", "",
             ]
    for key, title in (("cross_validated", "Cross-validated on all labels (P / R, F1)"),
                       ("cross_validated_on_fresh_test_half", "The same out-of-fold answers on the fresh papers the rules "
                                                              "were never written on"),
                       ("cross_validated_on_pool_sample", "Of which the random candidate-pool sample (what a refresh screens)"),
                       ("cross_validated_on_rl_sample", "Of which the random sample of pool papers the rules call RL-related"),
                       ("cross_validated_on_truth", "The same out-of-fold answers on the papers of ../shared/truth")):
        if not (s := card.get(key)):
            continue
        lines += [f"### {title}", "", "| score | target P/R | " + " | ".join(SCREENERS) + " |",
                  "|---|---|" + "---|" * len(SCREENERS)]
        for name in SCORES:
            cells = [f"{s[x][name]['p']:.3f} / {s[x][name]['r']:.3f} (F1 {s[x][name]['f1']:.3f})" for x in SCREENERS]
            lines.append(f"| {name} | {TARGETS[name][0]:.2f} / {TARGETS[name][1]:.2f} | " + " | ".join(cells) + " |")
        lines.append("")
    if card.get("learning_curve"):
        lines += ["### Learning curve", "", "```", *card["learning_curve"], "```", ""]
    lines += ["95% intervals (bootstrap over papers) are in `screener.json` → `card`.", ""]
    return "\n".join(lines)


def _rounded(summary: dict) -> dict:
    return {s: {n: {k: (round(float(v), 3) if k != "ci" else v) for k, v in m.items()} for n, m in by.items()}
            for s, by in summary.items()}


def build(data: Data, summary: dict, untuned: dict | None = None) -> dict:
    chosen = choose(untuned or summary)
    screener = fit(data, np.arange(len(data.papers)), chosen, chosen)
    gm = data.gold["kind"] == "general_method"
    card = {"n_papers": len(data.papers), "origins": dict(Counter(p.origin for p in data.papers)),
            "label_counts": {"kind": dict(sorted(Counter(str(k) for k in data.gold["kind"]).items())),
                             "is_rl_related": int(data.gold["is_rl_related"].sum()),
                             "changes_loss": f"{int(data.gold['changes_loss'][gm].sum())}/{int(gm.sum())}",
                             "releases_code": int(data.gold["releases_code"].sum())},
            "chosen": chosen, "cv": f"{FOLDS}-fold x {REPEATS} repeats, stratified by kind (+loss), seed {SEED}",
            "cross_validated": _rounded(summary),
            "cross_validated_on_fresh_test_half": _rounded(untuned) if untuned else None,
            "libraries": {"scikit-learn": sklearn.__version__, "numpy": np.__version__, "scipy": scipy.__version__,
                          "python": platform.python_version()},
            "fitted_on": sorted(p.arxiv_id for p in data.papers)}
    art = screener.to_artifact(card)
    art["card"]["version"] = art["version"]
    return art


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cv", action="store_true", help="print the cross-validated table and learning curve only")
    ap.add_argument("--no-curve", action="store_true", help="skip the learning curve")
    args = ap.parse_args(argv)
    n_fresh = labelled.write_fresh_labels() if labelled.FRESH_FOLDER.is_dir() else 0
    data = Data(labelled.all_papers())
    if not data.papers:
        print("no labelled paper with a cached abstract: nothing to fit", file=sys.stderr)
        return 1
    print(f"{len(data.papers)} labelled papers ({dict(Counter(p.origin for p in data.papers))}); "
          f"{n_fresh} fresh labels written to {labelled.FRESH_LABELS_CSV.name}")
    rows = np.arange(len(data.papers))
    oof = cross_validate(data)
    summary = summarise(data, oof, rows)
    print("\n".join(table(summary, f"cross-validated ({FOLDS}-fold x {REPEATS} repeats by paper; mean, 95% CI):")))
    untuned = np.array([i for i, p in enumerate(data.papers)
                        if p.origin == "fresh" and not labelled.fresh_tune_half(p.arxiv_id, p.sample)])
    untuned_summary = summarise(data, oof, untuned) if len(untuned) >= MIN_UNTUNED else None
    if untuned_summary:
        print("\n".join(table(untuned_summary, f"the same out-of-fold answers on the {len(untuned)} fresh papers the "
                                                "rules were never written on (the first sample's test half and the pool sample):")))
    subsets = {}  # the same out-of-fold answers on the truth's papers and on each random sample
    for key, keep, title in (("truth", lambda p: p.origin == "truth", "papers of ../shared/truth (the rules were written on them)"),
                             ("pool_sample", lambda p: p.sample == labelled.POOL_SAMPLE,
                              "papers of the random candidate-pool sample (what a refresh screens; never read before labelling)"),
                             ("rl_sample", lambda p: p.sample == labelled.RL_SAMPLE,
                              "papers of the random sample of RL-related pool papers (never read before labelling)")):
        idx = np.array([i for i, p in enumerate(data.papers) if keep(p)])
        if len(idx) >= MIN_UNTUNED:
            subsets[key] = summarise(data, oof, idx)
            print("\n".join(table(subsets[key], f"the same out-of-fold answers on the {len(idx)} {title}:")))
    chosen = choose(untuned_summary or summary)
    print("chosen per field:", chosen,
          "(on the papers the rules were never written on)" if untuned_summary else "")
    curve = []
    if not args.no_curve:
        sizes = sorted({n for n in (100, 200, 400, 800, 1200, 1600, 2000) if n < len(rows)} | {len(rows)})
        curve = learning_curve(data, sizes, chosen)
        print("\n".join(curve))
    if args.cv:
        return 0
    art = build(data, summary, untuned_summary)
    art["card"].update({f"cross_validated_on_{k}": _rounded(v) for k, v in subsets.items()})
    art["card"]["learning_curve"] = curve
    ARTIFACT.write_text(json.dumps(art, separators=(",", ":"), sort_keys=True) + "\n")
    CARD.write_text(card_text(art["card"]))
    print(f"wrote {ARTIFACT} ({ARTIFACT.stat().st_size // 1024} KiB), version {art['version']}, and {CARD.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
