"""Fit and rebuild the learned thread-role combination (`thread_model`) from hand-labelled threads.

Inputs (never committed): a truth CSV of threads with hand roles (proposal | failure | other) and a
local cache of those threads in the GitHub REST issue shape, one file per thread at
<cache>/<owner>+<repo>/<number>.json (scripts/thread_metrics.py describes the shape). Rebuild:

    python -m ingestion.github.train_roles --cache data/real_world/threads \
        --truth ../shared/truth/thread_labels_dev.csv

The regularisation is chosen by leave-one-framework-out cross-validation inside the training
frameworks; the artifact's card records the held-out (leave-one-framework-out) figures of the
chosen setting and the threads it was fitted on (ids only).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ingestion.github.thread_cues import ThreadText
from ingestion.github.thread_model import ARTIFACT, CLASSES, LearnedRoles
from ingestion.github.thread_roles import cue_features, rule_role, thread_role, with_replies

GRID = (0.1, 0.3, 1.0, 3.0)


@dataclass
class Case:
    """One labelled thread: its framework (the fold), hand role, cue features and the rules' role."""

    key: str
    framework: str
    hand: str  # proposal | failure | other
    features: dict[str, float]
    rule: str


def fit(cases: Sequence[Case], c: float) -> LearnedRoles:
    from sklearn.linear_model import LogisticRegression

    # training_method_named and told_by_others are gates (LearnedRoles.allowed), not weighed inputs
    names = sorted({k for case in cases for k in case.features} - {"training_method_named", "told_by_others"})
    x = np.array([[case.features.get(n, 0.0) for n in names] for case in cases])
    y = [case.hand for case in cases]
    model = LogisticRegression(C=c, class_weight="balanced", max_iter=5000).fit(x, y)
    coef, intercept = model.coef_, model.intercept_
    present = list(model.classes_)
    full_coef = np.zeros((len(CLASSES), len(names)))
    full_b = np.full(len(CLASSES), -1e3)
    for i, cls in enumerate(CLASSES):
        if cls in present:
            full_coef[i], full_b[i] = coef[present.index(cls)], intercept[present.index(cls)]
    return LearnedRoles(names, CLASSES, full_coef, full_b)


def leave_one_framework_out(cases: Sequence[Case], fitter: Callable[[Sequence[Case]], Callable[[Case], str]]
                            ) -> dict[str, str]:
    """{case key: held-out prediction}: for each framework, a predictor fitted on the others only."""
    out: dict[str, str] = {}
    for fw in sorted({c.framework for c in cases}):
        predict = fitter([c for c in cases if c.framework != fw])
        out.update({c.key: predict(c) for c in cases if c.framework == fw})
    return out


def scores(cases: Sequence[Case], predicted: dict[str, str]) -> dict[str, tuple[int, int, int]]:
    """{role: (tp, fp, fn)} for proposal and failure."""
    out = {}
    for role in ("proposal", "failure"):
        tp = sum(c.hand == role and predicted[c.key] == role for c in cases)
        fp = sum(c.hand != role and predicted[c.key] == role for c in cases)
        fn = sum(c.hand == role and predicted[c.key] != role for c in cases)
        out[role] = (tp, fp, fn)
    return out


def f1(counts: tuple[int, int, int]) -> float:
    tp, fp, fn = counts
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def _objective(cases: Sequence[Case], predicted: dict[str, str]) -> float:
    s = scores(cases, predicted)
    return (f1(s["proposal"]) + f1(s["failure"])) / 2


def learned_fitter(c: float | None = None) -> Callable[[Sequence[Case]], Callable[[Case], str]]:
    """A fitter for `leave_one_framework_out`: C fixed, or chosen by an inner leave-one-framework-out."""
    def fitter(train: Sequence[Case]) -> Callable[[Case], str]:
        chosen = c if c is not None else choose_c(train)
        model = fit(train, chosen)
        return lambda case: model.predict(case.features)
    return fitter


def choose_c(train: Sequence[Case]) -> float:
    if len({c.framework for c in train}) < 3:
        return 1.0
    best = max(GRID, key=lambda c: (_objective(train, leave_one_framework_out(train, learned_fitter(c))), -abs(c - 1)))
    return best


def rules_fitter(train: Sequence[Case]) -> Callable[[Case], str]:
    return lambda case: {"proposal": "proposal", "failure_report": "failure"}.get(case.rule, "other")


# --- cases from the local cache ------------------------------------------------------------------------
# a thread read from a search excerpt: each post opens with "login · description|comment|review... · date"
_EXCERPT_HEADER = re.compile(r"^(\S+) · (description|comment|review(?: thread| comment)?) · \d{4}-\d\d-\d\d[ \t]*$", re.M)


