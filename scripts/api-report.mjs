#!/usr/bin/env node
// The public API of every entry point in package.json `exports`, as API Extractor reports it from
// the built declarations (run `npm run build:lib` first). One config per entry, api/config/<entry>.jsonc;
// the reports are api/<entry>.api.md.
//
//   node scripts/api-report.mjs --local   rewrites the reports (`npm run api`)
//   node scripts/api-report.mjs           checks them (`npm test`): fails when the surface differs
//                                         from the report checked in, or on any finding (an internal
//                                         type a public signature reaches, an export without TSDoc).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const local = process.argv.includes('--local');
const configs = readdirSync('api/config')
  .filter((name) => name.endsWith('.jsonc') && name !== 'base.jsonc')
  .sort()
  .map((name) => ExtractorConfig.loadFileAndPrepare(`api/config/${name}`));

/** The names in the `{ a, type B, c as D }` lists `pattern` captures in `text`. */
function namesIn(text, pattern) {
  const names = new Set();
  for (const match of text.matchAll(pattern)) {
    for (const spec of match[1].split(',')) {
      const name = spec
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop();
      if (name) names.add(name);
    }
  }
  return names;
}

/** The names an entry's declaration file exports (`export { a, type B } from`, `export declare function c`). */
function exportedNames(file) {
  const text = readFileSync(file, 'utf8');
  const names = namesIn(text, /export\s+(?:type\s+)?\{([^}]*)\}/g);
  for (const match of text.matchAll(/export\s+(?:declare\s+)?(?:abstract\s+)?\w+\s+([\w$]+)/g)) names.add(match[1]);
  return names;
}

/** The names a declaration file imports from the package's own modules (`import type { A } from './x.js'`). */
function importedNames(file) {
  return namesIn(readFileSync(file, 'utf8'), /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"]\.{1,2}\//g);
}

// API Extractor reads one entry at a time, so a subpath's signature that uses a type another entry
// exports (`useSession` returns a `Session`, which the main entry exports) would count as an
// internal type leaking. It is not: that entry's report holds it, and the user imports it from
// there. Such a reference is accepted when the file that makes it imports the name from the
// package's modules and another entry exports that name; a type no entry exports, or one declared
// locally under an exported name, still fails.
const exportsByEntry = new Map(
  configs.map((config) => [config.mainEntryPointFilePath, exportedNames(config.mainEntryPointFilePath)]),
);
function exportedElsewhere(entry, name, referencingFile) {
  const bare = name.replace(/_\d+$/, ''); // API Extractor's name for a second `Event` (the DOM has one) is `Event_2`
  if (referencingFile === undefined || !importedNames(referencingFile).has(bare)) return false;
  return [...exportsByEntry].some(([file, names]) => file !== entry && names.has(bare));
}

const changed = [];
const failed = [];
for (const config of configs) {
  const result = Extractor.invoke(config, {
    localBuild: local,
    showVerboseMessages: false,
    messageCallback(message) {
      // A changed report is told once, below, with what to do about it.
      const quiet = ['console-api-report-not-copied', 'console-api-report-copied', 'console-api-report-created'];
      if (quiet.includes(message.messageId)) {
        message.logLevel = 'none';
        message.handled = true;
      }
      const forgotten = /^The symbol "([\w$]+)" needs to be exported/.exec(message.text);
      if (message.messageId === 'ae-forgotten-export' && forgotten) {
        if (exportedElsewhere(config.mainEntryPointFilePath, forgotten[1], message.sourceFilePath)) {
          message.logLevel = 'none';
          message.handled = true;
        }
      }
    },
  });
  const report = relative('.', join(config.reportFolder, config.reportConfigs[0]?.fileName ?? ''));
  if (result.apiReportChanged)
    changed.push(
      `${report} (now: ${relative('.', join(config.reportTempFolder, config.reportConfigs[0]?.fileName ?? ''))})`,
    );
  if (result.errorCount > 0 || (!local && result.warningCount > 0)) failed.push(report);
  else console.log(`  ${report}: ${result.apiReportChanged ? (local ? 'updated' : 'differs') : 'unchanged'}`);
}

if (failed.length > 0) {
  console.error(`\nAPI Extractor reported problems for ${failed.join(', ')} (see above).`);
}
if (changed.length > 0 && !local) {
  console.error(
    `\nThe public API differs from the report checked in: ${changed.join(', ')}.\n` +
      'If the change is intended, run "npm run api" to rewrite the reports, review the diff and commit it.\n' +
      'If it is not, the change to the exported types or values is the bug.',
  );
}
if (failed.length > 0 || (changed.length > 0 && !local)) process.exit(1);
