"""Evidence-graded linking on a generated git repository with the traps of the real histories and
the true cases: mined by the product miner, linked by the dbt models (through bench/fidelity.py's
loader), asserted on the claims (fct_adoption_claims, before the claim verifier) and fct_paper_citations.

Traps (never an adoption): a dictionary-word alias already in the code before the paper; a
dataset's name in an example's data folder; a citation in a "built with" list; a related-work
citation inside a sentence of a docs page; the framework's own name (its system paper); an id in
the code of a docs site (a page listing papers); an arXiv badge; a References section of an rst
page whose headings are underlined with `~~~` (not a code fence); "docs: add X" in a commit subject;
a commit message citing several papers; a name that starts with the framework's (a work built on it);
the name of a paper whose abstract proposes no RL method (an environment) in an example; an id a
comment or docs page cites for something borrowed or used elsewhere ("adapted from", "has since
been used in"); a name that is one word plus RL (a setting, not a method) in an example's file name;
a name ending like a model's version (X-R1) as a run script's file name or a config value (while a
recipe folder of its own is an adoption); an example config named after the data set it trains on
(`nupo_17k`: a method's name and a size).
True cases (adoptions, dated by their commit's author date): an option value, a new module, an
algorithm docs page, a recipe that trains with it, a commit subject adding a CamelCase name, an id
in a docstring behind a `huggingface/papers/` link that lost its `.co`, a commit authored a week
before it was pushed.
"""

from __future__ import annotations

import os
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import duckdb
import pytest

from bench.fidelity import build_warehouse, mined, run_dbt
from ingestion import config

FW = next(f for f in config.frameworks() if f.framework_id == "verl")


def _paper(arxiv_id: str, title: str, day: str, abstract: str = "") -> dict:
    stamp = datetime.fromisoformat(day).replace(hour=12, tzinfo=timezone.utc)
    return {"arxiv_id": arxiv_id, "latest_version": 1, "title": title, "abstract": abstract, "authors": "[]",
            "primary_category": "cs.LG", "categories": "[]", "published_at": stamp, "updated_at": stamp,
            "comment": None, "journal_ref": None, "doi": None, "code_urls": "[]"}


PAPERS = [
    _paper("2503.00001", "PULSE: A Word Everybody Already Uses", "2025-03-01"),
    _paper("2503.00002", "MATHSET-90K: Ninety Thousand Math Problems", "2025-03-01"),
    _paper("2503.00003", "FOOPO: Built With The Framework", "2025-03-01"),
    _paper("2503.00004", "BARPO: Cited In Related Work", "2025-03-01"),
    _paper("2503.00005", "VERL: The Framework's Own Paper", "2025-03-01"),
    _paper("2503.00006", "GAMMAPO: An Option Value", "2025-03-01"),
    _paper("2503.00007", "DELTAPO: A New Module", "2025-03-01"),
    _paper("2503.00008", "OMEGAPO: An Algorithm Page", "2025-03-01"),
    _paper("2503.00009", "SIGMAPO: A Recipe", "2025-03-01"),
    _paper("2503.00010", "ReKappa: A CamelCase Name In A Commit Subject", "2025-03-01"),
    _paper("2503.00011", "A Docstring Whose Link Lost Its Domain", "2025-03-01"),
    _paper("2503.00012", "Listed On A Docs Site Page", "2025-03-01"),
    _paper("2503.00013", "Behind An arXiv Badge", "2025-03-01"),
    _paper("2503.00014", "In The References Of An RST Page", "2025-03-01"),
    _paper("2503.00015", "ZETAPO: Authored Before It Was Pushed", "2025-03-01"),
    _paper("2503.00016", "OmicronPO: Added To A List By A Docs Commit", "2025-03-01"),
    *(_paper(f"2503.0001{n}", f"Motivating Work {n}", "2025-03-01") for n in (7, 8, 9)),
    _paper("2503.00020", "VERL-Tool: A Work Built On The Framework", "2025-03-01"),
    _paper("2503.00021", "TermWorld: Ten Thousand Terminal Tasks", "2025-03-01",
           "We describe a toolkit of ten thousand shell tasks, each with unit tests and a container image."),
    _paper("2503.00022", "A Sandbox Post-Processing Trick", "2025-03-01"),
    _paper("2503.00023", "A Model Whose Report Names A Masking Trick", "2025-03-01"),
    _paper("2503.00024", "Geo-RL: Reinforcement Learning On Geometry Problems", "2025-03-01"),
    _paper("2503.00025", "Zeta-R1: A Model Line", "2025-03-01"),
    _paper("2503.00026", "Kappa-R1: A Recipe", "2025-03-01"),
    _paper("2503.00027", "NUPO: A Method Whose Name A Data Set Took", "2025-03-01"),
]

