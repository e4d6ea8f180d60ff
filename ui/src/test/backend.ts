import { fakeBackend, setBackend, type FakeHandlers } from '../lib/ipc';
import { app } from '../lib/stores/app.svelte';
import { bots, integrations } from '../lib/stores/bots.svelte';
import { localServer } from '../lib/stores/localServer.svelte';
import { memberships } from '../lib/stores/memberships.svelte';
import { overview } from '../lib/stores/overview.svelte';
import { router } from '../lib/stores/router.svelte';
import { workbench } from '../lib/stores/workbench.svelte';

/**
 * Start a test from a clean slate: stores emptied, the page at Memberships, and commands
 * answered by `handlers`. Returns the fake, whose `calls` record every command.
 */
export function useFakeBackend(handlers: FakeHandlers) {
  app.reset();
  overview.clear();
  bots.clear();
  integrations.clear();
  workbench.reset();
  localServer.reset();
  memberships.clear();
  window.location.hash = '';
  router.current = 'memberships';
  const backend = fakeBackend(handlers);
  setBackend(backend);
  return backend;
}

/** The names of the commands called so far, in order. */
export function commandNames(backend: { calls: [string, unknown][] }): string[] {
  return backend.calls.map(([name]) => name);
}
