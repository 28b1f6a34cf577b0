import { describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { loadConfig } from "../../../src/config/load.js";
import { configError, makeApiKey, PRIVATE_KEY } from "./support.js";

/**
 * A key pasted into the *_FILE variable instead of the key's own (MM_PRIVATE_KEY_FILE=0x…, an easy
 * slip in a systemd unit or a .env file) must never reach stderr, which goes to journald and CI
 * logs. Read as a path, it would come back in `cannot read <cwd>/0xac09… (ENOENT)` (review 16).
 */
describe("a key pasted into a key-file variable never reaches stderr", () => {
  const run = async (env: NodeJS.ProcessEnv): Promise<{ code: number; err: string }> => {
    let err = "";
    const code = await main(["config"], {
      stdout: () => undefined,
      stderr: (t) => {
        err += t;
      },
      env,
      cwd: "/tmp",
    });
    return { code, err };
  };

  it("MM_PRIVATE_KEY_FILE holding the private key: exit 2 naming the setting, the key not printed", async () => {
    const { code, err } = await run({ MM_PRIVATE_KEY_FILE: PRIVATE_KEY });
    expect(code).toBe(2);
    expect(err).toContain("secrets.privateKeyFile");
    expect(err.toLowerCase()).not.toContain(PRIVATE_KEY.slice(2).toLowerCase());
  });

  it("MM_API_KEY_FILE holding the API key: exit 2 naming the setting, neither the key nor its secret printed", async () => {
    const { key, secret } = makeApiKey();
    const { code, err } = await run({ MM_API_KEY_FILE: key });
    expect(code).toBe(2);
    expect(err).toContain("secrets.apiKeyFile");
    expect(err).not.toContain(secret);
  });

  it("the loader does not read such a value as a path: one line for the setting, no key in any issue", () => {
    const { key, secret } = makeApiKey();
    const e = configError(() =>
      loadConfig({ env: { MM_API_KEY_FILE: key, MM_PRIVATE_KEY_FILE: PRIVATE_KEY }, cwd: "/tmp" }),
    );
    const text = e.lines().join("\n");
    expect(text).not.toContain(secret);
    expect(text.toLowerCase()).not.toContain(PRIVATE_KEY.slice(2).toLowerCase());
    expect(text).not.toContain("cannot read");
    expect(e.issues.filter((i) => i.field === "secrets.apiKeyFile")).toHaveLength(1);
    expect(e.issues.filter((i) => i.field === "secrets.privateKeyFile")).toHaveLength(1);
  });

  it("a plain key-file path stays readable in the error", async () => {
    const { code, err } = await run({ MM_PRIVATE_KEY_FILE: "/nonexistent/mm-private-key" });
    expect(code).toBe(2);
    expect(err).toContain("cannot read /nonexistent/mm-private-key");
  });
});

describe("main's stderr guard", () => {
  it("scrubs a key found in a key-file variable from any line, not only the loader's", async () => {
    let err = "";
    const code = await main([PRIVATE_KEY], {
      stdout: () => undefined,
      stderr: (t) => {
        err += t;
      },
      env: { MM_PRIVATE_KEY_FILE: PRIVATE_KEY },
      cwd: "/tmp",
    });
    expect(code).toBe(2);
    expect(err).toContain("unknown command");
    expect(err.toLowerCase()).not.toContain(PRIVATE_KEY.slice(2).toLowerCase());
  });

  it("scrubs the API key's secret part on its own, not only the whole MM_API_KEY", async () => {
    // The part alone reaches stderr when typed into another place (here the command name).
    const { key, secret } = makeApiKey();
    let err = "";
    const code = await main([secret], {
      stdout: () => undefined,
      stderr: (t) => {
        err += t;
      },
      env: { MM_API_KEY: key },
      cwd: "/tmp",
    });
    expect(code).toBe(2);
    // A secret is base64url: one starting with "-" (1 in 64) is read as an option.
    expect(err).toMatch(/unknown (command|option) "\[REDACTED\]"/);
    expect(err).not.toContain(secret);
  });
});
