import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MmError } from "../core/errors.js";

let cached: string | undefined;

/**
 * The mm package root (the folder of its package.json), found from this module's location so that
 * it is the same from src/ under tsx, from dist/ and inside the Docker image, whatever the cwd.
 */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "mm"
    ) {
      cached = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new MmError(
        "package_root_not_found",
        `no package.json of mm above ${fileURLToPath(import.meta.url)}`,
      );
    dir = parent;
  }
}

/** Absolute path of config/default.json, the first layer of every load. */
export function defaultConfigFile(): string {
  return join(packageRoot(), "config", "default.json");
}
