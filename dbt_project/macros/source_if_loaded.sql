{#- A raw table, or an empty relation of the given columns when dlt has not created it yet (dlt
    creates a table with its first row: a world without any pull-request review has no
    raw_github.reviews). `columns` maps column name -> SQL type. -#}
{% macro source_if_loaded(source_name, table_name, columns) -%}
    {%- set relation = source(source_name, table_name) -%}
    {%- if execute and adapter.get_relation(database=relation.database, schema=relation.schema,
                                            identifier=relation.identifier) is none -%}
        (select
        {%- for name, type in columns.items() %}
            cast(null as {{ type }}) as {{ name }}{{ "," if not loop.last }}
        {%- endfor %}
        where 1 = 0)
    {%- else -%}
        {{ relation }}
    {%- endif -%}
{%- endmacro %}
