-- Inline pull-request review comments, one row per comment id; the latest edit wins.
{% call latest_row(source('raw_github', 'review_comments'), ['id'], edited_at='updated_at') %}
    id as review_comment_id,
    framework_id,
    repo,
    cast(pull_number as integer) as pull_number,
    review_id,
    in_reply_to_id,
    path,
    author,
    author_association,
    body,
    {{ utc_timestamp('created_at') }} as created_at,
    {{ utc_timestamp('updated_at') }} as updated_at,
    cast(is_bot as boolean) as is_bot,
    _dlt_load_id as dlt_load_id
{% endcall %}
