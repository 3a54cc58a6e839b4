"""Build the dbt marts from hand-made raw rows and assert exact outputs for the tricky cases:
a paper cited before its first version, an alias collision, two frameworks adopting on the same
day, an adoption after the 180-day horizon, and a maintainer paper; and the arXiv HTML front matter
OR-ed into code release and maintainer affiliation."""

from __future__ import annotations

import json
import subprocess

import duckdb
import pytest

from orchestration.dbt_project import DBT_PROJECT_DIR, dbt_executable

LOAD = "1700000000.0"


def _paper(arxiv_id, title, published, kind="general_method", size=7.0, loss=False, code=False,
           maintainers=(), defined=()):
    paper = {
        "arxiv_id": arxiv_id, "latest_version": 1, "title": title, "abstract": "An abstract.",
        "authors": json.dumps([{"name": "A. Author", "affiliation": None}]), "primary_category": "cs.LG",
        "categories": json.dumps(["cs.LG"]), "published_at": f"{published} 12:00:00+00",
        "updated_at": f"{published} 12:00:00+00", "comment": None, "journal_ref": None, "doi": None,
        "code_urls": "[]",
    }
    features = {
        "arxiv_id": arxiv_id, "is_rl_related": kind != "not_rl", "paper_kind": kind, "kind_signal": "test",
        "policy_size_b": size, "size_signal": None, "changes_loss": loss, "loss_signal": None,
        "releases_code": code, "model_report": False, "in_pool": True, "code_signal": None,
        "maintainer_signal": None, "model_report_signal": None, "defined_methods": json.dumps(list(defined)),
        "maintainer_framework_ids": json.dumps(list(maintainers)), "screener_version": "test",
    }
    return paper, features


PAPERS = [
    _paper("2501.00001", "EARLY: Cited Before Its First Version", "2025-01-20"),
    _paper("2501.00002", "SAPO: A Name Everybody Uses", "2025-01-05"),
    _paper("2501.00003", "TWINPO: Adopted Twice the Same Day", "2025-01-10", size=32.0, loss=True),
    _paper("2501.00004", "LATEPO: Adopted After The Horizon", "2025-01-02", loss=True),
    _paper("2502.00005", "SEEDPO: From A Maintainer", "2025-02-01", size=72.0, maintainers=["verl"]),
    _paper("2502.00006", "QUIETPO: Never Adopted", "2025-02-15", code=True),
    _paper("2503.00007", "A Survey of Everything", "2025-03-01", kind="survey"),
]

# (framework, sha, committed_at, on_default_branch, mentions[(path, kind, value, location)])
COMMITS = [
    ("trl", "t1", "2025-01-15 09:00:00+00", True, [("trl/loss.py", "arxiv_id", "2501.00001", "added_line")]),
    ("trl", "t2", "2025-02-01 09:00:00+00", True, [("trl/sapo.py", "token", "sapo", "added_line")]),
    ("trl", "t3", "2025-03-01 09:00:00+00", True, [("trl/twinpo.py", "token", "twinpo", "added_line")]),
    ("verl", "v1", "2025-03-01 15:00:00+00", True, [("verl/core.py", "token", "twinpo", "added_line")]),
    ("verl", "v2", "2025-08-01 09:00:00+00", True, [("docs/latepo.md", "arxiv_id", "2501.00004", "added_line")]),
    ("verl", "v3", "2025-02-20 09:00:00+00", True, [("verl/core.py", "token", "seedpo", "added_line"),  # code and
                                                     ("verl/config.yaml", "token", "seedpo", "added_line")]),  # its option
    ("verl", "v4", "2025-02-25 09:00:00+00", False, [("verl/core.py", "token", "quietpo", "added_line")]),
    ("verl", "v5", "2025-09-30 09:00:00+00", True, []),
]


def _create(con, table, rows, columns):
    schema = table.split(".")[0]
    con.execute(f"create schema if not exists {schema}")
    cols = ", ".join(f"{c} {t}" for c, t in columns.items())
    con.execute(f"create table {table} ({cols}, _dlt_load_id varchar, _dlt_id varchar)")
    for i, row in enumerate(rows):
        values = [row.get(c) for c in columns] + [LOAD, f"id{i}"]
        con.execute(f"insert into {table} values ({', '.join('?' * len(values))})", values)


