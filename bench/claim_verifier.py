"""The claim verifier: how much evidence a claimed adoption needs, learned from judged claims.

A claim is a (paper, framework) pair a default branch implements or documents as supported
(`marts.fct_adoption_claims`). The verifier is a logistic regression over the claim's evidence counts
(FEATURES, computed in that model's SQL); its coefficients, the features' standardisation and the
support threshold live in the dbt seed `claim_verifier.csv`, which the model applies.

Labels: the nine frameworks' truth (`adoptions_dev.csv` true, `non_adoptions_dev.csv` false) and our
hand verdicts on claims in frameworks outside the registry (`bench/claim_verdicts.csv`: framework,
arxiv_id, verdict true | false | borderline; borderline counts as not true). Features are read from a
warehouse the fidelity bench built over the labelled frameworks (`bench/fidelity.py --work DIR`).

Measured leave-one-framework-out: for each framework, the model and its threshold (the support that keeps
KEEP_TRUE of the training folds' true claims, from inner out-of-fold scores grouped by framework) are
fitted on the others and the framework's claims are scored. `--write` refits on all claims and writes
the seed, the card (`bench/claim_verifier.md`) and the features it was fitted on (`bench/claim_features.csv`:
ids, counts and labels only). `--features CSV` re-runs the cross-validation from such a file.

Usage:
  python bench/claim_verifier.py --warehouse data/fidelity/warehouse.duckdb [--truth /work/shared/truth]
                                 [--verdicts bench/claim_verdicts.csv] [--write]
  python bench/claim_verifier.py --features bench/claim_features.csv
"""

from __future__ import annotations

import argparse
import csv
import platform
import sys
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import sklearn
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "dbt_project" / "seeds" / "claim_verifier.csv"
CARD = ROOT / "bench" / "claim_verifier.md"
FEATURES_CSV = ROOT / "bench" / "claim_features.csv"
VERDICTS = ROOT / "bench" / "claim_verdicts.csv"
NINE = ("trl", "verl", "openrlhf", "slime", "nemo_rl", "roll", "areal", "prime_rl", "skyrl")
FEATURES = ("log_evidence_rows", "log_evidence_paths", "log_evidence_commits", "named_by_id", "implemented",
            "claimed_elsewhere", "general_method")
COUNTS = ("evidence_rows", "evidence_paths", "evidence_commits", "is_named_by_id", "is_implemented",
          "is_claimed_elsewhere", "is_general_method")
C = 0.3
KEEP_TRUE = 0.98
INNER_FOLDS = 5


def features(counts: pd.DataFrame) -> pd.DataFrame:
    """The verifier's inputs from a claim's counts, as fct_adoption_claims computes them."""
    return pd.DataFrame({
        "log_evidence_rows": np.log1p(counts.evidence_rows.astype(float)),
        "log_evidence_paths": np.log1p(counts.evidence_paths.astype(float)),
        "log_evidence_commits": np.log1p(counts.evidence_commits.astype(float)),
        "named_by_id": counts.is_named_by_id.astype(float),
        "implemented": counts.is_implemented.astype(float),
        "claimed_elsewhere": counts.is_claimed_elsewhere.astype(float),
        "general_method": counts.is_general_method.fillna(False).astype(float),
    }, index=counts.index)[list(FEATURES)]


def read_labels(truth: Path, verdicts: Path) -> dict[tuple[str, str], str]:
    labels = {}
    for r in csv.DictReader(open(verdicts)):
        labels[r["framework"], r["arxiv_id"]] = r["verdict"]
    for name, verdict in (("non_adoptions_dev.csv", "false"), ("adoptions_dev.csv", "true")):
        for r in csv.DictReader(open(truth / name)):
            labels[r["framework"], r["arxiv_id"]] = verdict
    return labels


def labelled_claims(warehouse: Path, labels: dict) -> pd.DataFrame:
    con = duckdb.connect(str(warehouse), read_only=True)
    claims = con.execute(f"select framework_id, arxiv_id, {', '.join(COUNTS)} from marts.fct_adoption_claims").df()
    con.close()
    claims["verdict"] = [labels.get((f, a), "") for f, a in zip(claims.framework_id, claims.arxiv_id)]
    return claims[claims.verdict.isin(["true", "false", "borderline"])].sort_values(
        ["framework_id", "arxiv_id"]).reset_index(drop=True)


def model() -> object:
    return make_pipeline(StandardScaler(), LogisticRegression(C=C, class_weight="balanced", max_iter=1000))


def fit(x: pd.DataFrame, y: np.ndarray, groups: np.ndarray) -> tuple[object, float]:
    """The model and its support threshold: the one keeping KEEP_TRUE of the true claims' out-of-fold scores."""
    folds = GroupKFold(min(INNER_FOLDS, len(set(groups))))
    inner = cross_val_predict(model(), x, y, groups=groups, cv=folds, method="predict_proba")[:, 1]
    return model().fit(x, y), float(np.quantile(inner[y == 1], 1 - KEEP_TRUE))


