import { ipc } from '../ipc';
import { resettable } from './registry';
import { Resource } from './resource.svelte';

/** The active account's organization: realm, people and streams. */
export const overview = resettable(
  new Resource(async () => {
    const data = await ipc.organizationOverview();
    // For the start-up report (`lib/startup.ts`).
    performance.mark('overview received');
    return data;
  }),
  (r) => {
    r.clear();
  },
);
