import type { ConnectedInfo } from "./connection-types.js";

/** Callers waiting for a link to open: settled by the next connect, or failed all at once. */
export class ReadyWaiters {
  readonly #byLink = new Map<number, { resolve: (i: ConnectedInfo) => void; reject: (e: Error) => void }[]>();

  /** Waits for link `index` to open. */
  wait(index: number): Promise<ConnectedInfo> {
    return new Promise((resolve, reject) => {
      const list = this.#byLink.get(index) ?? [];
      list.push({ resolve, reject });
      this.#byLink.set(index, list);
    });
  }

  /** Link `index` opened. */
  opened(index: number, info: ConnectedInfo): void {
    for (const w of this.#byLink.get(index) ?? []) w.resolve(info);
    this.#byLink.delete(index);
  }

  /** Fails every waiter (fatal close, close()). */
  failAll(err: Error): void {
    for (const list of this.#byLink.values()) for (const w of list) w.reject(err);
    this.#byLink.clear();
  }
}