def build_raw(path):
    con = duckdb.connect(str(path))
    con.execute("set TimeZone = 'UTC'")
    text, ts, b, i, d = "varchar", "timestamptz", "boolean", "bigint", "double"
    _create(con, "raw_arxiv.papers", [p for p, _ in PAPERS], {
        "arxiv_id": text, "latest_version": i, "title": text, "abstract": text, "authors": text,
        "primary_category": text, "categories": text, "published_at": ts, "updated_at": ts, "comment": text,
        "journal_ref": text, "doi": text, "code_urls": text})
    _create(con, "raw_arxiv.paper_features", [f for _, f in PAPERS], {
        "arxiv_id": text, "is_rl_related": b, "paper_kind": text, "kind_signal": text, "policy_size_b": d,
        "size_signal": text, "changes_loss": b, "loss_signal": text, "releases_code": b, "model_report": b,
        "in_pool": b, "code_signal": text, "maintainer_signal": text, "model_report_signal": text, "defined_methods": text, "maintainer_framework_ids": text, "screener_version": text})
    # arXiv HTML front matter: TWINPO links its code in a title footnote and is by trl's maintainers;
    # SEEDPO's author block says what its abstract row said (verl); QUIETPO has no HTML
    fm = {"html_url": None, "problem": None, "code_signal": None, "code_urls": "[]", "maintainer_signal": None,
          "has_affiliations": True, "authors": "[]", "reader_version": 1, "fetched_at": "2025-10-01 00:00:00+00"}
    _create(con, "raw_arxiv.paper_front_matter", [
        {**fm, "arxiv_id": "2501.00003", "status": "read", "releases_code": True,
         "code_signal": "footnote link: https://github.com/lab/twinpo", "maintainer_framework_ids": '["trl"]',
         "maintainer_signal": "trl: arXiv HTML affiliation 'Hugging Face'"},
        {**fm, "arxiv_id": "2502.00005", "status": "read", "releases_code": False,
         "maintainer_framework_ids": '["verl"]'},
        {**fm, "arxiv_id": "2502.00006", "status": "no_html", "releases_code": False, "has_affiliations": False,
         "maintainer_framework_ids": "[]", "problem": "HTTP 404"}], {
        "arxiv_id": text, "html_url": text, "status": text, "problem": text, "releases_code": b,
        "code_signal": text, "code_urls": text, "maintainer_framework_ids": text, "maintainer_signal": text,
        "has_affiliations": b, "authors": text, "reader_version": i, "fetched_at": ts})
    _create(con, "raw_git.commits", [
        {"framework_id": fw, "repo": fw, "sha": sha, "parents": "[]", "is_merge": False, "author_name": "x",
         "author_domain": "example.org", "authored_at": at, "committed_at": at, "message": "m",
         "insertions": 1, "deletions": 0, "files_changed": 1, "on_default_branch": default}
        for fw, sha, at, default, _ in COMMITS], {
        "framework_id": text, "repo": text, "sha": text, "parents": text, "is_merge": b, "author_name": text,
        "author_domain": text, "authored_at": ts, "committed_at": ts, "message": text, "insertions": i,
        "deletions": i, "files_changed": i, "on_default_branch": b})
    _create(con, "raw_git.commit_files", [], {
        "framework_id": text, "repo": text, "sha": text, "path": text, "change_type": text,
        "added_lines": i, "deleted_lines": i})
    _create(con, "raw_git.commit_mentions", [
        {"framework_id": fw, "repo": fw, "sha": sha, "path": path, "kind": kind, "value": value, "location": loc}
        for fw, sha, _, _, mentions in COMMITS for path, kind, value, loc in mentions], {
        "framework_id": text, "repo": text, "sha": text, "path": text, "kind": text, "value": text,
        "location": text})
    _create(con, "raw_git.repo_files_at_head", [], {
        "framework_id": text, "repo": text, "head_sha": text, "path": text, "size_bytes": i, "kind": text,
        "content": text})
    thread_cols = {"framework_id": text, "repo": text, "number": i, "id": i, "kind": text, "title": text,
                   "body": text, "state": text, "state_reason": text, "author": text, "author_association": text,
                   "labels": text, "created_at": ts, "updated_at": ts, "closed_at": ts, "comments_count": i,
                   "is_bot": b, "role": text, "role_signal": text, "role_version": text}
    issue = {"framework_id": "verl", "repo": "verl", "kind": "issue", "state": "open", "author": "u",
             "author_association": "NONE", "labels": "[]", "created_at": "2025-03-01 00:00:00+00",
             "updated_at": "2025-03-01 00:00:00+00", "comments_count": 0, "is_bot": False, "role_version": "1"}
    _create(con, "raw_github.issues", [
        {**issue, "number": 7, "id": 7, "title": "Support QUIETPO?", "body": "See arXiv 2502.00006",
         "role": "proposal", "role_signal": "issue title asks: 'Support'"},
        # names the same paper, but reports a failure: a naming thread, not a proposal
        {**issue, "number": 9, "id": 9, "title": "NaN loss with QUIETPO", "body": "loss becomes nan",
         "role": "failure_report", "role_signal": "title reports a failure: 'NaN'"}], thread_cols)
    _create(con, "raw_github.pull_requests", [
        {**issue, "number": 10, "id": 10, "kind": "pull_request", "title": "Add QUIETPO loss", "body": "",
         "role": "proposal", "role_signal": "pull request title: 'Add'", "state": "closed",
         "closed_at": "2025-03-05 00:00:00+00", "merged_at": None}], {**thread_cols, "merged_at": ts})
    _create(con, "raw_github.comments", [], {
        "framework_id": text, "repo": text, "id": i, "issue_number": i, "author": text,
        "author_association": text, "body": text, "created_at": ts, "updated_at": ts, "is_bot": b})
    # the maintainer answers the pull request only in a review (an empty COMMENTED review wrapping an
    # inline comment is not a second reply), and the author's own inline answer is not a reply
    _create(con, "raw_github.reviews", [
        {"framework_id": "verl", "repo": "verl", "id": 1, "pull_number": 10, "state": "CHANGES_REQUESTED",
         "author": "maintainer", "author_association": "MEMBER", "body": "Needs a test",
         "submitted_at": "2025-03-02 00:00:00+00", "is_bot": False},
        {"framework_id": "verl", "repo": "verl", "id": 2, "pull_number": 10, "state": "COMMENTED",
         "author": "maintainer", "author_association": "MEMBER", "body": "",
         "submitted_at": "2025-03-03 00:00:00+00", "is_bot": False}], {
        "framework_id": text, "repo": text, "id": i, "pull_number": i, "state": text, "author": text,
        "author_association": text, "body": text, "submitted_at": ts, "is_bot": b})
    _create(con, "raw_github.review_comments", [
        {"framework_id": "verl", "repo": "verl", "id": 11, "pull_number": 10, "review_id": 2, "in_reply_to_id": None,
         "path": "loss.py", "author": "maintainer", "author_association": "MEMBER", "body": "rename this",
         "created_at": "2025-03-03 00:00:00+00", "updated_at": "2025-03-03 00:00:00+00", "is_bot": False},
        {"framework_id": "verl", "repo": "verl", "id": 12, "pull_number": 10, "review_id": 3, "in_reply_to_id": 11,
         "path": "loss.py", "author": "u", "author_association": "NONE", "body": "done",
         "created_at": "2025-03-04 00:00:00+00", "updated_at": "2025-03-04 00:00:00+00", "is_bot": False}], {
        "framework_id": text, "repo": text, "id": i, "pull_number": i, "review_id": i, "in_reply_to_id": i,
        "path": text, "author": text, "author_association": text, "body": text, "created_at": ts,
        "updated_at": ts, "is_bot": b})
    # the pull request's reviews page went missing once and was not read again yet: incomplete
    _create(con, "raw_github.thread_gaps", [
        {"framework_id": "verl", "repo": "verl", "number": 10, "kind": "pull_request", "part": "reviews",
         "reason": "HTTP 404", "detected_at": "2025-03-06 00:00:00+00", "state": "open",
         "state_at": "2025-03-06 00:00:00+00"}], {
        "framework_id": text, "repo": text, "number": i, "kind": text, "part": text, "reason": text,
        "detected_at": ts, "state": text, "state_at": ts})
    _create(con, "raw_reports.reports", [], {
        "model": text, "arxiv_id": text, "params_total_b": d, "params_active_b": d, "released_at": "date",
        "text_chars": i})
    _create(con, "raw_reports.report_mentions", [], {
        "arxiv_id": text, "method_name": text, "matched_text": text, "occurrences": i})
    con.close()


