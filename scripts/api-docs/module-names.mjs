// @ts-check
/**
 * Each entry point's page is named for the import specifier users write (`idb-adk-sessions/react`,
 * following package.json's `exports`), not for its source path, and opens with the comment that
 * opens its file (TypeDoc takes a file's first comment as the module's only when it is tagged
 * `@packageDocumentation`; the sources state each module's contract in that comment untagged).
 */
import { Comment, CommentTag, Converter, ReflectionKind } from 'typedoc';
import { entryPoints } from './entry-points.mjs';

/** Source file (relative to the repo) → the specifier users import it by. */
const SPECIFIERS = new Map(entryPoints.map(({ source, specifier }) => [source, specifier]));

/**
 * The file's opening `/** … *\/` comment as a TypeDoc comment: its text, and its `@example`
 * (the only tag the entry points' opening comments use) as a code block.
 * @param {string} source
 */
function openingComment(source) {
  const match = /^\s*\/\*\*([\s\S]*?)\*\//.exec(source);
  if (!match?.[1]) return undefined;
  const lines = match[1].split('\n').map((line) => line.replace(/^\s*\* ?/, ''));
  const text = lines.join('\n').trim();
  const [summary = '', example] = text.split(/^@example\s*$/m);
  /** @type {CommentTag[]} */
  const tags = [];
  if (example?.trim())
    tags.push(new CommentTag('@example', [{ kind: 'code', text: `\`\`\`ts\n${example.trim()}\n\`\`\`` }]));
  return new Comment([{ kind: 'text', text: summary.trim() }], tags);
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (!reflection.kindOf(ReflectionKind.Module)) return;
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile();
    const path = file?.fileName.replaceAll('\\', '/');
    const entry = [...SPECIFIERS.keys()].find((source) => path?.endsWith(`/${source}`));
    if (!entry || !file) return;
    reflection.name = SPECIFIERS.get(entry) ?? reflection.name;
    if (!reflection.comment) reflection.comment = openingComment(file.text);
  });
}
