import type { AccountSummary } from '../bindings/AccountSummary';
import type { AddAccountRequest } from '../bindings/AddAccountRequest';
import type { ImportZuliprcResponse } from '../bindings/ImportZuliprcResponse';
import { ipc } from '../ipc';
import { app } from './app.svelte';
import { overview } from './overview.svelte';

/**
 * Account actions. Each refreshes the app status and, when the active account may have
 * changed, reloads the organization overview. They reject with an `IpcError`.
 */

async function afterAccountChange(): Promise<void> {
  await app.refresh();
  void overview.ensure(app.dataKey);
}

export async function addAccount(request: AddAccountRequest): Promise<AccountSummary> {
  const account = await ipc.addAccount(request);
  await afterAccountChange();
  return account;
}

export async function importZuliprc(path: string): Promise<ImportZuliprcResponse> {
  const response = await ipc.importZuliprc({ path });
  await afterAccountChange();
  return response;
}

export async function deleteZuliprc(path: string): Promise<void> {
  await ipc.deleteZuliprc({ path });
}

export async function switchAccount(id: number): Promise<AccountSummary> {
  const account = await ipc.switchAccount({ id });
  await afterAccountChange();
  return account;
}

export async function removeAccount(id: number): Promise<void> {
  await ipc.removeAccount({ id });
  await afterAccountChange();
}
