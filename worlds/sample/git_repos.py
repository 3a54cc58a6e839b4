"""Real git repositories for the sample frameworks, generated from the sample world.

Each repository gets an initial source tree (package modules, docs, CONTRIBUTING.md, PR and
issue templates, CODEOWNERS; the contribution rules differ per framework), deterministic filler
commits over 2025-01..2026-09 (fixes, refactors, docs, tests, CI, a rename, a binary asset), every
world `Adoption` as a commit on `main` at its `committed_at`, and the world's decoys:

- `collision`: a commit adding `gpg` lines to a CI workflow (a common word, not the GPG paper);
- `deleted`: a pull-request branch adds a `vapo` TODO and a later commit on it deletes it again;
  the branch is then merged, so on `main` (first-parent history) the TODO never existed;
- a never-merged branch (`experiment/gmpo` in trl) with an adoption-like commit.

Commits are written with `git fast-import` (one process per repository) with fixed authors,
committers and dates, so the SHAs are identical on every build. `build_sample_repos` rebuilds a
repository only when it is missing or its inputs (world + this generator) changed.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from worlds.sample.world import SAMPLE_FRAMEWORKS, Adoption, build_world

GENERATOR_VERSION = "3"
_HASH_FILE = "rltrack-sample-inputs"
_START = datetime(2025, 1, 2, 9, 0, tzinfo=timezone.utc)
_END = datetime(2026, 9, 28, 18, 0, tzinfo=timezone.utc)
FILLER_COMMITS = 70


@dataclass(frozen=True)
class Person:
    name: str
    email: str
    tz: str = "+0000"


MAINTAINERS = {
    "trl": (Person("Lea Fontaine", "lea.fontaine@huggingface.co", "+0100"),
            Person("Marco Bianchi", "marco@huggingface.co", "+0200")),
    "verl": (Person("Hao Lin", "hao.lin@bytedance.com", "+0800"),
             Person("Yue Chen", "chenyue.01@bytedance.com", "+0800")),
    "openrlhf": (Person("Wen Zhou", "wen@openrlhf.org", "+0800"),
                 Person("Ivo Petrov", "ivo.petrov@openrlhf.org", "+0300")),
    "slime": (Person("Lei Zhao", "zhaolei@zhipuai.cn", "+0800"),
              Person("Mei Sun", "sunm@tsinghua.edu.cn", "+0800")),
}
CONTRIBUTORS = (
    Person("rl-curious", "rl-curious@users.noreply.github.com"),
    Person("Priya Raman", "priya.raman@gmail.com", "-0700"),
    Person("Tobias Kern", "tkern@uni-heidelberg.de", "+0100"),
    Person("Ana Duarte", "ana.duarte@outlook.com", "-0300"),
    Person("lab-intern", "41234567+lab-intern@users.noreply.github.com"),
)
PACKAGE_FILES = {
    "trl": ("trl/trainer/grpo_trainer.py", "trl/trainer/grpo_config.py", "trl/trainer/utils.py",
            "trl/models/modeling_value_head.py"),
    "verl": ("verl/trainer/ppo/core_algos.py", "verl/trainer/ppo/ray_trainer.py",
             "verl/workers/actor/dp_actor.py", "verl/utils/torch_functional.py"),
    "openrlhf": ("openrlhf/models/loss.py", "openrlhf/trainer/ppo_utils/advantages.py",
                 "openrlhf/trainer/ppo_trainer.py", "openrlhf/utils/distributed_sampler.py"),
    "slime": ("slime/backends/megatron_utils/loss.py", "slime/ray/rollout.py",
              "slime/utils/arguments.py", "slime/utils/data.py"),
}

# Contribution rules differ per framework (phrasings the rule extractor has to recognise).
CONTRIBUTING = {
    "trl": """# Contributing to TRL

Thanks for helping! A few rules keep reviews quick.

## Before you start
Please open an issue first for any new trainer, loss or algorithm, and wait for a maintainer
to agree on the design before you send a pull request. Typos and small fixes can skip this.

## Implementing a method from a paper
Link the paper (an arXiv URL) in the pull request description and in the docstring of the
new code, and add a short section to the docs.

## Tests
Every pull request that changes behaviour must include tests. Run `make test` before pushing.
""",
    "verl": """# Contributing to verl

## Pull request titles
PR titles must follow the format `[{modules}] {type}: {description}`, for example
`[trainer] feat: add a new advantage estimator`. A CI check rejects other titles.