# (date, message, files)
HISTORY = [
    ("2024-06-01", "init", {"verl/utils/signal.py": "def pulse(x):\n    return x\n", "README.md": "# verl\n"}),
    ("2025-03-10", "feat: pulse scheduling", {"verl/sched.py": 'MODE = "pulse"\ndef pulse_step():\n    pass\n'}),
    ("2025-03-11", "examples: math data", {
        "examples/data/mathset_90k.py": "def load_mathset_90k():\n    return 'mathset_90k'\n"}),
    ("2025-03-12", "readme: community", {"README.md": (
        "# verl\n\n## Awesome work built with verl\n\n"
        "- [FOOPO](https://arxiv.org/abs/2503.00003): trained with verl\n")}),
    ("2025-03-13", "docs: async design", {"docs/advanced/async.md": (
        "# Async rollout\n\nThis design is motivated by [a study](https://arxiv.org/abs/2503.00004) "
        "which showed that stale rollouts are mostly harmless in practice.\n")}),
    ("2025-03-14", "docs: about", {"docs/index.md": (
        "# About\n\nThe paper behind this framework: https://arxiv.org/abs/2503.00005\n")}),
    ("2025-03-20", "feat: gammapo loss mode", {"verl/trainer/core_algos.py": (
        'def compute_loss(cfg):\n    if cfg.loss_mode == "gammapo":\n        return 1\n')}),
    ("2025-03-21", "feat: new trainer", {"verl/trainer/deltapo_trainer.py": (
        "class DeltaPOTrainer:\n    pass\n")}),
    ("2025-03-22", "docs: algorithm page", {"docs/algo/omegapo.md": (
        "# OMEGAPO\n\n**Paper**: https://arxiv.org/abs/2503.00008\n\nSet `algorithm.mode=omegapo`.\n")}),
    ("2025-03-23", "recipe", {"examples/sigmapo_trainer/run_qwen.sh": (
        "python3 -m verl.trainer.main algorithm.adv_estimator=sigmapo \\\n  data.train_batch_size=8\n")}),
    ("2025-03-24", "feat: add ReKappa rollout scheduler (#12)", {"verl/rollout/sched2.py": "X = 1\n"}),
    ("2025-03-25", "feat: entropy mask", {"verl/trainer/mask.py": (
        'def mask(cfg):\n    """Top-entropy masking from [the paper](https://huggingface/papers/2503.00011)."""\n')}),
    ("2025-03-26", "docs site: team page", {"docs_site/src/pages/team.js": (
        "export const papers = [{href: 'https://arxiv.org/abs/2503.00012'}];\n")}),
    ("2025-03-27", "docs: badge", {"docs/index.md": (
        "# About\n\n[![arXiv](https://img.shields.io/badge/arXiv-paper-red)](https://arxiv.org/abs/2503.00013)\n")}),
    ("2025-03-28", "docs: async guide", {"docs/async.rst": (
        "Async guide\n~~~~~~~~~~~\n\nTurn it on.\n\nReferences\n----------\n\n"
        "- Pipelined: https://arxiv.org/abs/2503.00014\n")}),
    ("2025-03-29", "feat: zetapo loss", {"verl/trainer/zeta.py": 'LOSS = "zetapo"\n'}),
    ("2025-03-30", "docs: add OmicronPO (#3)", {"README.md": "# verl\n\n- [OmicronPO](https://omicron.example.org)\n"}),
    ("2025-03-31", "feat: dynamic data\n\nShown useful by arXiv:2503.00017, arXiv:2503.00018, arXiv:2503.00019.",
     {"verl/data/dynamic.py": "X = 2\n"}),
    ("2025-04-01", "examples: tool agent", {"examples/verl_tool/run.sh": "python3 train.py\n"}),
    ("2025-04-02", "examples: terminal agent", {"examples/agent/run_termworld.sh": "python3 train.py env=termworld\n"}),
    ("2025-04-03", "feat: sandbox tool", {"verl/tools/sandbox.py": (
        "def post_process(code):\n    # Adapted from https://arxiv.org/abs/2503.00022.\n    return code\n")}),
    ("2025-04-04", "docs: token masking", {"docs/algo/masking.md": (
        "# Token masking\n\nThis technique has since been used in the training of "
        "[a model](https://arxiv.org/abs/2503.00023).\n")}),
    ("2025-04-05", "examples: geometry", {"examples/geo/train_geo_rl.py": "def main():\n    pass\n"}),
    ("2025-04-06", "scripts: serve a model", {"scripts/run-zeta-r1.sh": "python3 serve.py\n",
                                             "configs/serve.yaml": "reasoning_parser: zeta_r1\n"}),
    ("2025-04-07", "recipe: kappa", {"recipe/kappa-r1/main.py": "def main():\n    pass\n"}),
    ("2025-04-08", "examples: math env", {"examples/agent/gem_math_nupo.yaml": (
        "adv_estimator: reinforce\ntrain_env:\n  nupo_17k:\n    tags: [nupo_17k]\n")}),
]
AUTHORED = {"2025-03-29": "2025-03-21"}  # committer day -> author day (written a week before the push)


