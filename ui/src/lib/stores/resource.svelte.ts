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
  #key: string | null = null;
  #seq = 0;

  constructor(fetch: () => Promise<T>) {
    this.#fetch = fetch;
  }

  /** Load for `key` unless already loaded (or loading) for it; `null` clears. */
  ensure(key: string | null): void {
    if (key === null) {
      this.clear();
      return;
    }
    if (key === this.#key) return;
    void this.load(key);
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
      if (seq === this.#seq) this.data = data;
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
