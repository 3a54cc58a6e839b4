{#- Staging dedupe of a raw table that dlt appends to: one row per key, the latest edit wins
    (greatest `edited_at`, then the latest dlt load; rows without an edit time, such as submitted
    reviews, keep the latest load). The select list is the call block:
        {% call latest_row(source('raw_github', 'comments'), ['id']) %} id as comment_id, ... {% endcall %}
-#}
{% macro latest_row(relation, keys, edited_at=none) -%}
select distinct on ({{ keys | join(', ') }})
{{ caller() }}
from {{ relation }}
order by {% for key in keys %}{{ key }} asc, {% endfor %}{% if edited_at %}{{ edited_at }} desc, {% endif %}_dlt_load_id desc
{%- endmacro %}
