{#- Aggregates and numeric helpers with the same result type and rounding on every adapter. -#}

{#- The value of `expr` on the first row in `order_by` order (ties broken by the order_by list,
    so make it total). DuckDB's arg_min picks an arbitrary row among ties; this never does. -#}
{% macro first_by(expr, order_by) -%}
    {{ return(adapter.dispatch('first_by', 'rltrack')(expr, order_by)) }}
{%- endmacro %}

{% macro default__first_by(expr, order_by) -%}
    (array_agg({{ expr }} order by {{ order_by }}))[1]
{%- endmacro %}

{#- Median as a double (interpolated between the two middle values). -#}
{% macro median(expr) -%}
    {{ return(adapter.dispatch('median', 'rltrack')(expr)) }}
{%- endmacro %}

{% macro default__median(expr) -%}
    cast(median({{ expr }}) as double precision)
{%- endmacro %}

{% macro postgres__median(expr) -%}
    percentile_cont(0.5) within group (order by {{ expr }})
{%- endmacro %}

{#- A double rounded half away from zero to `digits` decimals. PostgreSQL has no round(double, int)
    and rounds doubles half to even, so it goes through numeric. -#}
{% macro round_double(expr, digits=0) -%}
    {{ return(adapter.dispatch('round_double', 'rltrack')(expr, digits)) }}
{%- endmacro %}

{% macro default__round_double(expr, digits) -%}
    cast(round(cast({{ expr }} as double precision), {{ digits }}) as double precision)
{%- endmacro %}

{% macro postgres__round_double(expr, digits) -%}
    cast(round(cast({{ expr }} as numeric), {{ digits }}) as double precision)
{%- endmacro %}

{#- numerator / denominator as a double rounded to `digits`, null when the denominator is 0
    (never integer division). -#}
{% macro ratio(numerator, denominator, digits=4) -%}
    {{ round_double('cast(' ~ numerator ~ ' as double precision) / nullif(' ~ denominator ~ ', 0)', digits) }}
{%- endmacro %}

{#- A double as text the way DuckDB prints it ('0.023', '1.0'), on every adapter. -#}
{% macro double_to_text(expr) -%}
    {{ return(adapter.dispatch('double_to_text', 'rltrack')(expr)) }}
{%- endmacro %}

{% macro default__double_to_text(expr) -%}
    cast(cast({{ expr }} as double precision) as varchar)
{%- endmacro %}

{% macro postgres__double_to_text(expr) -%}
    case
        when {{ expr }} = trunc({{ expr }}) then cast(cast({{ expr }} as bigint) as varchar) || '.0'
        else cast(cast({{ expr }} as double precision) as varchar)
    end
{%- endmacro %}
