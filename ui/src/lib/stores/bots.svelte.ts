import { ipc } from '../ipc';
import { Resource } from './resource.svelte';

/** The active account's bots. */
export const bots = new Resource(() => ipc.listBots());

/** The integrations the workbench knows (the shared registry), with their fixtures. */
export const integrations = new Resource(() => ipc.listIntegrations());
