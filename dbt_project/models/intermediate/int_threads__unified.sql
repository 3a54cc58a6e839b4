-- Issues and pull requests of every framework in one shape, with their role and reply timeline.
-- A reply is an issue comment, a submitted pull-request review, or an inline review comment (an
-- empty COMMENTED review only wraps its inline comments and is not counted twice); replies exclude
-- bots and the thread's own author; a maintainer is OWNER, MEMBER or COLLABORATOR. A thread is
-- incomplete when a load could not read one of its parts (an open stg_github__thread_gaps row: the
-- next refresh reads it again) or holds fewer comments than GitHub counts on it (a page or a
-- comment lost between the two listings); its role comes from what was read. An issue that is no
-- proposal and reports no failure in its opening post is a failure report when one of its first five
-- replies, not a maintainer's, tells a training failure first-hand (the comment's failure_signal;
-- thread_roles.with_replies).
-- Incremental: a refresh rebuilds only the threads that newer dlt loads touched (the thread
-- itself, or any of its replies), from all of their replies (delete+insert per thread).
-- Only registered frameworks: the threads of one taken off the registry leave the table.
{{ config(
    materialized='incremental', unique_key='thread_id', incremental_strategy='delete+insert',
    on_schema_change='append_new_columns',
    post_hook="delete from {{ this }} where framework_id not in (select r.framework_id from "
        ~ "{{ ref('stg_registry__frameworks') }} as r)"
) }}

with issues_and_prs as (
    select
        framework_id,
        number,
        'issue' as thread_kind,
        title,
        body,
        state,
        state_reason,
        author,
        author_association,
        created_at,
        closed_at,
        cast(null as timestamp) as merged_at,
        comments_count,
        is_bot,
        thread_role,
        role_signal,
        dlt_load_id
    from {{ ref('stg_github__issues') }}
    where framework_id in (select r.framework_id from {{ ref('stg_registry__frameworks') }} as r)
    union all
    select
        framework_id,
        number,
        'pull_request' as thread_kind,
        title,
        body,
        state,
        state_reason,
        author,
        author_association,
        created_at,
        closed_at,
        merged_at,
        comments_count,
        is_bot,
        thread_role,
        role_signal,
        dlt_load_id
    from {{ ref('stg_github__pull_requests') }}
    where framework_id in (select r.framework_id from {{ ref('stg_registry__frameworks') }} as r)
),

comments as (
    -- every reply, in one shape (issue_number is the issue or pull-request number)
    select
        framework_id,
        issue_number,
        'comment' as reply_kind,
        author,
        author_association,
        created_at,
        is_bot,
        dlt_load_id
    from {{ ref('stg_github__comments') }}
    union all
    select
        framework_id,
        pull_number as issue_number,
        'review' as reply_kind,
        author,
        author_association,
        submitted_at as created_at,
        is_bot,
        dlt_load_id
    from {{ ref('stg_github__reviews') }}
    where not (review_state = 'COMMENTED' and coalesce(trim(body), '') = '')
    union all
    select
        framework_id,
        pull_number as issue_number,
        'review_comment' as reply_kind,
        author,
        author_association,
        created_at,
        is_bot,
        dlt_load_id
    from {{ ref('stg_github__review_comments') }}
),

threads as (
    select * from issues_and_prs
    {% if is_incremental() %}
        where cast(issues_and_prs.dlt_load_id as double precision) > (
            select coalesce(max(cast(dlt_load_id as double precision)), 0) from {{ this }}
        )
        or exists (
            select 1 from comments as c
            where c.framework_id = issues_and_prs.framework_id and c.issue_number = issues_and_prs.number
                and cast(c.dlt_load_id as double precision) > (
                    select coalesce(max(comments_load_id), 0) from {{ this }}
                )
        )
        or exists (
            select 1 from {{ ref('stg_github__thread_gaps') }} as g
            where g.framework_id = issues_and_prs.framework_id and g.number = issues_and_prs.number
                and cast(g.dlt_load_id as double precision) > (
                    select coalesce(max(cast(dlt_load_id as double precision)), 0) from {{ this }}
                )
        )
    {% endif %}
),

open_gaps as (
    select
        g.framework_id,
        g.number,
        string_agg(g.part, ';' order by g.part) as parts
    from {{ ref('stg_github__thread_gaps') }} as g
    inner join threads as t on g.framework_id = t.framework_id and g.number = t.number
    where g.gap_state = 'open'
    group by g.framework_id, g.number
),

