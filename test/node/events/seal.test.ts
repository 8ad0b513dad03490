import { describeSeal } from '../../contract/seal.js';
import { storeKinds } from '../store-kinds.js';

for (const [where, open] of storeKinds('seal')) describeSeal(where, open);
