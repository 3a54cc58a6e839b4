-- Every mention of a paper on a framework's default branch (its arXiv id, or one of its method
-- aliases as a code token), graded as evidence:
--   implementation  code a user can turn on: a def/class, an option value or config key, a new
--                   file or folder named after it, its id in implementing code, a commit "add X"
--   documented      a docs page (or an example's/recipe's README) documenting it: its heading,
--                   its file name, a config snippet, its id in the page's prose
--   citation        a mention that is no implementation: a list entry, a news line, related work,
--                   a README's prose, data/evaluation/test files, a plain commit message
--   rejected        the alias is not evidence of this paper (see int_methods__aliases)
-- evidence_reason says what was found and why it counts or not. Only added lines and messages are
-- mined, so deleted code never counts.
with commits as (
    select * from {{ ref('stg_git__commits') }}
    where on_default_branch
),

mentions as (
    select
        m.framework_id,
        m.sha,
        m.path,
        m.mention_kind,
        m.mention_value,
        m.mention_location,
        m.mention_context,
        c.committed_at,
        c.message
    from {{ ref('stg_git__commit_mentions') }} as m
    inner join commits as c
        on m.framework_id = c.framework_id and m.sha = c.sha
),

papers as (
    select
        arxiv_id,
        published_at
    from {{ ref('stg_arxiv__papers') }}
),

docs_paths as (
    select
        framework_id,
        unnest({{ split_to_array('docs_paths', ';') }}) as docs_prefix
    from {{ ref('frameworks') }}
),

by_arxiv_id as (
    select
        m.*,
        p.arxiv_id,
        'arxiv_id' as match_kind,
        'usable' as alias_status,
        'its arXiv id' as alias_reason
    from mentions as m
    inner join papers as p on m.mention_value = p.arxiv_id
    where m.mention_kind = 'arxiv_id'
),

by_alias as (
    select
        m.*,
        a.arxiv_id,
        'alias' as match_kind,
        a.alias_status,
        a.alias_reason
    from mentions as m
    inner join {{ ref('int_methods__aliases') }} as a on m.mention_value = a.alias_token
    where m.mention_kind = 'token'
),

linked as (
    select * from by_arxiv_id
    union all
    select * from by_alias
),

placed as (
    -- the kind of place: message, data (data, evaluation, tests, vendored), docs, readme, example, code
    select
        l.*,
        case
            when l.path = '' then 'message'
            when {{ regex_contains('lower(l.path)',
                '(^|/)(tests?|data|datasets?|evals?|evaluation|benchmarks?|docker|third_party|vendor|patch(es)?)/') }}
                then 'data'
            when exists (
                select 1 from docs_paths as d
                where d.framework_id = l.framework_id and starts_with(l.path, d.docs_prefix)
            ) then 'docs'
            when {{ regex_contains('lower(l.path)', '^readme[^/]*$') }} then 'readme'
            when {{ regex_contains('lower(l.path)', '(^|/)(examples?|recipes?|scripts?)/') }} then 'example'
            else 'code'
        end as place
    from linked as l
),

graded as (
    select
        *,
        case
            when alias_status = 'rejected' then 'rejected'
            when place = 'data' then 'citation'
            when mention_context in ('related_work', 'news', 'docs_list', 'data') then 'citation'
            when
                alias_status = 'needs_method_context'
                and mention_context not in ('path', 'code_def', 'option_value', 'config_key', 'docs_heading')
                then 'rejected'
            when place = 'message'
                then case
                    when {{ regex_contains("lower(split_part(message, chr(10), 1))",
                        '\\b(add|adds|added|support|supports|implement|implements|introduce|feat)\\b') }}
                        then 'implementation'
                    else 'citation'
                end
            when place = 'readme' then 'citation'
            when place = 'docs' or (place = 'example' and {{ regex_contains('lower(path)', '\\.(md|mdx|rst)$') }})
                then 'documented'
            else 'implementation'
        end as evidence_grade
    from placed
)

select
    g.framework_id,
    g.arxiv_id,
    g.sha,
    g.path,
    g.mention_location,
    g.mention_context,
    g.place,
    g.committed_at,
    g.mention_value as matched_value,
    g.match_kind,
    case when g.place = 'docs' then 'docs' else g.match_kind end as evidence,
    g.evidence_grade,
    case g.match_kind when 'arxiv_id' then 'arXiv id' else 'name ''' || g.mention_value || '''' end
    || ' as ' || replace(g.mention_context, '_', ' ') || ' in ' || g.place
    || case g.place when 'message' then '' else ' (' || g.path || ')' end
    || ': '
    || case g.evidence_grade
        when 'rejected' then 'not evidence, ' || g.alias_reason
        when 'citation' then 'a citation, not an implementation'
        when 'documented' then 'documented as supported'
        else 'implemented'
    end as evidence_reason,
    cast(
        case g.evidence_grade
            when 'implementation' then case g.match_kind when 'arxiv_id' then 0.95 else 0.85 end
            when 'documented' then 0.8
            when 'citation' then 0.3
            else 0.0
        end as double precision
    ) as confidence,
    g.committed_at < p.published_at as is_before_first_version
from graded as g
inner join papers as p on g.arxiv_id = p.arxiv_id
