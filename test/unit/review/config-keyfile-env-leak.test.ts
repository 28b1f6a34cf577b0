import { describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { makeApiKey, PRIVATE_KEY } from "../config/support.js";

/**
 * Review 16 (config): a key pasted into the *_FILE variable instead of the key's own
 * (MM_PRIVATE_KEY_FILE=0x…, an easy slip in a systemd unit or a .env file) is printed whole on
 * stderr. The loader says the value "looks like a private key, which belongs only in its secret
 * setting" and then still resolves it as a path and reports `cannot read <cwd>/0xac09… (ENOENT)`.
 * Nothing scrubs it: the loader scrubs the secrets it read (MM_API_KEY, MM_PRIVATE_KEY, key-file
 * contents) and main() those of MM_API_KEY / MM_PRIVATE_KEY only. stderr goes to journald, CI logs.
 */
describe("review16 config: a key pasted into a key-file variable never reaches stderr", () => {
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
});
