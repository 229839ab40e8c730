-- Records of one instance per file (see duckdb-features.sql): the file is the
-- instance; rn is 0, so equal timestamps are ordered by time only (read_csv
-- gives no line number, and numbering the lines costs this query ~30 %), which
-- can only change `final`/quartile values at ties.
raw AS (
  SELECT 'good' AS cls, filename AS inst, 0 AS rn, kind, t, name, v
  FROM read_csv('{good}', delim = '\t', header = false, comment = '#', null_padding = true, filename = true,
                auto_detect = false, columns = {'kind': 'VARCHAR', 't': 'DOUBLE', 'name': 'VARCHAR', 'v': 'DOUBLE'})
  UNION ALL
  SELECT 'bad', filename, 0, kind, t, name, v
  FROM read_csv('{bad}', delim = '\t', header = false, comment = '#', null_padding = true, filename = true,
                auto_detect = false, columns = {'kind': 'VARCHAR', 't': 'DOUBLE', 'name': 'VARCHAR', 'v': 'DOUBLE'})
)
