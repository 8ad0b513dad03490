/** The reliability sizes for this run, as Node's environment says (RELIABILITY_LONG, RELIABILITY_SEED). */
import { commands } from 'vitest/browser';
import { reliabilityScale } from '../../reliability/scale.js';

export const scale = reliabilityScale(await commands.reliabilityEnv());
