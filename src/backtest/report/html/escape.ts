import { createHash } from "node:crypto";

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Text or an attribute value made safe for HTML (the five significant characters escaped).
 * @example escapeHtml('<a href="x">') // "&lt;a href=&quot;x&quot;&gt;"
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

/**
 * JSON to embed in a `<script type="application/json">` element: `<`, `>` and `&` become \u escapes
 * (so neither `</script>` nor `<!--` can end or alter the element, whatever the strings hold) and
 * so do U+2028/U+2029; JSON.parse of the element's text gives the value back unchanged.
 * @example scriptJson({ s: "</script>" }) // '{"s":"\\u003c/script\\u003e"}'
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The CSP source that allows exactly this inline script or style element's text.
 * @example cspHash("body{}") // "'sha256-…'"
 */
export function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}
