import { AdkSessionService } from '../../../src/adk/index.js';
import { describeCompactionDifferential } from '../../adk/compaction-differential.js';
import { openInThread, openThroughPort } from '../store-kinds.js';

const inThread = () => openInThread('cd');
const throughPort = () => openThroughPort('cd');

describeCompactionDifferential('Node, fake-indexeddb', () => [
  { label: 'in-thread, every event read', open: () => new AdkSessionService(inThread()) },
  {
    label: 'in-thread, fromLatestCompaction',
    open: () => new AdkSessionService(inThread(), { fromLatestCompaction: true }),
  },
  {
    label: 'through a port, fromLatestCompaction',
    open: () => new AdkSessionService(throughPort(), { fromLatestCompaction: true }),
  },
]);
