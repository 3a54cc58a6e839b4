"""Linking on repositories the rules never saw: the traps of the development half of six frameworks
added from outside the registry (issue 27, session 3), each general, each on a generated repository
(the pattern of test_linking_unseen_repos.py).

Traps (never an adoption): a copy of another tracked framework's file nested in a folder named after
it (`agentlib/patches/trl/trainer/loss.py`, a path of trl's own repository); a name a commit scoped
to a model adds ("[model] add kestrel7b": its chat template); a name a file also writes with a parameter
count (`Larkspur-8B-Base`: a model registry); the arXiv id of a paper without an RL
method in a models folder (the model a builder builds); a name starting with an ordinary word inside a
longer identifier of the same file (`office_desk_env` is not Desk-Env); an ordinary-word name whose
paper's id the framework cites only inline for something else (a prompt "taken from" it) is not
corroborated by that id.
Then, from the test half's errors (a fit, measured after the held-out figure): a name in a user
interface's code (a frontend) is never an adoption, while a fork sharing its origin's commits keeps the
origin's package name as its own (a loss added to it counts, though the name arrived after its code began).
True cases: an id in a nested folder named after another framework whose files are not that framework's
(`agentlib/trl/adapter.py`); a short acronym the code names as a loss (`use_zft_loss`), which alone it
would not count as; a name's own identifier with a verb before it (`compute_desk_env` would count).
"""

from __future__ import annotations

import subprocess

import duckdb
import pytest

from tests.test_linking_traps import _paper, link_history

NOT_RL = ("We pretrain a family of small language models on eleven trillion tokens of curated web, code "
          "and math text and release the weights.")

PAPERS = [
    _paper("2505.00101", "A Loss Another Framework Implements", "2025-05-01"),
    _paper("2505.00102", "An Adapter Of Its Own", "2025-05-01"),
    _paper("2505.00103", "KESTREL: A Chat Model", "2025-05-01"),
    _paper("2505.00104", "GRUNPO: A Loss Added By A Trainer Commit", "2025-05-01"),
    _paper("2505.00105", "Small Models, Big Data", "2025-05-01", NOT_RL),
    _paper("2505.00106", "ZFT: Zero-Shot Fine-Tuning Loss", "2025-05-01"),
    _paper("2505.00107", "Desk-Env: Desks As Environments", "2025-05-01"),
    _paper("2505.00108", "Steady Policy: Ordinary Words", "2025-05-01"),
    _paper("2505.00109", "LARKSPUR: A Code Model", "2025-05-01"),
]

HISTORY = [
    ("2025-05-02", "init: trainer", {"agentlib/trainer.py": "def train():\n    pass\n"}),
    # a patched copy of trl's own file, nested in a folder named after trl
    ("2025-05-03", "instrumentation: patch trl", {"agentlib/patches/trl/trainer/loss.py": (
        '"""Loss of https://arxiv.org/abs/2505.00101."""\ndef loss(x):\n    return x\n')}),
    # a nested folder named after trl whose file is not trl's: the framework's own adapter
    ("2025-05-04", "feat: trl adapter", {"agentlib/trl/adapter.py": (
        '"""Adapter loss of https://arxiv.org/abs/2505.00102."""\ndef adapter_loss(x):\n    return x\n')}),
    ("2025-05-05", "[model] add kestrel7b (#12)", {"agentlib/extras/constants.py": (
        'register_model_group(models={"K-7B": "org/K-7B"}, template="kestrel")\n')}),
    ("2025-05-06", "[trainer] add grunpo loss (#13)", {"agentlib/losses.py": 'LOSS_TYPES = ("grunpo",)\n'}),
    ("2025-05-07", "models: small builder", {"agentlib/models/small/builders.py": (
        '"""Architecture of https://arxiv.org/abs/2505.00105."""\ndef small_model():\n    pass\n')}),
    ("2025-05-08", "feat: zft loss", {"agentlib/hparams.py": (
        "from dataclasses import dataclass\n\n@dataclass\nclass Args:\n    use_zft_loss: bool = False\n"
        "    zft_alpha: float = 0.1\n")}),
    ("2025-05-09", "feat: office env", {"agentlib/rollout/office.py": (
        'ENV_NAME = "office_desk_env"\nDEFAULT = "desk_env"\n')}),
    ("2025-05-10", "feat: steady", {"agentlib/steady.py": (
        "def steady_policy(x):\n    # the prompt is taken from https://arxiv.org/abs/2505.00108\n    return x\n")}),
    ("2025-05-11", "[misc] fix constants (#14)", {"agentlib/extras/registry.py": (
        'MODELS = {"Larkspur-8B-Base": "org/Larkspur-8B-Base"}\nTEMPLATE = "larkspur"\n')}),
]
# trl's own repository has trainer/loss.py under its package folder
OTHERS = {"trl": [("2025-04-20", "feat: loss", {"trl/trainer/loss.py": "def loss(x):\n    return x\n"})]}


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    con, shas = link_history(tmp_path_factory.mktemp("heldout_traps"), HISTORY, PAPERS, OTHERS)
    yield con, shas
    con.close()


