"""Thread roles (ingestion/github/thread_roles.py) measured on real, hand-labelled threads.

Inputs (never committed): a truth CSV of threads with hand roles (proposal | failure | other) and
the first maintainer reply, and a local cache of those threads' text in the GitHub REST issue shape
(title, body, labels, user.login, pull_request (null for issues), state, created_at, plus a
"comments" list whose items carry "kind": comment | review | review_comment, user.login, created_at
and body; "complete": false when the thread was read in part, "opening_post_missing": true when
only replies were read), one file per thread at <cache>/<owner>+<repo>/<number>.json. Threads
missing from the cache are counted, not guessed.

Prints proposal-vs-not precision and recall, the confusion of hand roles against predicted roles,
a per-framework table (threads read / labelled; proposal and failure precision, recall,
found/labelled), the same split by how much of each thread was read, the first maintainer reply
within a day of the label and the proposals' study outcome per framework (`--mirrors`: bare mirrors
<dir>/<owner>+<repo>/repo, so a squash-merged pull request counts as merged), and how many labelled
method names and arXiv ids `method_names` finds. The cache has no author_association, so a
maintainer is a login the truth saw answering for the project (maintainer_logins_seen); the
warehouse itself uses author_association.
`--lofo`: the per-framework tables of the rules (version 3, written after reading these threads: not
held out) and of the learned combination (ingestion/github/train_roles.py), with and without the
rules' role among its inputs, each framework predicted by a model fitted on the other eight (its
regularisation chosen by a leave-one-framework-out inside those eight).
`--check-set LABELS --check-cache DIR`: only the P/R on a check set of threads outside the registry
(and, where the labels carry named_methods / named_arxiv_ids, the method naming: outside_heldout4_labels.csv)
(ingestion/github/model/outside_check_labels.csv: our own labels, ids only; batch "seen" was read
while the version-3 cues were written, batches "fresh" and "fresh2" after they were frozen, "fresh3"
labelled before the version-3.1 gate was written and measured once after it; outside_heldout4_labels.csv
(fresh4) and outside_heldout5_labels.csv (fresh5) carry named methods too, each labelled before any run:
fresh4 held out from version 3.2, fresh5 from 3.2 and 3.3, outside_heldout6_labels.csv (fresh6) from 3.3 and 3.4, see ingestion/github/README.md); `--rules-file` adds
another version of the rules (e.g. `git show 2b0198b:ingestion/github/thread_roles.py`, version 2).

Run: python scripts/thread_metrics.py --cache <cache> --mirrors <mirrors> [--lofo] [--errors]

Measured (115 of the 151 threads cached, read in part from search excerpts: 87 of 90 proposals,
12 of 33 failure reports, 16 of 28 others). Leave-one-framework-out, learned combination with the
rules' role (the shipped decider): proposal P/R 0.96/0.98 (85 of 87, fp 4), failure 1.00/1.00
(12 of 12); every held-out framework at proposal >= 0.90/0.88 and failure 1.00/1.00 (failure folds
hold one to five threads). The rules inside it were written after reading all nine frameworks, so
only the check set below holds them out. Without the rules' role: 0.92/0.80 and 0.69/0.75. Check set
outside the registry: 28 fresh threads, proposal 0.79/1.00 (fp: feature threads naming no training
method), failure 1.00/1.00 (8; version 2: 0.62); 26 fresh2 threads (found by failure-symptom
searches), failure 0.94/1.00 (15; 14 before the "wrong after training" cue, written after reading
them; fp: a "loss always zero" question), proposal 1 of 1 with 2 fp; 94 seen threads, proposal
0.97/0.97, failure 1.00/1.00 (version 2: 0.88/0.95 and 1.00/0.76). Version 3.1 (a proposal must
name a training method, `thread_cues.training_method_named`): leave-one-framework-out unchanged;
fresh proposal 0.92/1.00 (was 0.79: the RFC and trajectory-format threads without a method are now
other; an RFC naming GRPO and a loss in its body stays a proposal); fresh2 and seen unchanged; 44
fresh3 threads (labelled first, measured once after the change): proposal 0.36/0.92 (fp 21) ->
0.60/0.92 (fp 8: four feature asks for VLA/VLM models or benchmarks whose names read as acronyms, four
threads naming a method only as context: sampling arguments of GRPO rollouts, an estimator
registration API, a per-role estimator hook, an introduction to PPO and GRPO), failure 0.33/0.50 (2
labelled). First maintainer reply within a
day: 35 of the 38 cached threads with a labelled reply (the 3 misses: the maintainer's reply was not
among the excerpts read; 7 more not cached). Proposal study outcome: 83 of 90 (the rule before
squash merges and adoption dates: 78 of 90; first named method only: 82).
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingestion.github import train_roles as thread_model  # noqa: E402
from ingestion.github.thread_cues import ThreadText  # noqa: E402
from ingestion.github.thread_methods import ARXIV_ID  # noqa: E402
from ingestion.github.thread_roles import ROLES, method_names, thread_role  # noqa: E402
from ingestion.text import method_token  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[1]
HAND_ROLES = ("proposal", "failure", "other")


def cached_thread(cache: Path, repo: str, number: str) -> dict | None:
    path = cache / repo.replace("/", "+") / f"{number}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


thread_text = thread_model.thread_text_from_cache


def shipped_role(item: dict, row: dict | None = None) -> tuple[str, str]:
    """The role the warehouse gives a cached thread: its opening post's, then its first replies'
    (`with_replies`; a login the truth saw answering for the project reads as a maintainer)."""
    maintainers = [m.strip() for m in ((row or {}).get("maintainer_logins_seen") or "").split(";") if m.strip()]
    return thread_model.role_from_cache(item, maintainers, thread_role)  # thread_role: --rules-file may swap it


def first_reply_day(item: dict, maintainers: set[str], kinds: set[str]) -> date | None:
    author = ((item.get("user") or {}).get("login") or "").lower()
    days = [c["created_at"][:10] for c in item.get("comments") or []
            if c.get("kind", "comment") in kinds and c.get("created_at")
            and ((c.get("user") or {}).get("login") or "").lower() in maintainers - {author}]
    return date.fromisoformat(min(days)) if days else None


def _maintainers(row: dict) -> set[str]:
    return {m.strip().lower() for m in (row.get("maintainer_logins_seen") or "").split(";") if m.strip()}


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9+]", "", name.lower())


def adopted_methods(truth_dir: Path) -> dict[str, dict[str, str]]:
    """repo -> {arXiv id or normalised method name: adoption date} of what the framework adopted
    (adoptions_dev.csv, with the papers' defined method names; the earliest signal's date): the
    adoption the warehouse gets from fct_method_adoptions."""
    papers = _read_csv(truth_dir / "paper_labels_dev.csv")
    defined = {p["arxiv_id"]: [n for n in (p.get("defined_methods") or "").split(";") if n] for p in papers}
    out: dict[str, dict[str, str]] = {}
    for a in _read_csv(truth_dir / "adoptions_dev.csv"):
        day = a.get("earliest_signal_date") or a.get("first_id_commit_date") or "9999-12-31"
        for key in {a["arxiv_id"], *(_norm(n) for n in [a["method_name"], *defined.get(a["arxiv_id"], [])])}:
            keys = out.setdefault(a["repo"], {})
            keys[key] = min(keys.get(key, day), day)
    return out


def squash_merged(mirrors: Path | None, repo: str) -> set[int]:
    """Pull-request numbers a default-branch commit of the repository's bare mirror
    (<mirrors>/<owner>+<repo>/repo) names as "(#number)" at the end of its subject."""
    git_dir = mirrors / repo.replace("/", "+") / "repo" if mirrors else None
    if git_dir is None or not git_dir.exists():
        return set()
    log = subprocess.run(["git", "--git-dir", str(git_dir), "log", "HEAD", "--format=%s"],
                         capture_output=True, text=True, check=False).stdout
    return {int(n) for n in re.findall(r"\(#(\d+)\)\s*$", log, re.MULTILINE)}


def study_outcome(row: dict, adopted_on: str | None, maintainer_replied: bool, landed: bool) -> str:
    """fct_method_proposals.study_outcome, from the thread's state, a squash merge and the
    framework's adoption (dated)."""
    pull = row["is_pull_request"] == "True"
    if row["merged"] == "True" or (pull and landed and row["state"] == "open"):
        return "merged"
    opened = date.fromisoformat(row["created_at"]) if row.get("created_at") else None
    after_ask = adopted_on is not None and (opened is None or date.fromisoformat(adopted_on) >= opened - timedelta(days=7))
    if after_ask and not pull and row["state"] == "closed":
        return "implemented_elsewhere"
    if row["state"] == "closed":
        return "closed"
    return "open_with_maintainer_reply" if maintainer_replied else "open_without_maintainer_reply"


