/**
 * A Uniform that returns the given values in turn (a latency lane's draws, chosen by the test);
 * throws once they are used up, so a test never draws more than it meant to.
 * @example new LatencyLane({ type: "empirical", samplesMs: [0, 5] }, uniformSeq(0.9, 0))
 */
export function uniformSeq(...values: number[]): () => number {
  let i = 0;
  return () => {
    const v = values[i++];
    if (v === undefined) throw new Error("sequence exhausted");
    return v;
  };
}
