"""Linking on six more frameworks outside the registry (issue 27, session 10): what their held-out
measurement showed, as general cases on a generated repository (the pattern of
test_linking_heldout_traps.py; written after that measurement, so these are fit, not held out).

- a model line: a name the history also carries with generations glued on (`zebravl2`, `zebravl3`)
  is a model, not the method of a paper titled with it; so is a longer name that starts with one
  (`zebravl_cascade`, a nested YAML value);
- Quarto pages (`.qmd`) are documentation: a loss type named in one documents the method;
- a package's data module (`agentlib/data/replay.py`) is code, a top-level `data/` folder holds data;
- a large feature commit keeps the names of its options: the per-commit token bound holds hundreds
  of rows (a trainer of 25 files still keeps its loss types).
"""

from __future__ import annotations

import pytest

from tests.test_linking_traps import _paper, link_history

PAPERS = [
    _paper("2505.00301", "ZebraVL: A Vision Language Model Line", "2025-05-01"),
    _paper("2505.00302", "QUOKPO: A Loss Documented In Quarto", "2025-05-01"),
    _paper("2505.00303", "WOMBPO: A Loss In A Large Commit", "2025-05-01"),
    _paper("2505.00304", "ZebraVL-Cascade: A Data Mix", "2025-05-01"),
    _paper("2505.00305", "A Replay Sampler For Prompt Groups", "2025-05-01"),
    _paper("2505.00306", "A Dataset Preparation Trick", "2025-05-01"),
]

_BIG = {f"agentlib/async_trainer/part_{i:02d}.py": "".join(
    f"def step_{i}_{j}_{w}(x):\n    return x\n" for j, w in enumerate(
        ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet")))
    for i in range(25)}
_BIG["agentlib/async_trainer/losses.py"] = 'LOSS_TYPES = ("grpo", "wombpo")\n'

HISTORY = [
    ("2025-05-02", "init: trainer", {"agentlib/trainer.py": "def train():\n    pass\n"}),
    ("2025-05-03", "examples: zebravl2", {"examples/zebravl2/train.yaml": "model: org/zebravl2-8b\n"}),
    ("2025-05-04", "examples: zebravl3", {"examples/zebravl3/train.yaml": "model: org/zebravl3-8b\n"}),
    ("2025-05-05", "examples: zebravl", {"examples/zebravl/README.md": "# ZebraVL\n\nFine-tune the line.\n",
                                         "examples/zebravl/sft.yaml": "data:\n  dataset_name: zebravl_cascade\n"}),
    ("2025-05-06", "docs: losses", {"docs/rl/losses.qmd": (
        "---\ntitle: Losses\n---\n\n## Loss types\n\n```yaml\nrl:\n  loss_type: quokpo\n```\n")}),
    ("2025-05-07", "feat: asynchronous trainer", _BIG),
    # a package's data-handling module is its code; a top-level data folder holds data and its tooling
    ("2025-05-08", "feat: replay sampler", {"agentlib/data/replay.py": (
        '"""Sampler of https://arxiv.org/abs/2505.00305."""\ndef sample(x):\n    return x\n')}),
    ("2025-05-09", "data: prep", {"data/prep.py": (
        '"""Filter of https://arxiv.org/abs/2505.00306."""\ndef prep(x):\n    return x\n')}),
]


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    con, shas = link_history(tmp_path_factory.mktemp("test4_traps"), HISTORY, PAPERS)
    yield con, shas
    con.close()


def test_model_lines_quarto_docs_and_large_commits(linked):
    con, shas = linked
    adopted = dict(con.execute("select arxiv_id, first_commit_sha from marts.fct_adoption_claims "
                               "where framework_id = 'verl'").fetchall())
    assert "2505.00301" not in adopted  # a model line
    assert "2505.00304" not in adopted  # a name starting with a model line
    assert adopted.get("2505.00302") == shas["2025-05-06"]  # a loss type named in a Quarto page
    assert adopted.get("2505.00303") == shas["2025-05-07"]  # a loss type inside a large commit
    assert adopted.get("2505.00305") == shas["2025-05-08"]  # its id in a package's data module
    assert "2505.00306" not in adopted  # its id in a top-level data folder's script
    reasons = dict(con.execute("select arxiv_id, alias_reason from intermediate.int_methods__aliases "
                               "where arxiv_id in ('2505.00301', '2505.00304')").fetchall())
    assert reasons == {"2505.00301": "a model name", "2505.00304": "a model name"}
