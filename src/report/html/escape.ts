/** Escaping for the two places log-derived text enters the HTML page. */

const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML element body or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] as string);
}

/**
 * JSON that can sit inside `<script type="application/json">`: `<`, `>` and `&`
 * as \u escapes, so no `</script>` or `<!--` can appear, and U+2028/2029 escaped
 * (they end a line in older JS parsers). JSON.parse reads it back unchanged.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
