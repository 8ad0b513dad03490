#!/usr/bin/env node
// The whole suite, in the order a failure is cheapest to read: types, lint,
// Node tests, then real-Chromium tests (which need a system Chromium).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(label, command, args) {
  console.log(`\n▶ ${label}`);
  const started = Date.now();
  const { status } = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  console.log(`  ${label}: ${status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (status !== 0) process.exit(status ?? 1);
}

if (!existsSync(chromium)) {
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    run('install Chromium (apt)', 'sh', ['-c', 'apt-get update -qq && apt-get install -y -qq chromium >/dev/null']);
  } else {
    console.error(
      `No Chromium at ${chromium}: run "sudo apt-get install -y chromium" (or set CHROMIUM_PATH), then npm test again.`,
    );
    process.exit(1);
  }
}

const bin = (name) => `node_modules/.bin/${name}`;
run('type-check', bin('tsc'), ['--noEmit']);
run('lint', bin('biome'), ['check', '.']);
// The demo page is built by the e2e tests' own setup; here the library and its declarations.
run('build library', bin('vite'), ['build', '--mode', 'lib', '--logLevel', 'warn']);
run('build declarations', bin('tsc'), ['-p', 'tsconfig.build.json']);
const report = 'test-results/vitest.json';
run('tests (Node + Chromium)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
]);
// The benchmark at tiny sizes (about 10 s): keeps bench/ running against the current API,
// and checks that every contender reads back exactly what it wrote. No timing is asserted.
run('bench smoke', bin('tsx'), ['bench/run.ts', '--quick']);
const { numPassedTests, numFailedTests, numPendingTests } = JSON.parse(readFileSync(report, 'utf8'));
console.log(`\nTests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests} skipped`);
