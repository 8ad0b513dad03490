/** Builds the streaming bench page on its own. */
import { fileURLToPath } from 'node:url';
import { benchPageConfig } from '../page-config.js';

export default benchPageConfig(fileURLToPath(new URL('.', import.meta.url)));
