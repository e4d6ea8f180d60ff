import { toIpcError, type IpcError } from '../ipc';

/**
 * Data loaded from the backend for one key (account and data epoch): loading and error
 * state, and answers to stale requests dropped.
 */
export class Resource<T> {
  data = $state<T | null>(null);
  error = $state<IpcError | null>(null);
  loading = $state(false);

  #fetch: () => Promise<T>;
  #onload: ((data: T, previous: T | null) => void) | undefined;
  #key: string | null = null;
  #seq = 0;
  /** The load for `#key`, settled or not (what `ensure` waits on). */
  #loaded: Promise<void> = Promise.resolve();

  /**
   * `onload` sees each answer that is kept, as it replaces `previous` (state built on the
   * data, such as staged edits, can follow it); what it throws counts as a failed load.
   */
  constructor(fetch: () => Promise<T>, onload?: (data: T, previous: T | null) => void) {
    this.#fetch = fetch;
    this.#onload = onload;
  }

  /** The key loaded (or loading) for; `null` when cleared. */
  get key(): string | null {
    return this.#key;
  }

  /** Load for `key` unless already loaded (or loading) for it; `null` clears. Settles
   *  when that load does (it never rejects: failures land in `error`). */
  ensure(key: string | null): Promise<void> {
    if (key === null) {
      this.clear();
      return Promise.resolve();
    }
    if (key !== this.#key) this.#loaded = this.load(key);
    return this.#loaded;
  }

  /** Load again for the current key (Retry buttons). */
  reload(): Promise<void> {
    return this.#key === null ? Promise.resolve() : this.load(this.#key);
  }

  async load(key: string): Promise<void> {
    const seq = ++this.#seq;
    if (key !== this.#key) this.data = null;
    this.#key = key;
    this.loading = true;
    this.error = null;
    try {
      const data = await this.#fetch();
      if (seq === this.#seq) {
        const previous = this.data;
        this.data = data;
        this.#onload?.(data, previous);
      }
    } catch (error) {
      if (seq === this.#seq) this.error = toIpcError(error);
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  clear(): void {
    this.#seq++;
    this.#key = null;
    this.data = null;
    this.error = null;
    this.loading = false;
  }
}
