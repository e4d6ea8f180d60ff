import { describe, expect, it } from 'vitest';
import { compareNames, nameCollator } from './collate';

describe('compareNames', () => {
  it('ignores case and accents, as Zulip lists names', () => {
    expect(compareNames('émile', 'Emile')).toBe(0);
    expect(['bob', 'Álvaro', 'Carla', 'adam'].sort(compareNames)).toEqual([
      'adam',
      'Álvaro',
      'bob',
      'Carla',
    ]);
  });

  it('is one collator, built once', () => {
    expect(nameCollator()).toBe(nameCollator());
  });
});
