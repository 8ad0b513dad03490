#!/usr/bin/env node
// Checks every code block of README.md and docs/**/*.md the way a reader would use it:
// - ts / tsx blocks are type-checked against the package as users import it (`idb-adk-sessions`,
//   `idb-adk-sessions/react`, … resolved to the sources by tsconfig.json's `paths`), each block a
//   module of its own. A block that is deliberately not a whole program opens with the visible line
//   `// fragment: <why>` and is counted, not checked.
// - sh blocks: every `npm run <script>` names a script of package.json.
// - svelte blocks compile with Svelte's compiler (a syntax check: svelte-check is not a dependency).
// - json blocks parse.
// Blocks in other languages (text diagrams) are counted and listed by language.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compile } from 'svelte/compiler';
import { docFiles } from './doc-files.mjs';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'test-results/doc-blocks');

/** The fenced blocks of a Markdown file: language, body and the line of the body's first line. */
function blocks(text) {
  const found = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j].trimStart().startsWith(fence); j++) body.push(lines[j].slice(indent.length));
    found.push({ lang: lang.toLowerCase(), body: body.join('\n'), line: i + 2 });
    i = j;
  }
  return found;
}

const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
const files = docFiles(root);
const problems = [];
const checked = [];
const fragments = [];
const other = {};
let shellCommands = 0;
let svelteBlocks = 0;

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const file of files) {
  const page = relative(root, file);
  for (const block of blocks(readFileSync(file, 'utf8'))) {
    const where = `${page}:${block.line}`;
    if (['ts', 'tsx', 'typescript'].includes(block.lang)) {
      const first = block.body.split('\n')[0].trim();
      if (first.startsWith('// fragment')) {
        if (!/^\/\/ fragment: \S/.test(first))
          problems.push(`${where}: a fragment marker needs its reason: // fragment: <why>`);
        fragments.push(`${where} (${first.slice('// fragment: '.length)})`);
        continue;
      }
      const name = `${page.replace(/[^\w]+/g, '_')}_${block.line}.${block.lang === 'tsx' ? 'tsx' : 'ts'}`;
      // Line 1 of the block stays line 1 of the file, so an error's line maps back by adding block.line - 1.
      writeFileSync(join(out, name), `${block.body}\nexport {};\n`);
      checked.push({ name, page, line: block.line });
    } else if (['sh', 'bash', 'shell', 'console'].includes(block.lang)) {
      for (const [, script] of block.body.matchAll(/npm run ([\w:.-]+)/g)) {
        shellCommands++;
        if (!(script in scripts)) problems.push(`${where}: npm run ${script}: package.json has no such script`);
      }
    } else if (block.lang === 'svelte') {
      svelteBlocks++;
      try {
        compile(block.body, { filename: 'Block.svelte', generate: 'client' });
      } catch (error) {
        problems.push(`${where}: does not compile: ${error.message}`);
      }
    } else if (block.lang === 'json') {
      try {
        JSON.parse(block.body);
      } catch (error) {
        problems.push(`${where}: not JSON: ${error.message}`);
      }
    } else {
      other[block.lang || '(none)'] = (other[block.lang || '(none)'] ?? 0) + 1;
    }
  }
}

writeFileSync(
  join(out, 'tsconfig.json'),
  JSON.stringify(
    {
      extends: '../../tsconfig.json',
      compilerOptions: { jsx: 'react-jsx', noEmit: true, noUnusedLocals: false },
      include: ['./*.ts', './*.tsx'],
      exclude: [],
    },
    null,
    2,
  ),
);
const tsc = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', join(out, 'tsconfig.json'), '--pretty', 'false'], {
  encoding: 'utf8',
});
const byName = new Map(checked.map((block) => [block.name, block]));
for (const line of `${tsc.stdout}${tsc.stderr}`.split('\n').filter(Boolean)) {
  const at = /([^/\\]+\.tsx?)\((\d+),(\d+)\): (.*)/.exec(line);
  const block = at && byName.get(at[1]);
  problems.push(block ? `${block.page}:${block.line + Number(at[2]) - 1}:${at[3]}: ${at[4]}` : line);
}
if (tsc.status !== 0 && problems.length === 0) problems.push(`tsc exited with ${tsc.status}`);

const others = Object.entries(other).map(([lang, n]) => `${n} ${lang}`);
console.log(
  `docs code blocks: ${checked.length} TypeScript blocks type-checked, ${svelteBlocks} Svelte blocks compiled, ` +
    `${fragments.length} fragments, ` +
    `${shellCommands} npm run commands found in package.json, in ${files.length} files` +
    (others.length ? `; not checked: ${others.join(', ')}` : ''),
);
for (const fragment of fragments) console.log(`  fragment: ${fragment}`);
if (problems.length > 0) {
  for (const problem of problems) console.error(`  ${problem}`);
  console.error(`docs code blocks: ${problems.length} problems`);
  process.exit(1);
}
