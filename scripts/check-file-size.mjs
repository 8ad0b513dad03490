#!/usr/bin/env node
// No TypeScript source file over 400 lines (src/, demo/, worker/): past that a
// file holds more than one thing, and is split into files named for what each holds.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const MAX_LINES = 400;
const roots = ['src', 'demo', 'worker'];
const sources = /\.tsx?$/;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (sources.test(entry.name)) yield full;
  }
}

const tooLong = [];
let count = 0;
for (const root of roots) {
  for (const file of files(root)) {
    count += 1;
    const lines = readFileSync(file, 'utf8').split('\n').length - 1;
    if (lines > MAX_LINES) tooLong.push(`${file}: ${lines} lines`);
  }
}
if (tooLong.length > 0) {
  console.error(`Over ${MAX_LINES} lines (split each into files named for what they hold):\n  ${tooLong.join('\n  ')}`);
  process.exit(1);
}
console.log(`✔ ${count} source files, none over ${MAX_LINES} lines`);