@pytest.fixture(scope="module")
def marts(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("handmade")
    warehouse = tmp / "warehouse.duckdb"
    build_raw(warehouse)
    result = subprocess.run(
        [dbt_executable(), "build", "--project-dir", str(DBT_PROJECT_DIR), "--profiles-dir", str(DBT_PROJECT_DIR),
         "--target-path", str(tmp / "target"), "--log-path", str(tmp / "logs"), "--exclude", "test_type:unit"],
        env={"PATH": "/usr/bin:/bin", "RLTRACK_WAREHOUSE": str(warehouse), "HOME": str(tmp)},
        capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout[-5000:]
    # dbt unit tests (model logic on given rows) are not part of a refresh; they run here
    unit = subprocess.run(
        [dbt_executable(), "test", "--select", "test_type:unit", "--project-dir", str(DBT_PROJECT_DIR),
         "--profiles-dir", str(DBT_PROJECT_DIR), "--target-path", str(tmp / "target"), "--log-path", str(tmp / "logs")],
        env={"PATH": "/usr/bin:/bin", "RLTRACK_WAREHOUSE": str(warehouse), "HOME": str(tmp)},
        capture_output=True, text=True, timeout=600,
    )
    assert unit.returncode == 0 and "PASS=" in unit.stdout, unit.stdout[-5000:]
    con = duckdb.connect(str(warehouse), read_only=True)
    yield con
    con.close()


def test_adoptions_exact(marts):
    rows = marts.execute(
        "select arxiv_id, framework_id, first_commit_sha, cast(adopted_on as varchar), days_from_paper, "
        "first_evidence, is_before_first_version from marts.fct_method_adoptions order by 1, 2").fetchall()
    assert rows == [
        ("2501.00001", "trl", "t1", "2025-01-15", -5, "arxiv_id", True),  # cited before its first version
        ("2501.00003", "trl", "t3", "2025-03-01", 50, "alias", False),  # two frameworks, same day
        ("2501.00003", "verl", "v1", "2025-03-01", 50, "alias", False),
        ("2501.00004", "verl", "v2", "2025-08-01", 211, "docs", False),  # after the 180-day horizon
        ("2502.00005", "verl", "v3", "2025-02-20", 19, "alias", False),  # maintainer paper
    ]  # SAPO (common word) and QUIETPO (off the default branch) are absent


def test_cohorts_exact(marts):
    rows = marts.execute(
        "select cohort_label, papers, included_within_horizon, ever_included, horizon_fully_observed "
        "from marts.fct_cohort_adoption").fetchall()
    # observation ends 2025-09-30: Q1 2025 needs until 2025-09-28, so it is fully observed
    assert rows == [("2025-Q1", 6, 3, 4, True)]


def test_factors_with_and_without_maintainer_papers(marts):
    rows = {
        (pop, factor): (inc, inc_f, other, other_f)
        for pop, factor, inc, inc_f, other, other_f in marts.execute(
            "select population, factor, included_papers, included_with_factor, other_papers, other_with_factor "
            "from marts.fct_adoption_factors").fetchall()
    }
    assert rows[("all_papers", "large_policy")] == (4, 2, 2, 0)
    # TWINPO (large, included) is a maintainer paper by its arXiv HTML author block only
    assert rows[("without_maintainer_papers", "large_policy")] == (2, 0, 2, 0)
    assert rows[("all_papers", "loss_change")] == (4, 2, 2, 0)
    # TWINPO releases code by a footnote link only; QUIETPO by its abstract
    assert rows[("all_papers", "code_release")] == (4, 1, 2, 1)


def test_front_matter_ors_into_code_release_and_maintainers(marts):
    rows = marts.execute(
        "select arxiv_id, releases_code, code_evidence, is_maintainer_paper, maintainer_framework_ids, "
        "has_front_matter from marts.dim_papers where arxiv_id in ('2501.00001', '2501.00003', '2502.00005', "
        "'2502.00006') order by arxiv_id").fetchall()
    assert rows == [
        ("2501.00001", False, None, False, None, False),  # not asked
        ("2501.00003", True, "front_matter", True, "trl", True),
        ("2502.00005", False, None, True, "verl", True),  # the same lab from both: once
        ("2502.00006", True, "abstract", False, None, False),  # no HTML
    ]
    assert marts.execute("select code_signal from intermediate.int_papers__features where arxiv_id = '2501.00003'"
                         ).fetchone() == ("footnote link: https://github.com/lab/twinpo",)


def test_proposals_are_the_proposal_role_and_reviews_count_as_replies(marts):
    rows = marts.execute(
        "select thread_id, arxiv_id, outcome, adopted_by_framework, replies, review_replies, "
        "first_maintainer_reply_kind, days_to_first_maintainer_reply from marts.fct_method_proposals "
        "order by thread_id").fetchall()
    assert rows == [("verl#10", "2502.00006", "closed", False, 2, 2, "review", 1.0),
                    ("verl#7", "2502.00006", "open_without_reply", False, 0, 0, None, None)]
    # the study's figure: an open proposal nobody from the project answered, replied to or not
    assert marts.execute("select thread_id, study_outcome from marts.fct_method_proposals order by thread_id"
                         ).fetchall() == [("verl#10", "closed"), ("verl#7", "open_without_maintainer_reply")]
    # the failure report names the method too: counted by the naming figure, not as a proposal
    naming = marts.execute("select thread_id, thread_role from marts.fct_thread_method_mentions "
                           "order by thread_id").fetchall()
    assert naming == [("verl#10", "proposal"), ("verl#7", "proposal"), ("verl#9", "failure_report")]
    # the paper a thread is about: named in its title, or whatever it names when its title names none
    assert marts.execute("select thread_id, named_in_title, is_main_method from marts.fct_thread_method_mentions "
                         "order by thread_id").fetchall() == [
        ("verl#10", True, True), ("verl#7", True, True), ("verl#9", True, True)]
    assert marts.execute("select thread_id from marts.fct_failure_links").fetchall() == [("verl#9",)]
    # a thread with a part not read is kept, judged from what was read, and marked
    assert marts.execute("select thread_id, thread_is_complete from marts.fct_method_proposals order by thread_id"
                         ).fetchall() == [("verl#10", False), ("verl#7", True)]
    assert marts.execute("select thread_id, incomplete_parts from intermediate.int_threads__unified "
                         "where not is_complete").fetchall() == [("verl#10", "reviews")]


def _dbt(tmp, warehouse, *args):
    result = subprocess.run(
        [dbt_executable(), *args, "--project-dir", str(DBT_PROJECT_DIR), "--profiles-dir", str(DBT_PROJECT_DIR),
         "--target-path", str(tmp / "target"), "--log-path", str(tmp / "logs")],
        env={"PATH": "/usr/bin:/bin", "RLTRACK_WAREHOUSE": str(warehouse), "HOME": str(tmp)},
        capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout[-5000:]


def test_incremental_thread_models_equal_a_full_rebuild(tmp_path):
    """A refresh rebuilds and re-tokenises only threads of newer loads; the result equals a full
    rebuild, with an edited thread (its old n-grams gone), a new thread and a new reply to an old one."""
    warehouse = tmp_path / "warehouse.duckdb"
    build_raw(warehouse)
    con = duckdb.connect(str(warehouse))  # an older thread, untouched by the next load but for a reply
    con.execute("insert into raw_github.issues select * replace (5 as number, 5 as id, 'Old question' as title, "
                "'' as body) from raw_github.issues where number = 7")
    con.close()
    _dbt(tmp_path, warehouse, "build", "--exclude", "test_type:unit")
    con = duckdb.connect(str(warehouse))
    newer = str(float(LOAD) + 100)
    # the issue is edited (its text changes), a new issue names QUIETPO, an older thread gets a reply
    con.execute("update raw_github.issues set body = 'nothing here', _dlt_load_id = ? where number = 7", [newer])
    con.execute("insert into raw_github.issues select * replace (8 as number, 8 as id, 'Try QUIETPO' as title, "
                "'' as body, ? as _dlt_load_id) from raw_github.issues where number = 7", [newer])
    con.execute("insert into raw_github.comments values ('verl', 'verl', 501, 5, 'maintainer', 'MEMBER', 'Answered', "
                "'2025-03-02 00:00:00+00', '2025-03-02 00:00:00+00', false, ?, 'c1')", [newer])
    # and a late approving review on the pull request (a review touches its thread like a comment)
    con.execute("insert into raw_github.reviews values ('verl', 'verl', 3, 10, 'APPROVED', 'lead', 'OWNER', null, "
                "'2025-03-04 12:00:00+00', false, ?, 'r3')", [newer])
    con.close()
    _dbt(tmp_path, warehouse, "build", "--exclude", "test_type:unit")  # what a refresh runs

    def snapshot():
        con = duckdb.connect(str(warehouse), read_only=True)
        try:
            return (con.execute("select thread_id, ngram from intermediate.int_threads__ngrams order by all").fetchall(),
                    con.execute("select * from intermediate.int_threads__paper_mentions order by all").fetchall(),
                    con.execute("select * exclude (dlt_load_id, comments_load_id) from intermediate.int_threads__unified "
                                "order by all").fetchall())
        finally:
            con.close()

    incremental = snapshot()
    assert ("verl#7", "nothing_here") in incremental[0] and ("verl#7", "arxiv") not in incremental[0]
    assert ("verl#8", "quietpo") in incremental[0]
    con = duckdb.connect(str(warehouse), read_only=True)
    assert con.execute("select replies, maintainer_replies from intermediate.int_threads__unified "
                       "where thread_id = 'verl#5'").fetchone() == (1, 1)
    assert con.execute("select replies, review_replies from intermediate.int_threads__unified "
                       "where thread_id = 'verl#10'").fetchone() == (3, 3)
    con.close()
    _dbt(tmp_path, warehouse, "build", "--exclude", "test_type:unit", "--full-refresh",
         "-s", "int_threads__unified+")
    assert snapshot() == incremental


def test_a_failure_told_in_the_first_replies_makes_the_issue_a_failure_report(tmp_path):
    """An issue whose opening post tells no failure is a failure report when one of its first five
    replies, not a maintainer's, tells one first-hand (the comment's failure_signal, written at load
    by thread_roles.reply_failure); a proposal stays a proposal, a sixth reply and a maintainer's
    reply count for nothing, and a reply arriving in a later load turns the thread (incremental)."""
    warehouse = tmp_path / "warehouse.duckdb"
    build_raw(warehouse)
    con = duckdb.connect(str(warehouse))
    con.execute("alter table raw_github.comments add column failure_signal varchar")
    for number, role in ((11, "question"), (12, "question"), (13, "bug_report"), (14, "proposal"), (15, "other")):
        con.execute("insert into raw_github.issues select * replace (? as number, ? as id, ? as role, "
                    "'title asks' as role_signal) from raw_github.issues where number = 7", [number, number, role])

    def reply(comment_id, number, author, association, signal, day, load=LOAD):
        con.execute(
            "insert into raw_github.comments (framework_id, repo, id, issue_number, author, author_association, body, "
            "created_at, updated_at, is_bot, _dlt_load_id, _dlt_id, failure_signal) values "
            "('verl', 'verl', ?, ?, ?, ?, 'a reply', ?, ?, false, ?, ?, ?)",
            [comment_id, number, author, association, f"2025-03-{day:02d} 00:00:00+00",
             f"2025-03-{day:02d} 00:00:00+00", load, f"c{comment_id}", signal])

    reply(1101, 11, "u", "NONE", None, 2)           # the asker's first follow-up tells nothing
    reply(1102, 11, "u", "NONE", "collapsed", 3)    # ... the second tells the collapse
    reply(1201, 12, "lead", "MEMBER", "NaN", 2)     # a maintainer's hypothetical counts for nothing
    for day in range(2, 7):                          # five replies without one, then a sixth
        reply(1300 + day, 13, "v", "NONE", None, day)
    reply(1307, 13, "v", "NONE", "diverges", 7)
    reply(1401, 14, "w", "CONTRIBUTOR", "explodes", 2)  # a proposal keeps its role
    con.close()
    _dbt(tmp_path, warehouse, "build", "--resource-type", "model", "--resource-type", "seed", "-s", "+int_threads__unified")

    def roles() -> dict[str, tuple[str, str]]:
        con = duckdb.connect(str(warehouse), read_only=True)
        try:
            return {t: (r, s) for t, r, s in con.execute(
                "select thread_id, thread_role, role_signal from intermediate.int_threads__unified "
                "where thread_id in ('verl#11', 'verl#12', 'verl#13', 'verl#14', 'verl#15')").fetchall()}
        finally:
            con.close()

    assert roles() == {
        "verl#11": ("failure_report", "a reply reports a failure: 'collapsed'"),
        "verl#12": ("question", "title asks"),
        "verl#13": ("bug_report", "title asks"),
        "verl#14": ("proposal", "title asks"),
        "verl#15": ("other", "title asks"),
    }
    con = duckdb.connect(str(warehouse))
    reply(1501, 15, "x", "NONE", "reward drops", 2, load=str(float(LOAD) + 100))
    con.close()
    _dbt(tmp_path, warehouse, "build", "--resource-type", "model", "--resource-type", "seed", "-s", "+int_threads__unified")
    assert roles()["verl#15"] == ("failure_report", "a reply reports a failure: 'reward drops'")
