"""Linking that holds on a repository it has never seen: general rules, each with its trap on a
generated repository (the pattern of test_linking_traps.py).

Traps (never an adoption): a name of ordinary words as a fragment inside a longer file name (a run
script) and as a docs heading; an acronym of three letters that a statistic also goes by, as a
config key; a model report's name as a link in a supported-models table; a paper without an RL
method cited in the references of an algorithm page.
True cases: the id in the references of an algorithm page (an algorithms folder), the id in a
sentence of a page named after the method, a name of ordinary words as the folder of its recipe,
a three-letter acronym beside its paper's id.
"""

from __future__ import annotations

import pytest

from tests.test_linking_traps import _paper, link_history

PAPERS = [
    _paper("2504.00001", "Reasoning-Search: Ordinary Words As A Name", "2025-04-01"),
    _paper("2504.00002", "Golden Ratio: Two Ordinary Words In A Heading", "2025-04-01"),
    _paper("2504.00003", "ESS: A Three-Letter Acronym", "2025-04-01"),
    _paper("2504.00004", "Orca-X1: A Technical Report", "2025-04-01"),
    _paper("2504.00005", "Stable Clipping For Sequence Policies", "2025-04-01",
           "We propose a reinforcement learning method for language models that clips whole sequences."),
    _paper("2504.00006", "TAUPO: A Page Named After It", "2025-04-01"),
    _paper("2504.00007", "A Tokenizer For Mixed Scripts", "2025-04-01",
           "We describe a tokenizer for text that mixes scripts; it is evaluated on translation."),
    _paper("2504.00008", "Search Agent: Ordinary Words As A Recipe Folder", "2025-04-01"),
    _paper("2504.00009", "OPQ: An Acronym Beside Its Paper", "2025-04-01"),
]

HISTORY = [
    ("2025-04-10", "examples: a tinker run", {"examples/run_tinker/tinker_reasoning_search_r1.sh": "python3 x.py\n"}),
    ("2025-04-11", "docs: tuning guide", {"docs/guides/tuning.md": "# Tuning\n\n## Golden-Ratio schedule\n\nPick it.\n"}),
    ("2025-04-12", "feat: effective sample size", {"verl/trainer/corr.py": (
        "from dataclasses import dataclass\n\n@dataclass\nclass Stats:\n    ess: float = 0.0\n")}),
    ("2025-04-13", "docs: models", {"docs/models.md": (
        "# Models\n\n## Supported models\n\n| model | recipe |\n|---|---|\n"
        "| [Orca-X1](examples/orca_x1/run.sh) | dense |\n")}),
    ("2025-04-14", "docs: clipping algorithm", {"docs/algo/seq_clip.md": (
        "# Sequence clipping\n\nSet `actor.clip_mode=sequence`.\n\n## References\n\n"
        "- [Stable clipping](https://arxiv.org/abs/2504.00005)\n- [A tokenizer](https://arxiv.org/abs/2504.00007)\n")}),
    ("2025-04-15", "docs: taupo", {"docs/taupo.md": (
        "# Trust regions\n\nThis page follows [the paper](https://arxiv.org/abs/2504.00006) which introduced "
        "the trust region we use for every rollout here.\n")}),
    ("2025-04-16", "recipe: search agent", {"recipe/search_agent/main.py": "def main():\n    pass\n"}),
    ("2025-04-17", "feat: opq loss", {"verl/trainer/opq.py": (
        '"""OPQ loss (https://arxiv.org/abs/2504.00009)."""\nLOSS = "opq"\n')}),
]


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    con, shas = link_history(tmp_path_factory.mktemp("unseen"), HISTORY, PAPERS)
    yield con, shas
    con.close()


def test_names_count_only_where_they_name_the_method(linked):
    con, shas = linked
    adopted = dict(con.execute("select arxiv_id, first_commit_sha from marts.fct_adoption_claims").fetchall())
    assert adopted == {
        "2504.00005": shas["2025-04-14"],  # its id in the references of an algorithm page
        "2504.00006": shas["2025-04-15"],  # its id in a sentence of the page named after it
        "2504.00008": shas["2025-04-16"],  # ordinary words, as the folder of its recipe
        "2504.00009": shas["2025-04-17"],  # a three-letter acronym beside its paper's id
    }
    reasons = dict(con.execute("select arxiv_id, evidence_reason from marts.fct_adoption_claims").fetchall())
    assert "references of a page documenting the method" in reasons["2504.00005"]


def test_fragments_ordinary_words_short_acronyms_and_model_tables_are_not_adoptions(linked):
    con, _ = linked
    graded = {}
    for arxiv_id, grade, reason in con.execute(
            "select arxiv_id, evidence_grade, evidence_reason from intermediate.int_commits__paper_links").fetchall():
        graded.setdefault(arxiv_id, []).append((grade, reason))
    # a fragment of a longer file name, a heading of ordinary words
    assert {g for g, _ in graded["2504.00001"]} == {"rejected"}
    assert {g for g, _ in graded["2504.00002"]} == {"rejected"}
    # a three-letter acronym a statistic shares, without its paper's id
    assert graded["2504.00003"] and all("three letters" in r for g, r in graded["2504.00003"] if g == "rejected")
    assert {g for g, _ in graded["2504.00003"]} == {"rejected"}
    # a model in a supported-models table, a paper without an RL method in an algorithm page's references
    assert {g for g, _ in graded["2504.00004"]} <= {"citation", "rejected"}
    assert {g for g, _ in graded["2504.00007"]} == {"citation"}
