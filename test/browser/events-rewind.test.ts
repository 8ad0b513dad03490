/** Rewinding and branching in a real browser: their suites (test/contract/) through a dedicated worker. */
import { describeBranches } from '../contract/branches.js';
import { describeRewind } from '../contract/rewind.js';
import { dedicatedClient, uniqueDbName } from './helpers.js';

describeRewind('a client of a dedicated worker', () => dedicatedClient(uniqueDbName('rewind')).client);
describeBranches('a client of a dedicated worker', () => dedicatedClient(uniqueDbName('branches')).client);
