{#- The lower-case column names of a relation (a raw table that older loads created with fewer
    columns: staging reads a column only where it exists); none while dbt parses. -#}
{% macro column_names(relation) -%}
    {{ return(adapter.get_columns_in_relation(relation) | map(attribute='name') | map('lower') | list if execute else []) }}
{%- endmacro %}