## Tests
New algorithms need a unit test under `tests/` and an example script under `examples/`.
Small fixes can go straight to a pull request.
""",
    "openrlhf": """# Contributing

1. Fork the repository and create a branch.
2. Run `pre-commit run --all-files`.
3. Open a pull request.

All contributors must sign the Contributor License Agreement (CLA) before a pull request
can be merged; the CLA bot will comment on your first pull request.
""",
    "slime": """# How to contribute to slime

For large changes, please open an issue to discuss the design before sending a PR.
Use conventional commit style titles for pull requests (`feat: ...`, `fix: ...`, `docs: ...`).
Make sure the existing tests pass; adding tests for new features is appreciated.
""",
}
PR_TEMPLATE = {
    "trl": """# What does this PR do?

Fixes # (issue)

## Before submitting
- [ ] Did you open an issue first and link it above?
- [ ] Did you add tests?
- [ ] If this implements a paper: did you link the paper?
""",
    "verl": """### What does this PR do?

### Checklist
- [ ] The title follows `[{modules}] {type}: {description}`
- [ ] Tests are added or updated
""",
    "openrlhf": """## Summary

## Test plan
""",
    "slime": """## Motivation

## Modifications

- [ ] Related issue linked
""",
}
ISSUE_TEMPLATE = """---
name: Feature request
about: Suggest an algorithm or a feature for {name}
labels: enhancement
---

**What would you like to add?**