_STUDY_OUTCOME = {"closed_not_done": "closed", "open_without_reply": "open_without_maintainer_reply"}


def replies_and_outcomes(truth_rows: list[dict], cache: Path, truth_dir: Path, mirrors: Path | None = None
                         ) -> list[str]:
    """Per framework: the first maintainer reply (comments and reviews) within a day of the label,
    and the proposals' study outcome against the label. A thread missing from the cache counts as
    wrong where the figure needs its replies (never guessed). fct_method_proposals has a row per
    named method; the thread's outcome rolls them up: a closed issue is implemented elsewhere when
    any method it names landed after the ask (adoption from the adoption truth)."""
    adoptions = adopted_methods(truth_dir)
    landed: dict[str, set[int]] = {}
    reply: dict[str, list[int]] = {}  # repo -> [right, labelled, missing]
    outcome: dict[str, list[int]] = {}
    wrong: list[str] = []
    for row in truth_rows:
        item = cached_thread(cache, row["repo"], row["number"])
        labelled = row.get("first_maintainer_reply_at") or ""
        ours = first_reply_day(item, _maintainers(row), {"comment", "review", "review_comment"}) if item else None
        r = reply.setdefault(row["repo"], [0, 0, 0])
        if labelled:
            r[1] += 1
            r[2] += item is None
            r[0] += ours is not None and abs((ours - date.fromisoformat(labelled[:10])).days) <= 1
        if row["thread_type"] != "proposal":
            continue
        first = ([i for i in row["named_arxiv_ids"].split(";") if i]
                 + [_norm(n) for n in row["named_methods"].split(";") if n])
        days = [adoptions.get(row["repo"], {})[k] for k in first if k in adoptions.get(row["repo"], {})]
        opened = row.get("created_at") or "1970-01-01"
        late = [d for d in days if date.fromisoformat(d) >= date.fromisoformat(opened[:10]) - timedelta(days=7)]
        adopted_on = min(late) if late else (min(days) if days else None)
        if row["repo"] not in landed:
            landed[row["repo"]] = squash_merged(mirrors, row["repo"])
        is_landed = int(row["number"]) in landed[row["repo"]]
        needs_replies = row["state"] == "open" and row["merged"] != "True" and not is_landed
        o = outcome.setdefault(row["repo"], [0, 0, 0])
        o[1] += 1
        if needs_replies and item is None:
            o[2] += 1
            continue
        got = study_outcome(row, adopted_on, ours is not None, is_landed)
        want = _STUDY_OUTCOME.get(row["proposal_outcome"], row["proposal_outcome"])
        o[0] += got == want
        if got != want:
            wrong.append(f"{row['repo']}#{row['number']} label={want} ours={got}")
    lines = [f"{'framework':<28}{'first maintainer reply':>24}{'proposal outcome':>22}"]
    for repo in sorted(reply, key=str.lower) + ["all"]:
        r = [sum(v[i] for v in reply.values()) for i in range(3)] if repo == "all" else reply[repo]
        o = [sum(v[i] for v in outcome.values()) for i in range(3)] if repo == "all" else outcome.get(repo, [0, 0, 0])
        lines.append(f"{repo:<28}{_share(r):>24}{_share(o):>22}")
    return lines + ["(right/labelled, share; 'n miss': not in the cache, counted wrong)", *wrong]


