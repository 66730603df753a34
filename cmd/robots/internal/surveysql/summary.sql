-- The tables of the summary "robots survey" prints (docs/survey.md),
-- computed from its Parquet output, in DuckDB's SQL. The queries read
-- three views, which the caller creates over the files of one run, or of
-- all the shards of a run, which together are one table:
--
--   CREATE VIEW captures AS SELECT * FROM read_parquet('OUT/captures*.parquet');
--   CREATE VIEW agents   AS SELECT * FROM read_parquet('OUT/agents*.parquet');
--   CREATE VIEW errors   AS SELECT * FROM read_parquet('OUT/errors*.parquet');
--
-- Each query is named by the "-- name:" line before it. The test of this
-- directory (go test, here) runs them over a survey of testdata/corpus and
-- checks every figure against the summary the command printed. Apart from
-- the map subscripts (content_signal['ai-train']: element_at in Athena;
-- BigQuery loads a Parquet map as an array of key-value records), the SQL
-- is plain enough for Spark, Athena and BigQuery as written.

-- name: totals
-- The captures answered and the error rows.
SELECT
  (SELECT count(*) FROM captures) AS captures,
  (SELECT count(*) FROM errors) AS errors;

-- name: sizes
-- Body sizes in bytes over the captures answered: the median and the
-- p90 by nearest rank (the size at rank ceil(q * n) in size order), the
-- largest and the total.
WITH ranked AS (
  SELECT bytes,
         row_number() OVER (ORDER BY bytes) AS size_rank,
         count(*) OVER () AS n
  FROM captures
)
SELECT
  coalesce(max(CASE WHEN size_rank = greatest(1, ceil(0.5 * n)) THEN bytes END), 0) AS median,
  coalesce(max(CASE WHEN size_rank = greatest(1, ceil(0.9 * n)) THEN bytes END), 0) AS p90,
  coalesce(max(bytes), 0) AS max,
  coalesce(sum(bytes), 0) AS total
FROM ranked;

-- name: pages
-- HTML pages served as robots.txt, and bodies cut at the 500 KiB Google
-- reads.
SELECT
  coalesce(sum(CASE WHEN html THEN 1 ELSE 0 END), 0) AS html,
  coalesce(sum(CASE WHEN truncated THEN 1 ELSE 0 END), 0) AS truncated
FROM captures;

-- name: statuses
-- The captures per status class and the policy Google's status table
-- gives them.
SELECT
  CAST(floor(status / 100) * 100 AS BIGINT) AS status_class,
  policy,
  count(*) AS captures
FROM captures
GROUP BY 1, 2
ORDER BY 1, 2;

-- name: classes
-- Per agent, the captures whose rules disallow it every path (all), some
-- (some), none (none), or that the classifier left undecided, or whose
-- redirect the run could not follow (unresolved), each with
-- its share of the captures answered (every capture answered has one row
-- per agent), and the captures classed some that a survey checking / alone
-- reads otherwise: as none where / is allowed, as all where it is not.
SELECT
  agent,
  sum(CASE WHEN class = 'all' THEN 1 ELSE 0 END) AS class_all,
  sum(CASE WHEN class = 'some' THEN 1 ELSE 0 END) AS class_some,
  sum(CASE WHEN class = 'none' THEN 1 ELSE 0 END) AS class_none,
  sum(CASE WHEN class = 'undecided' THEN 1 ELSE 0 END) AS class_undecided,
  round(100.0 * sum(CASE WHEN class = 'all' THEN 1 ELSE 0 END) / count(*), 1) AS share_all,
  round(100.0 * sum(CASE WHEN class = 'some' THEN 1 ELSE 0 END) / count(*), 1) AS share_some,
  round(100.0 * sum(CASE WHEN class = 'none' THEN 1 ELSE 0 END) / count(*), 1) AS share_none,
  sum(CASE WHEN class = 'unresolved' THEN 1 ELSE 0 END) AS class_unresolved,
  sum(CASE WHEN class = 'some' AND root_allowed THEN 1 ELSE 0 END) AS root_only_none,
  sum(CASE WHEN class = 'some' AND NOT root_allowed THEN 1 ELSE 0 END) AS root_only_all
FROM agents
GROUP BY agent
ORDER BY agent;

-- name: causes
-- Per agent, the captures by where their class comes from (source:
-- named, star, nogroup, status, unresolved) and the class: the rule-made
-- blocks (named, star) apart from those a status or an unresolved
-- redirect makes.
SELECT agent, source, "class", count(*) AS captures
FROM agents
GROUP BY agent, source, "class"
ORDER BY agent, source, "class";

-- name: usage
-- Per agent, the captures stating some Content-Signal value at / (search,
-- ai-input or ai-train: a use level alone states none of them) and, per
-- key, how many say yes and no; the same for the Content-Usage categories
-- of vocab-08 (train-ai, ai-use, search); and the
-- captures with Content-Usage lines scoped to a path other than /.
SELECT
  agent,
  sum(CASE WHEN content_signal['search'] IS NOT NULL
             OR content_signal['ai-input'] IS NOT NULL
             OR content_signal['ai-train'] IS NOT NULL THEN 1 ELSE 0 END) AS signal,
  sum(CASE WHEN content_signal['search'] = 'yes' THEN 1 ELSE 0 END) AS search_yes,
  sum(CASE WHEN content_signal['search'] = 'no' THEN 1 ELSE 0 END) AS search_no,
  sum(CASE WHEN content_signal['ai-input'] = 'yes' THEN 1 ELSE 0 END) AS ai_input_yes,
  sum(CASE WHEN content_signal['ai-input'] = 'no' THEN 1 ELSE 0 END) AS ai_input_no,
  sum(CASE WHEN content_signal['ai-train'] = 'yes' THEN 1 ELSE 0 END) AS ai_train_yes,
  sum(CASE WHEN content_signal['ai-train'] = 'no' THEN 1 ELSE 0 END) AS ai_train_no,
  sum(CASE WHEN content_usage IS NOT NULL THEN 1 ELSE 0 END) AS usage,
  sum(CASE WHEN content_usage['train-ai'] = 'yes' THEN 1 ELSE 0 END) AS train_ai_yes,
  sum(CASE WHEN content_usage['train-ai'] = 'no' THEN 1 ELSE 0 END) AS train_ai_no,
  sum(CASE WHEN content_usage['ai-use'] = 'yes' THEN 1 ELSE 0 END) AS ai_use_yes,
  sum(CASE WHEN content_usage['ai-use'] = 'no' THEN 1 ELSE 0 END) AS ai_use_no,
  sum(CASE WHEN content_usage['search'] = 'yes' THEN 1 ELSE 0 END) AS usage_search_yes,
  sum(CASE WHEN content_usage['search'] = 'no' THEN 1 ELSE 0 END) AS usage_search_no,
  sum(CASE WHEN usage_paths THEN 1 ELSE 0 END) AS usage_paths
FROM agents
GROUP BY agent
ORDER BY agent;
