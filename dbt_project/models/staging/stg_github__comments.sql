-- Comments on issues and pull requests, one row per comment id; the latest edit wins. failure_signal:
-- the training failure the comment tells first-hand (null in rows loaded before the rules read replies).
{%- set source_relation = source('raw_github', 'comments') %}
{%- set columns = column_names(source_relation) %}
{% call latest_row(source_relation, ['id'], edited_at='updated_at') %}
    id as comment_id,
    framework_id,
    repo,
    cast(issue_number as integer) as issue_number,
    author,
    author_association,
    body,
    {{ utc_timestamp('created_at') }} as created_at,
    {{ utc_timestamp('updated_at') }} as updated_at,
    cast(is_bot as boolean) as is_bot,
    cast({{ 'failure_signal' if 'failure_signal' in columns else 'null' }} as varchar) as failure_signal,
    _dlt_load_id as dlt_load_id
{% endcall %}
