import { MmError } from "../../core/errors.js";

/**
 * Bad input to an importer or to the recorded-format reader. `code` says which rule failed
 * (csv_unterminated_quote, csv_bad_quote, csv_bad_header, csv_field_count, bad_timestamp,
 * bad_row, bad_changes, bad_record, output_exists); `details` carries the file and line.
 */
export class ImportError extends MmError {}
