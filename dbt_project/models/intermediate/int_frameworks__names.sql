-- The names each registered framework goes by, in the identifier form commit tokens and aliases use:
-- its id, its display name and its repository's name (`NovaSky-AI/SkyRL` -> skyrl).
with names as (
    select
        framework_id,
        unnest([framework_id, display_name, {{ regex_extract('repo', '/(.*)$', 1) }}]) as name
    from {{ ref('stg_registry__frameworks') }}
)

select distinct
    framework_id,
    {{ method_token('name') }} as token
from names
