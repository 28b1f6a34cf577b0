import { MmError } from "../core/errors.js";

/**
 * A journal problem, with a stable code:
 * - `journal_schema_too_new`: the file was written by a newer mm (details: found, known);
 * - `journal_migration_failed`: a migration failed and was rolled back (details: version, name);
 * - `journal_not_found`: a reader (`mm report`) was pointed at a file that does not exist;
 * - `journal_damaged`: the file or its WAL is damaged, and was left untouched (details: path, and
 *   the WAL's frames or quick_check's findings);
 * - `journal_open_failed`: SQLite could not open or create the file (details: path);
 * - `journal_migrations_invalid`: the migration list is not numbered 1, 2, 3… (a build error);
 * - `journal_account_in_use`: another process runs the account on this journal (details: account,
 *   journal, holder when its note is readable);
 * - `journal_lock_failed`: the account's run lock file cannot be opened or locked (details: path, account).
 */
export class JournalError extends MmError {}
