const STAMP =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))? ?(Z|[+-]\d{2}(?::?\d{2})?)$/;

/**
 * Parses a timestamp with an explicit UTC offset, as PostgreSQL prints `timestamptz` and ISO 8601
 * writes it ("2025-01-25 18:15:47.925 +0100", "2025-01-25T17:15:47.925123Z", "… +01", "… +01:00"),
 * into microseconds since the epoch (exact: an integer below 2^53 for any date before year 2255).
 * A timestamp without an offset is refused (its instant is unknown), and so is one too late to be
 * held exactly. Undefined when invalid.
 * @example parseTimestampMicros("2025-01-25 18:15:47.925 +0100") // 1737825347925000
 */
export function parseTimestampMicros(text: string): number | undefined {
  const m = STAMP.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m as unknown as string[];
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59)
    return undefined;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(utc).getUTCDate() !== day) return undefined; // 2025-02-30 and the like
  let offsetMin = 0;
  if (zone !== "Z" && zone !== undefined) {
    const digits = zone.replace(":", "");
    const oh = Number(digits.slice(1, 3));
    const om = digits.length > 3 ? Number(digits.slice(3, 5)) : 0;
    if (oh > 23 || om > 59) return undefined;
    offsetMin = (zone.startsWith("-") ? -1 : 1) * (oh * 60 + om);
  }
  const micros = Number((frac ?? "").padEnd(6, "0"));
  const result = (utc - offsetMin * 60_000) * 1000 + micros;
  // Past 2^53 (about year 2255) a number cannot hold every microsecond: refuse rather than round.
  return Number.isSafeInteger(result) ? result : undefined;
}

/** Milliseconds since the epoch of a microsecond timestamp (floor). */
export function microsToMs(micros: number): number {
  return Math.floor(micros / 1000);
}
