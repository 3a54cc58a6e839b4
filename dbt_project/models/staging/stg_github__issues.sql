-- GitHub issues (not pull requests), one row per (framework, number); the latest update wins.
{% call latest_row(source('raw_github', 'issues'), ['framework_id', 'number'], edited_at='updated_at') %}
    framework_id,
    repo,
    cast(number as integer) as number,
    id as github_id,
    kind as thread_kind,
    title,
    body,
    state,
    state_reason,
    author,
    author_association,
    labels as labels_json,
    {{ utc_timestamp('created_at') }} as created_at,
    {{ utc_timestamp('updated_at') }} as updated_at,
    {{ utc_timestamp('closed_at') }} as closed_at,
    cast(comments_count as integer) as comments_count,
    cast(is_bot as boolean) as is_bot,
    role as thread_role,
    role_signal,
    role_version,
    _dlt_load_id as dlt_load_id
{% endcall %}
