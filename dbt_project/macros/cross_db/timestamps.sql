{#- Raw timestamps are `timestamp with time zone`; the warehouse works in UTC wall-clock time.
    DuckDB's session runs in UTC (profiles.yml); on PostgreSQL the conversion is explicit so the
    server's or session's TimeZone cannot shift dates. -#}
{% macro utc_timestamp(expr) -%}
    {{ return(adapter.dispatch('utc_timestamp', 'rltrack')(expr)) }}
{%- endmacro %}

{% macro default__utc_timestamp(expr) -%}
    cast({{ expr }} as timestamp)
{%- endmacro %}

{% macro postgres__utc_timestamp(expr) -%}
    cast(cast({{ expr }} as timestamptz) at time zone 'UTC' as timestamp)
{%- endmacro %}

{#- 'YYYY-Qn' label of a date. -#}
{% macro quarter_label(expr) -%}
    cast(cast(extract(year from {{ expr }}) as integer) as varchar)
    || '-Q'
    || cast(cast(extract(quarter from {{ expr }}) as integer) as varchar)
{%- endmacro %}
