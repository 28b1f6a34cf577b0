import { MmError } from "../../core/errors.js";

/**
 * The recorder could not keep its files written. `code` `write_stalled`: the disk fell more than
 * the buffer limit behind (details `limitBytes`, `pendingBytes`, `file`); the recording stops, and
 * every frame accepted before is still written once the disk takes it. Disk errors (ENOSPC,
 * EACCES, …) are reported as they are.
 */
export class RecordWriteError extends MmError {}
