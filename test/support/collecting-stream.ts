/**
 * A pino destination that keeps every line in memory, for tests that inspect log output.
 * @example
 * const sink = collectingStream();
 * const log = createLogger({ level: "debug", destination: sink, pretty: false });
 * log.info("hello");
 * expect(sink.records()[0]?.msg).toBe("hello");
 */
export interface CollectingStream {
  write(line: string): void;
  /** Every line written, in order (each ends with a newline). */
  readonly lines: string[];
  /** All output as one string. */
  text(): string;
  /** Lines parsed as JSON objects. */
  records(): Record<string, unknown>[];
}

export function collectingStream(): CollectingStream {
  const lines: string[] = [];
  return {
    write(line: string) {
      lines.push(line);
    },
    lines,
    text: () => lines.join(""),
    records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
