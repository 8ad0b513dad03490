/**
 * ADK's internal `customMetadata` keys (`__adk_internal_*`, adk-js's and adk-python's
 * `INTERNAL_METADATA_PREFIX`): ADK writes them and reads them back, so the store keeps them
 * and `getSession` returns them, as ADK's own session services do; where events leave for people
 * or other programs (exports), they are dropped, as ADK drops them from its API responses.
 */
/** The prefix of the `customMetadata` keys only ADK writes. */
export const INTERNAL_METADATA_PREFIX = '__adk_internal_';

/** `event` as it leaves the store: the same object when it holds no internal key, else a copy without them. */
export function publicEvent<E extends { customMetadata?: Record<string, unknown> }>(event: E): E {
  const metadata = event.customMetadata;
  if (!metadata || !Object.keys(metadata).some((k) => k.startsWith(INTERNAL_METADATA_PREFIX))) return event;
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(metadata)) {
    // defineProperty: a `__proto__` key is a plain key here too.
    if (!k.startsWith(INTERNAL_METADATA_PREFIX))
      Object.defineProperty(kept, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  const { customMetadata: _dropped, ...rest } = event;
  return (Object.keys(kept).length > 0 ? { ...rest, customMetadata: kept } : rest) as E;
}
