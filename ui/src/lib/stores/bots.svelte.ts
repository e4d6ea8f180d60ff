import { ipc } from '../ipc';
import { resettable } from './registry';
import { Resource } from './resource.svelte';

/** The active account's bots. */
export const bots = resettable(new Resource(() => ipc.listBots()), (r) => {
  r.clear();
});

/** The integrations the workbench knows (the shared registry), with their fixtures. */
export const integrations = resettable(new Resource(() => ipc.listIntegrations()), (r) => {
  r.clear();
});

/** The active account's server's integrations (`register`'s catalog). */
export const catalog = resettable(new Resource(() => ipc.webhookCatalog()), (r) => {
  r.clear();
});

/** The active account's channels: the workbench's stream suggestions and checks. */
export const channels = resettable(new Resource(() => ipc.listWebhookChannels()), (r) => {
  r.clear();
});
