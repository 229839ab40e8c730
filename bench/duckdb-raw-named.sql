-- Records of instances named by `I` records (see duckdb-features.sql), as
-- SPEC §1 has them: the records after `I id` belong to instance id of their
-- class (in any of its files: a rotated log goes on with it), those before a
-- file's first `I` to the file itself. Lines keep their order through the
-- scan: row_number() OVER () follows it under DuckDB's default
-- preserve_insertion_order (checked on the request sets: the `I` ids and the
-- files come out in order).
lines AS (
  SELECT row_number() OVER () AS rn, * FROM (
    SELECT 'good' AS cls, filename AS file, kind, t, name, v
    FROM read_csv('{good}', delim = '\t', header = false, comment = '#', null_padding = true, filename = true,
                  auto_detect = false, columns = {'kind': 'VARCHAR', 't': 'VARCHAR', 'name': 'VARCHAR', 'v': 'DOUBLE'})
    UNION ALL
    SELECT 'bad', filename, kind, t, name, v
    FROM read_csv('{bad}', delim = '\t', header = false, comment = '#', null_padding = true, filename = true,
                  auto_detect = false, columns = {'kind': 'VARCHAR', 't': 'VARCHAR', 'name': 'VARCHAR', 'v': 'DOUBLE'})
  )
),
raw AS (
  SELECT cls, coalesce(cls || chr(9) || id, file) AS inst, rn, kind, t::DOUBLE AS t, name, v FROM (
    SELECT *, last_value(CASE WHEN kind = 'I' THEN t END IGNORE NULLS) OVER (PARTITION BY file ORDER BY rn ROWS UNBOUNDED PRECEDING) AS id
    FROM lines
  ) WHERE kind <> 'I'
)
