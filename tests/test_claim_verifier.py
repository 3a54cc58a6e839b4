"""The claim verifier (bench/claim_verifier.py, seed claim_verifier, marts.fct_adoption_claims): a claim
backed by one thin mention is held back, a well-evidenced one kept; the SQL scores claims as the fitted
model does; the committed features reproduce the card's leave-one-framework-out table."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench import claim_verifier
from tests.test_linking_traps import _paper, link_history

ROOT = Path(__file__).resolve().parents[1]

PAPERS = [
    _paper("2503.00101", "GAMMAPO: Group Advantage Margin Policy Optimization", "2025-03-01"),
    _paper("2503.00102", "ZETAPO: Named Once On A Docs Page", "2025-03-01"),
]
HISTORY = [
    ("2025-03-10", "feat: add GAMMAPO loss", {
        "verl/trainer/core_algos.py":
            "# GAMMAPO: https://arxiv.org/abs/2503.00101\n"
            "def compute_gammapo_loss(logp, adv):\n    return -(logp * adv).mean()\n",
        "verl/trainer/config/algorithm.py": 'LOSS_MODES = ["vanilla", "gammapo"]\n'}),
    ("2025-03-12", "docs: loss modes", {
        "docs/algo/zetapo.md": "# ZETAPO\n\nSet `algorithm.loss_mode=zetapo` in the config.\n"}),
    ("2025-03-14", "test: gammapo", {
        "tests/test_gammapo.py": "from verl.trainer.core_algos import compute_gammapo_loss\n"}),
]


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    con, shas = link_history(tmp_path_factory.mktemp("verifier"), HISTORY, PAPERS)
    yield con
    con.close()


def _seed() -> pd.DataFrame:
    return pd.read_csv(claim_verifier.SEED).set_index("feature")


def test_a_thin_claim_is_held_back_and_a_well_evidenced_one_kept(linked):
    claims = dict(linked.execute("select arxiv_id, is_supported from marts.fct_adoption_claims").fetchall())
    adopted = {r[0] for r in linked.execute("select arxiv_id from marts.fct_method_adoptions").fetchall()}
    assert claims == {"2503.00101": True, "2503.00102": False}
    assert adopted == {"2503.00101"}


def test_the_sql_scores_claims_as_the_fitted_model(linked):
    counts = linked.execute(f"select support, {', '.join(claim_verifier.COUNTS)} "
                            "from marts.fct_adoption_claims").df()
    seed = _seed()
    x = claim_verifier.features(counts)
    z = ((x - seed.loc[list(x.columns), "mean"]) / seed.loc[list(x.columns), "scale"]
         * seed.loc[list(x.columns), "coefficient"]).sum(axis=1) + seed.loc["(intercept)", "coefficient"]
    assert np.allclose(counts.support, 1 / (1 + np.exp(-z)), atol=1e-3)


def test_the_seed_the_script_and_the_sql_name_the_same_features():
    sql = (ROOT / "dbt_project" / "models" / "marts" / "fct_adoption_claims.sql").read_text()
    listed = re.search(r"set verifier_features = \[(.*?)\]", sql, re.S).group(1)
    assert re.findall(r"'(\w+)'", listed) == list(claim_verifier.FEATURES)
    assert [f for f in _seed().index if not f.startswith("(")] == list(claim_verifier.FEATURES)


def test_the_committed_features_reproduce_the_cards_table():
    claims = pd.read_csv(claim_verifier.FEATURES_CSV, dtype={"arxiv_id": str})
    rows = claim_verifier.summary(claim_verifier.leave_one_framework_out(claims))
    card = claim_verifier.CARD.read_text()
    for name, n, p0, kept, p1, true_kept, true in rows:
        assert f"| {name} | {n} | {p0:.3f} | {kept} | {p1:.3f} | {true_kept} of {true} |" in card
    verdicts = {r["verdict"] for r in csv.DictReader(open(claim_verifier.VERDICTS))}
    assert verdicts <= {"true", "false", "borderline"}
