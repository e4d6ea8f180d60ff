import type { LocalServerStatus } from '../bindings/LocalServerStatus';
import type { RequestLogEntry } from '../bindings/RequestLogEntry';
import { ipc, toIpcError, type IpcError } from '../ipc';
import { resettable } from './registry';

/** Newest first: by time, then by id for requests in the same millisecond. */
export function newestFirst(requests: readonly RequestLogEntry[]): RequestLogEntry[] {
  return [...requests].sort((a, b) => b.at - a.at || b.id - a.id);
}

/** As many requests as the server's log keeps. */
const MAX_REQUESTS = 500;

/**
 * The local server's status and request log while its page is visible: the whole log
 * once, then every second only the entries newer than the newest one shown.
 */
class LocalServerState {
  status = $state<LocalServerStatus | null>(null);
  error = $state<IpcError | null>(null);

  #timer: ReturnType<typeof setTimeout> | undefined;
  #polling = false;
  #inFlight = false;
  #intervalMs = 1000;
  #onVisibility = () => {
    if (document.visibilityState === 'visible') void this.#tick();
    else this.#clearTimer();
  };

  /** The whole status, request log included. */
  async refresh(): Promise<void> {
    try {
      this.status = await ipc.localServerStatus();
      this.error = null;
    } catch (error) {
      this.error = toIpcError(error);
    }
  }

  /** Only what is new since the last answer: the log's newer entries are prepended. */
  async #follow(current: LocalServerStatus): Promise<void> {
    const sinceId = current.requests.reduce((max, entry) => Math.max(max, entry.id), 0);
    try {
      const update = await ipc.localServerUpdates({ sinceId });
      this.status = {
        ...update,
        requests: [...update.requests, ...current.requests].slice(0, MAX_REQUESTS),
      };
      this.error = null;
    } catch (error) {
      this.error = toIpcError(error);
    }
  }

  /** Poll `local_server_status` now and every `intervalMs` until `stopPolling`. */
  startPolling(intervalMs = 1000): void {
    if (this.#polling) return;
    this.#polling = true;
    this.#intervalMs = intervalMs;
    document.addEventListener('visibilitychange', this.#onVisibility);
    void this.#tick();
  }

  stopPolling(): void {
    this.#polling = false;
    this.#clearTimer();
    document.removeEventListener('visibilitychange', this.#onVisibility);
  }

  async start(): Promise<void> {
    this.status = await ipc.startLocalServer();
    this.error = null;
  }

  async resetDemoData(): Promise<void> {
    this.status = await ipc.resetDemoData();
    this.error = null;
  }

  reset(): void {
    this.stopPolling();
    this.status = null;
    this.error = null;
  }

  async #tick(): Promise<void> {
    if (this.#inFlight) return;
    this.#clearTimer();
    this.#inFlight = true;
    try {
      const current = this.status;
      await (current === null ? this.refresh() : this.#follow(current));
    } finally {
      this.#inFlight = false;
    }
    // One request at a time: the next poll is scheduled after this one answered.
    if (this.#polling && document.visibilityState === 'visible') {
      this.#timer = setTimeout(() => void this.#tick(), this.#intervalMs);
    }
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

export const localServer = resettable(new LocalServerState(), (state) => {
  state.reset();
});
