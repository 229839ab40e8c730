/** Escaping for the two places log-derived text enters the HTML page. */

const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML element body or a quoted attribute value. */
export function escapeHtml(text: string): string {
  // Control characters (but TAB and LF) are not valid in HTML text: U+FFFD, as DOT labels do.
  // eslint-disable-next-line no-control-regex
  return text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] as string).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\ufffd');
}

/**
 * JSON that can sit inside `<script type="application/json">`: `<`, `>` and `&`
 * as \u escapes, so no `</script>` or `<!--` can appear; DEL/C1 controls and U+2028/2029 escaped
 * (they end a line in older JS parsers). JSON.parse reads it back unchanged.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
