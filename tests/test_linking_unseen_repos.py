"""Linking on repositories the rules never saw, with papers they never saw: the traps that frameworks
outside the registry showed (each general, each on a generated repository; the pattern of
test_linking_traps.py).

Traps (never an adoption): a method named by an ordinary word as a function name (`def divert`); a
three-letter ordinary word as a config key (`sem`, a semaphore); a name in a file of the docs site that
is not a page (its config); a package in the dependency manifest; code connecting an external system (an
integrations folder); a docs page showcasing projects built with the framework; a copy of another
tracked framework vendored in long after the framework's own code began; a model's name in a models
folder and a model line's generation glued to its name (`internq3`); an environment's name in an envs
folder; an id cited as what recent work adopts; a name (an acronym two papers share) that sits beside
another paper's id in two frameworks and never beside its own paper's; a commit subject adding a task
set; a CI job's name (a hidden tooling folder); a name starting with an ordinary word inside a longer
file name (`multi_turn_kpo` is not Turn-KPO), while such a name as its recipe's folder counts.
True cases: an id in a package named after another framework that the repository started with (a fork),
an ordinary word as the folder of its recipe, a distinctive name as an option value.
"""

from __future__ import annotations

import pytest

from tests.test_linking_traps import _paper, link_history

PAPERS = [
    _paper("2505.00001", "DIVERT: An Ordinary Word As A Method's Name", "2025-05-01"),
    _paper("2505.00002", "SEM: A Three-Letter Ordinary Word", "2025-05-01"),
    _paper("2505.00003", "ZORBPO: Named In The Docs Site's Config", "2025-05-01"),
    _paper("2505.00004", "QuillSearch: A Package The Framework Installs", "2025-05-01"),
    _paper("2505.00005", "BrightReward: An External System", "2025-05-01"),
    _paper("2505.00006", "A Project Built With The Framework", "2025-05-01"),
    _paper("2505.00007", "A Loss In The Fork's Own Package", "2025-05-01"),
    _paper("2505.00008", "A Loss In A Vendored Copy", "2025-05-01"),
    _paper("2505.00009", "LYNXOR: A Vision Language Model", "2025-05-01"),
    _paper("2505.00010", "InternQ3: The Third Generation", "2025-05-01"),
    _paper("2505.00011", "Kestrel Agent: Ordinary Words As A Recipe Folder", "2025-05-01"),
    _paper("2505.00012", "GLIMPO: A Distinctive Name", "2025-05-01"),
    _paper("2505.00013", "HeronWorld: Ten Thousand Environments", "2025-05-01"),
    _paper("2505.00014", "A Work That Adopts The Method", "2025-05-01"),
    _paper("2505.00015", "TRAPO: Trust Region Arithmetic Policy Optimisation", "2025-05-01"),
    _paper("2505.00016", "Rethinking Trust Regions Without A Name In The Title", "2025-05-01"),
    _paper("2505.00017", "KiteQA: Questions A Task Set Asks", "2025-05-01"),
    _paper("2505.00018", "SWIFTPO: Named By A CI Job", "2025-05-01"),
    _paper("2505.00019", "Turn-KPO: Turn-Level Advantages", "2025-05-01"),
    _paper("2505.00020", "Round-KPO: A Folder Of Its Own", "2025-05-01"),
]

