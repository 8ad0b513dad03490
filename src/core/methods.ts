/**
 * How a capability declares the calls it serves across the worker boundary:
 * one table per capability, in its `protocol.ts`, from which the worker host
 * and both page-side backends (over a worker, and in this thread) are made.
 * Types only: nothing here reaches a bundle.
 */

/** The position of the first parameter that is a function (a callback), or 0 when none is. */
type CallbackAt<P extends readonly unknown[], Seen extends unknown[] = []> = P extends readonly [
  infer Head,
  ...infer Rest,
]
  ? NonNullable<Head> extends (...args: never[]) => unknown
    ? Seen['length']
    : CallbackAt<Rest, [...Seen, Head]>
  : 0;

/**
 * Every method of `Backend` by name, each with the position of its callback
 * argument (0 for a call that takes data only: a request always comes first).
 * Written `{ ... } as const satisfies MethodTable<Backend>`: a method left out,
 * one the interface lacks, or a callback position that does not match the
 * signature is a compile error.
 */
export type MethodTable<Backend> = {
  readonly [K in keyof Backend]-?: Backend[K] extends (...args: infer P) => unknown ? CallbackAt<Required<P>> : never;
};

/** The method names of a table. */
export type MethodOf<Table> = Extract<keyof Table, string>;
