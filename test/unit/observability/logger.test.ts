import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, expandSecrets, scrub } from "../../../src/observability/logger.js";

const API_KEY = "mm_live_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcd";
const API_SECRET = API_KEY.split("_").slice(3).join("_");
const PRIVATE_KEY = "0xAC0974BEC39A17E36BA4A6B4D238FF944BACB478CBED5EFCAE784D7BF4F2FF80";

function collector(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  return { stream, text: () => chunks.join("") };
}

describe("createLogger", () => {
  it("writes JSON lines with an ISO time and redacts secret fields by path", () => {
    const out = collector();
    const log = createLogger({ level: "debug", pretty: false, destination: out.stream });
    log.debug({ req: { headers: { "x-api-key": API_KEY, accept: "json" } }, apiKey: API_KEY }, "request");
    const line = JSON.parse(out.text().trim()) as Record<string, unknown>;
    expect(line.msg).toBe("request");
    expect(typeof line.time).toBe("string");
    expect(JSON.stringify(line)).not.toContain(API_KEY);
    expect(line.apiKey).toBe("[REDACTED]");
  });

  it("scrubs registered secrets wherever they hide: messages, errors, odd fields, any hex case", () => {
    const out = collector();
    const log = createLogger({
      level: "trace",
      pretty: false,
      destination: out.stream,
      secrets: [API_KEY, API_SECRET, PRIVATE_KEY],
    });
    log.info(`GET /ws?key=${API_KEY}`);
    log.error({ err: new Error(`bad secret ${API_SECRET}`) }, "failed");
    log.warn({ blob: { nested: [PRIVATE_KEY.toLowerCase().slice(2)] } }, "oops");
    log.debug({ weird: { authorization: `Bearer ${API_KEY}` } });
    log.info({ keyId: "0123456789abcdef" }, "key in use");
    const text = out.text();
    expect(text.split("\n").filter(Boolean)).toHaveLength(5);
    for (const s of [
      API_KEY,
      API_SECRET,
      PRIVATE_KEY,
      PRIVATE_KEY.slice(2),
      PRIVATE_KEY.toLowerCase().slice(2),
    ]) {
      expect(text).not.toContain(s);
    }
    expect(text).toContain("0123456789abcdef"); // the keyId is public and stays readable
    expect(text).toContain("[REDACTED]");
  });

  it("renders human-readable lines in pretty mode, still scrubbed", () => {
    const out = collector();
    const log = createLogger({ level: "info", pretty: true, destination: out.stream, secrets: [API_KEY] });
    log.info({ apiKey: API_KEY }, `hello ${API_KEY}`);
    // With an explicit destination pretty is the caller's business; the line is still scrubbed.
    expect(out.text()).not.toContain(API_KEY);
  });
});

describe("expandSecrets / scrub", () => {
  it("ignores short values that would mangle ordinary text and covers 0x-less forms", () => {
    expect(expandSecrets(["abc", ""])).toEqual([]);
    expect(expandSecrets(["0xdeadbeefdeadbeef"])).toEqual(["0xdeadbeefdeadbeef", "deadbeefdeadbeef"]);
  });
  it("replaces every occurrence", () => {
    expect(scrub("a SECRET-1234 b SECRET-1234", ["SECRET-1234"])).toBe("a [REDACTED] b [REDACTED]");
    expect(scrub("x DEADBEEFDEADBEEF y deadbeefdeadbeef", ["deadbeefdeadbeef"])).toBe(
      "x [REDACTED] y [REDACTED]",
    );
  });
});
