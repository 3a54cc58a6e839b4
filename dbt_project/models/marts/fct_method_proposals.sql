-- Proposals of a paper's method: threads whose role is `proposal` (an issue asking for the method,
-- or a pull request bringing it) and that name the paper; who answered (comments and reviews) and
-- how it ended. Threads that merely name a method (failure reports, questions...) are in
-- fct_thread_method_mentions, not here. `study_outcome` is the study's figure: merged (the pull
-- request was merged, or landed by a squash/rebase merge: a default-branch commit whose subject ends
-- with "(#number)" while GitHub still shows it open), implemented_elsewhere (an issue closed while
-- the framework carries the method, adopted no earlier than a week before the issue was opened: the
-- method landed after the ask), closed (without it), open_with_maintainer_reply,
-- open_without_maintainer_reply (nobody from the project answered, whether or not anyone else replied).
with adoptions as (
    select
        arxiv_id,
        framework_id,
        adopted_on
    from {{ ref('fct_method_adoptions') }}
),

squash_merges as (
    -- pull requests a default-branch commit names as "(#number)" at the end of its subject
    select distinct
        framework_id,
        cast(
            nullif({{ regex_extract("split_part(message, chr(10), 1)", "\\(#([0-9]+)\\)[[:space:]]*$") }}, '')
            as integer
        ) as number
    from {{ ref('stg_git__commits') }}
    where on_default_branch
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
        a.arxiv_id is not null
        and a.adopted_on >= cast({{ dbt.dateadd('day', -7, 'm.created_at') }} as date) as adopted_after_opening,
        sm.number is not null as landed_by_squash_merge,
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
    left join squash_merges as sm
        on m.thread_kind = 'pull_request' and m.framework_id = sm.framework_id and m.number = sm.number
    where m.thread_role = 'proposal'
)

select
    *,
    case
        when outcome = 'merged' then 'merged'
        when landed_by_squash_merge and state = 'open' then 'merged'
        when adopted_after_opening and thread_kind = 'issue' and state = 'closed' then 'implemented_elsewhere'
        when state = 'closed' then 'closed'
        when outcome = 'open_without_reply' then 'open_without_maintainer_reply'
        else outcome
    end as study_outcome
from proposals
