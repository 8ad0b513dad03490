/** Erasing in a real browser: the erase suite (test/contract/erase.ts) through a dedicated worker. */
import { describeErase } from '../contract/erase.js';
import { dedicatedClient, uniqueDbName } from './helpers.js';

describeErase('a client of a dedicated worker', () => dedicatedClient(uniqueDbName('erase')).client);
