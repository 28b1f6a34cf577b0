/** One line of the fault table. */
export interface ScenarioRow {
  readonly scenario: string;
  /** The fault injected, as the admin call that injected it. */
  readonly fault: string;
  /** Fault → recovered (what "recovered" means is per scenario); undefined when it never did. */
  recoveryMs: number | undefined;
  /** The invariants cell (expectInvariants' summary), or what was reached before a failure. */
  invariants: string;
  result: "pass" | "FAIL" | "not run";
}

/**
 * The scenario table of the fault suite: rows in declaration order (scenarios run concurrently and
 * finish in any order), printed once by the suite's afterAll with console.log so that it shows in
 * vitest's output.
 */
export class ScenarioTable {
  readonly #rows: ScenarioRow[] = [];

  /** Adds a scenario's row ("not run" until the test sets its result) for the scenario to fill in. */
  row(scenario: string, fault: string): ScenarioRow {
    const r: ScenarioRow = { scenario, fault, recoveryMs: undefined, invariants: "", result: "not run" };
    this.#rows.push(r);
    return r;
  }

  /** The table as Markdown-style text lines. */
  render(): string {
    const head = ["scenario", "fault", "recovery time", "invariants", "result"];
    const body = this.#rows.map((r) => [
      r.scenario,
      r.fault,
      r.recoveryMs === undefined ? "—" : `${(r.recoveryMs / 1000).toFixed(2)} s`,
      r.invariants === "" ? "—" : r.invariants,
      r.result,
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? "").length)));
    const line = (cells: readonly string[]) =>
      `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
    const rule = `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`;
    const count = (what: ScenarioRow["result"]) => this.#rows.filter((r) => r.result === what).length;
    return [
      "",
      `fault suite: ${count("pass")} passed, ${count("FAIL")} failed, ${count("not run")} not run`,
      line(head),
      rule,
      ...body.map(line),
      "",
    ].join("\n");
  }
}
