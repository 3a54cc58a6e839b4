"""The dbt project is portable: the same models build on PostgreSQL (dbt-postgres) and every mart
equals DuckDB's, row for row, from the hand-made raw rows of test_marts_handmade.py.

A throwaway PostgreSQL server (Debian's postgresql package) is started in a temporary directory on
a free loopback port; initdb refuses to run as root, so as root the server runs as `nobody`.
"""

from __future__ import annotations

import datetime as dt
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from decimal import Decimal
from pathlib import Path

import duckdb
import psycopg2  # installed with dbt-postgres
import pytest

from orchestration.dbt_project import DBT_PROJECT_DIR, dbt_executable
from tests.test_marts_handmade import build_raw

MARTS = ["dim_papers", "dim_frameworks", "dim_methods", "fct_adoption_claims", "fct_method_adoptions", "fct_cohort_adoption",
         "fct_adoption_factors", "fct_adoption_survival", "fct_framework_adoption", "fct_method_proposals",
         "fct_thread_method_mentions",
         "fct_failure_links", "fct_paper_citations", "fct_report_method_mentions", "rpt_headline"]
RAW_SCHEMAS = ("raw_arxiv", "raw_git", "raw_github", "raw_reports")
# DuckDB type of a raw column -> the PostgreSQL type dlt would create for it
PG_TYPES = {"VARCHAR": "text", "BIGINT": "bigint", "INTEGER": "integer", "BOOLEAN": "boolean",
            "DOUBLE": "double precision", "DATE": "date", "TIMESTAMP WITH TIME ZONE": "timestamptz",
            "TIMESTAMP": "timestamp"}


def postgres_bindir() -> Path | None:
    """Directory holding initdb/pg_ctl: PATH first, else Debian's /usr/lib/postgresql/<version>/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(candidates[-1]).parent if candidates else None


def runuser_path() -> str:
    found = shutil.which("runuser", path="/usr/sbin:/sbin:/usr/bin:/bin")
    if not found:
        pytest.skip("running as root without runuser: cannot start PostgreSQL as an unprivileged user")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """A PostgreSQL cluster in a temporary directory, trust auth on 127.0.0.1, C locale, UTC."""

    user = "rltrack"

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.port = free_port()
        # not under pytest's tmp_path: its parents are private to root, and the server may run as nobody
        self.root = Path(tempfile.mkdtemp(prefix="rltrack-pg-"))
        self.run_as = [runuser_path(), "-u", "nobody", "--"] if os.geteuid() == 0 else []
        if self.run_as:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.root, nobody.pw_uid, nobody.pw_gid)

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        env = {"PATH": "/usr/sbin:/sbin:/usr/bin:/bin", "TZ": "UTC", "LC_ALL": "C"}
        result = subprocess.run([*self.run_as, *args], env=env, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {result.stdout[-2000:]} {result.stderr[-2000:]}")
        return result

    def start(self) -> None:
        data = self.root / "data"
        self._run(str(self.bindir / "initdb"), "-D", str(data), "-U", self.user, "--auth=trust",
                  "--no-locale", "-E", "UTF8", "--no-sync")
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c TimeZone=UTC")
        self._run(str(self.bindir / "pg_ctl"), "-D", str(data), "-l", str(self.root / "server.log"),
                  "-o", options, "-w", "-t", "60", "start")

    def stop(self) -> None:
        try:
            if (self.root / "data" / "postmaster.pid").exists():
                self._run(str(self.bindir / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def connect(self, dbname: str = "postgres"):
        deadline = time.monotonic() + 30
        while True:
            try:
                con = psycopg2.connect(host="127.0.0.1", port=self.port, user=self.user, dbname=dbname)
                con.autocommit = True
                return con
            except psycopg2.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)


def copy_raw_tables(duck_path: Path, pg_con) -> None:
    """Create the raw_* tables on PostgreSQL with the same columns and rows as in DuckDB."""
    duck = duckdb.connect(str(duck_path), read_only=True)
    duck.execute("set TimeZone = 'UTC'")
    tables = duck.execute(
        "select table_schema, table_name from information_schema.tables "
        f"where table_schema in {RAW_SCHEMAS} order by 1, 2").fetchall()
    with pg_con.cursor() as cur:
        for schema, table in tables:
            columns = duck.execute(
                "select column_name, data_type from information_schema.columns "
                "where table_schema = ? and table_name = ? order by ordinal_position", [schema, table]).fetchall()
            cur.execute(f"create schema if not exists {schema}")
            ddl = ", ".join(f"{name} {PG_TYPES[dtype]}" for name, dtype in columns)
            cur.execute(f"create table {schema}.{table} ({ddl})")
            rows = duck.execute(f"select * from {schema}.{table}").fetchall()
            if rows:
                placeholders = ", ".join(["%s"] * len(columns))
                cur.executemany(f"insert into {schema}.{table} values ({placeholders})", rows)
    duck.close()


def dbt_build(target: str, tmp: Path, env: dict[str, str], *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [dbt_executable(), "build", "--project-dir", str(DBT_PROJECT_DIR), "--profiles-dir", str(DBT_PROJECT_DIR),
         "--target", target, "--target-path", str(tmp / f"target-{target}"), "--log-path", str(tmp / f"logs-{target}"),
         *extra],
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp), "TZ": "UTC", **env},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )


def normalise(value):
    """One comparable form for both engines' Python values: decimals and floats to 6 places."""
    if isinstance(value, (float, Decimal)):
        return round(float(value), 6)
    if isinstance(value, dt.datetime):
        return value.replace(tzinfo=None).isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def fetch_mart(cursor, table: str) -> tuple[list[str], list[tuple]]:
    cursor.execute(f"select * from marts.{table}")
    columns = [d[0] for d in cursor.description]
    rows = sorted((tuple(normalise(v) for v in row) for row in cursor.fetchall()), key=repr)
    return columns, rows


