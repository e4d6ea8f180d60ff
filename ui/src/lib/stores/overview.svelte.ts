import { ipc } from '../ipc';
import { Resource } from './resource.svelte';

/** The active account's organization: realm, people and streams. */
export const overview = new Resource(() => ipc.organizationOverview());
