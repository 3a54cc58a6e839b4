-- Comments on issues and pull requests, one row per comment id; the latest edit wins.
{% call latest_row(source('raw_github', 'comments'), ['id'], edited_at='updated_at') %}
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
    _dlt_load_id as dlt_load_id
{% endcall %}
