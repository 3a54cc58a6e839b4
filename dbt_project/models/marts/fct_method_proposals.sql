-- Issue and pull-request threads that name a paper's method, with who answered and how it ended.
with adoptions as (
    select
        arxiv_id,
        framework_id
    from {{ ref('fct_method_adoptions') }}
)

select
    m.thread_id || ':' || m.arxiv_id as proposal_id,
    t.thread_id,
    t.framework_id,
    t.number,
    t.thread_kind,
    m.arxiv_id,
    m.match_kind,
    t.title,
    t.author,
    t.is_bot as opened_by_bot,
    t.state,
    t.state_reason,
    t.created_at,
    t.closed_at,
    t.merged_at,
    t.replies,
    t.maintainer_replies > 0 as maintainer_replied,
    t.first_reply_at,
    t.first_maintainer_reply_at,
    {{ ratio(dbt.datediff('t.created_at', 't.first_maintainer_reply_at', 'hour'), '24', 2) }}
        as days_to_first_maintainer_reply,
    a.arxiv_id is not null as adopted_by_framework,
    case
        when t.merged_at is not null then 'merged'
        when t.state = 'closed' and t.state_reason = 'not_planned' then 'closed_not_planned'
        when t.state = 'closed' and t.state_reason = 'completed' then 'closed_completed'
        when t.state = 'closed' then 'closed'
        when t.replies = 0 then 'open_without_reply'
        when t.maintainer_replies = 0 then 'open_without_maintainer_reply'
        else 'open_with_maintainer_reply'
    end as outcome
from {{ ref('int_threads__paper_mentions') }} as m
inner join {{ ref('int_threads__unified') }} as t on m.thread_id = t.thread_id
inner join {{ ref('dim_papers') }} as p on m.arxiv_id = p.arxiv_id
left join adoptions as a on m.arxiv_id = a.arxiv_id and t.framework_id = a.framework_id
