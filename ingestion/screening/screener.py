"""The paper screener a load runs: the rules, then the committed learned model where it was chosen.

`screen(row, frameworks)` returns the rule screener's row (ingestion/screening/rules.py `screen`, the
columns of `raw_arxiv.paper_features`) with the learned model's answers for the fields
cross-validation chose it for (model/MODEL_CARD.md): is_rl_related, paper_kind, changes_loss,
releases_code, each signal saying why ("combined 0.93: 'policy optimization', 'cue: method proposal'",
or "low confidence: no abstract; ..."). Policy size and defined methods stay the rules', read again
for the learned kind; `screener` = 'learned' and `screener_model` the model's version. The screener
version joins the rules' and the model's, so a new artifact screens the warehouse again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ingestion.screening import learned, rules
from ingestion.screening.rules import PaperText


def screener_version(use_learned: bool = True) -> str:
    """The rules' SCREENER_VERSION, with the learned model's version when it screens ("2.2+l-<hash>")."""
    model = learned.load() if use_learned else None
    return rules.SCREENER_VERSION + (f"+{model.version}" if model else "")


def screen(row: dict, frameworks: Sequence, use_learned: bool = True) -> dict:
    ruled = {**rules.screen(row, frameworks), "screener": "rules"}
    model = learned.load() if use_learned else None
    if model is None:
        return ruled
    p = PaperText.from_row(row)
    d = model.decide(p, ruled)
    kind = d["kind"].value
    rl = bool(d["is_rl_related"].value) and kind != "not_rl"
    out = {**ruled, "is_rl_related": rl, "paper_kind": kind, "changes_loss": bool(d["changes_loss"].value),
           "releases_code": bool(d["releases_code"].value), "screener": "learned", "screener_model": model.version,
           "screener_version": screener_version()}
    if d["kind"].screener != "rules":
        out["kind_signal"] = d["kind"].reason
    if d["changes_loss"].screener != "rules":
        out["loss_signal"] = d["changes_loss"].reason  # why yes or no (None for other kinds than general_method)
    if d["releases_code"].screener != "rules":
        out["code_signal"] = d["releases_code"].reason
    if kind != ruled["paper_kind"] or rl != ruled["is_rl_related"]:  # size and names as the rules read them for this kind
        out["policy_size_b"], out["size_signal"] = rules.policy_size_b(p, rl, kind)
        out["defined_methods"] = json.dumps(rules.defined_methods(p, kind))
    return out
