"""Role of an issue or pull-request thread, from its opening post (title, body, labels, kind).

A thread that names a method is not necessarily a proposal of it. Each thread gets one role, with
the signal that decided it, so the warehouse can show *why*:
- proposal: asks for, or brings, a method or feature the framework lacks;
- failure_report: training with the framework fails: NaN/inf values, collapse or divergence,
  degenerate output, a metric that stops improving or gets worse, instability, wrong or
  unreproducible results (a gap to the paper, trainer/rollout log-prob mismatch), a run that crashes
  or hangs. Running out of memory alone is a defect of the setup, not a training failure;
- bug_report: an existing implementation is wrong or errors out without a training failure;
- question: asks how or why something works;
- other: maintenance pull requests, trackers, releases, bot threads, anything without a cue.

Two deciders over the same cue families (`thread_cues`):
- `rule_role`: ordered rules (version 3.1): title cues first (tags, asks, failures), then labels and
  templates, then the body's explicit asks, failures, softer "does it support X?" asks, defects and
  questions. A proposal must name a training method (`thread_cues.training_method_named`: an arXiv
  reference, words of a loss, objective, advantage or estimator, a method-like name); an ask that
  names none (rollout, logging, models, environments) gets the role its other cues give;
- replies: an issue whose opening post reports no failure is a failure report when one of its first
  replies (`REPLY_WINDOW`, not a maintainer's) tells a training failure first-hand
  (`reply_failure`): the asker's follow-up with the curves, another user's "same here, my reward
  collapsed". The warehouse applies it in `int_threads__unified` to the `failure_signal` each comment
  row carries; `with_replies` is the same decision in Python (measurement);
- the learned combination (`thread_model`, a logistic regression over the cue families and the
  rules' role, coefficients in `model/thread_roles.json`), chosen by leave-one-framework-out
  cross-validation (scripts/thread_metrics.py --lofo). `thread_role` answers with it when its
  artifact is present, and keeps the rules' finer role (bug_report, question, other) for threads it
  calls neither a proposal nor a failure.
"""

from __future__ import annotations

import re

from ingestion.cues import signal
from ingestion.github.thread_cues import (
    AND_ADDS,
    ARXIV_REF,
    ASK_SUPPORT,
    ASKS_IF_SUPPORTED,
    BUG,
    FIXES_ISSUE,
    PR_BUG_TITLE,
    BUG_LABEL,
    BUG_TEMPLATE,
    DOCS_ASK,
    DOCS_CONTENT,
    ERROR,
    FEATURE_LABEL,
    FEATURE_TAG,
    FEATURE_VERB,
    MAINTENANCE_ANY,
    MAINTENANCE_START,
    MAINTENANCE_TAG,
    METRIC_LOG,
    MIGRATION,
    OUT_OF_MEMORY,
    PR_ADDS,
    PR_FIXES,
    PROPOSAL_TEMPLATE,
    QUESTION,
    QUESTION_LABEL,
    QUESTION_TEMPLATE,
    RELEASE_ASK,
    TITLE_TAG,
    TRACKER,
    USAGE_QUESTION,
    VERSION_PREFIX,
    ThreadText,
    bare_method_title,
    says_more_in_chinese,
    core_title,
    FIRST_HAND,
    failure_match,
    headings,
    labels_match,
    method_names,
    parts,
    prose_and_code,
    second_hand_only,
    training_method_named,
)
from ingestion.github.thread_cues import cue_features as _family_features
from ingestion.github.thread_methods import is_method_shaped
from ingestion.github.thread_model import load as load_model

RULES_VERSION = "3.9"
ROLES = ("proposal", "bug_report", "failure_report", "question", "other")
__all__ = ["CLASSIFIER_VERSION", "REPLY_WINDOW", "ROLES", "ThreadText", "core_title", "cue_features", "method_names",
           "reply_failure", "rule_role", "thread_role", "with_replies"]
# the first replies of an issue read for a failure its opening post does not tell
REPLY_WINDOW = 5
MAINTAINER_ASSOCIATIONS = ("OWNER", "MEMBER", "COLLABORATOR")
# a reply that is the writer's own run: first person, or a "same here" confirmation of the asker's
_OWN_RUN = re.compile(r"我|\b(?:same here|me too|same (?:issue|problem|thing|behaviou?r)|"
                      r"also (?:see|saw|get|got|observe\w*|met|meet|encounter\w*|hit|have|had))\b", re.IGNORECASE)


def _cue(m) -> str:
    return signal("", m, width=60) if m else ""


