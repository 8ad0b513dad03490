/** Own property names of the built-in prototypes: a polluting write anywhere in a realm shows up here. */
export function prototypeFingerprint(): string {
  return JSON.stringify({
    object: Object.getOwnPropertyNames(Object.prototype).sort(),
    function: Object.getOwnPropertyNames(Function.prototype).sort(),
    array: Object.getOwnPropertyNames(Array.prototype).sort(),
    apply: Function.prototype.apply.toString(),
    polluted: ({} as Record<string, unknown>).polluted === undefined,
  });
}
