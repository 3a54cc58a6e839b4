{#- Generic test: every row satisfies a boolean SQL expression over the model's columns. -#}
{% test expression_is_true(model, expression, column_name=none) %}
select *
from {{ model }}
where not ({{ expression }})
{% endtest %}

{#- Generic test: a column's non-null values lie in [min_value, max_value]. -#}
{% test value_between(model, column_name, min_value, max_value) %}
select {{ column_name }}
from {{ model }}
where {{ column_name }} < {{ min_value }} or {{ column_name }} > {{ max_value }}
{% endtest %}
