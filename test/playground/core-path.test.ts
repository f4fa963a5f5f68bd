/** The core path end to end on a fresh playground, in `npm test`: the quick shipped scenarios (S1, S2). */
import { describe, it } from 'vitest';
import { expectScenarioPasses, quickScenarios } from './shipped-scenarios.js';

describe('the core path on the playground', () => {
  it.each(quickScenarios)('%s passes', (file) => expectScenarioPasses(file), 120_000);
});
