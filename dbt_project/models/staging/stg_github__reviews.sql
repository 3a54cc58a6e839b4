-- Pull-request reviews, one row per review id (reviews are immutable once submitted).
{% call latest_row(source('raw_github', 'reviews'), ['id']) %}
    id as review_id,
    framework_id,
    repo,
    cast(pull_number as integer) as pull_number,
    state as review_state,
    author,
    author_association,
    body,
    {{ utc_timestamp('submitted_at') }} as submitted_at,
    cast(is_bot as boolean) as is_bot,
    _dlt_load_id as dlt_load_id
{% endcall %}
