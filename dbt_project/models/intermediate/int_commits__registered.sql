-- Commits of the frameworks the registry tracks: a framework taken off the registry (`rltrack
-- frameworks remove`) keeps its raw and staged rows but leaves the models. Every model that reads
-- commits reads them here.
select c.*
from {{ ref('stg_git__commits') }} as c
where c.framework_id in (select r.framework_id from {{ ref('stg_registry__frameworks') }} as r)
