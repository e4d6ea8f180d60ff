import { ipc } from '../ipc';
import { resettable } from './registry';
import { Resource } from './resource.svelte';

/** The active account's organization: realm, people and streams. */
export const overview = resettable(new Resource(() => ipc.organizationOverview()), (r) => {
  r.clear();
});
