-- arXiv papers, one row per id without version: the latest version wins.
with source as (
    select * from {{ source('raw_arxiv', 'papers') }}
),

ranked as (
    select
        *,
        row_number() over (partition by arxiv_id order by updated_at desc, _dlt_load_id desc) as row_rank
    from source
)

select
    arxiv_id,
    cast(latest_version as integer) as latest_version,
    title,
    abstract,
    authors as authors_json,
    primary_category,
    categories as categories_json,
    {{ utc_timestamp('published_at') }} as published_at,
    {{ utc_timestamp('updated_at') }} as updated_at,
    cast({{ utc_timestamp('published_at') }} as date) as first_version_date,
    comment,
    journal_ref,
    doi,
    code_urls as code_urls_json,
    _dlt_load_id as dlt_load_id
from ranked
where row_rank = 1
