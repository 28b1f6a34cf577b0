import { spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root (the CLI's working directory in these tests). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** A finished child process: its exit code and everything it wrote. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The parent's environment without any MM_* variable, plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("MM_")));
  return { ...env, NO_COLOR: "1", ...extra };
}

/** Runs a real child process (node with `args`) and collects its output and exit code. */
export function runNode(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<Run> {
  return runChild(process.execPath, args, env, cwd);
}

/** Runs `command` with `args` as a real child process and collects its output and exit code. */
export function runChild(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}
