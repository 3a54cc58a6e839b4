"""The learned thread-role combination: a logistic regression over the cue families and the rules' role.

Three classes (proposal, failure, other) from the 0/1 features of `thread_roles.cue_features`: which
cue families the title and the opening post carry, and which role the ordered rules give. The model
is a JSON artifact (`model/thread_roles.json`: feature names, classes, coefficients, intercepts and a
card of how it was chosen), never a pickle; it holds no thread text. Predictions are a softmax over
the stored coefficients (numpy only). `ingestion.github.train_roles` fits and rebuilds it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

ARTIFACT = Path(__file__).resolve().parent / "model" / "thread_roles.json"
CLASSES = ("failure", "other", "proposal")
REASONS = 3


class LearnedRoles:
    def __init__(self, names: list[str], classes: Sequence[str], coef: np.ndarray, intercept: np.ndarray,
                 version: str = "unsaved", card: dict | None = None) -> None:
        self.names, self.classes = list(names), tuple(classes)
        self.coef, self.intercept = np.asarray(coef, dtype=float), np.asarray(intercept, dtype=float)
        self.version, self.card = version, card or {}

    def vector(self, features: dict[str, float]) -> np.ndarray:
        return np.array([features.get(n, 0.0) for n in self.names], dtype=float)

    def probabilities(self, features: dict[str, float]) -> dict[str, float]:
        z = self.coef @ self.vector(features) + self.intercept
        e = np.exp(z - z.max())
        return dict(zip(self.classes, (e / e.sum()).tolist()))

    def allowed(self, features: dict[str, float]) -> dict[str, float]:
        """The class probabilities a thread may take: no proposal for a thread that names no training
        method (`thread_cues.training_method_named`; absent from older feature sets: allowed), no
        failure without a symptom family or for a symptom told only of someone else's training
        (`thread_cues.second_hand_only`)."""
        probs = self.probabilities(features)
        if features.get("training_method_named", 1.0) == 0.0:
            probs.pop("proposal", None)
        if features.get("told_by_others", 0.0) == 1.0 or not has_symptom(features):
            probs.pop("failure", None)  # a failure report tells a symptom of the opener's own training
        return probs

    def predict(self, features: dict[str, float]) -> str:
        probs = self.allowed(features)
        return max(probs, key=probs.get)

    def why(self, features: dict[str, float], cls: str) -> str:
        """The cues that weighed most for a class (coefficient x value, against the other classes)."""
        x = self.vector(features)
        i = self.classes.index(cls)
        margin = (self.coef[i] - np.delete(self.coef, i, axis=0).mean(axis=0)) * x
        top = [self.names[j] for j in np.argsort(-margin)[:REASONS] if margin[j] > 0]
        return ", ".join(top) if top else "no cue (intercept)"

    def decide(self, features: dict[str, float], rule: str, rule_reason: str) -> tuple[str, str]:
        """(role, signal): proposal and failure from the model; for the rest, the rules' finer role."""
        probs = self.allowed(features)
        cls = max(probs, key=probs.get)
        said = f"learned {cls} p={probs[cls]:.2f} ({self.why(features, cls)}); rules: {rule_reason}"
        if cls == "proposal":
            return "proposal", said
        if cls == "failure":
            return "failure_report", said
        if rule not in ("proposal", "failure_report"):
            return rule, said
        return finer_other(features), said

    def to_artifact(self) -> dict:
        art = {"format": "thread-roles-logreg/1", "features": self.names, "classes": list(self.classes),
               "coef": np.round(self.coef, 6).tolist(), "intercept": np.round(self.intercept, 6).tolist(),
               "card": self.card}
        art["version"] = "l-" + hashlib.sha256(json.dumps(art, sort_keys=True).encode()).hexdigest()[:10]
        return art

    @classmethod
    def from_artifact(cls, art: dict) -> LearnedRoles:
        return cls(art["features"], art["classes"], np.array(art["coef"]), np.array(art["intercept"]),
                   art.get("version", "unsaved"), art.get("card"))


def has_symptom(features: dict[str, float]) -> bool:
    """Whether any training-failure symptom family fires (title, opening post or code); feature sets
    without the families (older artifacts' tests) count as having one."""
    keys = [k for k in features if ("failure_" in k or k.endswith("_failure")) and not k.startswith("rule_")]
    return not keys or any(features[k] for k in keys)


def finer_other(features: dict[str, float]) -> str:
    """bug_report, question or other for a thread that is neither a proposal nor a failure report."""
    if any(features.get(k) for k in ("title_bug", "title_error", "bug_template", "label_bug", "body_error",
                                      "title_out_of_memory", "body_out_of_memory")):
        return "bug_report"
    if any(features.get(k) for k in ("title_question", "question_template", "label_question", "body_question")):
        return "question"
    return "other"


@lru_cache(maxsize=1)
def _load(path: str, mtime: float) -> LearnedRoles | None:
    return LearnedRoles.from_artifact(json.loads(Path(path).read_text(encoding="utf-8")))


def load(path: Path = ARTIFACT) -> LearnedRoles | None:
    """The shipped artifact, or None when there is none (the rules then decide alone)."""
    return _load(str(path), path.stat().st_mtime) if path.exists() else None
