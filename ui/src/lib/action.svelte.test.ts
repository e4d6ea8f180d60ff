import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Action } from './action.svelte';
import { keepFocusThroughBusy } from './focus';
import type { IpcError } from './ipc';

/** A task that waits until the test lets it end. */
function pending() {
  let finish: () => void = () => undefined;
  const task = () =>
    new Promise<void>((resolve) => {
      finish = resolve;
    });
  return {
    task,
    finish: () => {
      finish();
    },
  };
}

const failure: IpcError = { code: 'network', message: 'offline' };

/** A task that fails with `error`, as a command rejects. */
function failing(error: IpcError) {
  return async () => {
    await Promise.resolve();
    throw error;
  };
}

describe('Action', () => {
  afterEach(() => {
    document.body.replaceChildren();
  });

  it('is busy while the task runs, and clears the last error as it starts', async () => {
    const action = new Action();
    action.error = failure;
    const { task, finish } = pending();
    const done = action.run(task);
    expect(action.busy).toBe(true);
    expect(action.error).toBeNull();
    finish();
    await expect(done).resolves.toBe(true);
    expect(action.busy).toBe(false);
    expect(action.error).toBeNull();
  });

  it('keeps what the task failed with as an IpcError, and tells onerror', async () => {
    const action = new Action();
    const onerror = vi.fn();
    await expect(action.run(failing(failure), { onerror })).resolves.toBe(false);
    expect(action.busy).toBe(false);
    expect(action.error).toEqual(failure);
    expect(onerror).toHaveBeenCalledWith(failure);

    await action.run(async () => {
      await Promise.resolve();
      throw new Error('boom');
    });
    expect(action.error).toEqual({ code: 'internal', message: 'boom' });
  });

  it('settles however the task ends, as busy clears', async () => {
    const action = new Action();
    const seen: boolean[] = [];
    const settle = () => seen.push(action.busy);
    await action.run(() => Promise.resolve(), { settle });
    await action.run(failing(failure), { settle });
    expect(seen).toEqual([false, false]);
  });

  it('runs the task at once: what it does before its first await is in the same update', () => {
    const action = new Action();
    let started = false;
    void action.run(() => {
      started = true;
      return new Promise(() => undefined);
    });
    expect(started).toBe(true);
  });

  it('leaves focus on the control it disabled, with the app-wide keeper', async () => {
    const uninstall = keepFocusThroughBusy();
    document.body.innerHTML = '<button id="send">Send</button>';
    const button = document.getElementById('send') as HTMLButtonElement;
    const action = new Action();
    const stop = $effect.root(() => {
      $effect(() => {
        // What WebKit does to a focused control that gets disabled: it loses focus.
        if (action.busy) button.blur();
        button.disabled = action.busy;
      });
    });
    button.focus();
    const { task, finish } = pending();
    const done = action.run(task);
    flushSync();
    await Promise.resolve();
    expect(document.activeElement).toBe(document.body);

    finish();
    await done;
    flushSync();
    await vi.waitFor(() => {
      expect(document.activeElement).toBe(button);
    });
    stop();
    uninstall();
  });
});
