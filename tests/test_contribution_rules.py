from ingestion.git.contribution_rules import codeowners_summary, extract_rules
from worlds.sample.git_repos import CONTRIBUTING, ISSUE_TEMPLATE, PR_TEMPLATE

RULES = ("issue_first", "tests_required", "paper_link_required", "cla_required", "pr_title_format")


def files_of(fw):
    return [{"path": "CONTRIBUTING.md", "kind": "contributing", "content": CONTRIBUTING[fw]},
            {"path": ".github/PULL_REQUEST_TEMPLATE.md", "kind": "pr_template", "content": PR_TEMPLATE[fw]},
            {"path": ".github/ISSUE_TEMPLATE/feature.md", "kind": "issue_template", "content": ISSUE_TEMPLATE}]


def flags(fw):
    r = extract_rules(files_of(fw))
    return {k for k in RULES if r[k]}, r


def test_sample_framework_rules():
    assert flags("trl")[0] == {"issue_first", "tests_required", "paper_link_required"}
    verl, r = flags("verl")
    assert verl == {"tests_required", "pr_title_format"}
    assert r["pr_title_pattern"] == "[{modules}] {type}: {description}"
    assert flags("openrlhf")[0] == {"cla_required"}
    slime, r = flags("slime")
    assert slime == {"issue_first", "pr_title_format"} and r["pr_title_pattern"] == "conventional commits"


def test_evidence_lines_point_at_the_sentence():
    _, r = flags("openrlhf")
    (ev,) = r["evidence"]["cla_required"]
    assert ev["path"] == "CONTRIBUTING.md" and "Contributor License Agreement" in ev["text"]


def test_soft_wording_and_checklist_questions_do_not_require():
    files = [{"path": "CONTRIBUTING.md", "kind": "contributing",
              "content": "Adding tests is appreciated.\n\n- [ ] Did you open an issue first?\n"},
             {"path": "src/x.py", "kind": None, "content": "tests must pass"}]
    r = extract_rules(files)
    assert not any(r[k] for k in RULES)


def test_codeowners_summary():
    s = codeowners_summary([{"kind": "codeowners", "content": "# owners\n* @a\n/x/ @b\n"}])
    assert s == {"has_codeowners": True, "codeowners_entries": 2}
    assert codeowners_summary([]) == {"has_codeowners": False, "codeowners_entries": 0}
