/**
 * A fixed-seed xorshift for the bench pages: the same text, conversation and reply in every run
 * and for every contender. (The search bench keeps its own generator: its corpus, and so its
 * figures, are drawn from that one.)
 */
export function random(seed: number): () => number {
  let x = (seed * 2654435761) >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}
