{#- Lists: delimited strings and JSON text lists (dlt lands list columns as JSON text). -#}

{#- A delimited string as an array (DuckDB list / PostgreSQL text[]); unnest() works on both. -#}
{% macro split_to_array(expr, delimiter) -%}
    {{ return(adapter.dispatch('split_to_array', 'rltrack')(expr, delimiter)) }}
{%- endmacro %}

{% macro default__split_to_array(expr, delimiter) -%}
    string_split({{ expr }}, '{{ delimiter }}')
{%- endmacro %}

{% macro postgres__split_to_array(expr, delimiter) -%}
    string_to_array({{ expr }}, '{{ delimiter }}')
{%- endmacro %}

{#- Set-returning: one row per element of a JSON text list of strings. -#}
{% macro json_list_as_rows(expr) -%}
    {{ return(adapter.dispatch('json_list_as_rows', 'rltrack')(expr)) }}
{%- endmacro %}

{% macro default__json_list_as_rows(expr) -%}
    unnest(cast(json({{ expr }}) as varchar[]))
{%- endmacro %}

{% macro postgres__json_list_as_rows(expr) -%}
    json_array_elements_text(cast({{ expr }} as json))
{%- endmacro %}

{#- The elements of a JSON text list joined by `delimiter`, in list order; null for an empty list. -#}
{% macro json_list_join(expr, delimiter) -%}
    {{ return(adapter.dispatch('json_list_join', 'rltrack')(expr, delimiter)) }}
{%- endmacro %}

{% macro default__json_list_join(expr, delimiter) -%}
    nullif(array_to_string(cast(json({{ expr }}) as varchar[]), '{{ delimiter }}'), '')
{%- endmacro %}

{% macro postgres__json_list_join(expr, delimiter) -%}
    (
        select nullif(string_agg(e.element, '{{ delimiter }}' order by e.position), '')
        from json_array_elements_text(cast({{ expr }} as json)) with ordinality as e (element, position)
    )
{%- endmacro %}

{#- Number of elements of a JSON text list (null stays null). -#}
{% macro json_list_length(expr) -%}
    {{ return(adapter.dispatch('json_list_length', 'rltrack')(expr)) }}
{%- endmacro %}

{% macro default__json_list_length(expr) -%}
    cast(json_array_length({{ expr }}) as integer)
{%- endmacro %}

{% macro postgres__json_list_length(expr) -%}
    json_array_length(cast({{ expr }} as json))
{%- endmacro %}