def opening_post(body: str) -> str:
    """The opening post of a cached body: a search excerpt's "description" post without its header and
    without the replies after it (the role step reads what the API's issue body holds); other bodies
    as they are."""
    headers = list(_EXCERPT_HEADER.finditer(body))
    if not headers:
        return body
    first = headers[0]
    if first.group(2) != "description":  # only replies were read
        return body[:first.start()].strip()
    end = headers[1].start() if len(headers) > 1 else len(body)
    return body[first.end():end].strip()


def replies_from_cache(item: dict, maintainers: Iterable[str] = ()) -> list[tuple[str | None, str]]:
    """(author_association, body) of a cached thread's issue comments, oldest first: its `comments`
    (the API's shape) or, in a search excerpt, the comment posts after the opening post. An excerpt
    has no association: a login of `maintainers` reads as MEMBER, anyone else as unknown."""
    known = set(maintainers)
    comments = [c for c in item.get("comments") or [] if isinstance(c, dict) and c.get("kind", "comment") == "comment"]
    if comments:
        comments.sort(key=lambda c: str(c.get("created_at") or ""))
        return [(c.get("author_association") or ("MEMBER" if (c.get("user") or {}).get("login") in known else None),
                 c.get("body") or "") for c in comments]
    body = item.get("body") or ""
    posts = list(_EXCERPT_HEADER.finditer(body))
    return [("MEMBER" if post.group(1) in known else None,
             body[post.end():posts[i + 1].start() if i + 1 < len(posts) else len(body)].strip())
            for i, post in enumerate(posts) if post.group(2) == "comment"]


def role_from_cache(item: dict, maintainers: Iterable[str] = (),
                    decide: Callable[[ThreadText], tuple[str, str]] = thread_role) -> tuple[str, str]:
    """The shipped role of a cached thread: its opening post's (`decide`), then its first replies'
    (`with_replies`), as the warehouse decides it."""
    text = thread_text_from_cache(item)
    return with_replies(*decide(text), text.kind, replies_from_cache(item, maintainers))


def thread_text_from_cache(item: dict) -> ThreadText:
    labels = tuple(str(lb.get("name")) for lb in item.get("labels") or [] if isinstance(lb, dict))
    user = item.get("user") or {}
    return ThreadText(item.get("title") or "", opening_post(item.get("body") or ""),
                      "pull_request" if item.get("pull_request") is not None else "issue", labels,
                      str(user.get("login") or "").endswith("[bot]"))


def cases_from_cache(truth: Path, cache: Path, features: Callable | None = None) -> list[Case]:
    """Labelled threads found in the cache (<cache>/<owner>+<repo>/<number>.json) as cases."""
    features = features or cue_features
    out = []
    with truth.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            path = cache / row["repo"].replace("/", "+") / f"{row['number']}.json"
            if not path.exists():
                continue
            t = thread_text_from_cache(json.loads(path.read_text(encoding="utf-8")))
            out.append(Case(f"{row['repo']}#{row['number']}", row["repo"], row["thread_type"], features(t),
                            rule_role(t)[0]))
    return out


def build(cases: Sequence[Case]) -> LearnedRoles:
    """The artifact: C chosen by leave-one-framework-out on all frameworks, fitted on every case, with
    the held-out figures (each framework predicted by a model that never saw it) in its card."""
    import sklearn

    c = choose_c(cases)
    held_out = leave_one_framework_out(cases, learned_fitter())
    model = fit(cases, c)
    per_fw = {}
    for fw in sorted({x.framework for x in cases}, key=str.lower):
        sub = [x for x in cases if x.framework == fw]
        per_fw[fw] = {role: list(v) for role, v in scores(sub, held_out).items()}
    model.card = {
        "C": c, "threads": len(cases),
        "labels": {cls: sum(x.hand == cls for x in cases) for cls in CLASSES},
        "leave_one_framework_out": {"pooled": {r: list(v) for r, v in scores(cases, held_out).items()},
                                    "per_framework": per_fw, "counts": "[tp, fp, fn]"},
        "fitted_on": sorted(x.key for x in cases),
        "libraries": {"numpy": np.__version__, "scikit-learn": sklearn.__version__,
                      "python": ".".join(map(str, sys.version_info[:3]))},
    }
    return model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--truth", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=ARTIFACT)
    args = parser.parse_args(argv)
    cases = cases_from_cache(args.truth, args.cache)
    if len({c.framework for c in cases}) < 3:
        parser.error(f"{len(cases)} labelled threads in the cache: too few frameworks to fit and choose")
    model = build(cases)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(model.to_artifact(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(cases)} threads, C={model.card['C']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
