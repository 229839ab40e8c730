// The module form of trace.yaml, reading columns by their header names (so the
// column order may differ between files, and quoted fields may hold commas).
// Run: distalyze translate --translator examples/trace-csv/trace.mjs fixtures/raw/trace-csv/good -o -

/** Column name → index, from each file's header row. */
let columns = null;

export function beginFile() {
  columns = null;
}

export default function translate(line, ctx) {
  const fields = splitCsv(line);
  if (columns === null) {
    columns = Object.fromEntries(fields.map((name, i) => [name.trim(), i]));
    for (const need of ['trace_id', 'timestamp_ms', 'service', 'span', 'phase']) {
      if (!(need in columns)) throw new Error(`header lacks a '${need}' column`);
    }
    return true; // the header is understood, not a problem
  }
  const get = (name) => fields[columns[name]] ?? '';
  const name = `${get('service')}_${get('span')}`;
  const t = Number(get('timestamp_ms')) / 1000;
  ctx.instance(get('trace_id'));
  ctx.event(t, `${name}_${get('phase')}`);
  const ms = get('duration_ms');
  if (get('phase') === 'end' && ms !== '') ctx.state(t, `${name}_seconds`, Number(ms) / 1000);
}

/** RFC 4180 fields: commas inside double quotes, "" for a quote. (Also used by examples/trainticket.) */
export function splitCsv(line) {
  const out = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { out.push(field); field = ''; }
    else field += c;
  }
  out.push(field);
  return out;
}
