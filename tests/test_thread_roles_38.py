"""Thread roles 3.8 on texts written for these tests (no thread text): a training failure told in an
issue's first replies, first-hand and not by a maintainer, makes the issue a failure report."""

from ingestion.github.source import comment_row
from ingestion.github.thread_roles import CLASSIFIER_VERSION, REPLY_WINDOW, reply_failure, with_replies
from ingestion.github.train_roles import replies_from_cache, role_from_cache


def test_a_reply_tells_a_failure_only_first_hand() -> None:
    assert reply_failure("I tried your settings and my reward collapsed to zero after 200 steps.")
    assert reply_failure("Same here: after switching the estimator the reward collapses.")
    assert reply_failure("我也遇到了同样的问题，训练到一半 reward 突然下降")
    assert reply_failure("If the loss becomes NaN, lower the learning rate.") is None  # advice
    assert reply_failure("The paper says the reward collapses without the KL term.") is None  # told of others
    assert reply_failure("Did you also see the loss go NaN?") is None  # asks the asker
    assert reply_failure("Thanks, it works now.") is None
    assert reply_failure("") is None and reply_failure(None) is None


def test_the_first_replies_turn_an_issue_without_a_failure_into_a_failure_report() -> None:
    told = (None, "I ran it again and my loss became NaN at step 40.")
    role, reason = with_replies("question", "title asks: 'how'", "issue", [(None, "any update?"), told])
    assert role == "failure_report" and reason.startswith("a reply reports a failure")
    # a maintainer's reply, a pull request, a proposal and a reply after the window change nothing
    assert with_replies("question", "q", "issue", [("MEMBER", told[1])]) == ("question", "q")
    assert with_replies("other", "pr", "pull_request", [told]) == ("other", "pr")
    assert with_replies("proposal", "asks", "issue", [told]) == ("proposal", "asks")
    late = [(None, "bump")] * REPLY_WINDOW + [told]
    assert with_replies("bug_report", "b", "issue", late) == ("bug_report", "b")


def test_replies_of_a_cached_search_excerpt_and_of_the_api_shape() -> None:
    excerpt = {"title": "How to set the batch size?", "pull_request": None,
               "body": "\nasker · description · 2025-05-01\nWhich batch size do you use?\n\n"
                       "lead · comment · 2025-05-02\nWe use 512.\n\n"
                       "asker · comment · 2025-05-03\nThanks. With 512 my reward dropped to zero after 100 steps.\n"}
    assert replies_from_cache(excerpt, ["lead"]) == [
        ("MEMBER", "We use 512."), (None, "Thanks. With 512 my reward dropped to zero after 100 steps.")]
    assert role_from_cache(excerpt)[0] == "failure_report"
    api = {"title": "Question about the config", "body": "Which clip ratio?", "pull_request": None,
           "comments": [{"kind": "comment", "author_association": "NONE", "created_at": "2025-05-02",
                         "body": "I use 0.2 and my training diverges after 50 steps."}]}
    assert role_from_cache(api)[0] == "failure_report"


def test_comment_rows_carry_the_failure_they_tell() -> None:
    base = {"id": 1, "issue_url": "https://api.github.com/repos/o/r/issues/3", "author_association": "NONE",
            "created_at": "2025-05-01T00:00:00Z", "updated_at": "2025-05-01T00:00:00Z"}
    row = comment_row("fw", "o/r", {**base, "user": {"login": "u", "type": "User"},
                                    "body": "Same here, my entropy collapsed after 300 steps."})
    assert row["failure_signal"] and row["role_version"] == CLASSIFIER_VERSION
    bot = comment_row("fw", "o/r", {**base, "user": {"login": "ci[bot]", "type": "Bot"},
                                    "body": "I ran the job: the loss is NaN."})
    assert bot["failure_signal"] is None