HISTORY = [
    # the repository starts with a package named after another tracked framework (a fork of it)
    ("2025-05-02", "init: fork", {"openrlhf/trainer/loss.py": (
        '"""Policy loss of https://arxiv.org/abs/2505.00007."""\ndef policy_loss(x):\n    return x\n')}),
    ("2025-05-03", "feat: prompt pool", {"verl/rollout/pool.py": (
        "def divert(batch):\n    return batch[:1]\n")}),
    ("2025-05-04", "feat: rollout limits", {"verl/rollout/limits.py": (
        "from dataclasses import dataclass\n\n@dataclass\nclass Limits:\n    sem: int = 4\n")}),
    ("2025-05-05", "docs: site theme", {"docs/mkdocs.yml": "site_name: demo\npalette: zorbpo\n"}),
    ("2025-05-06", "build: optional search", {"pyproject.toml": (
        '[project.optional-dependencies]\nsearch = ["quillsearch>=1.0"]\n[tool.uv.sources]\nquillsearch = '
        '{ git = "https://example.org/quillsearch" }\n')}),
    ("2025-05-07", "examples: brightreward", {"examples/integrations/brightreward/main.py": (
        "def brightreward_session():\n    return 'brightreward'\n")}),
    ("2025-05-08", "docs: projects", {"docs/projects/kite.md": (
        "# Kite\n\nTrained with this framework: https://arxiv.org/abs/2505.00006\n")}),
    # long after the framework's own code began, another tracked framework's tree is vendored in
    ("2025-07-01", "vendor trl", {"trl/trainer/loss.py": (
        '"""Loss of https://arxiv.org/abs/2505.00008."""\ndef loss(x):\n    return x\n')}),
    ("2025-07-02", "models: lynxor", {"verl/models/transformers/lynxor.py": "class LynxorModel:\n    pass\n"}),
    ("2025-07-03", "feat: serve internq3", {"verl/serving/names.py": 'CHAT_TEMPLATE = "internq3"\n'}),
    ("2025-07-04", "recipe: kestrel agent", {"recipe/kestrel_agent/main.py": "def main():\n    pass\n"}),
    ("2025-07-05", "feat: glimpo loss", {"verl/trainer/losses.py": 'LOSS_MODES = ("glimpo",)\n'}),
    ("2025-07-06", "envs: heronworld", {"verl/envs/heronworld.py": "def make_heronworld():\n    pass\n"}),
    ("2025-07-07", "docs: algorithms", {"docs/core/rl-algos.md": (
        "# Algorithms\n\nThis trainer is adopted in recent work such as [Wren](https://arxiv.org/abs/2505.00014) "
        "for agents.\n")}),
    ("2025-07-08", "feat: trapo loss", {"verl/trainer/trapo.py": (
        '"""Trust region of https://arxiv.org/abs/2505.00016."""\nLOSS = "trapo"\n')}),
]
HISTORY += [
    ("2025-07-10", "add KiteQA search taskset (#9)", {"verl/search/README.md": "# Search\n\nQuestions to search.\n"}),
    ("2025-07-11", "ci: e2e job", {".github/workflows/e2e_gsm8k_swiftpo.yml": "name: e2e\non: push\n"}),
    ("2025-07-12", "examples: multi-turn", {"examples/geo_multi_turn/run_geo_multi_turn_kpo.py": "def main():\n    pass\n"}),
    ("2025-07-13", "recipe: round kpo", {"recipe/round_kpo/main.py": "def main():\n    pass\n"}),
]
# another registered framework names it beside the same paper's id
OTHERS = {"trl": [("2025-07-09", "feat: trapo", {"trl/trainer/trapo_config.py": (
    '"""See https://arxiv.org/abs/2505.00016."""\nMODE = "trapo"\n')})]}


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    con, shas = link_history(tmp_path_factory.mktemp("unseen_repos"), HISTORY, PAPERS, OTHERS)
    yield con, shas
    con.close()


def test_only_the_method_places_are_adoptions(linked):
    con, shas = linked
    adopted = dict(con.execute("select arxiv_id, first_commit_sha from marts.fct_adoption_claims "
                               "where framework_id = 'verl'").fetchall())
    assert adopted == {
        "2505.00007": shas["2025-05-02"],  # its id in the fork's own package (named after another framework)
        "2505.00011": shas["2025-07-04"],  # ordinary words, as the folder of its recipe
        "2505.00012": shas["2025-07-05"],  # a distinctive name as an option value
        "2505.00016": shas["2025-07-08"],  # its id in the code that implements it
        "2505.00020": shas["2025-07-13"],  # a name starting with an ordinary word, as its recipe folder
    }


def test_each_trap_is_graded_for_what_it_is(linked):
    con, _ = linked
    graded: dict[str, set] = {}
    reasons: dict[str, list] = {}
    for arxiv_id, grade, reason in con.execute(
            "select arxiv_id, evidence_grade, evidence_reason from intermediate.int_commits__paper_links").fetchall():
        graded.setdefault(arxiv_id, set()).add(grade)
        reasons.setdefault(arxiv_id, []).append(reason)
    # an ordinary word as a function name; a three-letter ordinary word as a config key
    assert graded["2505.00001"] == {"rejected"}
    assert graded["2505.00002"] == {"rejected"}
    assert any("three letters" in r for r in reasons["2505.00002"])
    # the docs site's config, the dependency manifest, an integration, a projects showcase, a vendored copy
    assert graded["2505.00003"] == {"citation"} and any("not a page" in r for r in reasons["2505.00003"])
    assert graded["2505.00004"] == {"citation"} and all("data file" in r for r in reasons["2505.00004"])
    assert graded["2505.00005"] == {"citation"}
    assert graded["2505.00006"] == {"citation"}
    assert graded["2505.00008"] == {"citation"}
    # a model's name in a models folder; a model line's generation glued to its name
    assert graded["2505.00009"] == {"citation"} and any("models or templates" in r for r in reasons["2505.00009"])
    assert graded["2505.00010"] == {"rejected"} and any("model name" in r for r in reasons["2505.00010"])
    # an environment trained on; work said to adopt the method; a name that is another paper's
    assert graded["2505.00013"] == {"citation"} and any("environment" in r for r in reasons["2505.00013"])
    assert graded["2505.00014"] == {"citation"} and any("inline citation" in r for r in reasons["2505.00014"])
    assert graded["2505.00015"] == {"rejected"} and all("2505.00016" in r for r in reasons["2505.00015"])
    # a commit subject adding a task set; a CI job's name (a hidden tooling folder)
    assert graded["2505.00017"] == {"citation"}
    assert graded["2505.00018"] == {"citation"}
    # a name starting with an ordinary word, inside a longer file name (multi_turn_kpo)
    assert graded["2505.00019"] == {"rejected"} and any("fragment" in r for r in reasons["2505.00019"])
