import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | undefined;

/**
 * Heap in use right after a full garbage collection: live objects only, the figure a leak moves.
 * The collector is reached by exposing `gc` at run time (the soak runs under plain `node --import
 * tsx`, without --expose-gc); undefined when that is refused.
 */
export function liveHeapBytes(): number | undefined {
  if (gc === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      gc = runInNewContext("gc") as () => void;
    } catch {
      return undefined;
    }
  }
  gc();
  return process.memoryUsage().heapUsed;
}
