import { MmError } from "../../core/errors.js";

/**
 * Bad input to an importer. `code` says which rule failed (csv_unterminated_quote, csv_bad_quote,
 * csv_bad_header, csv_field_count, bad_timestamp, bad_row, bad_changes, output_exists); `details`
 * carries the file and line. A bad line of a recorded file is a RecordedFormatError
 * (src/recorded/errors.ts), not this.
 */
export class ImportError extends MmError {}
