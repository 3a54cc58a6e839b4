-- Proposals of a paper's method: threads whose role is `proposal` (an issue asking for the method,
-- or a pull request bringing it) and that name the paper; who answered (comments and reviews) and
-- how it ended. Threads that merely name a method (failure reports, questions...) are in
-- fct_thread_method_mentions, not here. `study_outcome` is the study's figure: merged (the pull
-- request was merged, or is still open while the framework carries the paper's method: it landed
-- another way), implemented_elsewhere (an issue closed while the framework carries the method),
-- closed (without it), open_with_maintainer_reply, open_without_maintainer_reply (nobody from the
-- project answered, whether or not anyone else replied).
with adoptions as (
    select
        arxiv_id,
        framework_id
    from {{ ref('fct_method_adoptions') }}
),

proposals as (
    select
        m.thread_id || ':' || m.arxiv_id as proposal_id,
        m.thread_id,
        m.framework_id,
        m.number,
        m.thread_kind,
        m.arxiv_id,
        m.match_kind,
        m.is_main_method,
        m.title,
        t.author,
        t.is_bot as opened_by_bot,
        m.role_signal,
        t.state,
        t.state_reason,
        m.created_at,
        t.closed_at,
        t.merged_at,
        t.replies,
        t.review_replies,
        t.maintainer_replies > 0 as maintainer_replied,
        t.first_reply_at,
        t.first_maintainer_reply_at,
        t.first_maintainer_reply_kind,
        {{ ratio(dbt.datediff('t.created_at', 't.first_maintainer_reply_at', 'hour'), '24', 2) }}
            as days_to_first_maintainer_reply,
        a.arxiv_id is not null as adopted_by_framework,
        t.is_complete as thread_is_complete,
        case
            when t.merged_at is not null then 'merged'
            when t.state = 'closed' and t.state_reason = 'not_planned' then 'closed_not_planned'
            when t.state = 'closed' and t.state_reason = 'completed' then 'closed_completed'
            when t.state = 'closed' then 'closed'
            when t.replies = 0 then 'open_without_reply'
            when t.maintainer_replies = 0 then 'open_without_maintainer_reply'
            else 'open_with_maintainer_reply'
        end as outcome
    from {{ ref('fct_thread_method_mentions') }} as m
    inner join {{ ref('int_threads__unified') }} as t on m.thread_id = t.thread_id
    left join adoptions as a on m.arxiv_id = a.arxiv_id and m.framework_id = a.framework_id
    where m.thread_role = 'proposal'
)

select
    *,
    case
        when outcome = 'merged' then 'merged'
        when adopted_by_framework and thread_kind = 'pull_request' and state = 'open' then 'merged'
        when adopted_by_framework and thread_kind = 'issue' and state = 'closed' then 'implemented_elsewhere'
        when state = 'closed' then 'closed'
        when outcome = 'open_without_reply' then 'open_without_maintainer_reply'
        else outcome
    end as study_outcome
from proposals
