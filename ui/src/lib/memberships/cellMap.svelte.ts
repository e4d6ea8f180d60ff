/**
 * A map from grid cell keys to values (staged states, failure messages) whose reads are
 * tracked per bucket of keys rather than on one version: reading a cell re-runs only when
 * a cell of its bucket changes, so staging one cell re-renders that cell and not every cell
 * shown. (A `SvelteMap` tracks every read of a missing key on its one version, and nearly
 * every cell is missing: one toggle re-ran each of the ~700 cells in view.)
 *
 * Iterating and `size` track every change, as the pending-changes panel needs. Keys are
 * numbers (the grid's cells) or strings (a groups page cell, a channel's setting).
 */

/** Enough buckets that two cells in view rarely share one; created once, up front, so that
 * no signal is ever created inside the reaction that reads it (which would not track it). */
const BUCKET_BITS = 12;

class Version {
  value = $state(0);

  /** Reading the value is what makes the current effect depend on it. */
  track(): number {
    return this.value;
  }
}

/** Fibonacci hashing: neighbouring keys (a row's cells) land in different buckets; a
 *  string is first folded to a number (FNV-1a). */
function bucketOf(key: number | string): number {
  let n: number;
  if (typeof key === 'number') n = key;
  else {
    n = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) n = Math.imul(n ^ key.charCodeAt(i), 0x01000193);
  }
  return Math.imul(n, 0x9e3779b1) >>> (32 - BUCKET_BITS);
}

export class CellMap<V, K extends number | string = number> {
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- tracked by the versions below
  readonly #values = new Map<K, V>();
  readonly #buckets = Array.from({ length: 1 << BUCKET_BITS }, () => new Version());
  readonly #all = new Version();

  get(key: K): V | undefined {
    this.#buckets[bucketOf(key)]?.track();
    return this.#values.get(key);
  }

  has(key: K): boolean {
    this.#buckets[bucketOf(key)]?.track();
    return this.#values.has(key);
  }

  /** Changes with every change; reading it tracks them all (as a painter needs). */
  get version(): number {
    return this.#all.track();
  }

  get size(): number {
    this.#all.track();
    return this.#values.size;
  }

  set(key: K, value: V): void {
    if (this.#values.has(key) && this.#values.get(key) === value) return;
    this.#values.set(key, value);
    this.#changed(key);
  }

  delete(key: K): boolean {
    if (!this.#values.delete(key)) return false;
    this.#changed(key);
    return true;
  }

  clear(): void {
    if (this.#values.size === 0) return;
    for (const key of this.#values.keys()) this.#bump(key);
    this.#values.clear();
    this.#all.value++;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    this.#all.track();
    return this.#values.entries();
  }

  #changed(key: K): void {
    this.#bump(key);
    this.#all.value++;
  }

  #bump(key: K): void {
    const bucket = this.#buckets[bucketOf(key)];
    if (bucket) bucket.value++;
  }
}
