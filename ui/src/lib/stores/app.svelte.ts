import type { AccountSummary } from '../bindings/AccountSummary';
import type { AppStatus } from '../bindings/AppStatus';
import { ipc, toIpcError, type IpcError } from '../ipc';
import { resettable } from './registry';

/** The app's status: accounts, which one is active, keyring and local server. */
class AppState {
  status = $state<AppStatus | null>(null);
  error = $state<IpcError | null>(null);
  loading = $state(false);
  /** Bumped whenever an account's data may have changed (switch, add, reset, remove). */
  epoch = $state(0);

  accounts: AccountSummary[] = $derived(this.status?.accounts ?? []);
  activeAccountId: number | null = $derived(this.status?.activeAccountId ?? null);
  activeAccount: AccountSummary | null = $derived(
    this.accounts.find((a) => a.id === this.activeAccountId) ?? null,
  );
  /** Key for data that belongs to the active account; `null` when none is active. */
  dataKey: string | null = $derived(
    this.activeAccountId === null ? null : `${this.activeAccountId}:${this.epoch}`,
  );

  /** The first `load`, shared: `main.ts` starts it before the app mounts, so that the
   *  request does not wait for the first layout (the app's effects run only then), and
   *  the app's `onMount` waits for the same one. */
  #first: Promise<void> | null = null;

  start(): Promise<void> {
    this.#first ??= this.load();
    return this.#first;
  }

  async load(): Promise<void> {
    this.loading = true;
    this.error = null;
    try {
      this.status = await ipc.appStatus();
    } catch (error) {
      this.error = toIpcError(error);
    } finally {
      this.loading = false;
    }
  }

  /** Fetch the status again after a change; `changedData` invalidates loaded pages. */
  async refresh(changedData = true): Promise<void> {
    this.status = await ipc.appStatus();
    if (changedData) this.epoch++;
  }

  reset(): void {
    this.#first = null;
    this.status = null;
    this.error = null;
    this.loading = false;
    this.epoch = 0;
  }
}

export const app = resettable(new AppState(), (state) => {
  state.reset();
});
