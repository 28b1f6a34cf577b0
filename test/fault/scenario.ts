import type { ScenarioRow } from "./table.js";

/** One fault scenario of the suite: injects one fault, waits for recovery, asserts the invariants. */
export interface FaultScenario {
  readonly name: string;
  /** The injection, as written in the table (the /__admin call or the process action). */
  readonly fault: string;
  /** Test timeout, ms (default 20 s). */
  readonly timeoutMs?: number;
  /** Runs the scenario, filling in the row's recovery time and invariants; throws on any failure. */
  run(row: ScenarioRow): Promise<void>;
}
