-- Redirects across the WARC files of a run. "robots survey" follows a 3xx
-- within its own file; a target captured in another file of the run is
-- "absent" there (redirect_error; "index_full" when the file's index of
-- responses was full), and the 3xx capture is unresolved: its policy and
-- every agent's class are "unresolved", the agent rows' source too. This
-- query follows such a redirect one hop further, over the captures of
-- every file: it gives each agent row of the target's capture to the 3xx
-- capture, the target's capture being the one of the target URL, as the
-- survey resolved the Location, fetched nearest in time to the 3xx (the
-- first in input order on a tie). The target's own rows already say where
-- its redirects within its file led. A 3xx whose target no file of the
-- run holds has no row here: it stays unresolved. It reads the views of
-- summary.sql; a capture is named by its input and its index.

-- name: redirect_agents
SELECT
  c.input, c."index", c.url, c.redirect_target,
  t.input AS target_input, t."index" AS target_index,
  t.status AS target_status, t.policy AS target_policy,
  a.agent, a."group", a."class", a.source, a.class_site, a.allowed_example, a.disallowed_example
FROM captures AS c
JOIN captures AS t
  ON t.url = c.redirect_target AND NOT (t.input = c.input AND t."index" = c."index")
JOIN agents AS a
  ON a.input = t.input AND a."index" = t."index"
WHERE c.policy = 'unresolved'
QUALIFY dense_rank() OVER (
  PARTITION BY c.input, c."index"
  ORDER BY abs(epoch(CAST(t.fetch_time AS TIMESTAMPTZ)) - epoch(CAST(c.fetch_time AS TIMESTAMPTZ))),
           t.input, t."index"
) = 1
ORDER BY c.input, c."index", a.agent;