def _pull_request_role(title: str, core: str, prose: str) -> tuple[str, str]:
    if (m := AND_ADDS.search(core)) and [n for n in method_names(m.group(1)) if is_method_shaped(n)]:
        return "proposal", f"pull request title adds a method: {_cue(m)!r}"
    if m := MAINTENANCE_START.match(core):
        return "other", f"maintenance pull request: title starts with {_cue(m)!r}"
    if m := MIGRATION.search(core):
        return "other", f"migration pull request (an existing method moved): {_cue(m)!r}"
    if m := TRACKER.search(title):
        return "other", f"release or sync pull request: {_cue(m)!r}"
    if m := FEATURE_TAG.search(title):
        return "proposal", f"pull request tagged {_cue(m)!r}"
    if m := MAINTENANCE_TAG.search(title):
        return "other", f"maintenance pull request: tagged {_cue(m)!r}"
    if m := DOCS_CONTENT.search(core):
        return "other", f"documentation pull request: title names {_cue(m)!r}"
    if m := FEATURE_VERB.search(title):
        return "proposal", f"pull request title: {_cue(m)!r}"
    if m := PR_BUG_TITLE.search(core) or FIXES_ISSUE.search(prose.strip()[:400]):
        return "other", f"fix pull request: {_cue(m)!r}"
    if m := MAINTENANCE_ANY.search(core):
        return "other", f"maintenance pull request: title says {_cue(m)!r}"
    if m := PR_FIXES.search(prose.strip()[:400]):
        return "other", f"maintenance pull request: body says {_cue(m)!r}"
    if m := PR_ADDS.search(prose):
        return "proposal", f"pull request body: {_cue(m)!r}"
    return "proposal", "pull request without a fix/docs/refactor cue: a proposed change"


def _issue_role(title: str, core: str, prose: str, code: str, labels: tuple[str, ...],
                asks: bool = True) -> tuple[str, str]:
    if m := TRACKER.search(VERSION_PREFIX.sub("", title)):
        return "other", f"tracker, roadmap or release thread: {_cue(m)!r}"
    if asks and (m := FEATURE_TAG.search(title)):
        return "proposal", f"issue tagged {_cue(m)!r}"
    if m := MAINTENANCE_TAG.search(title):
        return "other", f"documentation or maintenance thread: {_cue(m)!r}"
    told_by_others = second_hand_only(f"{title}\n{prose}")
    oom = bool(OUT_OF_MEMORY.search(f"{title}\n{prose}\n{code}"))
    title_failure = None if told_by_others else failure_match(title, oom)
    if asks and (m := FEATURE_VERB.search(core)) and not (title_failure or BUG.search(core) or ERROR.search(core)
                                                          or USAGE_QUESTION.search(core)):
        return "proposal", f"issue title asks: {_cue(m)!r}"
    if title_failure:
        return "failure_report", f"title reports a failure: {_cue(title_failure)!r}"
    if asks and (label := labels_match(labels, FEATURE_LABEL)):
        return "proposal", f"label {label!r}"
    if asks and (heading := headings(prose, PROPOSAL_TEMPLATE)):
        return "proposal", f"feature-request template: {_cue(heading)!r}"
    if asks and (m := ASK_SUPPORT.search(f"{core}\n{prose}")):
        return "proposal", f"asks for support: {_cue(m)!r}"
    if not told_by_others and (failure := failure_match(prose, oom) or failure_match(code, oom)):
        return "failure_report", f"body reports a failure: {_cue(failure)!r}"
    if asks and (m := ASKS_IF_SUPPORTED.search(f"{core}\n{prose}")):
        return "proposal", f"asks whether it is supported: {_cue(m)!r}"
    if m := OUT_OF_MEMORY.search(f"{title}\n{prose}"):
        return "bug_report", f"runs out of memory (a setup defect, not a training failure): {_cue(m)!r}"
    if heading := headings(prose, BUG_TEMPLATE):
        return "bug_report", f"bug-report template: {_cue(heading)!r}"
    if label := labels_match((*labels, *TITLE_TAG.findall(title)), BUG_LABEL):
        return "bug_report", f"label or tag {label!r}"
    if asks and bare_method_title(core) and not (ERROR.search(prose) or ERROR.search(code)
                                                 or METRIC_LOG.search(f"{prose}\n{code}")):
        return "proposal", f"title is a method name: {core[:60]!r}"
    if m := BUG.search(title) or BUG.search(prose):
        return "bug_report", f"reports a defect: {_cue(m)!r}"
    heading = headings(prose, QUESTION_TEMPLATE)
    if heading or (label := labels_match(labels, QUESTION_LABEL)):
        return "question", f"question template or label: {_cue(heading) if heading else label!r}"
    if m := QUESTION.search(title):
        return "question", f"title asks: {_cue(m)!r}"
    if m := ERROR.search(title) or ERROR.search(prose) or ERROR.search(code):
        return "bug_report", f"reports an error: {_cue(m)!r}"
    if m := QUESTION.search(prose):
        return "question", f"body asks: {_cue(m)!r}"
    if asks and not DOCS_CONTENT.search(core) and not METRIC_LOG.search(f"{prose}\n{code}") and (
            not says_more_in_chinese(core)) and (
            names := [n for n in method_names(core) if is_method_shaped(n)] or ARXIV_REF.findall(f"{core}\n{prose}")):
        return "proposal", f"names a method or paper and nothing else: {names[0]!r}"
    return "other", "issue without a proposal, failure, bug or question cue"


