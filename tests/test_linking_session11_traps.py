"""Linking traps of session 11 (issue 27), as general cases on generated repositories (written from the
errors of frameworks measured earlier, so these are fit, not held out):

- a code or config file copied from another tracked framework (`yaklib/trainer/config/algorithm.py`
  after `trl_pkg/trainer/config/algorithm.py`), months after the framework's own code began, holds that
  framework's options: its method names are not the copier's adoption, while the origin's still is;
- a name that two frameworks write with a parameter count (`kestrel-7b`) is a model family, not the
  method of a paper titled with it;
- a paper's id in an evaluation folder (`environments/eval_environments/`) cites the benchmark evaluated;
- a name that ends in what it is (`ZebAI-LLM Flash`, a language model and its edition) is a model.
"""

from __future__ import annotations

import pytest

from tests.test_linking_traps import _paper, link_history

PAPERS = [
    _paper("2505.00401", "YAKPO: A Loss Another Framework Copies", "2025-05-01"),
    _paper("2505.00402", "KesTrel: A Family Of Open Models", "2025-05-01"),
    _paper("2505.00403", "A Hard Exam For Language Models", "2025-05-01"),
    _paper("2505.00404", "ZebAI-LLM Flash: A Mid-Scale Model", "2025-05-01"),
]

_ALGORITHM = 'LOSS_TYPES = ("grpo", "yakpo")\n'

ORIGIN = [  # trl's repository: the loss first, then a model in an example
    ("2025-05-02", "feat: yakpo", {"trl_pkg/trainer/config/algorithm.py": _ALGORITHM}),
    ("2025-05-03", "examples: kestrel", {"examples/kestrel.py": 'MODEL = "kestrel-7b-instruct"\n'}),
]

HISTORY = [  # verl's repository: its own code, then a copy of the origin's file two months later
    ("2025-03-01", "init: trainer", {"yaklib/trainer/core.py": "def train():\n    pass\n"}),
    ("2025-05-10", "chore: sync configs", {"yaklib/trainer/config/algorithm.py": _ALGORITHM}),
    ("2025-05-11", "examples: kestrel", {"examples/sft.py": 'MODEL = "kestrel-7b"\nFAMILY = "kestrel"\n'}),
    ("2025-05-12", "feat: exam environment", {"environments/eval_environments/exam_eval.py": (
        '"""Evaluates on the exam of https://arxiv.org/abs/2505.00403."""\ndef score(x):\n    return x\n')}),
    ("2025-05-13", "feat: bridge", {"plugins/zebai_llm_flash.py": "def convert(x):\n    return x\n"}),
]


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    con, shas = link_history(tmp_path_factory.mktemp("session11_traps"), HISTORY, PAPERS, {"trl": ORIGIN})
    yield con, shas
    con.close()


def test_a_copied_file_is_the_origins_and_a_sized_name_is_a_model(linked):
    con, _ = linked
    adopted = {r for r in con.execute("select framework_id, arxiv_id from marts.fct_adoption_claims").fetchall()}
    assert ("trl", "2505.00401") in adopted  # the origin implements it
    assert ("verl", "2505.00401") not in adopted  # the copy is the origin's
    assert not any(a == "2505.00402" for _, a in adopted)  # a model family
    assert not any(a == "2505.00403" for _, a in adopted)  # a benchmark evaluated
    assert not any(a == "2505.00404" for _, a in adopted)  # a language model's converter
    reasons = dict(con.execute("select arxiv_id, alias_reason from intermediate.int_methods__aliases "
                               "where arxiv_id in ('2505.00402', '2505.00404')").fetchall())
    assert reasons == {"2505.00402": "a model name", "2505.00404": "a model name"}
