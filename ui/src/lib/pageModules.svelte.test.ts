import type { Component } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import { PageModules } from './pageModules.svelte';

const First = (() => {}) as unknown as Component;
const Second = (() => {}) as unknown as Component;

describe('PageModules', () => {
  it('has bundled pages at once and loads the others once, on demand', async () => {
    const second = vi.fn(() => Promise.resolve({ default: Second }));
    const pages = new PageModules<'first' | 'second'>(
      { first: () => Promise.resolve({ default: First }), second },
      { first: First },
    );
    expect(pages.component('first')).toBe(First);
    expect(pages.component('second')).toBeUndefined();

    const [a, b] = await Promise.all([pages.load('second'), pages.load('second')]);
    expect(a).toBe(Second);
    expect(b).toBe(Second);
    expect(pages.component('second')).toBe(Second);
    await pages.load('second');
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('reports a chunk that fails to load and loads it again when asked', async () => {
    const loader = vi
      .fn<() => Promise<{ default: Component }>>()
      .mockRejectedValueOnce(new Error('Importing a module script failed.'))
      .mockResolvedValueOnce({ default: Second });
    const pages = new PageModules<'second'>({ second: loader }, {});

    expect(await pages.load('second')).toBeNull();
    expect(pages.error('second')).toEqual({
      code: 'internal',
      message: 'Importing a module script failed.',
    });
    expect(pages.component('second')).toBeUndefined();

    expect(await pages.load('second')).toBe(Second);
    expect(pages.error('second')).toBeUndefined();
    expect(loader).toHaveBeenCalledTimes(2);
  });
});