def _graded(con) -> tuple[dict[str, set], dict[str, list]]:
    graded: dict[str, set] = {}
    reasons: dict[str, list] = {}
    for arxiv_id, grade, reason in con.execute(
            "select arxiv_id, evidence_grade, evidence_reason from intermediate.int_commits__paper_links "
            "where framework_id = 'verl'").fetchall():
        graded.setdefault(arxiv_id, set()).add(grade)
        reasons.setdefault(arxiv_id, []).append(reason)
    return graded, reasons


def test_only_the_method_places_are_adoptions(linked):
    con, shas = linked
    adopted = dict(con.execute("select arxiv_id, first_commit_sha from marts.fct_adoption_claims "
                               "where framework_id = 'verl'").fetchall())
    assert adopted == {
        "2505.00102": shas["2025-05-04"],  # its id in the framework's own adapter, in a folder named trl
        "2505.00104": shas["2025-05-06"],  # an option value a trainer commit adds
        "2505.00106": shas["2025-05-08"],  # a short acronym named as a loss in code
    }


def test_each_trap_is_graded_for_what_it_is(linked):
    con, _ = linked
    graded, reasons = _graded(con)
    # a copy of trl's own file nested in a folder named after it
    assert graded["2505.00101"] == {"citation"} and all("data file" in r for r in reasons["2505.00101"])
    # a name a commit scoped to a model adds
    assert graded["2505.00103"] == {"citation"} and any("scoped to a model" in r for r in reasons["2505.00103"])
    # a name the same file writes with a parameter count
    assert graded["2505.00109"] == {"citation"} and any("parameter count" in r for r in reasons["2505.00109"])
    # the id of a paper without an RL method in a models folder
    assert graded["2505.00105"] == {"citation"} and any("models folder" in r for r in reasons["2505.00105"])
    # the short acronym counts beside its loss, its name alone still needs its id
    assert any("as a loss" in r for r in reasons["2505.00106"])
    # a fragment of a longer identifier in the same file
    assert "implementation" not in graded["2505.00107"]
    assert any("fragment of a longer identifier" in r for r in reasons["2505.00107"])
    # an ordinary-word name whose id is cited only inline for something else stays the ordinary word
    assert "implementation" not in graded["2505.00108"]
    assert not any("within a month" in r for r in reasons["2505.00108"])


# --- a fork by git history, and a user interface (the test half's errors; fit, not held out) -----------
FORK_PAPERS = [
    _paper("2505.00201", "A Loss In The Fork's Renamed Package", "2025-05-01"),
    _paper("2505.00202", "GLIMMER: A Word In A User Interface", "2025-05-01"),
]


@pytest.fixture(scope="module")
def forked(tmp_path_factory):
    """trl's repository, whose package got its name two months after its code began; verl's is a clone of
    it (a fork sharing its commits) that adds a loss to that package, and a frontend."""
    from bench.fidelity import build_warehouse, mined, run_dbt
    from ingestion import config
    from tests.test_linking_traps import FW, _commit_files, _commit_history

    tmp = tmp_path_factory.mktemp("fork")
    origin = tmp / "trl"
    _commit_history(origin, [
        ("2025-01-02", "init", {"oldpkg/core.py": "def core():\n    pass\n"}),
        ("2025-03-02", "rename the package", {"trl/trainer/core.py": "def core():\n    pass\n"}),
    ])
    fork = tmp / "repo"
    subprocess.run(["git", "clone", "-q", str(origin), str(fork)], check=True)
    shas = _commit_files(fork, [
        ("2025-05-05", "feat: fork loss", {"trl/trainer/fork_loss.py": (
            '"""Loss of https://arxiv.org/abs/2505.00201."""\ndef fork_loss(x):\n    return x\n')}),
        ("2025-05-06", "studio: avatar", {"studio/frontend/src/utils/glimmer-initials.ts": (
            "export function glimmer(name) { return name; }\n")}),
    ])
    trl = next(f for f in config.frameworks() if f.framework_id == "trl")
    git_files = [mined(FW, fork, tmp / "mined"), mined(trl, origin, tmp / "mined")]
    warehouse = tmp / "warehouse.duckdb"
    build_warehouse(warehouse, git_files, FORK_PAPERS)
    run_dbt(warehouse, tmp)
    con = duckdb.connect(str(warehouse), read_only=True)
    yield con, shas
    con.close()


def test_a_fork_keeps_its_origins_package_and_a_frontend_implements_nothing(forked):
    con, shas = forked
    adopted = dict(con.execute("select arxiv_id, first_commit_sha from marts.fct_adoption_claims "
                               "where framework_id = 'verl'").fetchall())
    # the fork's own loss in the package named after its origin (named two months after its code began)
    assert adopted == {"2505.00201": shas["2025-05-05"]}
    graded, _ = _graded(con)
    assert graded["2505.00202"] == {"citation"}  # a name in a frontend's code
