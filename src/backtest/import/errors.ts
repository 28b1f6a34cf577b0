import { MmError } from "../../core/errors.js";

/**
 * Bad input to an importer. `code` says which rule failed (csv_unterminated_quote, csv_bad_quote,
 * csv_bad_header, csv_field_count, bad_timestamp, bad_row, bad_changes, output_exists,
 * output_dir_missing, already_imported, overlapping_import); `details` carries the file and line, or for the last two
 * the output and the `existing` file it would clash with in a replay. A bad line of a recorded file is a RecordedFormatError
 * (src/recorded/errors.ts), not this.
 */
export class ImportError extends MmError {}
