import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { RecordedWriter } from "../../../../src/recorded/format.js";

/** Debian's chromium package (.ci/run installs it). */
export const CHROMIUM = "/usr/bin/chromium";

/** Whether the tests can render: chromium is installed. */
export const chromiumInstalled = (): boolean => existsSync(CHROMIUM);

/** What a headless render gave back. */
export interface Rendered {
  /** The DOM after the page's scripts ran (`--dump-dom`). */
  readonly dom: string;
  /** URLs the page itself asked for (Chromium's own background requests excluded), from its NetLog. */
  readonly pageRequests: string[];
}

/**
 * Renders a local HTML file in headless Chromium with a fresh profile and returns the DOM after
 * load plus every network request the page initiated. Requests come from Chromium's NetLog:
 * URL_REQUEST_START_JOB events carry an `initiator`, "not an origin" for the browser's own
 * housekeeping (update checks, network time…) and the page's origin ("null" for a file://
 * page) for what the page fetched. DNS is mapped to nothing, so no request would leave the machine.
 */
export async function renderHeadless(htmlPath: string, scratch: string): Promise<Rendered> {
  const dir = mkdtempSync(join(scratch, "chromium-"));
  const netLog = join(dir, "net.json");
  try {
    const dom = await new Promise<string>((resolve, reject) => {
      execFile(
        CHROMIUM,
        [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          `--user-data-dir=${join(dir, "profile")}`,
          "--host-resolver-rules=MAP * ~NOTFOUND",
          `--log-net-log=${netLog}`,
          "--virtual-time-budget=5000",
          "--dump-dom",
          pathToFileURL(htmlPath).href,
        ],
        { timeout: 30_000, maxBuffer: 64 * 1024 * 1024 },
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
      );
    });
    return { dom, pageRequests: pageRequests(readFileSync(netLog, "utf8")) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function pageRequests(netLogText: string): string[] {
  // Chromium may leave the closing of the events array out when it exits: accept both forms.
  const text = netLogText.trimEnd();
  const log = JSON.parse(text.endsWith("}") ? text : `${text.replace(/,$/, "")}]}`) as {
    constants: { logEventTypes: Record<string, number> };
    events: { type: number; params?: { url?: string; initiator?: string } }[];
  };
  const start = log.constants.logEventTypes.URL_REQUEST_START_JOB;
  return log.events
    .filter((e) => e.type === start && e.params?.url !== undefined && e.params.initiator !== "not an origin")
    .map((e) => e.params?.url as string);
}

/** One element of a dumped DOM: its tag, attributes and the markup up to the next element of that tag. */
export interface DomElement {
  readonly tag: string;
  readonly attrs: Record<string, string>;
  /** From the element's start tag to the next start tag of the same name (or the end). */
  readonly body: string;
}

/**
 * The elements `tag` of serialized HTML, with their attributes (entity-decoded for &amp; &quot;
 * &lt; &gt;). Enough for Chromium's own serialization, which quotes every attribute with ".
 */
export function elements(html: string, tag: string): DomElement[] {
  const re = new RegExp(`<${tag}\\b([^>]*)>`, "g");
  const starts = [...html.matchAll(re)];
  return starts.map((m, i) => ({
    tag,
    attrs: attributes(m[1] ?? ""),
    body: html.slice(m.index, starts[i + 1]?.index ?? html.length),
  }));
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([\w:-]+)="([^"]*)"/g)) {
    out[m[1] as string] = (m[2] as string)
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  }
  return out;
}

/** The commands an SVG path draws as the chart script writes lines: one M or H per value, one H per null after a value. */
export function pathPoints(d: string): number {
  return (d.match(/[MH]/g) ?? []).length;
}

/**
 * A quiet second token for multi-market runs: a snapshot (bids 0.30/0.29, asks 0.32/0.33, tick
 * 0.01) and one small resize every `stepMs`, between t0 and t0 + (frames − 1)·stepMs.
 */
export async function writeQuietToken(
  path: string,
  tokenId: string,
  frames: number,
  t0: number,
  stepMs: number,
) {
  const w = RecordedWriter.create(path);
  const conditionId = `0x${"cd".repeat(32)}`;
  const frame = (type: string, data: Record<string, unknown>) => ({
    type,
    sid: 2,
    channel: "token_book",
    id: tokenId,
    data: { tokenId, conditionId, ...data },
  });
  const level = (price: string, size: string) => ({ price, size });
  await w.write({
    recvTs: t0,
    frame: frame("book_snapshot", {
      seq: 1,
      bids: [level("0.30", "100"), level("0.29", "200")],
      asks: [level("0.32", "100"), level("0.33", "200")],
      tsMs: t0,
    }),
  });
  for (let n = 2; n <= frames; n++) {
    const ts = t0 + (n - 1) * stepMs;
    const changes = [
      { side: n % 2 === 0 ? "buy" : "sell", price: n % 2 === 0 ? "0.29" : "0.33", size: String(150 + n) },
    ];
    await w.write({ recvTs: ts, frame: frame("book_delta", { seq: n, prevSeq: n - 1, changes, tsMs: ts }) });
  }
  await w.close();
}
