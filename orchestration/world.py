"""The world a refresh reads (`ingestion.world`), opened outside the sources.

`rltrack refresh` opens it once (`using_world`) and every load of that process reads it; a run
started elsewhere (the Dagster UI, a schedule) opens the world `config.world_spec()` names for
the length of each load (`run_world`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ingestion import config
from ingestion.world import World

_opened: list[World] = []  # the world `using_world` holds open in this process


@contextmanager
def using_world(spec: str | None = None) -> Iterator[World]:
    """Serve the world `spec` (default: `config.world_spec()`) for this process's runs."""
    from worlds import open_world

    with open_world(spec or config.world_spec(), config.data_dir()) as world, serving(world):
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
