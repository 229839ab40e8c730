-- The event and state features of distalyze (SPEC §2) and their Welch t, as one
-- DuckDB query over the dlog files (issue 17's reference). {raw} is one of the
-- two ways to read them into records (cls, inst, rn, kind, t, name, v), which
-- bench/duckdb-run.py (or .mjs) chooses as bench/reference.py does, by whether
-- the first 64 KB of any file holds an `I` record:
--   duckdb-raw-files.sql  one instance per file (the dlog and small sets);
--   duckdb-raw-named.sql  instances named by `I` records (the request sets).
-- {good} and {bad} are globs, substituted by the same scripts. Records keep
-- their lines' order (rn) where instances are named; equal timestamps within an
-- instance are then ordered by it, as distalyze's stable sort does.
WITH {raw},
rec AS (
  SELECT cls, inst, rn, kind, name, v,
         t - min(t) OVER w AS tn,
         max(t) OVER w - min(t) OVER w AS d
  FROM raw WINDOW w AS (PARTITION BY inst)
),
ev AS (
  SELECT *, tn - lag(tn) OVER (PARTITION BY inst ORDER BY tn, rn) AS gap FROM rec WHERE kind = 'E'
),
ev2 AS (
  SELECT *, lead(gap) OVER (PARTITION BY inst ORDER BY tn, rn) AS after FROM ev
),
evf AS (
  SELECT cls, inst, name,
         min(tn) AS "first.abs", median(tn) AS "median.abs", max(tn) AS "last.abs",
         CASE WHEN any_value(d) > 0 THEN min(tn) / any_value(d) END AS "first.rel",
         CASE WHEN any_value(d) > 0 THEN median(tn) / any_value(d) END AS "median.rel",
         CASE WHEN any_value(d) > 0 THEN max(tn) / any_value(d) END AS "last.rel",
         count(*)::DOUBLE AS "count", max(gap) AS "gap", max(after) AS "gap.after", coalesce(sum(gap), 0) AS "wait"
  FROM ev2 GROUP BY cls, inst, name
),
dref AS (
  SELECT median(d) AS dref FROM (SELECT DISTINCT inst, d FROM rec)
),
stf AS (
  SELECT cls, inst, name,
         min(v) AS "min", avg(v) AS "mean", max(v) AS "max", arg_max(v, tn) AS "final",
         coalesce(arg_max(v, tn) FILTER (WHERE tn <= 0.25 * dref), arg_min(v, tn)) AS "q1.abs",
         coalesce(arg_max(v, tn) FILTER (WHERE tn <= 0.5 * dref), arg_min(v, tn)) AS "half.abs",
         coalesce(arg_max(v, tn) FILTER (WHERE tn <= 0.75 * dref), arg_min(v, tn)) AS "q3.abs",
         coalesce(arg_max(v, tn) FILTER (WHERE tn <= 0.25 * d), arg_min(v, tn)) AS "q1.rel",
         coalesce(arg_max(v, tn) FILTER (WHERE tn <= 0.5 * d), arg_min(v, tn)) AS "half.rel",
         coalesce(arg_max(v, tn) FILTER (WHERE tn <= 0.75 * d), arg_min(v, tn)) AS "q3.rel"
  FROM rec, dref WHERE kind = 'S' GROUP BY cls, inst, name
),
long AS (
  SELECT cls, 'event' AS kind, name, feature, x FROM
    (UNPIVOT evf ON "first.abs", "median.abs", "last.abs", "first.rel", "median.rel", "last.rel", "count", "gap", "gap.after", "wait"
     INTO NAME feature VALUE x)
  UNION ALL
  SELECT cls, 'state', name, feature, x FROM
    (UNPIVOT stf ON "min", "mean", "max", "final", "q1.abs", "half.abs", "q3.abs", "q1.rel", "half.rel", "q3.rel"
     INTO NAME feature VALUE x)
),
m AS (
  SELECT kind, name, feature, cls, avg(x) AS mean, var_samp(x) AS s2, count(x) AS n FROM long GROUP BY ALL
)
SELECT g.kind, g.name, g.feature, g.mean AS good, b.mean AS bad,
       (b.mean - g.mean) / sqrt(b.s2 / b.n + g.s2 / g.n) AS t
FROM m g JOIN m b USING (kind, name, feature)
WHERE g.cls = 'good' AND b.cls = 'bad'
ORDER BY g.kind, g.name, g.feature;
