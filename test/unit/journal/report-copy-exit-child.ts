/**
 * Opens a journal reader on argv[2] (an older-schema journal: read from a private copy in $TMPDIR)
 * and leaves without closing it, by process.exit(3): run by report-copy-removed.test.ts.
 */
import { openJournalReader } from "../../../src/journal/open-read.js";

const reader = await openJournalReader(process.argv[2] as string);
if (!reader.copied) process.exit(1);
process.exit(3);
