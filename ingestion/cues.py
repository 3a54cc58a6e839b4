"""The first matching cue, with its signal: the shape of every rule chain of the rule-based screeners.

A chain is an ordered tuple of `Cue`s. `first_cue` reads the named texts it is given and answers the
value of the first cue whose pattern matches, with a signal an analyst can read ("title: survey").
Conditions that are not a pattern (counts, positions) stay with the caller, between two chains.

    KIND_BY_TITLE = (Cue("survey", SURVEY_RX, "title"), Cue("benchmark", BENCH_RX, "title"))
    first_cue(KIND_BY_TITLE, title=p.title, abstract=p.abstract)  # -> ("survey", "title: survey") | None
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Cue(Generic[T]):
    value: T  # the decision when the pattern matches
    pattern: re.Pattern[str]
    field: str = "text"  # which keyword text of first_cue the pattern reads
    label: str | None = None  # the signal's prefix; None: the field's name, "": the matched text alone


def signal(label: str, m: re.Match[str], width: int = 100) -> str:
    """'label: matched text' (whitespace collapsed, cut at `width`); the matched text alone without a label."""
    text = " ".join(m.group(0).split())[:width]
    return f"{label}: {text}" if label else text


def first_cue(cues: Iterable[Cue[T]], width: int = 100, **texts: str | None) -> tuple[T, str] | None:
    """(value, signal) of the first cue whose pattern matches its text; None when none does."""
    for cue in cues:
        if m := cue.pattern.search(texts[cue.field] or ""):
            return cue.value, signal(cue.field if cue.label is None else cue.label, m, width)
    return None
