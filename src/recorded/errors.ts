import { MmError } from "../core/errors.js";

/**
 * A recorded market-data file that does not hold what the format says. `code` is `bad_record`
 * (a line that is not JSON or not a {recvTs, frame} record; `details` carries `file`, `line` and
 * `problem`), `bad_gzip` (not gzip, or corrupt compressed data; `details.file`, `details.zlib`)
 * or `truncated` (the gzip stream stops early, as a killed recorder leaves it; `details.file`).
 * Its own class rather than the importer's ImportError, because the recorder, the importers and
 * the backtest all share the format and none of them owns it.
 */
export class RecordedFormatError extends MmError {}
