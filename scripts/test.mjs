#!/usr/bin/env node
// The whole suite, in the order a failure is cheapest to read: types, lint, the docs' code blocks,
// Node tests and real-browser tests in Chromium, then the browser tests in Firefox, then in WebKit
// (system browsers).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

// The browsers of the engines this run tests (scripts/engines; TEST_ENGINES narrows it), and the
// Debian package of each.
const browsers = {
  chromium: { path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', debianPackage: 'chromium', env: 'CHROMIUM_PATH' },
  firefox: {
    path: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
    debianPackage: 'firefox-esr',
    env: 'FIREFOX_PATH',
  },
  // WebKitGTK's WebDriver (it brings WebKitGTK and its MiniBrowser) and the X server MiniBrowser needs.
  webkit: {
    path: process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver',
    also: [process.env.XVFB_PATH ?? '/usr/bin/Xvfb'],
    debianPackage: 'webkit2gtk-driver xvfb',
    env: 'WEBKIT_DRIVER_PATH',
  },
};
const engines = (process.env.TEST_ENGINES ?? Object.keys(browsers).join(',')).split(',').filter(Boolean);
const unknown = engines.filter((name) => !(name in browsers));
if (unknown.length > 0) {
  console.error(`TEST_ENGINES: unknown engine ${unknown.join(', ')} (known: ${Object.keys(browsers).join(', ')})`);
  process.exit(1);
}

function run(label, command, args, env = {}) {
  console.log(`\n▶ ${label}`);
  const started = Date.now();
  const { status } = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', ...env },
  });
  console.log(`  ${label}: ${status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (status !== 0) process.exit(status ?? 1);
}

const missing = engines.map((name) => browsers[name]).filter((b) => ![b.path, ...(b.also ?? [])].every(existsSync));
if (missing.length > 0) {
  const packages = missing.map((b) => b.debianPackage).join(' ');
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    run(`install ${packages} (apt)`, 'sh', [
      '-c',
      `apt-get update -qq && apt-get install -y -qq ${packages} >/dev/null`,
    ]);
  } else {
    console.error(
      `No browser at ${missing.map((b) => b.path).join(', ')}: run "sudo apt-get install -y ${packages}" (or set ${missing.map((b) => b.env).join(' / ')}), then npm test again.`,
    );
    process.exit(1);
  }
}

const bin = (name) => `node_modules/.bin/${name}`;
run('type-check', bin('tsc'), ['--noEmit']);
run('lint', bin('biome'), ['check', '.']);
// Imports point down the layers, no cycles (.dependency-cruiser.mjs), and no source file over 400 lines.
run('layers', 'npm', ['run', '--silent', 'lint:layers']);
// Every TypeScript block of README.md and docs/ type-checked against the package as users import it.
run('docs code blocks', process.execPath, ['scripts/check-doc-blocks.mjs']);
// Every repository path the docs name exists (files move; a guide must not point at one that is gone).
run('docs paths', process.execPath, ['scripts/check-doc-paths.mjs']);
// The demo page is built by the e2e tests' own setup; here the library and its declarations.
run('build library', bin('vite'), ['build', '--mode', 'lib', '--logLevel', 'warn']);
run('build declarations', bin('tsc'), ['-p', 'tsconfig.build.json']);
// The public API of every entry against the reports in api/: a surface change without its report
// fails here (run `npm run api`, review and commit the reports); so does an export without TSDoc.
run('API report', 'node', ['scripts/api-report.mjs']);
// Every project with the first engine, then the browser suites of each other engine on their own:
// run side by side, two browsers and the Node tests overload a 2-core machine until tests time out.
const [first, ...others] = engines;
const reports = [];
const vitest = (label, engine, projects) => {
  const report = `test-results/vitest${reports.length === 0 ? '' : `-${engine}`}.json`;
  reports.push(report);
  const args = ['run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json'];
  run(label, bin('vitest'), [...args, `--outputFile.json=${report}`], { TEST_ENGINES: engine });
};
vitest(`tests (Node, ${first}, package)`, first, []);
for (const engine of others) vitest(`browser tests (${engine})`, engine, ['browser', 'e2e*']);
// The benchmark at tiny sizes (about 10 s, then the artifact, search and inspector benches: the
// inspector's adds about 40 s on a busy 2-core machine): keeps bench/ running against the current API,
// and checks that every contender reads back exactly what it wrote. No timing is asserted.
run('bench smoke', bin('tsx'), ['bench/run.ts', '--quick']);
// The API reference from the TSDoc, then the site; VitePress fails the build on a dead internal link.
run('docs build', 'npm', ['run', '--silent', 'docs:build']);
const total = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0 };
for (const report of reports) {
  const counts = JSON.parse(readFileSync(report, 'utf8'));
  for (const key of Object.keys(total)) total[key] += counts[key];
}
console.log(
  `\nTests: ${total.numPassedTests} passed, ${total.numFailedTests} failed, ${total.numPendingTests} skipped (${engines.join(', ')})`,
);