**Paper or reference (if any)**
"""
CODEOWNERS = {
    "trl": "* @trl-maintainers\n/trl/trainer/ @lea-fontaine @marco-bianchi\n",
    "verl": "* @verl-project/maintainers\n/verl/trainer/ppo/ @hao-lin\n/recipe/ @yue-chen\n",
    "openrlhf": "* @openrlhf-core\n",
    "slime": "* @slime-maintainers\n/slime/backends/ @lei-zhao\n",
}
_VERBS = ("pad", "gather", "split", "collate", "shard", "flatten", "normalise", "log", "save",
          "load", "sync", "broadcast", "chunk", "sort", "filter", "cache", "batch", "stack")
_NOUNS = ("rewards", "batches", "prompts", "checkpoints", "metrics", "logprobs", "masks",
          "sequences", "rollouts", "responses", "shards", "samples", "buffers", "scores")
_TOPICS = ("multi-node training", "reward functions", "logging to wandb", "checkpoint resumption",
           "dataset formats", "vLLM colocation", "memory usage", "LoRA adapters")


def _module_text(path: str) -> str:
    name = Path(path).stem
    return (f'"""{name.replace("_", " ").capitalize()} for the sample framework."""\n\n'
            "import torch\n\n\n"
            f"def {name}_version():\n"
            f"    return \"{name}-1\"\n")


def _initial_tree(fw: str) -> dict[str, bytes]:
    pkg = PACKAGE_FILES[fw][0].split("/")[0]
    tree = {p: _module_text(p) for p in PACKAGE_FILES[fw]}
    tree.update({
        f"{pkg}/__init__.py": '__version__ = "0.1.0"\n',
        f"{pkg}/utils/helpers.py": _module_text("helpers.py") + "\n\ndef to_list(x):\n    return list(x)\n",
        "README.md": f"# {fw}\n\nReinforcement learning post-training for language models.\n",
        "docs/index.md": f"# {fw} documentation\n\nStart with the quickstart below.\n",
        "CONTRIBUTING.md": CONTRIBUTING[fw],
        ".github/PULL_REQUEST_TEMPLATE.md": PR_TEMPLATE[fw],
        ".github/ISSUE_TEMPLATE/feature.md": ISSUE_TEMPLATE.format(name=fw),
        ".github/workflows/tests.yml": "name: tests\non: [pull_request]\njobs:\n  test:\n"
                                      "    runs-on: ubuntu-latest\n    steps:\n"
                                      "      - uses: actions/checkout@v4\n      - run: pytest -x\n",
        ".github/workflows/release.yml": "name: release\non:\n  push:\n    tags: ['v*']\njobs:\n"
                                         "  publish:\n    runs-on: ubuntu-latest\n    steps:\n"
                                         "      - uses: actions/checkout@v4\n",
        "tests/test_smoke.py": f"def test_import():\n    import {pkg}  # noqa: F401\n",
    })
    tree["CODEOWNERS" if fw in ("verl", "slime") else ".github/CODEOWNERS"] = CODEOWNERS[fw]
    out = {p: t.encode() for p, t in tree.items()}
    out["docs/assets/logo.png"] = bytes(range(256)) + fw.encode()  # a binary file
    return out


# --- commit events ---------------------------------------------------------------------------
@dataclass
class _Event:
    when: datetime
    order: int
    branch: str  # ref name without refs/heads/
    author: Person
    message: str
    edit: dict[str, bytes | None] = field(default_factory=dict)  # path -> new content / None
    merge_from: str | None = None  # merge this branch into `branch`
    fork_from: str | None = None  # first commit of `branch`, forked from this branch


def _append(content: bytes | None, lines: tuple[str, ...] | list[str]) -> bytes:
    text = (content or b"").decode()
    if text and not text.endswith("\n"):
        text += "\n"
    return (text + "\n".join(lines) + "\n").encode()


def _person_for(fw: str, key: str, maintainer_share: float = 0.5) -> Person:
    h = int(hashlib.sha256(f"{fw}:{key}".encode()).hexdigest(), 16)
    if (h % 100) / 100 < maintainer_share:
        return MAINTAINERS[fw][h % len(MAINTAINERS[fw])]
    return CONTRIBUTORS[h % len(CONTRIBUTORS)]


class _Tracker:
    """Current file contents per branch while events are applied in time order."""

    def __init__(self, tree: dict[str, bytes]) -> None:
        self.branches: dict[str, dict[str, bytes]] = {"main": dict(tree)}

    def files(self, branch: str) -> dict[str, bytes]:
        return self.branches[branch]


def _filler_events(fw: str, order_start: int) -> list[_Event]:
    rng = random.Random(f"rltrack-sample-git-{fw}")
    span = (_END - _START).total_seconds()
    times = sorted(_START + timedelta(days=3, seconds=rng.uniform(0, span - 86400 * 4)) for _ in range(FILLER_COMMITS))
    pkg_files = list(PACKAGE_FILES[fw])
    pkg = pkg_files[0].split("/")[0]
    used: list[tuple[str, str]] = []  # (path, helper name) added so far
    events: list[_Event] = []
    renamed = False
    for i, when in enumerate(times):
        kind = rng.choice(("fix", "fix", "refactor", "docs", "docs", "test", "ci", "chore"))
        author = _person_for(fw, f"filler{i}", 0.6)
        ev = _Event(when.replace(microsecond=0), order_start + i, "main", author, "")
        if kind == "fix" or (kind == "refactor" and not used):
            path = rng.choice(pkg_files)
            name = f"{rng.choice(_VERBS)}_{rng.choice(_NOUNS)}"
            if any(n == name for _, n in used):
                name = f"{name}_{i}"
            used.append((path, name))
            ev.message = f"fix: handle empty input in {name}"
            ev.edit[path] = ("append", (f"\n\ndef {name}(items):", "    if not items:",
                                        "        return items", "    return items"))
        elif kind == "refactor" and not renamed and when.year == 2025 and when.month >= 6:
            renamed = True
            ev.message = "refactor: move helpers into utils/common.py"
            ev.edit[f"{pkg}/utils/helpers.py"] = ("rename", f"{pkg}/utils/common.py")
        elif kind == "refactor":
            path, old = used.pop(rng.randrange(len(used)))
            new = f"_{old}"
            used.append((path, new))
            ev.message = f"refactor: make {old} private"
            ev.edit[path] = ("replace", (f"def {old}(items):", f"def {new}(items):"))
        elif kind == "docs":
            topic = rng.choice(_TOPICS)
            ev.message = f"docs: explain {topic}"
            ev.edit["docs/index.md"] = ("append", ("", f"## {topic.capitalize()}", "",
                                                   f"This section describes {topic}."))
        elif kind == "test":
            name = f"{rng.choice(_VERBS)}_{rng.choice(_NOUNS)}"
            ev.message = f"test: cover {name}"
            ev.edit[f"tests/test_{name}_{i}.py"] = ("write", f"def test_{name}():\n    assert True\n")
        elif kind == "ci":
            ev.message = "ci: run tests on python 3.12"
            ev.edit[".github/workflows/tests.yml"] = ("append", ("      - run: python --version",))
        else:
            ev.message = f"chore: release 0.{i // 10 + 1}.{i % 10}"
            ev.edit[f"{pkg}/__init__.py"] = ("write", f'__version__ = "0.{i // 10 + 1}.{i % 10}"\n')
            if i % 3 == 0:
                ev.edit["docs/assets/logo.png"] = ("write_bytes", bytes(range(255, -1, -1)) + bytes([i]))
        events.append(ev)
    return events


def _adoption_event(fw: str, a: Adoption, order: int, maintainer_of: str | None) -> _Event:
    author = MAINTAINERS[fw][0] if maintainer_of == fw else _person_for(fw, a.arxiv_id, 0.4)
    return _Event(a.committed_at, order, "main", author, a.message,
                  {a.path: ("append", ("",) + tuple(a.added_lines))})


def _decoy_events(fw: str, decoys: tuple[Adoption, ...], order: int) -> list[_Event]:
    out: list[_Event] = []
    for d in decoys:
        if d.framework != fw:
            continue
        if d.evidence == "collision":
            out.append(_Event(d.committed_at, order, "main", MAINTAINERS[fw][1], d.message,
                              {d.path: ("append", tuple(d.added_lines))}))
        elif d.evidence == "deleted":
            branch = "wip/loss-notes"
            intern = CONTRIBUTORS[4]
            start = d.committed_at - timedelta(days=4)
            out.append(_Event(start, order, branch, intern, "wip: loss notes",
                              {d.path: ("append", tuple(d.added_lines))}, fork_from="main"))
            out.append(_Event(start + timedelta(hours=3), order + 1, branch, intern,
                              "docs: add a FAQ", {"docs/faq.md": ("write", "# FAQ\n\nAsk on the forum.\n")}))
            out.append(_Event(d.committed_at, order + 2, branch, intern, d.message,
                              {d.path: ("remove", tuple(d.added_lines))}))
            out.append(_Event(d.committed_at + timedelta(hours=2), order + 3, "main", MAINTAINERS[fw][0],
                              "Merge pull request #231 from lab-intern/wip/loss-notes\n\nAdd a FAQ page",
                              merge_from=branch))
        order += 4
    return out


def _extra_branch_events(fw: str, order: int) -> list[_Event]:
    """A merged feature branch (openrlhf) and a never-merged experiment (trl)."""
    if fw == "openrlhf":
        base = datetime(2025, 8, 5, 10, tzinfo=timezone.utc)
        c = CONTRIBUTORS[1]
        return [
            _Event(base, order, "feature/packing", c, "feat: add sequence packing utility",
                   {"openrlhf/utils/packing.py": ("write", "def pack_sequences(seqs, max_len):\n"
                                                            "    return [s[:max_len] for s in seqs]\n")},
                   fork_from="main"),
            _Event(base + timedelta(days=1), order + 1, "feature/packing", c, "test: packing",
                   {"tests/test_packing.py": ("write", "def test_pack():\n    assert True\n")}),
            _Event(base + timedelta(days=6), order + 2, "main", MAINTAINERS[fw][1],
                   "Merge pull request #188 from priya/feature/packing\n\nSequence packing",
                   merge_from="feature/packing"),
        ]
    if fw == "trl":
        return [_Event(datetime(2026, 3, 1, 15, tzinfo=timezone.utc), order, "experiment/gmpo", CONTRIBUTORS[2],
                       "feat: experimental GMPO loss (arXiv:2507.20673)",
                       {"trl/trainer/grpo_trainer.py": ("append", (
                           "", "def compute_gmpo_loss(log_prob, old_log_prob, advantages, mask):",
                           "    \"\"\"GMPO, see https://arxiv.org/abs/2507.20673.\"\"\"",
                           "    return -(advantages * mask).sum() / mask.sum()"))},
                       fork_from="main")]
    return []


def _events(fw: str) -> list[_Event]:
    world = build_world()
    makers = {p.arxiv_id: p.maintainer_of for p in world.papers}
    events = _filler_events(fw, 0)
    adoptions = [a for a in world.adoptions if a.framework == fw]
    events += [_adoption_event(fw, a, 1000 + i, makers.get(a.arxiv_id)) for i, a in enumerate(adoptions)]
    events += _decoy_events(fw, world.decoys, 2000)
    events += _extra_branch_events(fw, 3000)
    return sorted(events, key=lambda e: (e.when, e.order))


# --- fast-import -----------------------------------------------------------------------------
def _apply(files: dict[str, bytes], edit: dict) -> None:
    for path, (op, arg) in edit.items():
        if op == "append":
            files[path] = _append(files.get(path), arg)
        elif op == "remove":
            lines = files[path].decode().split("\n")
            for gone in arg:
                lines.remove(gone)
            files[path] = "\n".join(lines).encode()
        elif op == "replace":
            files[path] = files[path].decode().replace(arg[0], arg[1]).encode()
        elif op == "rename":
            files[arg] = files.pop(path)
        elif op == "write":
            files[path] = arg.encode()
        elif op == "write_bytes":
            files[path] = arg
        else:
            raise ValueError(op)


def _ident(p: Person, when: datetime) -> bytes:
    return f"{p.name} <{p.email}> {int(when.timestamp())} {p.tz}".encode()


def _data(payload: bytes) -> bytes:
    return b"data %d\n" % len(payload) + payload + b"\n"


def _stream(fw: str) -> bytes:
    tracker = _Tracker(_initial_tree(fw))
    out: list[bytes] = []
    marks: dict[str, int] = {}
    mark = 0
    first = MAINTAINERS[fw][0]

    def commit(branch: str, author: Person, when: datetime, message: str, before: dict[str, bytes],
               after: dict[str, bytes], parents: list[int], committer: Person | None = None) -> None:
        nonlocal mark
        mark += 1
        out.append(b"commit refs/heads/%s\nmark :%d\n" % (branch.encode(), mark))
        out.append(b"author " + _ident(author, when) + b"\n")
        out.append(b"committer " + _ident(committer or author, when) + b"\n")
        out.append(_data(message.encode() + b"\n"))
        if parents:
            out.append(b"from :%d\n" % parents[0])
            for extra in parents[1:]:
                out.append(b"merge :%d\n" % extra)
        for path in sorted(before.keys() - after.keys()):
            out.append(b"D %s\n" % path.encode())
        for path in sorted(after):
            if before.get(path) != after[path]:
                out.append(b"M 100644 inline %s\n" % path.encode() + _data(after[path]))
        marks[branch] = mark

    commit("main", first, _START, "Initial commit", {}, tracker.files("main"), [])
    for ev in _events(fw):
        if ev.fork_from:
            tracker.branches[ev.branch] = dict(tracker.files(ev.fork_from))
            marks[ev.branch] = marks[ev.fork_from]
        files = tracker.files(ev.branch)
        before = dict(files)
        parents = [marks[ev.branch]]
        if ev.merge_from:
            # the feature branch's net changes (relative to where it forked) land on main
            source = tracker.files(ev.merge_from)
            base = tracker.branches.get(f"{ev.merge_from}@base", {})
            for path, content in source.items():
                if base.get(path) != content:
                    files[path] = content
            parents.append(marks[ev.merge_from])
        _apply(files, ev.edit)
        commit(ev.branch, ev.author, ev.when, ev.message, before, files, parents)
        if ev.fork_from:
            tracker.branches[f"{ev.branch}@base"] = before
    out.append(b"reset refs/heads/main\nfrom :%d\n\n" % marks["main"])
    return b"".join(out)


def inputs_hash(fw: str) -> str:
    world = build_world()
    facts = repr(([a for a in world.adoptions if a.framework == fw],
                  [d for d in world.decoys if d.framework == fw]))
    generator = Path(__file__).read_bytes()
    return hashlib.sha256(GENERATOR_VERSION.encode() + facts.encode() + generator).hexdigest()


def _run(args: list[str], cwd: Path, stdin: bytes | None = None) -> None:
    proc = subprocess.run(args, cwd=cwd, input=stdin, capture_output=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed: {proc.stderr.decode(errors='replace')[:800]}")


def build_repo(fw: str, target: Path) -> Path:
    """(Re)build one framework's repository at `target` unless it is already current."""
    wanted = inputs_hash(fw)
    stamp = target / ".git" / _HASH_FILE
    if stamp.exists() and stamp.read_text().strip() == wanted:
        return target
    tmp = target.parent / f".{target.name}.building-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    _run(["git", "init", "-q", "-b", "main"], tmp)
    _run(["git", "fast-import", "--quiet", "--done"], tmp, _stream(fw) + b"done\n")
    _run(["git", "checkout", "-q", "-f", "main"], tmp)
    (tmp / ".git" / _HASH_FILE).write_text(wanted)
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)
    return target


def build_sample_repos(dest: Path, frameworks: tuple[str, ...] | list[str] = SAMPLE_FRAMEWORKS) -> dict[str, Path]:
    """One real git repository per sample framework under `dest`; returns framework_id -> path."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    return {fw: build_repo(fw, dest / fw) for fw in frameworks if fw in SAMPLE_FRAMEWORKS}
