import { ConfigError, type ConfigIssue } from "../config/errors.js";
import type { MmConfig } from "../config/types.js";
import type { Clock } from "../core/clock.js";
import type { AccountLock } from "../journal/account-lock.js";
import type { OrderBuilder } from "../signing/order-builder.js";
import { orderBuilder } from "./exchange.js";
import { lockDaemonJournal } from "./journal.js";
import type { JournalSettings } from "./journal-settings.js";
import { randomSessionTag } from "./session.js";

/**
 * What a daemon's start takes from local state alone, before any request: the order builder (the
 * wallet key), this run's session tag, and the run lock of its account on the journal (none without
 * a journal). Whoever holds it releases the lock when the start fails before the journal owns it
 * (startDaemon does, once handed the claim).
 */
export interface StartClaim {
  readonly builder: OrderBuilder;
  readonly session: string;
  readonly lock: AccountLock | undefined;
}

/**
 * Takes the start's claim: the wallet key's order builder, the session tag (engine.session, else a
 * fresh one) and, with a journal, its account's run lock (lockDaemonJournal). Throws ConfigError
 * for a missing wallet key, and on journal.path for another mm running the account on the file.
 * @example const claim = claimStart(config, journal, clock); // then startDaemon(config, { …, journal, claim })
 */
export function claimStart(config: MmConfig, journal: JournalSettings | undefined, clock: Clock): StartClaim {
  const builder = orderBuilder(config);
  const session = config.engine.session ?? randomSessionTag();
  const lock =
    journal === undefined
      ? undefined
      : lockDaemonJournal(journal, {
          baseUrl: config.exchange.baseUrl,
          maker: builder.maker,
          session,
          clock,
        });
  return { builder, session, lock };
}

/**
 * For a CLI start: the claim taken before the metrics server starts, or why it could not be, as
 * configuration issues to report with the others found before (startSettingsIssues, a busy metrics
 * port: observed's `problems`), so a second `mm run` on a locked journal says so before any log
 * line rather than after "metrics at …". Not tried when `problems` are already found: the start
 * cannot go on, and a missing wallet key leaves no account to lock.
 * @example const { claim, issues } = claimBeforeStart(config, journal, clock, problems);
 */
export function claimBeforeStart(
  config: MmConfig,
  journal: JournalSettings | undefined,
  clock: Clock,
  problems: readonly ConfigIssue[],
): { claim: StartClaim | undefined; issues: ConfigIssue[] } {
  if (problems.length > 0) return { claim: undefined, issues: [...problems] };
  try {
    return { claim: claimStart(config, journal, clock), issues: [] };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return { claim: undefined, issues: [...err.issues] };
  }
}
