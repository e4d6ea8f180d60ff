import { ipc } from '../ipc';
import { Resource } from './resource.svelte';

/** The active account's bots. */
export const bots = new Resource(() => ipc.listBots());
