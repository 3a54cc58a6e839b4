"""Linking cases of session 12 (issue 27), as general cases on generated repositories (written from the errors of
test7, frameworks measured once before these rules, so these are fit, not held out):

- a framework named after its own paper's method (`zeta-search`: it cites the paper, a method paper) does not
  hide that method's name in the other frameworks: a recipe folder named after it elsewhere is an adoption,
  though the framework wrote its own name months before the paper;
  a paper that merely shares a tracked framework's name (the framework never cites it) is still rejected;
- a paper the framework's top-level README asks to cite in its BibTeX block is its own paper, whatever its
  name (`Beyond Many Turns` for `kappa-lab`), while a paper its prose compares with is cited;
- a commit whose every changed file is a prose page ("add OmegaSearch", README only: a list of works built on
  the framework) adds no implementation, while the same subject on a commit that changes code does.
"""

from __future__ import annotations

import csv

import pytest

from ingestion import config
from tests.test_linking_traps import _paper, link_history

_METHOD = ("We propose {name}, a reinforcement learning method that trains large language models to interleave "
           "step-by-step reasoning with search engine calls. {name} optimizes the policy with outcome rewards and "
           "masks retrieved tokens out of the policy gradient loss, improving accuracy on seven question answering "
           "benchmarks over strong baselines. Code is released.")


def _method_paper(arxiv_id: str, title: str, name: str) -> dict:
    return {**_paper(arxiv_id, title, "2025-05-01"), "abstract": _METHOD.format(name=name)}


PAPERS = [
    _method_paper("2505.00501", "Zeta-Search: Training LLMs to Search with Reinforcement Learning", "Zeta-Search"),
    _method_paper("2505.00502", "Kappa-Lab: Reinforcement Learning for Tool Use", "Kappa-Lab"),
    _method_paper("2505.00503", "OmegaSearch: Searching With Rewards", "OmegaSearch"),
    _method_paper("2505.00504", "ThetaSearch: Searching With Better Rewards", "ThetaSearch"),
    _method_paper("2505.00505", "Beyond Many Turns: Long-Horizon Search Agents", "our agent"),
    _method_paper("2505.00506", "Another Search Agent We Compare With", "LambdaSearch"),
]

ZETA_SEARCH = [  # the method's own repository, begun months before its paper, cites the paper
    ("2025-02-02", "init", {"zeta_search/train.py": "def train():\n    pass\n"}),
    ("2025-05-02", "readme: paper", {"README.md": "# Zeta-Search\n\nPaper: https://arxiv.org/abs/2505.00501\n"}),
    ("2025-05-20", "add omegasearch", {"README.md": (
        "# Zeta-Search\n\nPaper: https://arxiv.org/abs/2505.00501\n\n## Works inspired by Zeta-Search\n\n"
        "- OmegaSearch\n")}),
]
_CITE_US = ("# kappa-lab\n\nWe compare with [another agent](https://arxiv.org/abs/2505.00506), which also "
            "trains a search agent with outcome rewards.\n\n## Citation\n\n```bibtex\n@article{beyond2025,\n"
            "  title={Beyond Many Turns},\n  journal={arXiv preprint arXiv:2505.00505},\n  year={2025}\n}\n```\n")
KAPPA_LAB = [  # a tracked framework that shares a paper's name but never cites it
    ("2025-05-02", "init", {"kappa_lab/core.py": "def run():\n    pass\n"}),
    ("2025-05-06", "readme: cite us", {"README.md": _CITE_US}),
]
VERL = [
    ("2025-05-10", "recipe: zeta-search", {"examples/zeta_search/run_zeta_search.sh": "python3 -m verl.trainer\n"}),
    ("2025-05-11", "examples: kappa-lab interop", {"examples/kappa_lab/run_kappa_lab.sh": "python3 -m verl.trainer\n"}),
    ("2025-05-12", "feat: add ThetaSearch", {"verl/trainer/rewards.py": "def theta_reward(x):\n    return x\n"}),
]


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("session12")
    registry = tmp / "frameworks.csv"
    rows = [r for r in csv.DictReader(open(config.frameworks_csv())) if r["framework_id"] == "verl"]
    rows += [{**rows[0], "framework_id": fid, "display_name": name, "repo": f"example/{name}", "former_repos": "",
              "maintainer_orgs": "", "maintainer_domains": "", "in_sample": "false"}
             for fid, name in (("zeta_search", "Zeta-Search"), ("kappa_lab", "Kappa-Lab"))]
    with open(registry, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RLTRACK_FRAMEWORKS_CSV", str(registry))
        con, _ = link_history(tmp, VERL, PAPERS, others={"zeta_search": ZETA_SEARCH, "kappa_lab": KAPPA_LAB})
    yield con
    con.close()


def _claims(con, framework_id: str) -> dict[str, str]:
    return dict(con.execute("select arxiv_id, evidence_grade from marts.fct_adoption_claims where framework_id = ?",
                            [framework_id]).fetchall())


def test_a_framework_named_after_its_own_method_paper_does_not_hide_the_method(linked):
    verl = _claims(linked, "verl")
    assert "2505.00501" in verl  # the Zeta-Search recipe
    assert "2505.00502" not in verl  # Kappa-Lab: a framework's name, and not its own paper
    assert "2505.00501" not in _claims(linked, "kappa_lab")


def test_a_prose_only_commit_adds_no_implementation(linked):
    assert "2505.00503" not in _claims(linked, "zeta_search")  # README list of works inspired by it
    assert _claims(linked, "verl").get("2505.00504") == "implementation"  # "add ThetaSearch" changing code


def test_the_paper_a_readme_asks_to_cite_is_the_frameworks_own(linked):
    kappa = _claims(linked, "kappa_lab")
    assert kappa.get("2505.00505") == "documented"  # its BibTeX block: its own paper
    assert "2505.00506" not in kappa  # compared with in the prose: a citation
