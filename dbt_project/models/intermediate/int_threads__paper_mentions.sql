-- Threads that name a paper: by arXiv id, by a method alias appearing as a word sequence
-- ("Dr. GRPO", "dr_grpo" and "DR-GRPO" all normalise to dr_grpo), or by its title (four words or
-- more, after any "NAME:" prefix, found whole, and no other paper's; candidates come from its first
-- three words). named_in_title: the thread's
-- title names the paper, which ties a proposal to the paper it is about. Matching joins the threads'
-- stored word n-grams (int_threads__ngrams) to the current aliases on equality, so new aliases
-- reach old threads without tokenising them again, and the cost never grows as threads x aliases.
-- Alias hygiene as on the commit side: a distinctive name counts anywhere; a name that is also an
-- ordinary word (needs_method_context) counts only in a method context, here the title of a thread
-- whose role is proposal ("Support for SPIN": the thread asks for a method by that name).
with titles as (
    -- the title as an arXiv-id haystack and as a '_'-delimited method-token haystack
    select
        thread_id,
        thread_role,
        title || ' _' || {{ method_token('title') }} || '_' as haystack
    from {{ ref('int_threads__unified') }}
),

candidate_ids as (
    select
        thread_id,
        {{ regex_matches_as_rows("title || ' ' || coalesce(body, '')", '\d{4}\.\d{4,5}') }} as candidate_id
    from {{ ref('int_threads__unified') }}
),

by_arxiv_id as (
    select distinct
        c.thread_id,
        p.arxiv_id,
        'arxiv_id' as match_kind,
        p.arxiv_id as title_needle
    from candidate_ids as c
    inner join {{ ref('stg_arxiv__papers') }} as p on c.candidate_id = p.arxiv_id
),

by_alias as (
    select distinct
        n.thread_id,
        a.arxiv_id,
        'alias' as match_kind,
        '_' || a.alias_token || '_' as title_needle
    from {{ ref('int_threads__ngrams') }} as n
    inner join {{ ref('int_methods__aliases') }} as a on n.ngram = a.alias_token
    left join titles as t on n.thread_id = t.thread_id
    where
        a.alias_status = 'usable'  -- a distinctive name of one paper (not a word, not older than it)
        or (
            a.alias_status = 'needs_method_context' and t.thread_role = 'proposal'
            and position('_' || a.alias_token || '_' in t.haystack) > 0
        )
),

paper_titles as (
    select
        arxiv_id,
        title_token,
        {{ regex_extract('title_token', '^([a-z0-9]+_[a-z0-9]+_[a-z0-9]+)') }} as title_head
    from (
        select
            arxiv_id,
            {{ method_token("regexp_replace(title, '^[^:]{1,40}:', '')") }} as title_token
        from {{ ref('stg_arxiv__papers') }}
    ) as titled
    where length(title_token) - length(replace(title_token, '_', '')) >= 3  -- four words or more
),

unique_title_tokens as (
    -- a title two papers share (after their NAME: prefixes) names neither
    select title_token
    from paper_titles
    group by title_token
    having count(*) = 1
),

distinct_titles as (
    select
        p.arxiv_id,
        p.title_token,
        p.title_head
    from paper_titles as p
    inner join unique_title_tokens as u on p.title_token = u.title_token
),

title_candidates as (
    select distinct
        n.thread_id,
        p.arxiv_id,
        p.title_token
    from {{ ref('int_threads__ngrams') }} as n
    inner join distinct_titles as p on n.ngram = p.title_head
),

by_title as (
    select distinct
        c.thread_id,
        c.arxiv_id,
        'title' as match_kind,
        '_' || c.title_token || '_' as title_needle
    from title_candidates as c
    inner join {{ ref('int_threads__unified') }} as t on c.thread_id = t.thread_id
    where
        position(
            '_' || c.title_token || '_' in '_' || {{ method_token("t.title || ' ' || coalesce(t.body, '')") }} || '_'
        ) > 0
),

matches as (
    select * from by_arxiv_id
    union all
    select * from by_alias
    union all
    select * from by_title
)

select
    m.thread_id,
    m.arxiv_id,
    min(m.match_kind) as match_kind,
    -- the title names the paper (its id, or one of its aliases as whole words)
    coalesce(bool_or(position(m.title_needle in t.haystack) > 0), false) as named_in_title
from matches as m
left join titles as t on m.thread_id = t.thread_id
group by m.thread_id, m.arxiv_id
