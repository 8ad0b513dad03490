// The Markdown a reader of the docs reads: README.md and docs/**/*.md, without the generated API
// reference (docs/api/), VitePress's own folders (.vitepress) and installed packages. Both doc
// checkers (code blocks, repository paths) read this one list, so they cannot cover different pages.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function markdownFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'api' || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** Absolute paths of README.md and every page under docs/, for the repository at `root`. */
export const docFiles = (root) => [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];
