"""`rltrack lookup`: query parsing, and the answers for an adopted, a proposed-only and an unknown method."""

from __future__ import annotations

import json
import os
from unittest import mock

import duckdb
import pytest

from orchestration.analyst.lookup import contribution_rules, lookup, method_token, parse_arxiv_id, render
from orchestration.cli import main


@pytest.mark.parametrize("text, expected", [
    ("2503.14476", "2503.14476"),
    ("2503.14476v2", "2503.14476"),
    (" arXiv:2507.18071v1 ", "2507.18071"),
    ("https://arxiv.org/abs/2507.18071v3", "2507.18071"),
    ("http://arxiv.org/pdf/2506.13585v1.pdf", "2506.13585"),
    ("GSPO", None),
    ("2503-14476", None),
    ("1412.6980", "1412.6980"),  # pre-2015 ids have four digits after the dot
    ("Dr. GRPO", None),
])
def test_parse_arxiv_id(text, expected):
    assert parse_arxiv_id(text) == expected


def test_method_token_matches_the_dbt_macro():
    assert method_token("Dr. GRPO") == "dr_grpo"
    assert method_token("dr_grpo") == "dr_grpo"
    assert method_token("REINFORCE++") == "reinforce_plus_plus"
    assert method_token("  Clip-Cov ") == "clip_cov"


@pytest.fixture()
def con(published):
    return published


def test_adopted_method_gspo(con):
    result = lookup(con, "GSPO")
    assert [m.arxiv_id for m in result.methods] == ["2507.18071"]
    m = result.methods[0]
    trl = next(a for a in m.adoptions if a["framework_id"] == "trl")
    assert trl["adopted_on"] == "2025-07-29" and len(trl["first_commit_sha"]) == 40
    text = render(result)
    assert "ALREADY IN" in text and "trl since 2025-07-29" in text
    assert trl["first_commit_sha"][:12] in text
    # the study's two thread figures, kept apart: threads naming it (any role), proposals by outcome
    assert "Threads naming it: 6 (proposal 4, failure report 2)" in text
    assert "Proposals of it (threads whose role is proposal), by outcome: merged" in text
    assert m.threads_by_role["proposal"] == len(m.proposals)
    # the same answer by id with a version, by URL, and by name in another case
    for query in ("2507.18071v2", "https://arxiv.org/abs/2507.18071", "gspo"):
        assert [x.arxiv_id for x in lookup(con, query).methods] == ["2507.18071"]


def test_dr_grpo_by_either_spelling(con):
    for query in ("Dr. GRPO", "dr_grpo", "DR GRPO"):
        result = lookup(con, query)
        assert [m.arxiv_id for m in result.methods] == ["2503.20783"], query
    verl = next(a for a in lookup(con, "dr_grpo").methods[0].adoptions if a["framework_id"] == "verl")
    assert verl["first_commit_path"].startswith("docs/")


def test_proposed_but_not_adopted(con):
    arxiv_id, thread_id, outcome = con.execute("""
        select p.arxiv_id, p.thread_id, p.outcome from marts.fct_method_proposals as p
        where not exists (select 1 from marts.fct_method_adoptions as a where a.arxiv_id = p.arxiv_id)
        order by p.arxiv_id, p.thread_id limit 1""").fetchone()
    result = lookup(con, arxiv_id)
    m = result.methods[0]
    assert m.adoptions == [] and thread_id in [p["thread_id"] for p in m.proposals]
    text = render(result)
    assert "NOT IN ANY TRACKED FRAMEWORK, but proposed" in text
    assert "In frameworks: none" in text
    assert thread_id in text and outcome in text
    # its alias finds it too
    alias = m.aliases[0]
    assert arxiv_id in [x.arxiv_id for x in lookup(con, alias.lower()).methods]


def test_unknown_method(con):
    result = lookup(con, "Totally Unknown Method PO")
    assert not result.found
    text = render(result)
    assert "not found in the warehouse" in text
    assert "Contribution rules per framework" in text  # still useful before proposing
    assert not lookup(con, "9999.99999").found


def test_contribution_rules_on_the_sample(con):
    rules = {r.framework_id: r for r in contribution_rules(con, ["trl", "verl", "openrlhf", "slime"])}
    assert rules["trl"].issue_first and rules["trl"].tests_required and rules["trl"].paper_link_required
    assert rules["openrlhf"].cla_required and not rules["trl"].cla_required
    assert rules["verl"].pr_title_required and rules["verl"].pr_title_format == "[{modules}] {type}: {description}"
    assert "CONTRIBUTING.md" in rules["trl"].files


def test_contribution_rules_fallback_reads_head_files():
    from worlds.sample.git_repos import CONTRIBUTING

    con = duckdb.connect(":memory:")
    con.execute("create schema raw_git")
    con.execute("create table raw_git.repo_files_at_head (framework_id varchar, path varchar, kind varchar, "
                "content varchar, deleted boolean)")
    for fw, text in CONTRIBUTING.items():
        con.execute("insert into raw_git.repo_files_at_head values (?, 'CONTRIBUTING.md', 'contributing', ?, false)",
                    [fw, text])
    con.execute("insert into raw_git.repo_files_at_head values ('slime', 'OLD.md', 'contributing', "
                "'All contributors must sign the CLA.', true)")  # deleted at HEAD: ignored
    rules = {r.framework_id: r for r in contribution_rules(con, ["trl", "verl", "openrlhf", "slime", "skyrl"])}
    assert (rules["trl"].issue_first, rules["trl"].tests_required, rules["trl"].paper_link_required) == (True, True, True)
    assert rules["openrlhf"].cla_required and not rules["slime"].cla_required
    assert rules["verl"].pr_title_format == "[{modules}] {type}: {description}"
    assert "keyword fallback" in rules["trl"].source
    assert rules["skyrl"].issue_first is None and rules["skyrl"].source == "no contribution files mined"


def test_contribution_rules_table_wins_when_present():
    con = duckdb.connect(":memory:")
    con.execute("create schema raw_git")
    con.execute("""create table raw_git.contribution_rules as select 'trl' as framework_id, false as issue_first,
        true as tests_required, false as paper_link_required, true as cla_required, true as pr_title_format,
        'feat: x' as pr_title_pattern,
        '{"cla_required": [{"path": "CONTRIBUTING.md", "text": "Sign the CLA."}]}' as evidence""")
    (trl, verl) = contribution_rules(con, ["trl", "verl"])
    assert (trl.issue_first, trl.cla_required, trl.pr_title_required, trl.pr_title_format) == (False, True, True, "feat: x")
    assert trl.source == "raw_git.contribution_rules"
    assert verl.issue_first is None and verl.source == "no contribution files mined"
    from orchestration.analyst.lookup import LookupResult

    text = render(LookupResult("x", [], ["trl", "verl"], [trl, verl]))
    assert 'trl cla_required: "Sign the CLA." (CONTRIBUTING.md)' in text


def test_cli_lookup_exit_codes_and_json(sample_refresh, capsys):
    data_dir, _ = sample_refresh
    with mock.patch.dict(os.environ):
        assert main(["lookup", "--data-dir", str(data_dir), "Dr.", "GRPO"]) == 0
        assert "2503.20783" in capsys.readouterr().out
        assert main(["lookup", "--data-dir", str(data_dir), "--json", "2507.18071v1"]) == 0
        payload = json.loads(capsys.readouterr().out)
        assert payload["methods"][0]["arxiv_id"] == "2507.18071" and payload["rules"]
        assert main(["lookup", "--data-dir", str(data_dir), "no-such-method"]) == 1
