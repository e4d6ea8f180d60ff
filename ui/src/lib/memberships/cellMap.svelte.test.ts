import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import { CellMap } from './cellMap.svelte';

/** Runs `read` in an effect and counts its runs; `stop` ends it. */
function watch(read: () => unknown): { runs: () => number; stop: () => void } {
  let runs = 0;
  const stop = $effect.root(() => {
    $effect(() => {
      read();
      runs++;
    });
  });
  flushSync();
  return { runs: () => runs, stop };
}

describe('CellMap', () => {
  it('behaves as a map', () => {
    const map = new CellMap<boolean>();
    map.set(7, true);
    map.set(9, false);
    expect(map.get(7)).toBe(true);
    expect(map.has(9)).toBe(true);
    expect(map.get(8)).toBeUndefined();
    expect(map.size).toBe(2);
    expect(map.delete(7)).toBe(true);
    expect(map.delete(7)).toBe(false);
    expect([...map]).toEqual([[9, false]]);
    map.clear();
    expect(map.size).toBe(0);
  });

  it('re-runs a reader of a missing cell only when its own cell changes', () => {
    const map = new CellMap<boolean>();
    const cell = watch(() => map.get(100));
    // The cells a grid shows at once: a change to any of them leaves cell 100 alone.
    for (let key = 0; key < 50; key++) if (key !== 100) map.set(key * 1_000 + 1, true);
    flushSync();
    expect(cell.runs()).toBe(1);
    map.set(100, false);
    flushSync();
    expect(cell.runs()).toBe(2);
    map.set(100, false);
    flushSync();
    expect(cell.runs()).toBe(2);
    map.delete(100);
    flushSync();
    expect(cell.runs()).toBe(3);
    cell.stop();
  });

  it('re-runs iteration and size on every change, clear included', () => {
    const map = new CellMap<string>();
    const all = watch(() => [...map].length + map.size);
    map.set(1, 'a');
    flushSync();
    map.set(2, 'b');
    flushSync();
    map.clear();
    flushSync();
    map.clear();
    flushSync();
    expect(all.runs()).toBe(4);
    all.stop();
  });

  it('re-runs a reader of a cleared cell', () => {
    const map = new CellMap<boolean>();
    map.set(42, true);
    const cell = watch(() => map.has(42));
    map.clear();
    flushSync();
    expect(cell.runs()).toBe(2);
    cell.stop();
  });
});