reply_failures as (
    -- the first failure told in an issue's first five replies (thread_roles.REPLY_WINDOW; bots left out) by
    -- someone who is no maintainer
    select
        framework_id,
        number,
        {{ first_by("failure_signal", "created_at asc, comment_id asc") }} as failure_signal
    from (
        select
            c.framework_id,
            c.issue_number as number,
            c.comment_id,
            c.created_at,
            c.author_association,
            c.failure_signal,
            row_number() over (
                partition by c.framework_id, c.issue_number order by c.created_at asc, c.comment_id asc
            ) as reply_rank
        from {{ ref('stg_github__comments') }} as c
        inner join threads as t
            on c.framework_id = t.framework_id and c.issue_number = t.number and t.thread_kind = 'issue'
        where not c.is_bot
    ) as ranked
    where
        reply_rank <= 5 and failure_signal is not null
        and coalesce(author_association, '') not in ('OWNER', 'MEMBER', 'COLLABORATOR')
    group by framework_id, number
),

comment_loads as (
    -- the newest load among all of a thread's comments (the watermark for comments), and the issue
    -- comments held, whoever wrote them (GitHub's comments_count counts them all)
    select
        c.framework_id,
        c.issue_number as number,
        max(cast(c.dlt_load_id as double precision)) as comments_load_id,
        count(*) filter (where c.reply_kind = 'comment') as comments_held
    from comments as c
    inner join threads as t on c.framework_id = t.framework_id and c.issue_number = t.number
    group by c.framework_id, c.issue_number
),

gaps as (
    select
        t.framework_id,
        t.number,
        nullif(
            concat_ws(
                ';',
                case when t.comments_count > coalesce(h.comments_held, 0) then 'comments' end,
                g.parts
            ),
            ''
        ) as incomplete_parts
    from threads as t
    left join open_gaps as g on t.framework_id = g.framework_id and t.number = g.number
    left join comment_loads as h on t.framework_id = h.framework_id and t.number = h.number
),

replies as (
    select
        c.framework_id,
        c.issue_number as number,
        count(*) as replies,
        count(*) filter (where c.author_association in ('OWNER', 'MEMBER', 'COLLABORATOR')) as maintainer_replies,
        count(*) filter (where c.reply_kind <> 'comment') as review_replies,
        min(c.created_at) as first_reply_at,
        min(c.created_at) filter (
            where c.author_association in ('OWNER', 'MEMBER', 'COLLABORATOR')
        ) as first_maintainer_reply_at,
        -- maintainer replies sort first, oldest first; null when no maintainer replied
        {{ first_by(
            "case when c.author_association in ('OWNER', 'MEMBER', 'COLLABORATOR') then c.reply_kind end",
            "case when c.author_association in ('OWNER', 'MEMBER', 'COLLABORATOR') then 0 else 1 end, "
            ~ "c.created_at asc, c.reply_kind asc"
        ) }} as first_maintainer_reply_kind
    from comments as c
    inner join threads as t on c.framework_id = t.framework_id and c.issue_number = t.number
    where not c.is_bot and c.author <> t.author
    group by c.framework_id, c.issue_number
)

select
    t.framework_id || '#' || cast(t.number as varchar) as thread_id,
    t.framework_id,
    t.number,
    t.thread_kind,
    t.title,
    t.body,
    t.state,
    t.state_reason,
    t.author,
    t.author_association,
    t.created_at,
    t.closed_at,
    t.merged_at,
    t.comments_count,
    t.is_bot,
    case
        when rf.failure_signal is not null and t.thread_role not in ('proposal', 'failure_report')
            then 'failure_report'
        else t.thread_role
    end as thread_role,
    case
        when rf.failure_signal is not null and t.thread_role not in ('proposal', 'failure_report')
            then 'a reply reports a failure: ''' || rf.failure_signal || ''''
        else t.role_signal
    end as role_signal,
    t.dlt_load_id,
    coalesce(r.replies, 0) as replies,
    coalesce(r.maintainer_replies, 0) as maintainer_replies,
    coalesce(r.review_replies, 0) as review_replies,
    r.first_reply_at,
    r.first_maintainer_reply_at,
    r.first_maintainer_reply_kind,
    gp.incomplete_parts is null as is_complete,
    gp.incomplete_parts,
    cl.comments_load_id
from threads as t
left join replies as r on t.framework_id = r.framework_id and t.number = r.number
left join comment_loads as cl on t.framework_id = cl.framework_id and t.number = cl.number
left join gaps as gp on t.framework_id = gp.framework_id and t.number = gp.number
left join reply_failures as rf on t.framework_id = rf.framework_id and t.number = rf.number
