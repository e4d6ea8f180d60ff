import { toIpcError, type IpcError } from './ipc';

export interface RunOptions {
  /** Also told of a failure (a parent's alert, a status line), after `error` is set. */
  onerror?: (error: IpcError) => void;
  /** Runs however the action ends, in the same update that clears `busy`. */
  settle?: () => void;
}

/**
 * A user action that calls the backend: `busy` while it runs, so that its controls are
 * disabled, and `error`, the `IpcError` it failed with, cleared when it runs again.
 *
 * Focus: WebKit blurs a focused button as `busy` disables it; the app-wide keeper
 * (`keepFocusThroughBusy`, installed by `App.svelte`) gives it back once enabled again, so
 * this moves no focus itself. A task that moves focus on purpose (e.g. to a question it
 * shows) does so itself, and the keeper leaves that alone.
 */
export class Action {
  busy = $state(false);
  error = $state<IpcError | null>(null);

  /** Runs `task`; resolves to whether it succeeded (it never rejects). */
  async run(task: () => Promise<void>, options: RunOptions = {}): Promise<boolean> {
    this.busy = true;
    this.error = null;
    try {
      await task();
      return true;
    } catch (e) {
      const error = toIpcError(e);
      this.error = error;
      options.onerror?.(error);
      return false;
    } finally {
      this.busy = false;
      options.settle?.();
    }
  }
}
