import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { MockStats } from "./mock-process.js";

/** The mock exchange running in its child process (mock-process.ts). */
export interface MockChild {
  readonly httpUrl: string;
  readonly wsUrl: string;
  /** The mock's own memory and its count of the paper wallet's open orders. */
  stats(timeoutMs?: number): Promise<MockStats | undefined>;
  /** Closes the mock and waits for the process to end. */
  close(): Promise<void>;
}

/**
 * Forks the soak's mock exchange with `markets` generated markets and waits until it listens.
 * Its stderr goes to ours; a crash before it is ready rejects.
 */
export async function startMockChild(markets: number): Promise<MockChild> {
  const file = fileURLToPath(new URL("./mock-process.ts", import.meta.url));
  const child = fork(file, [String(markets)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const ready = await Promise.race([
    reply<{ http: string; ws: string }>(child, "ready"),
    exited.then((code) => {
      throw new Error(`the mock exchange exited with code ${code} before it was ready`);
    }),
  ]);
  return {
    httpUrl: ready.http,
    wsUrl: ready.ws,
    async stats(timeoutMs = 5_000) {
      if (!child.connected) return undefined;
      child.send({ type: "stats" });
      return Promise.race([reply<MockStats>(child, "stats"), delay(timeoutMs).then(() => undefined)]);
    },
    async close() {
      if (child.connected) {
        child.send({ type: "close" });
        await Promise.race([reply(child, "closed"), delay(10_000)]);
      }
      if (child.exitCode === null) {
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

function reply<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (msg: { type?: string }) => {
      if (msg.type !== type) return;
      child.off("message", on);
      resolve(msg as T);
    };
    child.on("message", on);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
