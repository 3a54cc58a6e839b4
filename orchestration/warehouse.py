"""The DuckDB warehouse file: one writer at a time, a published read-only snapshot for analysts.

DuckDB allows a single writing process per file. Every write step (dlt load, dbt build) takes an
exclusive advisory lock on `<warehouse>.lock`; a second writer waits up to a timeout and then fails
with a clear message instead of colliding. At the end of a successful refresh the file is copied to
`published/warehouse.duckdb` with an atomic rename, so readers never see a half-built file
(the snapshot before it stays as `published/warehouse.previous.duckdb`).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from ingestion import config


class WarehouseBusy(RuntimeError):
    """Another refresh holds the warehouse write lock."""


def lock_path(warehouse: Path | None = None) -> Path:
    warehouse = warehouse or config.warehouse_path()
    return warehouse.with_name(warehouse.name + ".lock")


@contextmanager
def write_lock(warehouse: Path | None = None, timeout_s: float | None = None) -> Iterator[None]:
    """Hold the exclusive writer lock; wait up to `timeout_s` (env RLTRACK_LOCK_TIMEOUT_S, default 1800)."""
    if timeout_s is None:
        timeout_s = float(os.environ.get("RLTRACK_LOCK_TIMEOUT_S", "1800"))
    path = lock_path(warehouse)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+") as fh:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    fh.seek(0)
                    holder = fh.read().strip() or "unknown"
                    raise WarehouseBusy(
                        f"warehouse {path.with_suffix('')} is being written by another refresh "
                        f"({holder}); waited {timeout_s:.0f}s. Try again when it finishes."
                    ) from None
                time.sleep(0.2)
        fh.seek(0)
        fh.truncate()
        fh.write(f"pid {os.getpid()} since {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}")
        fh.flush()
        try:
            yield
        finally:
            fh.seek(0)
            fh.truncate()
            fcntl.flock(fh, fcntl.LOCK_UN)


class WarehouseCorrupt(RuntimeError):
    """The warehouse path holds something that is not a DuckDB database."""


def check_warehouse_file(warehouse: Path | None = None) -> None:
    """Refuse early, with a plain message, when the warehouse path is not a DuckDB file.

    DuckDB writes the magic bytes `DUCK` at offset 8 of every database file; an empty or missing
    file is fine (a first refresh creates it). The file is only read, never changed.
    """
    warehouse = warehouse or config.warehouse_path()
    if not warehouse.exists() or warehouse.stat().st_size == 0:
        return
    with warehouse.open("rb") as fh:
        header = fh.read(12)
    if header[8:12] != b"DUCK":
        raise WarehouseCorrupt(
            f"{warehouse} is not a DuckDB database (corrupt or a different file); it was left untouched. "
            "Move it away or point RLTRACK_WAREHOUSE elsewhere, then refresh again."
        )


def published_path(warehouse: Path | None = None) -> Path:
    warehouse = warehouse or config.warehouse_path()
    return warehouse.parent / "published" / warehouse.name


def previous_path(warehouse: Path | None = None) -> Path:
    """The snapshot that was published before the current one (kept for one refresh)."""
    target = published_path(warehouse)
    return target.with_name(f"{target.stem}.previous{target.suffix}")


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def publish(warehouse: Path | None = None, keep_previous: bool = True) -> Path:
    """Publish a read-only snapshot of the warehouse with an atomic swap.

    Under the write lock: CHECKPOINT (fold the WAL into the file), copy to a temporary file next
    to the target, fsync it, keep the old snapshot as `*.previous.duckdb` (a hard link, so readers
    that have it open are untouched), then `os.replace` the target and fsync the folder. A reader
    that opened the old snapshot keeps reading the old inode until it closes; a new reader sees
    either the old or the new file, never a partial one. Swapping under the lock keeps two
    publishers from installing an older copy over a newer one.
    """
    warehouse = warehouse or config.warehouse_path()
    target = published_path(warehouse)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    prev_tmp = tmp.with_name(tmp.name + ".prev")
    with write_lock(warehouse):
        try:
            con = duckdb.connect(str(warehouse))
            try:
                con.execute("CHECKPOINT")
            finally:
                con.close()
            shutil.copyfile(warehouse, tmp)
            _fsync_file(tmp)
            if keep_previous and target.exists():
                try:
                    os.link(target, prev_tmp)  # same inode: no copy, open readers unaffected
                except OSError:  # filesystems without hard links
                    shutil.copyfile(target, prev_tmp)
                os.replace(prev_tmp, previous_path(warehouse))
            os.replace(tmp, target)
            _fsync_dir(target.parent)
        finally:
            tmp.unlink(missing_ok=True)
            prev_tmp.unlink(missing_ok=True)
    return target


def connect_read_only(path: Path | None = None) -> duckdb.DuckDBPyConnection:
    """Open the published snapshot (or a given file) read-only; writes fail inside DuckDB."""
    path = path or published_path()
    if not path.exists():
        raise FileNotFoundError(f"no published warehouse at {path}; run `rltrack refresh` first")
    return duckdb.connect(str(path), read_only=True)