def _without_asks(t: ThreadText, p) -> tuple[str, str]:
    """The role a thread gets once its asks are set aside (it names no training method)."""
    if t.kind == "pull_request":
        return "other", "pull request"
    role, reason = _issue_role(p.title, p.core, p.prose, p.code, p.labels, asks=False)
    return role, reason


def rule_role(t: ThreadText) -> tuple[str, str]:
    """(role, deciding signal) of the ordered rules for one thread's opening post. A proposal must name
    a training method (`training_method_named`); an ask that names none (infrastructure, models,
    environments, logging) gets the role its other cues give."""
    if t.by_bot:
        return "other", "opened by a bot"
    p = parts(t)
    if t.kind == "pull_request":
        role, reason = _pull_request_role(p.title, p.core, p.prose)
    else:
        role, reason = _issue_role(p.title, p.core, p.prose, p.code, p.labels)
    if role == "proposal" and t.kind != "pull_request" and (m := DOCS_ASK.search(p.prose)):
        return "other", f"asks for writing about a method, not for the method: {_cue(m)!r}"
    if role == "proposal" and t.kind != "pull_request" and not FEATURE_VERB.search(p.core) and (
            m := RELEASE_ASK.search(p.title) or RELEASE_ASK.search(p.opening[:300])):
        return "other", f"asks for released artifacts (logs, weights, code), not a method: {_cue(m)!r}"
    if role == "proposal" and not training_method_named(t):
        role, rest = _without_asks(t, p)
        return role, f"asks for a feature naming no training method ({reason}); {rest}"
    return role, reason


def cue_features(t: ThreadText) -> dict[str, float]:
    """The cue families (title and opening post apart) and the rules' own role, as 0/1 features."""
    features = _family_features(t)
    role, _ = rule_role(t)
    for r in ROLES:
        features[f"rule_{r}"] = float(role == r)
    return features


def reply_failure(body: str | None) -> str | None:
    """The training failure one reply tells first-hand (the writer's own run: I, we, my, 我), as the
    matched text; None for a reply that tells none, tells it only as a possibility or of others
    (the paper, another run), or shows it only in pasted code or logs."""
    prose, _ = prose_and_code(body or "")
    if not (FIRST_HAND.search(prose) or _OWN_RUN.search(prose)) or second_hand_only(prose):
        return None
    m = failure_match(prose, out_of_memory=bool(OUT_OF_MEMORY.search(prose)))
    return _cue(m) if m else None


def with_replies(role: str, reason: str, kind: str, replies: list[tuple[str | None, str | None]]) -> tuple[str, str]:
    """The role once the first `REPLY_WINDOW` replies ((author_association, body), oldest first, bots
    left out) are read: an issue that is no proposal and reports no failure itself becomes a failure
    report when a reply that is not a maintainer's tells one (`reply_failure`)."""
    if kind != "issue" or role in ("proposal", "failure_report"):
        return role, reason
    for association, body in replies[:REPLY_WINDOW]:
        if association not in MAINTAINER_ASSOCIATIONS and (found := reply_failure(body)):
            return "failure_report", f"a reply reports a failure: {found!r}"
    return role, reason


def thread_role(t: ThreadText) -> tuple[str, str]:
    """(role, deciding signal) for one thread's opening post: the learned combination when its
    artifact is present, else the rules."""
    role, reason = rule_role(t)
    model = load_model()
    if model is None or t.by_bot:
        return role, reason
    return model.decide(cue_features(t), role, reason)


def _version() -> str:
    model = load_model()
    return f"{RULES_VERSION}+{model.version}" if model is not None else RULES_VERSION


CLASSIFIER_VERSION = _version()
