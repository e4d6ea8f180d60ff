import { describe, expect, it } from 'vitest';
import { Resource } from './resource.svelte';

describe('Resource', () => {
  it('keeps the answer for the latest key only, and tells onload what it replaced', async () => {
    const answers: ((value: string) => void)[] = [];
    const loaded: [string, string | null][] = [];
    const resource = new Resource(
      () =>
        new Promise<string>((resolve) => {
          answers.push(resolve);
        }),
      (data, previous) => loaded.push([data, previous]),
    );
    const first = resource.load('a');
    const second = resource.load('b');
    expect(resource.key).toBe('b');
    answers[1]?.('for b');
    answers[0]?.('for a');
    await Promise.all([first, second]);
    expect(resource.data).toBe('for b');
    expect(loaded).toEqual([['for b', null]]);

    const again = resource.reload();
    answers[2]?.('b again');
    await again;
    expect(loaded).toEqual([
      ['for b', null],
      ['b again', 'for b'],
    ]);
  });

  it('counts what onload throws as a failed load', async () => {
    const resource = new Resource(
      () => Promise.resolve(1),
      () => {
        throw new Error('cannot use it');
      },
    );
    await resource.load('a');
    expect(resource.error).toEqual({ code: 'internal', message: 'cannot use it' });
    expect(resource.loading).toBe(false);
  });
});