def _git(repo: Path, day: str, *args: str) -> str:
    stamp = f"{day}T12:00:00+00:00"
    env = {**os.environ, "GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.org",
           "GIT_COMMITTER_NAME": "Ada", "GIT_COMMITTER_EMAIL": "ada@example.org",
           "GIT_AUTHOR_DATE": f"{AUTHORED.get(day, day)}T12:00:00+00:00", "GIT_COMMITTER_DATE": stamp}
    return subprocess.run(["git", "-C", str(repo), *args], env=env, capture_output=True, check=True,
                          text=True).stdout.strip()


def _commit_history(repo: Path, history: list) -> dict[str, str]:
    repo.mkdir()
    _git(repo, "2024-06-01", "init", "-q", "-b", "main")
    return _commit_files(repo, history)


def _commit_files(repo: Path, history: list) -> dict[str, str]:
    """Commit `history` ((day, message, files) commits) onto the repository's current branch."""
    shas = {}
    for day, message, files in history:
        for name, text in files.items():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            (repo / name).write_text(text)
            _git(repo, day, "add", name)
        _git(repo, day, "commit", "-q", "-m", message)
        shas[day] = _git(repo, day, "rev-parse", "HEAD")
    return shas


def link_history(tmp: Path, history: list, papers: list[dict], others: dict[str, list] | None = None):
    """A generated repository of `history` ((day, message, files) commits on `main`), mined by the
    product miner as verl's (with `others`: framework id -> history, repositories of other registered
    frameworks) and linked to `papers` by the dbt models: (read-only connection, sha per day of `history`)."""
    shas = _commit_history(tmp / "repo", history)
    git_files = [mined(FW, tmp / "repo", tmp / "mined")]
    for framework_id, other in (others or {}).items():
        fw = next(f for f in config.frameworks() if f.framework_id == framework_id)
        _commit_history(tmp / framework_id, other)
        git_files.append(mined(fw, tmp / framework_id, tmp / "mined"))
    warehouse = tmp / "warehouse.duckdb"
    build_warehouse(warehouse, git_files, papers)
    run_dbt(warehouse, tmp)
    return duckdb.connect(str(warehouse), read_only=True), shas


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    con, shas = link_history(tmp_path_factory.mktemp("traps"), HISTORY, PAPERS)
    yield con, shas
    con.close()