def method_naming(truth_rows: list[dict], cache: Path) -> list[str]:
    """How many of the labelled method names and arXiv ids of each cached thread `method_names`
    finds in its title and opening post, and how many names it finds that no label gives (ordinary
    words would show up here). The warehouse ties names to papers with the alias table."""
    found_ids = found_names = ids = names = extra = threads = 0
    for row in truth_rows:
        item = cached_thread(cache, row["repo"], row["number"])
        if item is None:
            continue
        threads += 1
        text = f"{item.get('title') or ''}\n{item.get('body') or ''}"
        found = method_names(text)
        ours = {_norm(n) for n in found} | set(found)
        want_ids = {i for i in row["named_arxiv_ids"].split(";") if i}
        want_names = {_norm(n) for n in row["named_methods"].split(";") if n}
        ids, found_ids = ids + len(want_ids), found_ids + len(want_ids & ours)
        names, found_names = names + len(want_names), found_names + len(want_names & ours)
        extra += len({_norm(n) for n in found} - want_names - {_norm(i) for i in want_ids})
    return [f"{threads} cached threads: labelled arXiv ids found {found_ids}/{ids}, labelled method names found "
            f"{found_names}/{names}; {extra} names found that no label gives (other methods, models, ids)"]


def has_method_labels(rows: list[dict]) -> bool:
    return bool(rows) and "named_methods" in rows[0] and "named_arxiv_ids" in rows[0]


