import { describeFormat } from "./formats.js";
import { type SchemaNode, schema, settings } from "./schema.js";

/** Escapes a table cell: pipes would split it, angle brackets would render as HTML tags. */
const cell = (text: string): string =>
  text.replace(/\|/g, "\\|").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\n/g, " ");

function showDefault(value: unknown, sensitive: boolean): string {
  if (sensitive) return "(none)";
  if (value === "") return '`""` (unset)';
  return `\`${JSON.stringify(value)}\``;
}

/**
 * Renders the settings as a Markdown table `setting | env | default | doc` (the doc column also
 * gives the format), for README and `mm config --docs`.
 * @example console.log(renderSettingsTable());
 */
export function renderSettingsTable(root: SchemaNode = schema): string {
  const rows = settings(root).map(({ path, spec }) => {
    const doc = `${spec.doc} *(${describeFormat(spec.format)})*`;
    return `| \`${path}\` | \`${spec.env}\` | ${showDefault(spec.default, spec.sensitive === true)} | ${cell(doc)} |`;
  });
  return ["| setting | env | default | doc |", "|---|---|---|---|", ...rows].join("\n");
}
