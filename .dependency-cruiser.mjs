/**
 * The layers of src/, by folder, checked by `npm run lint:layers` (and `npm test`). Imports point
 * down: integrations and the demo -> the public entry -> client (page side, in-thread store) ->
 * host (worker side of the boundary) -> capabilities (sessions, then the slices) -> database
 * (the owner of the IndexedDB connection) -> core (leaf utilities). The public data types
 * (src/types.ts, src/public/) sit beside core: every layer may name them.
 */
const slices = 'artifacts|search|memory|drafts|sync|transfer|live';
const integrations = 'adk|react|ai-sdk|tanstack-ai|vite|inspector';
const publicTypes = '^src/(types\\.ts|public/)';
const below = (...folders) => [`^src/(${folders.join('|')})/`, publicTypes];

/** `from` may import only what `allowed` lists (and packages). */
const only = (name, comment, from, allowed) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: '^(src|demo|worker)/', pathNot: allowed },
});

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: modules that cannot be read, tested or loaded one without the other.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    only('core-is-a-leaf', 'core/ holds leaf utilities: it imports nothing of the library above it.', '^src/core/', [
      '^src/core/',
    ]),
    only('public-types-are-a-leaf', 'The public data types name only core and each other.', publicTypes, below('core')),
    only(
      'database-knows-no-capability',
      'database/ owns the connection, transactions and change notices; capabilities reach it, never the reverse.',
      '^src/database/',
      below('core', 'database'),
    ),
    only(
      'sessions-on-database',
      'The session capability is built on the database owner and core only.',
      '^src/sessions/',
      below('core', 'database', 'sessions'),
    ),
    ...slices
      .split('|')
      .map((slice) =>
        only(
          `${slice}-is-a-slice`,
          `${slice}/ depends on database/, core/ and the sessions capability, on another slice only through its face (index.ts), never on the boundary or the page.`,
          `^src/${slice}/`,
          [...below('core', 'database', 'sessions', slice), `^src/(${slices})/index\\.ts$`],
        ),
      ),
    only(
      'host-below-client',
      'The worker side of the boundary never imports the page side (client/), an integration or the public entry.',
      '^src/host/',
      below('core', 'database', 'sessions', slices, 'host'),
    ),
    only(
      'client-below-entry',
      'The page side builds on the capabilities and the host, never on the public entry or an integration.',
      '^src/client/',
      [...below('core', 'database', 'sessions', slices, 'host', 'client'), '^src/bundled-worker\\.ts$'],
    ),
    only(
      'integrations-on-the-public-api',
      'adk/, react/, ai-sdk/, tanstack-ai/, vite/ and inspector/ are built on the public entry (and core utilities), like an app.',
      `^src/(${integrations})/`,
      [...below('core', integrations), '^src/index\\.ts$'],
    ),
    only('demo-on-the-public-api', 'The demo is an app: it uses the public entries only.', '^demo/', [
      '^demo/',
      '^src/index\\.ts$',
      `^src/(${integrations})/index\\.ts$`,
      '^src/ai-sdk/react\\.ts$',
      '^src/inspector/react\\.ts$',
    ]),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a layer that names a higher one's types depends on it all the same.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
