/** Times and values as a person reads them. */

/** Epoch milliseconds between 2000 and 2100: what this store's times are, shown as dates. */
export const isEpochMs = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 946_684_800_000 && value < 4_102_444_800_000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Local date and time to the millisecond: `2026-11-26 13:05:09.123`. */
export function humanTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** Local time of day, for a timeline row. */
export const clockTime = (ms: number): string => humanTime(ms).slice(11);

/** A duration: `850 ms`, `4.2 s`, `3 min 5 s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A value on one line, for tables: strings as they are, the rest as JSON. */
export function inline(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return '(absent)';
  return JSON.stringify(value) ?? String(value);
}
