/**
 * The public data types: plain TypeScript declarations with TSDoc, no runtime code. Each has a
 * zod schema beside its capability that checks it at run time; test/types/named-types.test-d.ts
 * proves the two agree.
 */
export type * from './artifacts.js';
export type * from './catalog.js';
export type * from './memory.js';
export type * from './search.js';
export type * from './sessions.js';
export type * from './transfer.js';
