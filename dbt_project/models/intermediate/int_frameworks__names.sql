-- The names each registered framework goes by, in the identifier form commit tokens and aliases use:
-- its id, its display name and its repository's name (`NovaSky-AI/SkyRL` -> skyrl).
select
    framework_id,
    {{ method_token('framework_id') }} as token
from {{ ref('stg_registry__frameworks') }}
union
select
    framework_id,
    {{ method_token('display_name') }} as token
from {{ ref('stg_registry__frameworks') }}
union
select
    framework_id,
    {{ method_token(regex_extract('repo', '/(.*)$', 1)) }} as token
from {{ ref('stg_registry__frameworks') }}
