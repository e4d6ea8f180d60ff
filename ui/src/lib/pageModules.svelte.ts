/**
 * Pages loaded on demand. The first page is bundled with the app; every other page is
 * its own chunk (with what only it uses: KaTeX's CSS, the sanitizer), fetched when it is
 * first shown, so that a cold start parses only what its first page needs.
 */
import type { Component } from 'svelte';
import { toIpcError, type IpcError } from './ipc';

export type PageLoader = () => Promise<{ default: Component }>;

export class PageModules<Id extends string> {
  #loaders: Record<Id, PageLoader>;
  #loaded = $state<Partial<Record<Id, Component>>>({});
  #errors = $state<Partial<Record<Id, IpcError | null>>>({});
  /** Loads under way; not state: nothing renders from it. */
  #pending: Partial<Record<Id, Promise<Component | null>>> = {};

  /** `bundled`: the pages already in the app's own chunk, ready at once. */
  constructor(loaders: Record<Id, PageLoader>, bundled: Partial<Record<Id, Component>>) {
    this.#loaders = loaders;
    this.#loaded = { ...bundled };
  }

  /** The page's component once loaded. */
  component(id: Id): Component | undefined {
    return this.#loaded[id];
  }

  /** Why the page's chunk could not be loaded, if it could not. */
  error(id: Id): IpcError | undefined {
    return this.#errors[id] ?? undefined;
  }

  /** Loads the page (once; again after a failure); `null` when it failed. */
  load(id: Id): Promise<Component | null> {
    const ready = this.#loaded[id];
    if (ready) return Promise.resolve(ready);
    const pending = this.#pending[id];
    if (pending) return pending;
    this.#errors[id] = null;
    const loading = this.#loaders[id]().then(
      (module) => {
        this.#loaded[id] = module.default;
        this.#pending[id] = undefined;
        return module.default;
      },
      (error: unknown) => {
        this.#errors[id] = toIpcError(error);
        this.#pending[id] = undefined;
        return null;
      },
    );
    this.#pending[id] = loading;
    return loading;
  }
}
