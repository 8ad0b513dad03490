/** Rewinding in a real browser: the rewind suite (test/contract/rewind.ts) through a dedicated worker. */
import { describeRewind } from '../contract/rewind.js';
import { dedicatedClient, uniqueDbName } from './helpers.js';

describeRewind('a client of a dedicated worker', () => dedicatedClient(uniqueDbName('rewind')).client);
