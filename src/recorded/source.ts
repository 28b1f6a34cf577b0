/**
 * Where the frames of an imported file came from. `mm import` writes it into the file's first
 * record, next to recvTs and frame (`{"recvTs": …, "frame": …, "source": {…}}`); readers of
 * frames ignore it. It lets a later import see, without reading whole files, that a directory
 * already holds the same capture or the same tokens over overlapping times (two such files
 * replay as two interleaved book streams of one token). Files written by `mm record` carry none.
 */
export interface RecordingSource {
  /** The importer's input format (`mm import --format`). */
  readonly format: string;
  /** sha256 of the input file's bytes, hex: the same capture has the same digest. */
  readonly sha256: string;
  /** One per token, in the order of their first frames. */
  readonly streams: readonly SourceStream[];
}

/** The receive times a token's frames span in an imported file, ms since epoch (inclusive). */
export interface SourceStream {
  readonly tokenId: string;
  readonly firstTs: number;
  readonly lastTs: number;
}

/**
 * The `source` of a record, when it has a well-formed one; undefined otherwise (files of
 * `mm record`, files of an older `mm import`, or a damaged value: then nothing is known).
 * @example const src = parseRecordingSource((await firstRecord(path))?.source);
 */
export function parseRecordingSource(value: unknown): RecordingSource | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as { format?: unknown; sha256?: unknown; streams?: unknown };
  if (typeof v.format !== "string" || typeof v.sha256 !== "string" || !Array.isArray(v.streams)) {
    return undefined;
  }
  const streams: SourceStream[] = [];
  for (const s of v.streams as unknown[]) {
    const t = (s ?? {}) as { tokenId?: unknown; firstTs?: unknown; lastTs?: unknown };
    if (typeof t.tokenId !== "string" || !isTime(t.firstTs) || !isTime(t.lastTs)) return undefined;
    streams.push({ tokenId: t.tokenId, firstTs: t.firstTs, lastTs: t.lastTs });
  }
  return { format: v.format, sha256: v.sha256, streams };
}

function isTime(x: unknown): x is number {
  return typeof x === "number" && Number.isFinite(x);
}
