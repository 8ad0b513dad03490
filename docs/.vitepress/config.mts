/**
 * The docs site: the guides in docs/ and the API reference TypeDoc writes into docs/api/ (`npm run
 * docs:api`, run by `npm run docs` and `npm run docs:build`; not checked in). A dead internal link
 * fails the build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { type DefaultTheme, defineConfig } from 'vitepress';

const apiSidebarFile = new URL('../api/typedoc-sidebar.json', import.meta.url);
const apiSidebar: DefaultTheme.SidebarItem[] = existsSync(apiSidebarFile)
  ? JSON.parse(readFileSync(apiSidebarFile, 'utf8'))
  : [];

export default defineConfig({
  title: 'idb-adk-sessions',
  description: "Offline session store for in-browser AI agent apps: Google ADK's session service on IndexedDB.",
  cleanUrls: true,
  lastUpdated: false,
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/getting-started' },
      { text: 'API', link: '/api/' },
      { text: 'Versioning', link: '/versioning' },
    ],
    search: { provider: 'local' },
    outline: [2, 3],
    sidebar: [
      {
        text: 'Start',
        items: [
          { text: 'Introduction', link: '/' },
          { text: 'Getting started', link: '/getting-started' },
          { text: 'Sessions and state', link: '/sessions' },
        ],
      },
      {
        text: 'Guides',
        items: [
          { text: 'ADK in the browser', link: '/adk' },
          { text: 'Compaction, rewinds, branches, erasure', link: '/agent-events' },
          { text: 'Chat UIs with the AI SDK', link: '/chat-ui' },
          { text: 'Streaming replies', link: '/streaming' },
          { text: 'Live queries and frameworks', link: '/live-queries' },
          { text: 'Artifacts', link: '/artifacts' },
          { text: 'Search and memory', link: '/search-and-memory' },
          { text: 'Sync and the server', link: '/sync' },
          { text: 'Export and import', link: '/export-import' },
          { text: 'The inspector', link: '/inspector' },
        ],
      },
      {
        text: 'Behaviour',
        items: [
          { text: 'Errors', link: '/errors' },
          { text: 'Limits and values', link: '/limits' },
          { text: 'Durability', link: '/durability' },
          { text: 'Reliability', link: '/reliability' },
          { text: 'Performance', link: '/performance' },
          { text: 'Browsers', link: '/browsers' },
          { text: 'How it works', link: '/how-it-works' },
        ],
      },
      {
        text: 'Project',
        items: [
          { text: 'Versioning', link: '/versioning' },
          { text: 'Testing', link: '/testing' },
        ],
      },
      { text: 'API reference', link: '/api/', items: apiSidebar, collapsed: false },
    ],
  },
});
