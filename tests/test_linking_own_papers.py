"""A framework's own papers (issue 27): the paper that introduces the framework, and a sub-project's paper
named after it, are what the framework implements (the truth counts them as adoptions); a paper named after
the framework that its README lists among works built on it is not.
"""

from __future__ import annotations

from tests.test_linking_traps import _paper, link_history

PAPERS = [
    _paper("2505.00201", "VERL: The Framework's Own Paper", "2025-05-01"),
    _paper("2505.00202", "VERL-Agent: Agents Built On The Framework Elsewhere", "2025-05-01"),
    _paper("2505.00203", "VERL-Lab: A Sub-Project Of The Framework", "2025-05-01"),
]

HISTORY = [
    ("2025-05-02", "init: trainer", {"verl/trainer.py": "def train():\n    pass\n"}),
    ("2025-05-03", "readme: citation and works built on verl", {"README.md": (
        "# verl\n\nCite our paper: https://arxiv.org/abs/2505.00201\n\n## Works built on verl\n\n"
        "- VERL-Agent: agents trained with verl (https://arxiv.org/abs/2505.00202)\n")}),
    ("2025-05-04", "verl-lab: a sub-project", {"verl-lab/README.md": (
        "# verl-lab\n\nThe paper of this sub-project: https://arxiv.org/abs/2505.00203\n"),
        "verl-lab/lab.py": "def lab():\n    pass\n"}),
]


def test_own_papers_are_adoptions_and_works_built_on_it_are_citations(tmp_path):
    con, shas = link_history(tmp_path, HISTORY, PAPERS)
    with con:
        adopted = dict(con.execute("select arxiv_id, evidence_reason from marts.fct_adoption_claims").fetchall())
        cited = {r[0] for r in con.execute("select arxiv_id from marts.fct_paper_citations").fetchall()}
    assert "own system paper" in adopted["2505.00201"]  # the framework's own paper, cited in its README
    assert "own system paper" in adopted["2505.00203"]  # a sub-project's paper, in its own folder
    assert "2505.00202" not in adopted and "2505.00202" in cited  # a work built on the framework, listed
