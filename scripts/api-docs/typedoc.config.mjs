// @ts-check
/**
 * TypeDoc for the API reference: every entry point of package.json's `exports`, written as Markdown
 * into docs/api/ for VitePress (with a sidebar, docs/api/typedoc-sidebar.json). Run by
 * `npm run docs:api`, which `npm run docs` and `npm run docs:build` run first.
 */
import { fileURLToPath } from 'node:url';
import { entryPoints } from './entry-points.mjs';

/** @type {Partial<import('typedoc').TypeDocOptions & import('typedoc-plugin-markdown').PluginOptions & Record<string, unknown>>} */
const config = {
  entryPoints: entryPoints.map(({ source }) => `../../${source}`),
  tsconfig: '../../tsconfig.build.json',
  plugin: [
    'typedoc-plugin-markdown',
    'typedoc-vitepress-theme',
    fileURLToPath(new URL('./module-names.mjs', import.meta.url)),
  ],
  out: '../../docs/api',
  docsRoot: '../../docs',
  readme: 'none',
  name: 'API reference',
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  disableSources: true,
  hidePageHeader: true,
  hideBreadcrumbs: true,
  entryFileName: 'index',
  useCodeBlocks: true,
  parametersFormat: 'table',
  interfacePropertiesFormat: 'table',
  enumMembersFormat: 'table',
  typeDeclarationFormat: 'table',
  sanitizeComments: true,
  logLevel: 'Warn',
  // tsc checks the sources in npm test; TypeDoc only reads them (half its time otherwise).
  skipErrorChecking: true,
};
export default config;
