-- Issues and pull requests of every framework in one shape, with their reply timeline:
-- replies exclude bots and the thread's own author; a maintainer is OWNER, MEMBER or COLLABORATOR.
with threads as (
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
        is_bot,
        dlt_load_id
    from {{ ref('stg_github__issues') }}
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
        is_bot,
        dlt_load_id
    from {{ ref('stg_github__pull_requests') }}
),

replies as (
    select
        c.framework_id,
        c.issue_number as number,
        count(*) as replies,
        count(*) filter (where c.author_association in ('OWNER', 'MEMBER', 'COLLABORATOR')) as maintainer_replies,
        min(c.created_at) as first_reply_at,
        min(c.created_at) filter (
            where c.author_association in ('OWNER', 'MEMBER', 'COLLABORATOR')
        ) as first_maintainer_reply_at
    from {{ ref('stg_github__comments') }} as c
    inner join threads as t on c.framework_id = t.framework_id and c.issue_number = t.number
    where not c.is_bot and c.author <> t.author
    group by c.framework_id, c.issue_number
)

select
    t.framework_id || '#' || cast(t.number as varchar) as thread_id,
    t.*,
    coalesce(r.replies, 0) as replies,
    coalesce(r.maintainer_replies, 0) as maintainer_replies,
    r.first_reply_at,
    r.first_maintainer_reply_at
from threads as t
left join replies as r on t.framework_id = r.framework_id and t.number = r.number