def _share(counts: list[int]) -> str:
    right, total, missing = counts
    text = f"{right}/{total}" + (f" = {right / total:.2f}" if total else "")
    return text + (f" ({missing} miss)" if missing else "")


def _read_csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _pr(tp: int, fp: int, fn: int) -> tuple[float, float]:
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0)


def evaluate(truth_rows: list[dict], cache: Path) -> dict:
    confusion: Counter[tuple[str, str]] = Counter()
    errors: list[str] = []
    missing: list[str] = []
    reply = {"comments": [0, 0], "comments+reviews": [0, 0]}  # [agree, labelled with a reply]
    for row in truth_rows:
        item = cached_thread(cache, row["repo"], row["number"])
        key = f"{row['repo']}#{row['number']}"
        if item is None:
            missing.append(key)
            continue
        role, signal = shipped_role(item, row)
        confusion[(row["thread_type"], role)] += 1
        if (row["thread_type"] == "proposal") != (role == "proposal"):
            errors.append(f"{key} hand={row['thread_type']} predicted={role} ({signal}) | {item.get('title')}")
        truth_reply = row.get("first_maintainer_reply_at") or ""
        if truth_reply:
            maintainers = {m.strip().lower() for m in (row.get("maintainer_logins_seen") or "").split(";") if m.strip()}
            for name, kinds in (("comments", {"comment"}), ("comments+reviews", {"comment", "review", "review_comment"})):
                ours = first_reply_day(item, maintainers, kinds)
                reply[name][1] += 1
                reply[name][0] += ours is not None and abs((ours - date.fromisoformat(truth_reply[:10])).days) <= 1
    tp = sum(n for (hand, role), n in confusion.items() if hand == "proposal" and role == "proposal")
    fp = sum(n for (hand, role), n in confusion.items() if hand != "proposal" and role == "proposal")
    fn = sum(n for (hand, role), n in confusion.items() if hand == "proposal" and role != "proposal")
    return {"confusion": confusion, "pr": _pr(tp, fp, fn), "counts": (tp, fp, fn), "errors": errors,
            "missing": missing, "reply": reply, "measured": sum(confusion.values())}


def _prf(hand: str, role: str, pairs: list[tuple[str, str]]) -> str:
    tp = sum(h == hand and r == role for h, r in pairs)
    fp = sum(h != hand and r == role for h, r in pairs)
    fn = sum(h == hand and r != role for h, r in pairs)
    if tp + fn == 0:
        return f"{'-':>5} {'-':>5} {'(none labelled)':>15}" if not fp else f"{'0.00':>5} {'-':>5} {f'fp {fp}':>15}"
    p, r = _pr(tp, fp, fn)
    precision = f"{p:>5.2f}" if tp + fp else f"{'-':>5}"
    return f"{precision} {r:>5.2f} {f'{tp}/{tp + fn} fp {fp}':>15}"


