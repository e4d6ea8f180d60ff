import type { LocalServerStatus } from '../bindings/LocalServerStatus';
import type { RequestLogEntry } from '../bindings/RequestLogEntry';
import { ipc, toIpcError, type IpcError } from '../ipc';

/** Newest first: by time, then by id for requests in the same millisecond. */
export function newestFirst(requests: readonly RequestLogEntry[]): RequestLogEntry[] {
  return [...requests].sort((a, b) => b.at - a.at || b.id - a.id);
}

/** The local server's status and request log, polled while its page is visible. */
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

  async refresh(): Promise<void> {
    try {
      this.status = await ipc.localServerStatus();
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
      await this.refresh();
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

export const localServer = new LocalServerState();
