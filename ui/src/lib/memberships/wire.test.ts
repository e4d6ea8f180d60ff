import { describe, expect, it } from 'vitest';
import { grid, largeGrid } from '../../test/memberships';
import { GridIndex } from './grid';
import { decodeGrid, encodeGrid } from './wire';

/** The answer's bytes after its JSON header. */
function sets(answer: ArrayBuffer): number[] {
  const length = new DataView(answer).getUint32(4, true);
  return [...new Uint8Array(answer, 8 + length)];
}

describe('the grid on the wire', () => {
  it('carries each set in its smaller form and the people as columns', () => {
    const plain = grid();
    const answer = encodeGrid(plain);
    // Five people: a bitset is one byte, so only an empty set is smaller as gaps.
    // general: 0, 1, 2, 4; leadership: 0, 1; random: none.
    expect(sets(answer).slice(0, 17)).toEqual([
      ...[0, 1, 0, 0, 0, 0b10111],
      ...[0, 1, 0, 0, 0, 0b11],
      ...[1, 0, 0, 0, 0],
    ]);
    const header = JSON.parse(
      new TextDecoder().decode(new Uint8Array(answer, 8, new DataView(answer).getUint32(4, true))),
    ) as { grid: { people: unknown[] }; people: { userId: number[] } };
    expect(header.grid.people).toEqual([]);
    expect(header.people.userId).toEqual(plain.people.map((p) => p.userId));

    const { grid: decoded, bits } = decodeGrid(answer);
    expect([...bits]).toEqual([0b10111, 0b11, 0]);
    expect(decoded.streams.map((s) => s.subscriberCount)).toEqual([4, 2, 0]);
    expect(decoded.streams[0]).not.toHaveProperty('subscribers');
    expect(decoded.people).toEqual(plain.people);
    expect(decoded.groups).toEqual(plain.groups);
  });

  it('sends a sparse set as gaps, several bytes for a long gap', () => {
    // 400 people: a bitset is 50 bytes. Stream 0 holds the 5 first and person 4 + 395.
    const plain = largeGrid(395);
    const leadership = plain.streams[1];
    if (leadership) leadership.subscribers = [0, 399];
    const bytes = sets(encodeGrid(plain));
    expect(bytes[0]).toBe(0); // general: 399 people of 400, a bitset
    const second = 5 + 50;
    expect(bytes.slice(second, second + 8)).toEqual([1, 3, 0, 0, 0, 0, 142, 3]);
    const index = GridIndex.of(plain);
    expect(index.subscribed(399, 1)).toBe(true);
    expect(index.subscribed(398, 1)).toBe(false);
    expect(index.subscribed(0, 1)).toBe(true);
  });

  it('answers every cell as the lists said, across byte boundaries', () => {
    const plain = largeGrid(20, 3);
    plain.streams.forEach((stream, s) => {
      stream.subscribers = stream.subscribers.concat(
        Array.from({ length: 25 }, (_, p) => p).filter((p) => (p * (s + 3)) % 7 === 1),
      );
    });
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

  it('refuses an answer that is not a grid, is cut short or is damaged', () => {
    expect(() => decodeGrid(new TextEncoder().encode('{"people":[]}').buffer)).toThrow(
      'unknown format',
    );
    const whole = new Uint8Array(encodeGrid(grid()));
    expect(() => decodeGrid(whole.slice(0, whole.length - 1).buffer)).toThrow('cut short');
    expect(() => decodeGrid(whole.slice(0, 20).buffer)).toThrow('cut short');
    const longer = new Uint8Array(whole.length + 1);
    longer.set(whole);
    expect(() => decodeGrid(longer.buffer)).toThrow('damaged');
    // The empty stream's set, given one gap that lands past the fifth person.
    const plain = grid();
    const answer = new Uint8Array(encodeGrid(plain));
    const at = answer.length - sets(answer.buffer).length + 12;
    const damaged = new Uint8Array(answer.length + 1);
    damaged.set(answer.subarray(0, at));
    damaged.set([1, 1, 0, 0, 0, 5], at);
    damaged.set(answer.subarray(at + 5), at + 6);
    expect(() => decodeGrid(damaged.buffer)).toThrow('damaged');
    // ... or a gap whose last byte says that more follow.
    damaged[at + 5] = 0x81;
    expect(() => decodeGrid(damaged.buffer)).toThrow('damaged');
  });
});
