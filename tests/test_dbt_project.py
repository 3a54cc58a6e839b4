"""Static checks of the dbt project's YAML: every model is documented column by column, every mart
has an enforced contract with a portable data type per column, and keys are tested."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import yaml

PROJECT = Path(__file__).resolve().parents[1] / "dbt_project"
MODELS = PROJECT / "models"
# types that mean the same on DuckDB and PostgreSQL (the contracts must hold on both)
PORTABLE_TYPES = {"varchar", "integer", "bigint", "double precision", "boolean", "date", "timestamp"}
CROSS_DB_MACRO_DIR = PROJECT / "macros" / "cross_db"


@functools.cache
def model_properties() -> dict[str, dict]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    found = {}
    for path in MODELS.rglob("*.yml"):
        for model in (yaml.load(path.read_text(), Loader=loader) or {}).get("models", []):
            found[model["name"]] = {**model, "_layer": path.parent.name}
    return found


def test_every_model_has_properties():
    sql_models = {p.stem for p in MODELS.rglob("*.sql")}
    assert sql_models == set(model_properties())


@pytest.mark.parametrize("name", sorted(model_properties()))
def test_model_and_columns_documented(name):
    model = model_properties()[name]
    assert model.get("description"), f"{name} has no description"
    columns = model.get("columns") or []
    assert columns, f"{name} documents no columns"
    undocumented = [c["name"] for c in columns if not c.get("description")]
    assert not undocumented, f"{name}: columns without description {undocumented}"


@pytest.mark.parametrize("name", sorted(n for n, m in model_properties().items() if m["_layer"] == "marts"))
def test_marts_have_enforced_portable_contracts(name):
    model = model_properties()[name]
    assert model.get("config", {}).get("contract", {}).get("enforced") is True, f"{name}: no enforced contract"
    types = {c["name"]: c.get("data_type") for c in model["columns"]}
    assert all(types.values()), f"{name}: columns without data_type"
    assert set(types.values()) <= PORTABLE_TYPES, f"{name}: non-portable types {set(types.values()) - PORTABLE_TYPES}"


@pytest.mark.parametrize("name", sorted(n for n, m in model_properties().items() if m["_layer"] == "marts"))
def test_marts_have_a_tested_key(name):
    model = model_properties()[name]
    unique_columns = {c["name"] for c in model["columns"] if "unique" in (c.get("data_tests") or [])
                      and {"type": "not_null"} in (c.get("constraints") or [])}
    composite = [t for t in model.get("data_tests") or [] if isinstance(t, dict)
                 and "unique_combination_of_columns" in t]
    assert unique_columns or composite, f"{name}: no unique + not_null key"


@pytest.mark.parametrize("name", sorted(n for n, m in model_properties().items() if m["_layer"] == "marts"))
def test_mart_not_null_is_a_constraint_not_a_test(name):
    """The database enforces it while the contracted table is built; a test after would repeat it."""
    for column in model_properties()[name]["columns"]:
        assert "not_null" not in str(column.get("data_tests") or ""), f"{name}.{column['name']}"


def test_cross_db_macros_cover_postgres():
    """Each dispatched macro has a default (DuckDB) implementation, and a postgres one unless the
    default is already portable SQL."""
    portable_defaults = {"first_by"}
    text = "\n".join(p.read_text() for p in CROSS_DB_MACRO_DIR.glob("*.sql"))
    dispatched = [line.split("adapter.dispatch('")[1].split("'")[0]
                  for line in text.splitlines() if "adapter.dispatch('" in line]
    assert dispatched
    for name in dispatched:
        assert f"macro default__{name}(" in text, name
        assert name in portable_defaults or f"macro postgres__{name}(" in text, name


def test_models_use_no_duckdb_only_functions():
    """Functions DuckDB has and PostgreSQL lacks must go through macros/cross_db."""
    duckdb_only = [r"\bregexp_extract", r"\bregexp_matches\(", r"\bstring_split", r"\barg_m(in|ax)\(",
                   r"\bany_value\(", r"\bstrftime\(", r"\bcontains\(", r"\bjson\(", "::", r"\bdouble\b(?! precision)",
                   r"\bmedian\(", r"\blist\("]
    def plain_sql(path: Path) -> str:  # the model without its Jinja (macro calls are the portable part)
        return re.sub(r"\{\{.*?\}\}", "", path.read_text(), flags=re.S).lower()

    offenders = [(p.name, f) for p in MODELS.rglob("*.sql") for f in duckdb_only if re.search(f, plain_sql(p))]
    assert not offenders, offenders
