import { IndexedDbSessionService } from '../../src/index.js';
import { describeRememberedUid } from '../contract/remembered-uid.js';
import { uniqueDbName } from './helpers.js';

describeRememberedUid('two in-thread instances over browser IndexedDB (windows read backwards)', () => {
  const dbName = uniqueDbName('uid');
  return [new IndexedDbSessionService({ dbName }), new IndexedDbSessionService({ dbName })];
});