@pytest.fixture(scope="module")
def pg_server():
    bindir = postgres_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) not installed: apt-get install postgresql")
    server = PostgresServer(bindir)
    try:
        server.start()
        admin = server.connect()
        for db in ("rltrack", "dlt_check"):
            admin.cursor().execute(f"create database {db} template template0 encoding 'UTF8' locale 'C'")
        admin.close()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def both_engines(pg_server):
    tmp = Path(tempfile.mkdtemp(prefix="rltrack-pg-dbt-"))
    try:
        pg = pg_server.connect("rltrack")
        duck_path = tmp / "warehouse.duckdb"
        build_raw(duck_path)
        copy_raw_tables(duck_path, pg)
        pg_env = {"RLTRACK_PG_HOST": "127.0.0.1", "RLTRACK_PG_PORT": str(pg_server.port),
                  "RLTRACK_PG_USER": pg_server.user, "RLTRACK_PG_DB": "rltrack"}
        # PostgreSQL runs the whole build (data and unit tests included); DuckDB's tests already run
        # in test_marts_handmade.py, so its side only builds seeds and models. Both at once.
        builds = {"duckdb": dbt_build("duckdb", tmp, {"RLTRACK_WAREHOUSE": str(duck_path)},
                                      "--resource-type", "seed", "--resource-type", "model"),
                  "postgres": dbt_build("postgres", tmp, pg_env)}
        for target, proc in builds.items():
            out, _ = proc.communicate(timeout=600)
            assert proc.returncode == 0, f"dbt build --target {target} failed:\n{out[-6000:]}"
        duck = duckdb.connect(str(duck_path), read_only=True)
        yield duck.cursor(), pg.cursor()
        duck.close()
        pg.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.mark.parametrize("mart", MARTS)
def test_mart_equal_on_postgres_and_duckdb(both_engines, mart):
    duck, pg = both_engines
    duck_columns, duck_rows = fetch_mart(duck, mart)
    pg_columns, pg_rows = fetch_mart(pg, mart)
    assert pg_columns == duck_columns
    assert pg_rows == duck_rows
    if mart in ("fct_method_adoptions", "fct_cohort_adoption", "dim_papers", "rpt_headline"):
        assert duck_rows, f"{mart} is empty: the comparison would prove nothing"


def test_marts_were_built_by_postgres(both_engines):
    _, pg = both_engines
    pg.execute("select version()")
    assert pg.fetchone()[0].startswith("PostgreSQL")
    pg.execute("select table_name from information_schema.tables where table_schema = 'marts' order by 1")
    assert [name for (name,) in pg.fetchall()] == sorted(MARTS)
    pg.execute("select count(*) from marts.fct_method_adoptions")
    assert pg.fetchone()[0] == 5


def test_dlt_merges_raw_rows_into_postgres(pg_server, tmp_path):
    """dlt's postgres destination loads a raw table with the contract's merge disposition: a second
    load updates the row in place, and timestamps land as timestamptz as staging expects."""
    import dlt

    @dlt.resource(name="papers", primary_key="arxiv_id", write_disposition="merge")
    def papers(title: str):
        yield {"arxiv_id": "2503.14476", "title": title, "published_at": dt.datetime(2025, 3, 18, 17, tzinfo=dt.UTC)}

    pipeline = dlt.pipeline(
        pipeline_name="pg_check", pipelines_dir=str(tmp_path / "dlt"), dataset_name="raw_arxiv",
        destination=dlt.destinations.postgres(
            # trust auth ignores the password, but dlt requires one
            f"postgresql://{pg_server.user}:unused@127.0.0.1:{pg_server.port}/dlt_check"),
    )
    pipeline.run(papers("DAPO v1"))
    pipeline.run(papers("DAPO v2"))
    con = pg_server.connect("dlt_check")
    cur = con.cursor()
    cur.execute("select arxiv_id, title from raw_arxiv.papers")
    assert cur.fetchall() == [("2503.14476", "DAPO v2")]
    cur.execute("select data_type from information_schema.columns "
                "where table_schema = 'raw_arxiv' and table_name = 'papers' and column_name = 'published_at'")
    assert cur.fetchone()[0] == "timestamp with time zone"
    con.close()
