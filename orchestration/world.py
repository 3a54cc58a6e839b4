"""The world a refresh reads (`ingestion.world`), opened outside the sources.

`rltrack refresh` opens it once (`using_world`) and every load of that process reads it; a run
started elsewhere (the Dagster UI, a schedule) opens the world `world_spec()` names for
the length of each load (`run_world`)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from ingestion import config
from ingestion.world import World

NAMED_WORLDS = ("sample", "live")
_opened: list[World] = []  # the world `using_world` holds open in this process


def world_spec() -> str:
    """The world a refresh reads: `RLTRACK_WORLD` ('sample', 'live' or a world folder), else
    `RLTRACK_MODE` ('sample' | 'live'), else the bundled sample."""
    world = os.environ.get("RLTRACK_WORLD", "").strip()
    if world:
        return world.lower() if world.lower() in NAMED_WORLDS else world
    mode = os.environ.get("RLTRACK_MODE", "sample").strip().lower()
    if mode not in NAMED_WORLDS:
        raise ValueError(f"RLTRACK_MODE must be one of {NAMED_WORLDS}, got {mode!r}")
    return mode


@contextmanager
def using_world(spec: str | None = None) -> Iterator[World]:
    """Serve the world `spec` (default: `world_spec()`) for this process's runs."""
    from worlds import open_world

    with open_world(spec or world_spec(), config.data_dir()) as world, serving(world):
        yield world


@contextmanager
def serving(world: World) -> Iterator[World]:
    """Let this process's runs read `world` (already served) for the length of a `with` block."""
    _opened.append(world)
    try:
        yield world
    finally:
        _opened.remove(world)


@contextmanager
def run_world() -> Iterator[World]:
    """The world a load reads: the one `using_world` holds open, else one opened for this load."""
    if _opened:
        yield _opened[-1]
        return
    with using_world() as world:
        yield world