def per_framework(truth_rows: list[dict], cache: Path, predict: Callable[[str, dict], str]) -> list[str]:
    """One line per framework (repo): threads read / labelled, proposal and failure precision, recall
    and counts; `predict(repo, item)` gives the role (a held-out fold's model for leave-one-out)."""
    by_repo: dict[str, list[tuple[str, str]]] = {}
    labelled: Counter[str] = Counter()
    for row in truth_rows:
        labelled[row["repo"]] += 1
        item = cached_thread(cache, row["repo"], row["number"])
        if item is not None:
            by_repo.setdefault(row["repo"], []).append((row["thread_type"], predict(row["repo"], item)))
    lines = [f"{'framework':<28}{'read':>9}  {'proposal P     R  found/labelled':<33}{'failure P     R  found/labelled'}"]
    every: list[tuple[str, str]] = []
    for repo in sorted(labelled, key=str.lower):
        pairs = by_repo.get(repo, [])
        every += pairs
        lines.append(f"{repo:<28}{f'{len(pairs)}/{labelled[repo]}':>9}  {_prf('proposal', 'proposal', pairs)}   "
                     f"{_prf('failure', 'failure_report', pairs)}")
    lines.append(f"{'all':<28}{f'{len(every)}/{sum(labelled.values())}':>9}  {_prf('proposal', 'proposal', every)}   "
                 f"{_prf('failure', 'failure_report', every)}")
    return lines


def by_completeness(truth_rows: list[dict], cache: Path) -> list[str]:
    """The rules on threads read in full against threads read in part (an excerpt cut, the opening
    post missing): a partial thread still gets a role, from what was read."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for row in truth_rows:
        item = cached_thread(cache, row["repo"], row["number"])
        if item is None:
            continue
        group = ("opening post missing" if item.get("opening_post_missing") else
                 "read in part" if item.get("truncated_excerpt") or item.get("complete") is False else "read in full")
        groups.setdefault(group, []).append((row["thread_type"], shipped_role(item, row)[0]))
    return [f"{group:<22}{len(pairs):>4} threads  proposal {_prf('proposal', 'proposal', pairs)}   "
            f"failure {_prf('failure', 'failure_report', pairs)}" for group, pairs in sorted(groups.items())]


def lofo_tables(truth_rows: list[dict], cache: Path, truth: Path) -> list[str]:
    """Leave-one-framework-out: for each framework, the learned combination fitted on the other eight
    only (its regularisation chosen by a leave-one-framework-out inside those eight), with and without
    the rules' role among its inputs; and the rules (not held out: written after reading all nine)."""
    with_rules = thread_model.cases_from_cache(truth, cache)
    alone = [thread_model.Case(c.key, c.framework, c.hand, {k: v for k, v in c.features.items()
                                                            if not k.startswith("rule_")}, c.rule) for c in with_rules]
    variants = [("rules (version 3; written after reading these threads, so not held out)",
                 with_rules, thread_model.rules_fitter),
                ("learned combination of the cue families and the rules' role, leave-one-framework-out",
                 with_rules, thread_model.learned_fitter()),
                ("learned combination of the cue families alone, leave-one-framework-out",
                 alone, thread_model.learned_fitter())]
    lines = []
    for title, cases, fitter in variants:
        held = thread_model.leave_one_framework_out(cases, fitter)
        by_key = {c.key: ("failure_report" if held[c.key] == "failure" else held[c.key]) for c in cases}
        lines += ["", f"per framework, {title}:",
                  *per_framework(truth_rows, cache, lambda repo, item, by_key=by_key: by_key[f"{repo}#{item['number']}"])]
    return lines


WINDOW = ("2501", "2606")  # the warehouse's papers: arXiv ids of January 2025 to June 2026
_TITLE_NAME = re.compile(r"^([A-Z][\w+.-]{1,24})\s*:")


