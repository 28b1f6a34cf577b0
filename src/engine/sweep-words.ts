/*
 * The words of the open-market sweep (open-market-sweep.ts) that other modules read: the status
 * lines' sources, and the engine's own NOT_FOUND status (the closed-market watch reads the
 * markets held so).
 */

/** The `how` of the status lines this sweep reports ("market is now PAUSED (its record, read …)"). */
export const SWEEP_HOW = "by the open-market sweep";

/**
 * Where the status line of a market held on the list's word says its status came from: not its
 * record, which was not read (an operator who reads the record, OPEN in the case the confirm read
 * is there for, must see why the market was held).
 */
export const LIST_WORD = {
  /** Its record's confirm read failed. */
  unreadable: "by the open-market sweep's market list, its record unreadable",
  /** An earlier read of the round failed, which ends the round's reads. */
  unread: "by the open-market sweep's market list, its record not read (a read failed earlier in the round)",
  /** Not in the list, its record not found. */
  notFound: "by the open-market sweep: not in the market list, its record not found (404)",
  /** Held closed, its record not found by its slug (the closed-market watch's read), nor the market in the list. */
  closedNotFound:
    "by the closed-market watch: its record not found (404), nor the market in the open-market sweep's market list",
  /** Held NOT_FOUND, shown OPEN again by the list (by its id; its slug may have changed). */
  listedAgain:
    "by the open-market sweep's market list, OPEN there by its id (its record not found by its slug)",
  /** Held NOT_FOUND, shown not OPEN by the list (by its id), its record still not found by its slug. */
  listedById: "by the open-market sweep's market list, by its id (its record not found by its slug)",
} as const;

/**
 * The status a quoted market is held by when the list leaves it out and its record is not found
 * (404): not a status the exchange sends.
 */
export const NOT_FOUND_STATUS = "NOT_FOUND";
