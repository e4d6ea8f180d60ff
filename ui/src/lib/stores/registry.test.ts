import { describe, expect, it } from 'vitest';
import { app } from './app.svelte';
import { resettable, resetStores } from './registry';
import { router } from './router.svelte';

describe('the store registry', () => {
  it('resets every registered store', () => {
    const store = resettable({ count: 3 }, (s) => {
      s.count = 0;
    });
    resetStores();
    expect(store.count).toBe(0);
  });

  // These two run in order: the setup resets the stores between them.
  it('lets a test change the app-wide stores', () => {
    app.epoch = 5;
    router.current = 'bots';
    expect(app.epoch).toBe(5);
  });

  it('gives the next test them in their first state', () => {
    expect(app.epoch).toBe(0);
    expect(router.current).toBe('memberships');
  });
});