def window_names(index: Path | None) -> frozenset[str]:
    """Method tokens the warehouse holds a paper for: in-window catalogue aliases and the names that
    open an in-window paper's title ("GSPO: ...") in a local arXiv listing index (jsonl)."""
    names = {method_token(r["alias"]) for r in _read_csv(REPO_ROOT / "dbt_project/seeds/method_catalogue.csv")
             if WINDOW[0] <= r["arxiv_id"][:4] <= WINDOW[1]}
    if index and index.exists():
        with index.open(encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                if WINDOW[0] <= str(row.get("arxiv_id", ""))[:4] <= WINDOW[1] and (
                        m := _TITLE_NAME.match(row.get("title") or "")):
                    names.add(method_token(m.group(1)))
    return frozenset(names)


def in_scope(names: list[str], ids: list[str], held: frozenset[str]) -> bool:
    """Whether a thread names a method of a paper the warehouse holds (the marts link only those)."""
    return any(WINDOW[0] <= i[:4] <= WINDOW[1] for i in ids if i) or any(method_token(n) in held for n in names if n)


def scope_line(read: list[tuple[dict, ThreadText]], roles: list[str], held: frozenset[str]) -> str:
    """Proposal P/R as fct_method_proposals sees them: a hand proposal counts when its named methods
    include one the warehouse holds a paper for, a predicted one when its thread names such a method."""
    pairs = []
    for (r, t), role in zip(read, roles):
        hand = r["thread_type"] == "proposal" and in_scope(
            r.get("named_methods", "").split(";"), r.get("named_arxiv_ids", "").split(";"), held)
        own = method_token(r["repo"].split("/")[-1])  # the repository's own name is no method
        found = [n for n in method_names(f"{t.title}\n{t.body}") if method_token(n) != own]
        predicted = role == "proposal" and in_scope(found, [n for n in found if ARXIV_ID.fullmatch(n)], held)
        pairs.append(("proposal" if hand else "other", "proposal" if predicted else "other"))
    return f"{'all':<8}{len(pairs):>8}  {'in the warehouse scope':<26}{_prf('proposal', 'proposal', pairs)}"


def check_set(labels: Path, cache: Path, other_rules: Callable | None = None, errors: bool = False,
              index: Path | None = None) -> list[str]:
    """Proposal and failure P/R on a check set of threads outside the registry (our own labels, by the
    study's definitions: a proposal asks for or brings a named RL training method; a failure report says
    training diverges, collapses, stalls, crashes or gives wrong results), per batch of the set. Each
    cached thread is read and given its shipped role once."""
    from ingestion.github.thread_roles import rule_role

    rows = _read_csv(labels)
    items = [(r, thread) for r in rows if (thread := cached_thread(cache, r["repo"], r["number"])) is not None]
    read = [(r, thread_text(thread)) for r, thread in items]
    shipped = [shipped_role(thread, r) for r, thread in items]
    deciders = {"rules (version 3)": lambda i: rule_role(read[i][1])[0], "shipped role step": lambda i: shipped[i][0]}
    if other_rules:
        deciders["rules from --rules-file"] = lambda i: other_rules(read[i][1])
    lines = [f"{'batch':<8}{'threads':>8}  {'decider':<26}{'proposal P     R  found/labelled':<33}"
             f"{'failure P     R  found/labelled'}"]
    for batch in sorted({r.get("batch", "all") for r in rows}) + ["all"]:
        members = [i for i, (r, _) in enumerate(read) if batch == "all" or r.get("batch", "all") == batch]
        for name, decide in deciders.items():
            pairs = [(read[i][0]["thread_type"], decide(i)) for i in members]
            lines.append(f"{batch:<8}{len(members):>8}  {name:<26}{_prf('proposal', 'proposal', pairs)}   "
                         f"{_prf('failure', 'failure_report', pairs)}")
    if index is not None:
        lines.append(scope_line(read, [role for role, _ in shipped], window_names(index)))
    if errors:
        lines.append("errors of the shipped role step (hand label -> role: reason):")
        for (r, _), (role, reason) in zip(read, shipped):
            hand = {"failure": "failure_report"}.get(r["thread_type"], r["thread_type"])
            if (hand == "proposal") != (role == "proposal") or (hand == "failure_report") != (role == "failure_report"):
                lines.append(f"  {r['repo']}#{r['number']}: {r['thread_type']} -> {role}: {reason}")
    if has_method_labels(rows):
        lines += ["method names (ingestion.github.thread_methods.method_names):", *method_naming(rows, cache)]
    return lines


def print_report(result: dict, show_errors: bool) -> None:
    (p, r), (tp, fp, fn) = result["pr"], result["counts"]
    print(f"threads measured: {result['measured']}  (missing from the cache: {len(result['missing'])})")
    print(f"proposal vs not: precision {p:.3f}  recall {r:.3f}  (tp {tp}, fp {fp}, fn {fn})")
    print("\nconfusion (rows: hand role, columns: predicted role)")
    print(f"{'':>10}" + "".join(f"{role:>16}" for role in ROLES))
    for hand in HAND_ROLES:
        print(f"{hand:>10}" + "".join(f"{result['confusion'][(hand, role)]:>16}" for role in ROLES))
    print("\nfirst maintainer reply within a day of the truth (threads whose truth has one):")
    for name, (agree, total) in result["reply"].items():
        print(f"  {name:>17}: {agree}/{total}" + (f" = {agree / total:.2f}" if total else ""))
    if show_errors:
        print("\nproposal-vs-not errors:")
        for line in result["errors"]:
            print("  " + line)
        if result["missing"]:
            print("\nnot in the cache: " + ", ".join(result["missing"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--truth", type=Path, default=Path("/work/shared/truth/thread_labels_dev.csv"))
    parser.add_argument("--cache", type=Path, default=REPO_ROOT / "data" / "real_world" / "threads")
    parser.add_argument("--errors", action="store_true", help="list every proposal-vs-not error")
    parser.add_argument("--scope-index", type=Path, default=None,
                        help="with --check-set: a local arXiv listing index (jsonl); also prints proposal P/R "
                             "in the warehouse's scope (threads naming a method of a paper of 2501-2606, the "
                             "only ones fct_method_proposals links)")
    parser.add_argument("--rules-file", type=Path, help="measure another version of thread_roles.py (e.g. "
                        "`git show REV:ingestion/github/thread_roles.py > /tmp/roles.py`)")
    parser.add_argument("--mirrors", type=Path, help="bare mirrors <dir>/<owner>+<repo>/repo of the frameworks: "
                        "a squash-merged pull request (a '(#n)' commit subject) counts as merged")
    parser.add_argument("--check-set", type=Path, help="labels (repo, number, thread_type, batch) of threads "
                        "outside the registry, cached under --check-cache: prints only their P/R")
    parser.add_argument("--check-cache", type=Path, help="the check set's thread cache")
    parser.add_argument("--lofo", action="store_true",
                        help="also a learned model over the cue families, leave-one-framework-out")
    args = parser.parse_args(argv)
    if not args.truth.exists():
        parser.error(f"truth file not found: {args.truth}")
    if not args.cache.is_dir():
        parser.error(f"thread cache not found: {args.cache}")
    rows = _read_csv(args.truth)
    other_rules = None
    if args.rules_file:
        global thread_role
        spec = importlib.util.spec_from_file_location("rules_under_test", args.rules_file)
        module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        thread_role = module.thread_role
        print(f"rules from {args.rules_file} (version {module.CLASSIFIER_VERSION})")
        other_rules = lambda t: module.thread_role(t)[0]  # noqa: E731
    if args.check_set:
        print("\n".join(check_set(args.check_set, args.check_cache or args.cache, other_rules, args.errors, args.scope_index)))
        return 0
    print_report(evaluate(rows, args.cache), args.errors)
    print("\nper framework, the shipped role step (learned combination fitted on these threads: not held out; "
          "threads read from the cache / labelled):")
    print("\n".join(per_framework(rows, args.cache, lambda repo, item: shipped_role(item)[0])))
    print("\nthe shipped role step by how much of the thread was read (P, R, found/labelled):")
    print("\n".join(by_completeness(rows, args.cache)))
    print("\nreplies (comments + reviews, maintainers = maintainer_logins_seen) and proposal outcomes:")
    print("\n".join(replies_and_outcomes(rows, args.cache, args.truth.parent, args.mirrors)))
    print("\nmethod names in the threads (ingestion.github.thread_methods.method_names):")
    print("\n".join(method_naming(rows, args.cache)))
    if args.lofo:
        print("\n".join(lofo_tables(rows, args.cache, args.truth)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
