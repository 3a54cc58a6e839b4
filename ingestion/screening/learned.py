"""The learned paper screener: logistic regressions over word/phrase TF-IDF and the rules' cues.

The model is a JSON artifact (`model/screener.json`, rebuilt by `python -m ingestion.screening.train`),
never a pickle: vocabulary, IDF weights and each head's coefficients, put back into scikit-learn's own
TfidfVectorizer and LogisticRegression to predict. Heads:
- is_rl_related (all papers); kind among the RL kinds (applied when RL-related, else not_rl);
- changes_loss (fitted on general methods, answered for papers it calls general_method);
- releases_code (all papers).
The artifact names, per field, which screener cross-validation chose ("rules", "learned": text
alone, "combined": text and cues); `decide` answers every field with that screener, a probability
and a reason: the phrases and cues that weighed most for the answer. An abstract that cannot carry
a confident decision (empty, truncated, LaTeX-heavy, not English) still gets one, marked low
confidence with the reason (features.text_quality).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from ingestion.screening.features import document, rule_cues, text_quality
from ingestion.screening.rules import PaperText

ARTIFACT = Path(__file__).resolve().parent / "model" / "screener.json"
HEADS = ("is_rl_related", "kind", "changes_loss", "releases_code")
RL_KINDS = ("general_method", "system", "application", "benchmark", "dataset", "survey", "analysis")
VECTORISER = {"ngram_range": (1, 2), "sublinear_tf": True, "lowercase": True, "strip_accents": "unicode",
              "token_pattern": r"(?u)\b[A-Za-z][A-Za-z0-9+\-]*\b", "dtype": np.float64}
REASONS = 3  # phrases/cues named per decision


@dataclass(frozen=True)
class Head:
    """One logistic regression; `inputs` says which columns it reads ("learned": words only)."""

    model: LogisticRegression
    inputs: str  # "learned" | "combined"
    threshold: float = 0.5  # binary heads: the positive class from this probability on

    def proba(self, x: sparse.csr_matrix, n_words: int) -> np.ndarray:
        return self.model.predict_proba(x[:, :n_words] if self.inputs == "learned" else x)


@dataclass
class Decision:
    value: object
    probability: float  # of the answer given
    screener: str  # "rules" | "learned" | "combined"
    reason: str


class LearnedScreener:
    def __init__(self, vectoriser: TfidfVectorizer, cue_names: list[str], heads: dict[str, Head],
                 chosen: dict[str, str], version: str = "unsaved", cue_weight: float = 1.0) -> None:
        self.vectoriser, self.cue_names, self.heads = vectoriser, cue_names, heads
        self.chosen, self.version, self.cue_weight = chosen, version, cue_weight
        self.names = [*vectoriser.get_feature_names_out(), *cue_names]

    # --- inputs ---------------------------------------------------------------------------------
    def matrix(self, texts: list[str], cues: list[dict[str, float]]) -> sparse.csr_matrix:
        words = self.vectoriser.transform(texts)
        given = np.array([[c.get(n, 0.0) for n in self.cue_names] for c in cues]) * self.cue_weight
        return sparse.hstack([words, sparse.csr_matrix(given.reshape(len(texts), len(self.cue_names)))]).tocsr()

    @property
    def n_words(self) -> int:
        return len(self.vectoriser.vocabulary_)

    # --- predictions ------------------------------------------------------------------------------
    def probabilities(self, x: sparse.csr_matrix) -> dict[str, np.ndarray]:
        """{head: P(positive)} for binary heads, {"kind": rows of P(kind | RL)}."""
        out = {}
        for name, head in self.heads.items():
            p = head.proba(x, self.n_words)
            out[name] = p if name == "kind" else p[:, list(head.model.classes_).index(1)]
        return out

    def kinds(self, probs: dict[str, np.ndarray]) -> list[str]:
        classes = list(self.heads["kind"].model.classes_)
        rl = probs["is_rl_related"] >= self.heads["is_rl_related"].threshold
        return [str(classes[int(np.argmax(k))]) if r else "not_rl" for r, k in zip(rl, probs["kind"])]

    def predict(self, x: sparse.csr_matrix) -> dict[str, list]:
        """The learned answers of every head for the rows of `x` (changes_loss only for general methods)."""
        probs = self.probabilities(x)
        kinds = self.kinds(probs)
        rl = probs["is_rl_related"] >= self.heads["is_rl_related"].threshold
        loss = probs["changes_loss"] >= self.heads["changes_loss"].threshold
        code = probs["releases_code"] >= self.heads["releases_code"].threshold
        return {"is_rl_related": [bool(v) for v in rl], "kind": kinds,
                "changes_loss": [bool(v) and k == "general_method" for v, k in zip(loss, kinds)],
                "releases_code": [bool(v) for v in code]}

    def why(self, head: str, x_row: sparse.csr_matrix, target: int | str) -> str:
        """The features that pushed most toward `target` (a class of the head): '+phrase; +cue: x'."""
        h = self.heads[head]
        coef = h.model.coef_
        classes = list(h.model.classes_)
        if coef.shape[0] == 1:  # binary: one row of weights, positive toward classes_[1]
            w = coef[0] * (1 if target == classes[1] else -1)
        else:
            w = coef[classes.index(target)] - np.delete(coef, classes.index(target), axis=0).mean(axis=0)
        row = x_row[:, :self.n_words] if h.inputs == "learned" else x_row
        contrib = row.multiply(w[:row.shape[1]]).tocsr()
        order = np.argsort(-contrib.data)[:REASONS]
        top = [f"'{self.names[contrib.indices[i]]}'" for i in order if contrib.data[i] > 0]
        return ", ".join(top) or "no phrase or cue for it (prior)"

    def decide(self, p: PaperText, rules: dict) -> dict[str, Decision]:
        """Every field's answer by the screener chosen for it, with its probability and reason.
        `rules` is the rule screener's row for the same paper (ingestion/screening/rules.py `screen`)."""
        x = self.matrix([document(p)], [rule_cues(p, rules)])
        probs = {k: v[0] for k, v in self.probabilities(x).items()}
        kind = self.kinds({k: np.array([v]) for k, v in probs.items()})[0]
        doubt = text_quality(p)
        low = f"low confidence: {', '.join(doubt)}; " if doubt else ""
        out: dict[str, Decision] = {}

        def binary(field: str, prob: float, rule_value: bool, rule_reason: str | None, applies: bool = True) -> None:
            screener = self.chosen.get(field, "combined")
            if screener == "rules" or not applies:
                out[field] = Decision(rule_value, 1.0, "rules", rule_reason or "")
                return
            value = bool(prob >= self.heads[field].threshold)
            sure = prob if value else 1 - prob
            sure = min(sure, 0.5 + (sure - 0.5) / 2) if doubt else sure  # an unreadable text is not evidence
            out[field] = Decision(value, round(float(sure), 3), screener,
                                  f"{low}{screener} {sure:.2f}: {self.why(field, x, 1 if value else 0)}")

        binary("is_rl_related", probs["is_rl_related"], rules["is_rl_related"], rules["kind_signal"])
        if self.chosen.get("kind", "combined") == "rules":
            out["kind"] = Decision(rules["paper_kind"], 1.0, "rules", rules["kind_signal"] or "")
        elif kind == "not_rl":
            d = out["is_rl_related"]
            out["kind"] = Decision("not_rl", d.probability, d.screener, d.reason)
        else:
            classes = list(self.heads["kind"].model.classes_)
            sure = float(probs["kind"][classes.index(kind)] * probs["is_rl_related"])
            sure = sure / 2 if doubt else sure
            out["kind"] = Decision(kind, round(sure, 3), self.chosen["kind"],
                                   f"{low}{self.chosen['kind']} {sure:.2f}: {self.why('kind', x, kind)}")
        is_method = out["kind"].value == "general_method"
        binary("changes_loss", probs["changes_loss"], rules["changes_loss"] and is_method, rules["loss_signal"],
               applies=is_method)
        if not is_method:
            out["changes_loss"] = Decision(False, 1.0, out["kind"].screener, None)
        binary("releases_code", probs["releases_code"], rules["releases_code"], rules["code_signal"])
        return out

    # --- the artifact -----------------------------------------------------------------------------
    def to_artifact(self, card: dict | None = None) -> dict:
        vocab = self.vectoriser.vocabulary_
        terms = sorted(vocab, key=vocab.get)
        heads = {name: {"inputs": h.inputs, "threshold": h.threshold,
                        "classes": [c if isinstance(c, str) else int(c) for c in h.model.classes_],
                        "intercept": [round(float(v), 6) for v in h.model.intercept_],
                        "coef": [[round(float(v), 5) for v in row] for row in h.model.coef_]}
                 for name, h in self.heads.items()}
        body = {"vectoriser": {"terms": terms, "idf": [round(float(v), 5) for v in self.vectoriser.idf_]},
                "cues": self.cue_names, "cue_weight": self.cue_weight, "chosen": self.chosen, "heads": heads}
        version = "l-" + hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:10]
        return {"version": version, **body, "card": card or {}}

    @classmethod
    def from_artifact(cls, art: dict) -> LearnedScreener:
        terms = art["vectoriser"]["terms"]
        vec = TfidfVectorizer(vocabulary={t: i for i, t in enumerate(terms)}, **VECTORISER)
        vec.idf_ = np.array(art["vectoriser"]["idf"], dtype=np.float64)
        heads = {}
        for name, h in art["heads"].items():
            lr = LogisticRegression()
            lr.classes_ = np.array(h["classes"])
            lr.coef_, lr.intercept_ = np.array(h["coef"]), np.array(h["intercept"])
            lr.n_features_in_ = lr.coef_.shape[1]
            heads[name] = Head(lr, h["inputs"], h["threshold"])
        return cls(vec, art["cues"], heads, art["chosen"], art["version"], art.get("cue_weight", 1.0))


@lru_cache(maxsize=2)
def load(path: Path = ARTIFACT) -> LearnedScreener | None:
    """The committed model, or None when there is none (the rules then decide alone)."""
    return LearnedScreener.from_artifact(json.loads(path.read_text())) if path.exists() else None
