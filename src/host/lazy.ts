/**
 * The worker's parts that are not in its start-up (artifacts, search, memory,
 * sync): kept out of what runs before the first answer, so a cold start does
 * not pay for them, and fetched soon after, while the page is surely still
 * online. Where the app's bundler splits worker chunks each part is a chunk of
 * its own; a part first used after the network (or the server) is gone must
 * not need to fetch anything: an `import()` of a chunk the realm has not loaded
 * fails offline, and an artifact, a search or an export would be lost with it.
 * Each part is loaded by `lazy` (core/lazy.ts).
 */

/**
 * How long after the first answer the parts start loading: past the page's
 * own start-up reads (measured in the README's "Worker start-up"), short enough
 * that a page opened online has them before a user could go offline.
 */
export const WARM_DELAY_MS = 1000;

let warming: Promise<void> | undefined;

/**
 * Loads each of `parts` (their `import()`s) once per realm, one after another, a
 * task apart, starting `WARM_DELAY_MS` after the call: a module once loaded is
 * in the realm's module map, so every later `import()` of it, from any
 * connection, needs no network. A part that fails to load is left to its first
 * use, which tries again. Resolves when all were tried (tests wait on it).
 */
export function warmLater(parts: readonly (() => Promise<unknown>)[]): Promise<void> {
  warming ??= (async () => {
    for (const [i, part] of parts.entries()) {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, i === 0 ? WARM_DELAY_MS : 0);
        // In Node (an in-thread host in a script) the warm-up must not keep the process alive.
        (timer as { unref?: () => void }).unref?.();
      });
      await part().catch(() => {});
    }
  })();
  return warming;
}
