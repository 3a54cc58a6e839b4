"""The learned screener: the committed artifact loads, predicts deterministically, matches its card,
answers bad input with low confidence and a reason, and survives its JSON round trip. Texts are
written for the tests (no real abstract is committed)."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from ingestion.screening import learned, screener
from ingestion.screening.features import text_quality
from ingestion.screening.labelled import Labelled
from ingestion.screening.rules import KINDS, PaperText
from ingestion.screening.rules import screen as rule_screen

METHOD = {"arxiv_id": "T0001", "title": "ClipFree: Decoupled Clipping for Stable Policy Optimization of Language Models",
          "abstract": "Reinforcement learning with verifiable rewards improves the reasoning of large language models, "
                      "but group relative policy optimization is unstable. We propose ClipFree, a simple policy "
                      "optimization algorithm that decouples the clipping range of the importance sampling ratio and "
                      "normalises the loss at the token level. Across math and code benchmarks, training Qwen2.5-7B "
                      "with ClipFree improves accuracy over GRPO and DAPO. Our code is available at "
                      "https://github.com/example/clipfree.", "comment": None, "authors": "[]"}
NOT_RL = {"arxiv_id": "T0002", "title": "Faster Sparse Matrix Multiplication on Mobile Phones",
          "abstract": "We present a kernel library for sparse matrix multiplication on mobile processors. Our kernels "
                      "reduce memory traffic with a blocked storage format and reach twice the throughput of dense "
                      "baselines on image classification networks. We describe the design and measure energy use on "
                      "four devices.", "comment": None, "authors": "[]"}
BAD = {
    "empty": "",
    "latex": r"We study $\mathcal{L}(\theta)=\mathbb{E}_{x\sim\mathcal{D}}[\log\pi_\theta(y|x)]$ with "
             r"$\nabla_\theta J=\sum_t \hat{A}_t \nabla\log\pi_\theta(a_t|s_t)$ and $\epsilon\in\{0.1,0.2\}$, "
             r"$\beta\ge 0$, $\gamma^{k}$, $\lambda_{\max}$, $\|\cdot\|_2$.",
    "not English": "Nous proposons une nouvelle méthode d'optimisation de politique pour les grands modèles de "
                   "langage, qui améliore le raisonnement mathématique grâce à des récompenses vérifiables et "
                   "réduit l'instabilité de l'entraînement par renforcement sur plusieurs jeux de données.",
    "truncated": "Reinforcement learning from human feedback aligns large language models, but the reward model can",
}

model = learned.load()
needs_model = pytest.mark.skipif(model is None, reason="no committed model artifact")


@needs_model
def test_artifact_matches_its_card():
    art = json.loads(learned.ARTIFACT.read_text())
    body = {k: v for k, v in art.items() if k not in ("version", "card")}
    assert art["version"] == "l-" + hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:10]
    card = art["card"]
    assert card["version"] == art["version"] and card["chosen"] == art["chosen"]
    assert len(card["fitted_on"]) == len(set(card["fitted_on"])) == card["n_papers"] == sum(card["origins"].values())
    assert sum(card["label_counts"]["kind"].values()) == card["n_papers"]
    assert {"scikit-learn", "numpy", "scipy"} <= set(card["libraries"])
    assert set(card["cross_validated"]) == {"rules", "learned", "combined"}
    md = (learned.ARTIFACT.parent / "MODEL_CARD.md").read_text()
    assert art["version"] in md and str(card["n_papers"]) in md
    assert len(art["vectoriser"]["terms"]) == len(art["vectoriser"]["idf"])
    assert all(len(row) == len(art["vectoriser"]["terms"]) + len(art["cues"]) * (h["inputs"] == "combined")
               for h in art["heads"].values() for row in h["coef"])
    assert learned.ARTIFACT.stat().st_size < 2_000_000  # small enough to review and version


@needs_model
def test_predicts_deterministically_with_reasons():
    first = screener.screen(METHOD, [])
    learned.load.cache_clear()
    again = screener.screen(METHOD, [])
    assert first == again
    assert first["screener"] == "learned" and first["screener_model"] == model.version
    assert first["screener_version"].endswith("+" + model.version)
    assert first["paper_kind"] == "general_method" and type(first["paper_kind"]) is str and first["is_rl_related"]
    assert first["kind_signal"] and first["code_signal"]
    assert first["releases_code"] is True
    other = screener.screen(NOT_RL, [])
    assert other["paper_kind"] == "not_rl" and not other["is_rl_related"] and not other["changes_loss"]


@needs_model
def test_keeps_the_rule_columns():
    rules_row = rule_screen(METHOD, [])
    row = screener.screen(METHOD, [])
    assert set(rules_row) | {"screener", "screener_model"} == set(row)
    assert row["paper_kind"] in KINDS and row["in_pool"] == rules_row["in_pool"]
    assert screener.screen(METHOD, [], use_learned=False) == {**rules_row, "screener": "rules"}


@needs_model
@pytest.mark.parametrize("problem", sorted(BAD))
def test_bad_abstract_gets_a_low_confidence_decision_and_a_reason(problem):
    row = {**METHOD, "arxiv_id": "T0003", "abstract": BAD[problem]}
    out = screener.screen(row, [])
    assert out["paper_kind"] in KINDS
    decisions = model.decide(PaperText.from_row(row), rule_screen(row, []))
    learned_ones = [d for d in decisions.values() if d.screener != "rules" and d.reason]
    assert learned_ones and all(d.reason.startswith("low confidence: ") for d in learned_ones)
    assert all(d.probability <= 0.75 for d in learned_ones)


def test_text_quality_names_each_problem():
    assert text_quality(PaperText("t", "")) == ["no abstract"]
    assert "LaTeX-heavy abstract" in text_quality(PaperText("t", BAD["latex"]))
    assert "abstract not in English" in text_quality(PaperText("t", BAD["not English"]))
    assert "abstract looks truncated" in text_quality(PaperText("t", BAD["truncated"] + ","))
    assert text_quality(PaperText(METHOD["title"], METHOD["abstract"] + " " + NOT_RL["abstract"])) == []


def test_a_fitted_model_survives_its_json_round_trip(monkeypatch):
    from ingestion.screening import train

    monkeypatch.setattr(train, "CS", (1.0,))
    texts = {"general_method": METHOD, "not_rl": NOT_RL}
    papers = []
    for i in range(24):
        kind = ("general_method", "not_rl", "application")[i % 3]
        base = texts.get(kind, METHOD)
        extra = " for clinical radiology reports" if kind == "application" else ""
        row = {**base, "arxiv_id": f"T1{i:03d}", "title": base["title"] + extra + f" v{i}"}
        papers.append(Labelled(row["arxiv_id"], row, kind != "not_rl", kind, kind == "general_method" and i % 2 == 0,
                               i % 4 == 0, None, "truth"))
    data = train.Data(papers)
    fitted = train.fit(data, np.arange(len(papers)), "combined")
    restored = learned.LearnedScreener.from_artifact(json.loads(json.dumps(fitted.to_artifact())))
    x_fit = fitted.matrix(data.texts, data.cues)
    x_back = restored.matrix(data.texts, data.cues)
    assert np.allclose(x_fit.toarray(), x_back.toarray(), atol=1e-4)
    for head, p in fitted.probabilities(x_fit).items():
        assert np.allclose(p, restored.probabilities(x_back)[head], atol=1e-3)
    assert fitted.predict(x_fit) == restored.predict(x_back)


def test_writing_fresh_labels_merges_into_the_committed_file(tmp_path):
    """A local cache holding only part of the labelled papers never drops the committed labels of the rest."""
    from ingestion.screening.labelled import write_fresh_labels

    out = tmp_path / "fresh_labels.csv"
    out.write_text("arxiv_id,title,is_rl_related,kind,policy_size_b,changes_loss,releases_code,defined_methods\n"
                   "2501.00001,Kept Paper,True,application,7,False,False,KP\n"
                   "2501.00002,Old Title,True,analysis,,False,False,\n")
    cache = tmp_path / "fresh"
    cache.mkdir()
    (cache / "2501.00002.json").write_text(json.dumps({
        "arxiv_id": "2501.00002", "title": "New Title", "abstract": "a", "labels": {
            "is_rl_related": True, "kind": "general_method", "policy_size_b": 32.0, "changes_loss": True,
            "releases_code": False, "defined_methods": ["XPO"]}}))
    assert write_fresh_labels(cache, out) == 2
    first = out.read_text()
    assert "2501.00001,Kept Paper,True,application,7,False,False,KP" in first
    assert "2501.00002,Old Title,True,general_method,32,True,False,XPO" in first
    write_fresh_labels(cache, out)
    assert out.read_text() == first  # idempotent
