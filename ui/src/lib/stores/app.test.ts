import { afterEach, describe, expect, it } from 'vitest';
import type { AppStatus } from '../bindings/AppStatus';
import { resetBackend, setBackend } from '../ipc';
import { app } from './app.svelte';
import { resetStores } from './registry';

/** A backend answering `app_status`, counting the requests. */
function countingBackend(): { requests: () => number } {
  let requests = 0;
  setBackend({
    invoke: (command) => {
      if (command !== 'app_status') return Promise.reject(new Error(command));
      requests++;
      return Promise.resolve({ activeAccountId: null, accounts: [] } as unknown as AppStatus);
    },
  });
  return { requests: () => requests };
}

describe('the app status at start-up', () => {
  afterEach(() => {
    resetBackend();
  });

  it('is asked for once, however many callers wait for the first load', async () => {
    const backend = countingBackend();
    await Promise.all([app.start(), app.start()]);
    await app.start();
    expect(backend.requests()).toBe(1);
    expect(app.status?.accounts).toEqual([]);
  });

  it('is asked for again after the stores are reset', async () => {
    const backend = countingBackend();
    await app.start();
    resetStores();
    await app.start();
    expect(backend.requests()).toBe(2);
  });
});