def leave_one_framework_out(claims: pd.DataFrame) -> pd.DataFrame:
    x, y, groups = features(claims), (claims.verdict == "true").to_numpy(int), claims.framework_id.to_numpy()
    support, kept = np.zeros(len(claims)), np.zeros(len(claims), bool)
    for held in sorted(set(groups)):
        train = groups != held
        fitted, threshold = fit(x[train], y[train], groups[train])
        support[~train] = fitted.predict_proba(x[~train])[:, 1]
        kept[~train] = support[~train] >= threshold
    return claims.assign(support=support, kept=kept, y=y)


def summary(scored: pd.DataFrame) -> list[tuple]:
    rows = []
    for name, part in (("nine (truth)", scored[scored.framework_id.isin(NINE)]),
                       ("outside (our verdicts)", scored[~scored.framework_id.isin(NINE)]),
                       ("all", scored)):
        kept = part[part.kept]
        rows.append((name, len(part), part.y.mean(), len(kept), kept.y.mean() if len(kept) else 0.0,
                     int(kept.y.sum()), int(part.y.sum())))
    return rows


def print_summary(scored: pd.DataFrame, out=sys.stdout) -> None:
    print("| claims | judged | P without the verifier | kept | P with it | true kept |", file=out)
    print("|---|---|---|---|---|---|", file=out)
    for name, n, p0, k, p1, tk, t in summary(scored):
        print(f"| {name} | {n} | {p0:.3f} | {k} | {p1:.3f} | {tk} of {t} |", file=out)


def write(claims: pd.DataFrame, scored: pd.DataFrame) -> None:
    x, y = features(claims), (claims.verdict == "true").to_numpy(int)
    fitted, threshold = fit(x, y, claims.framework_id.to_numpy())
    scaler, logistic = fitted[0], fitted[-1]
    with open(SEED, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["feature", "mean", "scale", "coefficient"])
        w.writerow(["(intercept)", 0, 1, round(float(logistic.intercept_[0]), 6)])
        w.writerow(["(threshold)", 0, 1, round(threshold, 6)])
        for name, mean, scale, coef in zip(FEATURES, scaler.mean_, scaler.scale_, logistic.coef_[0]):
            w.writerow([name, round(float(mean), 6), round(float(scale), 6), round(float(coef), 6)])
    claims.to_csv(FEATURES_CSV, index=False, lineterminator="\n")
    counts = claims.verdict.value_counts().to_dict()
    with open(CARD, "w") as out:
        print("# Claim verifier\n", file=out)
        print("A logistic regression over a claimed adoption's evidence counts (`bench/claim_verifier.py`); "
              "`dbt_project/seeds/claim_verifier.csv` holds it and `marts.fct_adoption_claims` applies it.\n", file=out)
        print(f"- fitted on {len(claims)} judged claims of {claims.framework_id.nunique()} frameworks "
              f"(verdicts {counts}; ids and counts in `bench/claim_features.csv`)", file=out)
        print(f"- C {C}, class-balanced; threshold {threshold:.4f}: keeps {KEEP_TRUE:.0%} of the true claims' "
              f"out-of-fold scores ({INNER_FOLDS} folds grouped by framework)", file=out)
        print("- coefficients (standardised features): "
              + ", ".join(f"{n} {c:+.2f}" for n, c in zip(FEATURES, logistic.coef_[0])), file=out)
        print(f"- libraries: scikit-learn {sklearn.__version__}, numpy {np.__version__}, "
              f"python {platform.python_version()}\n", file=out)
        print("Leave one framework out (model and threshold fitted on the other frameworks):\n", file=out)
        print_summary(scored, out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = ap.add_mutually_exclusive_group(required=True)
    source.add_argument("--warehouse", type=Path, help="a fidelity bench warehouse over the labelled frameworks")
    source.add_argument("--features", type=Path, help="a claim features csv written by --write")
    ap.add_argument("--truth", type=Path, default=ROOT.parent / "shared" / "truth")
    ap.add_argument("--verdicts", type=Path, default=VERDICTS)
    ap.add_argument("--write", action="store_true", help="refit on all and write the seed, card and features")
    ap.add_argument("--list", action="store_true", help="list the claims the cross-validation holds back")
    args = ap.parse_args()
    if args.warehouse:
        claims = labelled_claims(args.warehouse, read_labels(args.truth, args.verdicts))
    else:
        claims = pd.read_csv(args.features, dtype={"arxiv_id": str})
    scored = leave_one_framework_out(claims)
    print(f"{len(claims)} judged claims of {claims.framework_id.nunique()} frameworks; leave one framework out:")
    print_summary(scored)
    if args.list:
        for r in scored[~scored.kept].itertuples():
            print(f"  HELD {r.framework_id} {r.arxiv_id} {r.verdict} support {r.support:.3f}")
    if args.write:
        write(claims, scored)
        print(f"wrote {SEED.relative_to(ROOT)}, {CARD.relative_to(ROOT)}, {FEATURES_CSV.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
