"""The learned thread-role combination: a JSON artifact (no pickle), loaded by the product's role step,
fitted and cross-validated leave-one-framework-out by train_roles."""

from __future__ import annotations

import json

import numpy as np

from ingestion.github import thread_model, thread_roles, train_roles
from ingestion.github.thread_roles import ThreadText, cue_features, rule_role, thread_role


def test_the_shipped_artifact_is_json_coefficients_over_known_cues() -> None:
    art = json.loads(thread_model.ARTIFACT.read_text(encoding="utf-8"))
    model = thread_model.LearnedRoles.from_artifact(art)
    assert art["format"] == "thread-roles-logreg/1" and art["version"] == model.to_artifact()["version"]
    assert tuple(art["classes"]) == thread_model.CLASSES
    assert np.array(art["coef"]).shape == (len(art["classes"]), len(art["features"]))
    assert set(art["features"]) <= set(cue_features(ThreadText("x", "y", "issue")))  # no words, only cue families
    card = art["card"]["leave_one_framework_out"]
    assert set(card["pooled"]) == {"proposal", "failure"} and len(card["per_framework"]) >= 3
    assert thread_roles.CLASSIFIER_VERSION.endswith(art["version"])


def test_the_role_step_answers_with_the_model_and_keeps_the_rules_finer_roles() -> None:
    failure = ThreadText("Training GRPO, the loss suddenly becomes nan and the reward drops to 0", "After 100 steps.")
    role, signal = thread_role(failure)
    assert role == "failure_report" and signal.startswith("learned failure")
    bug = ThreadText("Error when saving the checkpoint", "Traceback: KeyError 'x'", "issue", ("bug",))
    assert thread_role(bug)[0] == rule_role(bug)[0] == "bug_report"
    assert thread_role(ThreadText("Add ZZPO", "", "pull_request", by_bot=True)) == ("other", "opened by a bot")


def test_without_an_artifact_the_rules_decide(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(thread_roles, "load_model", lambda: thread_model.load(tmp_path / "absent.json"))
    t = ThreadText("Support for ZZPO", "Please add it.")
    assert thread_role(t) == rule_role(t)


def _case(key: str, fw: str, hand: str, **features: float) -> train_roles.Case:
    return train_roles.Case(key, fw, hand, features, "other")


def test_fit_round_trips_through_json_and_folds_hold_out_whole_frameworks() -> None:
    cases = [_case(f"{fw}#{i}", fw, hand, **{cue: 1.0})
             for fw in ("a/x", "b/y", "c/z") for i, (hand, cue) in
             enumerate([("proposal", "title_feature_verb"), ("failure", "title_failure_collapse"), ("other", "title_bug")] * 2)]
    model = train_roles.fit(cases, 1.0)
    again = thread_model.LearnedRoles.from_artifact(json.loads(json.dumps(model.to_artifact())))
    assert again.predict({"title_failure_collapse": 1.0}) == "failure"
    assert again.predict({"title_feature_verb": 1.0}) == "proposal"
    seen: list[set[str]] = []
    def fitter(train):
        seen.append({c.framework for c in train})
        return lambda case: "other"
    held = train_roles.leave_one_framework_out(cases, fitter)
    assert set(held) == {c.key for c in cases} and sorted(map(len, seen)) == [2, 2, 2]
    assert train_roles.scores(cases, held)["proposal"] == (0, 0, 6)


def test_a_cached_search_excerpt_gives_the_role_step_its_opening_post_only():
    """The API's issue body is the opening post; a search excerpt strings the replies after it."""
    from ingestion.github.train_roles import opening_post, thread_text_from_cache

    excerpt = ("asker · description · 2025-01-07\nWhen is the paper out?\n\n"
               "maintainer · comment · 2025-02-04\nReleased: https://arxiv.org/abs/2502.01456\n\n"
               "reviewer · review thread · 2025-02-05\nlooks fine")
    assert opening_post(excerpt) == "When is the paper out?"
    assert opening_post("maintainer · comment · 2025-02-04\nonly a reply was read") == ""
    assert opening_post("a body the API gave") == "a body the API gave"
    assert "2502.01456" not in thread_text_from_cache({"title": "paper?", "body": excerpt}).body
