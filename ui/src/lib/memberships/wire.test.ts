import { describe, expect, it } from 'vitest';
import { grid, largeGrid } from '../../test/memberships';
import { GridIndex } from './grid';
import { decodeGrid, encodeGrid } from './wire';

describe('the grid on the wire', () => {
  it('carries who is subscribed as bitsets and the counts in the JSON', () => {
    const plain = grid();
    const { grid: decoded, bits } = decodeGrid(encodeGrid(plain));
    // Five people: one byte per stream. general: 0, 1, 2, 4; leadership: 0, 1; random: none.
    expect([...bits]).toEqual([0b10111, 0b11, 0]);
    expect(decoded.streams.map((s) => s.subscriberCount)).toEqual([4, 2, 0]);
    expect(decoded.streams[0]).not.toHaveProperty('subscribers');
    expect(decoded.people).toEqual(plain.people);
    expect(decoded.groups).toEqual(plain.groups);
  });

  it('answers every cell as the lists said, across byte boundaries', () => {
    const plain = largeGrid(20, 3);
    const index = GridIndex.of(plain);
    plain.streams.forEach((stream, s) => {
      const members = new Set(stream.subscribers);
      for (let p = 0; p < plain.people.length; p++) {
        expect(index.subscribed(p, s)).toBe(members.has(p));
      }
    });
    expect(index.subscribed(plain.people.length, 0)).toBe(false);
    expect(index.subscribed(0, plain.streams.length)).toBe(false);
  });

  it('refuses an answer that is not a grid or is cut short', () => {
    expect(() => decodeGrid(new TextEncoder().encode('{"people":[]}').buffer)).toThrow(
      'unknown format',
    );
    const whole = new Uint8Array(encodeGrid(grid()));
    expect(() => decodeGrid(whole.slice(0, whole.length - 1).buffer)).toThrow('cut short');
    expect(() => decodeGrid(whole.slice(0, 20).buffer)).toThrow('cut short');
  });
});