def test_only_implementations_and_documented_support_are_adoptions(linked):
    con, shas = linked
    rows = con.execute("select arxiv_id, first_commit_sha, evidence_grade from marts.fct_adoption_claims "
                       "order by arxiv_id").fetchall()
    assert rows == [
        ("2503.00005", shas["2025-03-14"], "documented"),  # the framework's own paper (the truth counts it)
        ("2503.00006", shas["2025-03-20"], "implementation"),  # option value
        ("2503.00007", shas["2025-03-21"], "implementation"),  # new module named after it
        ("2503.00008", shas["2025-03-22"], "documented"),  # its algorithm docs page
        ("2503.00009", shas["2025-03-23"], "implementation"),  # a recipe training with it
        ("2503.00010", shas["2025-03-24"], "implementation"),  # "add ReKappa" in the subject
        ("2503.00011", shas["2025-03-25"], "implementation"),  # huggingface/papers/<id> in a docstring
        ("2503.00015", shas["2025-03-29"], "implementation"),  # option value, authored earlier
        ("2503.00026", shas["2025-04-07"], "implementation"),  # a recipe folder with a versioned name
    ]
    day = con.execute("select cast(adopted_on as varchar) from marts.fct_adoption_claims "
                      "where arxiv_id = '2503.00015'").fetchone()[0]
    assert day == AUTHORED["2025-03-29"]  # dated by the author date, not the push
    reasons = dict(con.execute("select arxiv_id, evidence_reason from marts.fct_adoption_claims").fetchall())
    assert "option value" in reasons["2503.00006"] and "path" in reasons["2503.00007"]
    assert "docs" in reasons["2503.00008"] and "example" in reasons["2503.00009"]
    assert "own system paper" in reasons["2503.00005"]


def test_traps_are_citations_or_rejected_with_a_reason(linked):
    con, _ = linked
    cited = dict(con.execute(
        "select arxiv_id, string_agg(distinct evidence_reason, ' | ') from marts.fct_paper_citations "
        "where evidence_grade = 'citation' group by arxiv_id").fetchall())
    assert "data" in cited["2503.00002"]  # a dataset's name in an example's data folder
    assert "related work" in cited["2503.00003"]  # the "built with" list
    assert "inline citation" in cited["2503.00004"]  # cited inside a sentence of a docs page
    assert "docs site" in cited["2503.00012"]  # a docs site's page listing papers
    assert "related work" in cited["2503.00013"]  # an arXiv badge
    assert "related work" in cited["2503.00014"]  # the References of an rst page
    assert "not adding it" in cited["2503.00016"]  # "docs: add X" documents, it adds no code
    assert "citing 3 papers" in cited["2503.00017"]  # a message motivating a change by the literature
    assert "without an RL method" in cited["2503.00021"]  # an environment's name in an example
    assert "inline citation" in cited["2503.00022"]  # "adapted from" in a code comment: borrowed
    assert "inline citation" in cited["2503.00023"]  # "has since been used in" in a docs page
    # a run script for the model R1: a model name in a file name, or (its name of ordinary words in the
    # middle of the file name) a fragment of a longer name
    script = con.execute("select evidence_grade, evidence_reason from intermediate.int_commits__paper_links "
                         "where arxiv_id = '2503.00025' and mention_context = 'path'").fetchall()
    assert script and all(g in ("citation", "rejected") for g, _ in script), script
    parser = con.execute("select evidence_grade, evidence_reason from intermediate.int_commits__paper_links "
                         "where arxiv_id = '2503.00025' and mention_context = 'option_value'").fetchall()
    # a parser named after the model: a model name as a config value (its words are ordinary: rejected)
    assert parser and all(g in ("citation", "rejected") for g, _ in parser), parser
    assert "data set named after it" in cited["2503.00027"]  # a config named after the data set it trains on
    aliases = dict(con.execute("select alias_token, alias_reason from intermediate.int_methods__aliases "
                               "where alias_status = 'rejected'").fetchall())
    assert "before the paper" in aliases["pulse"]  # a word already in the code
    assert "name of the framework verl" in aliases["verl"]
    assert "named after the framework verl" in aliases["verl_tool"]  # a work built on the framework
    assert "setting plus RL" in aliases["geo_rl"]  # a task trained with RL, not a method's name
    assert not con.execute("select * from marts.fct_paper_citations where arxiv_id = '2503.00001'").fetchall()
