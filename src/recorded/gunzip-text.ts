import { createReadStream } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { createGunzip, type Gunzip } from "node:zlib";

/** Decompressed bytes per piece handed over: large enough that per-piece costs vanish. */
const CHUNK_BYTES = 256 * 1024;

/** Compressed bytes fed to zlib per step: about a megabyte of text (JSON Lines compress ~20×). */
const INPUT_BYTES = 64 * 1024;

/** An error raised by zlib (its `code` is one of zlib's: Z_BUF_ERROR, Z_DATA_ERROR, …). */
export interface ZlibError extends Error {
  readonly code: string;
  readonly errno: number;
}

/** Whether `err` came from zlib rather than from the file system. */
export function isZlibError(err: unknown): err is ZlibError {
  const e = err as { code?: unknown; errno?: unknown } | null;
  return (
    err instanceof Error &&
    typeof e?.code === "string" &&
    e.code.startsWith("Z_") &&
    typeof e.errno === "number"
  );
}

/**
 * Streams the decompressed UTF-8 text of a gzip file (concatenated members allowed), one piece of
 * about 256 KiB at a time, then throws zlib's error, if any, only after the pieces decompressed
 * before it: so a file cut short (zlib fails at the end, with nothing left to decompress) is
 * delivered whole up to the cut. (A stream's own async iterator drops what is buffered when the
 * stream fails. zlib is fed one input chunk at a time, so memory holds what one chunk
 * decompresses to; what it decompresses in the step that fails is lost with that step.)
 * @example for await (const text of decompressedText("day.jsonl.gz")) process(text);
 */
export async function* decompressedText(path: string): AsyncGenerator<string> {
  const zlib = createGunzip({ chunkSize: CHUNK_BYTES });
  const decoder = new StringDecoder("utf8");
  const pieces: Buffer[] = [];
  let failure: Error | undefined;
  // Flowing and never paused: every output is handed over as it is produced, nothing stays
  // buffered inside the stream where an error would discard it.
  zlib.on("data", (b: Buffer) => pieces.push(b));
  zlib.on("error", (err) => {
    failure ??= err;
  });
  const file = createReadStream(path, { highWaterMark: INPUT_BYTES });
  const failed = (): Error | undefined => failure ?? (zlib.errored as Error | null) ?? undefined;
  try {
    for await (const input of file as AsyncIterable<Buffer>) {
      await settled(zlib, (done) => zlib.write(input, () => done()));
      for (const b of pieces.splice(0)) yield decoder.write(b);
      const err = failed();
      if (err !== undefined) throw err;
    }
    // The end settles on 'close', which comes after 'end', i.e. after the last output was handed over.
    await settled(zlib, () => zlib.end());
    for (const b of pieces.splice(0)) yield decoder.write(b);
    const err = failed();
    if (err !== undefined) throw err;
    const rest = decoder.end();
    if (rest !== "") yield rest;
  } finally {
    file.destroy();
    zlib.destroy();
  }
}

// Resolves once zlib is done with a write, or has closed (after the end, or after a failure, when
// the write's own callback may never come: the 'close' event follows the 'error' event).
function settled(zlib: Gunzip, act: (done: () => void) => void): Promise<void> {
  if (zlib.closed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const finish = () => {
      zlib.off("close", finish);
      resolve();
    };
    zlib.on("close", finish);
    act(finish);
  });
}
