{#- Regular expressions. DuckDB uses RE2, PostgreSQL its own ARE flavour: the patterns here keep
    to the common subset, except the word boundary \b, which PostgreSQL spells \y. -#}

{#- The `group`-th capture group of the first match, '' when nothing matches (DuckDB's behaviour). -#}
{% macro regex_extract(expr, pattern, group=1) -%}
    {{ return(adapter.dispatch('regex_extract', 'rltrack')(expr, pattern, group)) }}
{%- endmacro %}

{% macro default__regex_extract(expr, pattern, group) -%}
    regexp_extract({{ expr }}, '{{ pattern }}', {{ group }})
{%- endmacro %}

{% macro postgres__regex_extract(expr, pattern, group) -%}
    coalesce((regexp_match({{ expr }}, '{{ pattern }}'))[{{ group }}], '')
{%- endmacro %}

{#- Set-returning: one row per match of `pattern` (whole match) in `expr`. -#}
{% macro regex_matches_as_rows(expr, pattern) -%}
    {{ return(adapter.dispatch('regex_matches_as_rows', 'rltrack')(expr, pattern)) }}
{%- endmacro %}

{% macro default__regex_matches_as_rows(expr, pattern) -%}
    unnest(regexp_extract_all({{ expr }}, '{{ pattern }}'))
{%- endmacro %}

{% macro postgres__regex_matches_as_rows(expr, pattern) -%}
    (regexp_matches({{ expr }}, '({{ pattern }})', 'g'))[1]
{%- endmacro %}

{#- Boolean: does `expr` contain a match of `pattern`? -#}
{% macro regex_contains(expr, pattern) -%}
    {{ return(adapter.dispatch('regex_contains', 'rltrack')(expr, pattern)) }}
{%- endmacro %}

{% macro default__regex_contains(expr, pattern) -%}
    regexp_matches({{ expr }}, '{{ pattern }}')
{%- endmacro %}

{% macro postgres__regex_contains(expr, pattern) -%}
    ({{ expr }} ~ '{{ pattern | replace("\\b", "\\y") }}')
{%- endmacro %}
