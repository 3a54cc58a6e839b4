-- Threads read in part (a missing reviews page), one row per (framework, number, part); the latest
-- load wins, so a gap the next refresh could read again is `resolved`.
{% call latest_row(source('raw_github', 'thread_gaps'), ['framework_id', 'number', 'part']) %}
    framework_id,
    repo,
    cast(number as integer) as number,
    kind as thread_kind,
    part,
    reason,
    {{ utc_timestamp('detected_at') }} as detected_at,
    state as gap_state,
    {{ utc_timestamp('state_at') }} as state_at,
    _dlt_load_id as dlt_load_id
{% endcall %}
