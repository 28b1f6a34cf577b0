import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../../..");

/**
 * A .dockerignore pattern as Docker reads it (moby's patternmatcher): `**` any number of folders,
 * `*` and `?` within one name; a path is left out when it or a folder above it matches.
 */
function excluder(text: string): (path: string) => boolean {
  const patterns = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  // Exceptions (`!`) are not modelled: Docker's two builders descend into an excluded folder for
  // them differently, so the file keeps to plain exclusions (checked here).
  expect(patterns.filter((p) => p.startsWith("!"))).toEqual([]);
  const regexes = patterns.map((p) => {
    let re = "";
    const s = p.replace(/^\/+/, "");
    for (let i = 0; i < s.length; i++) {
      const c = s[i] ?? "";
      if (c === "*" && s[i + 1] === "*") {
        i++;
        if (s[i + 1] === "/") {
          i++;
          re += "(?:.*/)?";
        } else re += ".*";
      } else if (c === "*") re += "[^/]*";
      else if (c === "?") re += "[^/]";
      else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
    return new RegExp(`^${re}$`);
  });
  return (path) => {
    const parts = path.split("/");
    return parts.some((_, n) => regexes.some((r) => r.test(parts.slice(0, n + 1).join("/"))));
  };
}

/*
 * review s24-walksec: the image's final stage copies config/ whole (COPY config ./config), and
 * .dockerignore kept nothing but node_modules, dist, .git, coverage and logs out. An operator who
 * follows README (copy live.example.json to config/live.json, "put the keys in 0600 files") and
 * keeps the key files beside it, then builds the image, ships the keys in an image layer (pushed to
 * a registry with it).
 */
describe(".dockerignore: key files never enter the image's build context", () => {
  const ignored = excluder(readFileSync(join(root, ".dockerignore"), "utf8"));

  it("leaves out key files beside config/live.json, however named, and .env files anywhere", () => {
    for (const path of [
      "config/api-key",
      "config/private-key",
      "config/secrets/api-key",
      "config/live/private_key.txt",
      "config/keys/wallet",
      "config/mm.key",
      "config/tls/client.pem",
      ".env",
      "config/.env.live",
    ]) {
      expect(ignored(path), path).toBe(true);
    }
  });

  it("keeps every file the image is built from", () => {
    for (const path of [
      "config/default.json",
      "config/paper.json",
      "config/live.json",
      "config/mock/default.json",
      "config/compose/bot.json",
      "config/backtest/bands-replay.json",
      "bin/mm.js",
      "src/config/secret.ts",
      "src/config/secret-file.ts",
      "src/core/api-key.ts",
      "package.json",
    ]) {
      expect(ignored(path), path).toBe(false);
    }
  });
});
