"""Worlds the sources can read, other than the live one: the bundled sample (`worlds.sample`), a
recorded world on disk (`worlds.recorded`) and the bench's large synthetic world
(`worlds.large_world`). Each is served on loopback and handed to the sources as an
`ingestion.world.World`; nothing here is imported by the sources."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ingestion.world import World


@contextmanager
def open_world(spec: str, data_dir: Path) -> Iterator[World]:
    """The world `spec` names ('live', 'sample' or a recorded world's folder), served for the length
    of a `with` block; its files (sample repositories, clones) go under `data_dir`."""
    if spec == "live":
        yield World.live()
    elif spec == "sample":
        from worlds.sample.serve import serve_sample_world

        with serve_sample_world(data_dir / "sample_world") as world:
            yield world
    else:
        from worlds.recorded import serve_recorded_world

        with serve_recorded_world(Path(spec), data_dir) as world:
            yield world
