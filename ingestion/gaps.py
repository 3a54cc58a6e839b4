"""What a load could not read this run: an arXiv window, a repository, a GitHub listing.

A source given a `LoadGaps` notes each such item with its reason instead of stopping, loads the
rest, and leaves the item due (its cursor or "done" mark does not move), so the next run asks it
again. The orchestration keeps the notes across runs (first and last failure, resolution):
`orchestration/source_health.py`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

log = logging.getLogger(__name__)


@dataclass
class LoadGaps:
    """item -> reason, in the order the items failed."""

    items: dict[str, str] = field(default_factory=dict)

    def add(self, item: str, reason: object) -> None:
        text = " ".join(str(reason).split())[:1000] or type(reason).__name__
        log.warning("not loaded this run, asked again next run: %s: %s", item, text)
        self.items[item] = text

    def __bool__(self) -> bool:
        return bool(self.items)
