import { describe, expect, it } from 'vitest';
import { gridMove, type GridPos } from './gridNav';

/** A grid of 10 people × 4 channels; Page Up/Down jump 3 rows. */
const move = (key: string, at: GridPos, ctrl = false) => gridMove(key, ctrl, at, 10, 4, 3);

describe('gridMove', () => {
  it('moves one cell with the arrows, into the headers and not past any edge', () => {
    expect(move('ArrowRight', [2, 1])).toEqual([2, 2]);
    expect(move('ArrowLeft', [2, 0])).toEqual([2, -1]);
    expect(move('ArrowLeft', [2, -1])).toEqual([2, -1]);
    expect(move('ArrowUp', [0, 3])).toEqual([-1, 3]);
    expect(move('ArrowUp', [-1, 3])).toEqual([-1, 3]);
    expect(move('ArrowDown', [9, 3])).toEqual([9, 3]);
    expect(move('ArrowRight', [9, 3])).toEqual([9, 3]);
  });

  it('jumps to the ends of the row, and with Ctrl to the ends of the grid', () => {
    expect(move('Home', [5, 2])).toEqual([5, -1]);
    expect(move('End', [5, 2])).toEqual([5, 3]);
    expect(move('Home', [5, 2], true)).toEqual([-1, -1]);
    expect(move('End', [5, 2], true)).toEqual([9, 3]);
  });

  it('jumps a page of rows, stopping at the header row and the last row', () => {
    expect(move('PageDown', [1, 2])).toEqual([4, 2]);
    expect(move('PageDown', [8, 2])).toEqual([9, 2]);
    expect(move('PageUp', [4, 2])).toEqual([1, 2]);
    expect(move('PageUp', [1, 2])).toEqual([-1, 2]);
    expect(gridMove('PageDown', false, [0, 0], 10, 4, 0)).toEqual([1, 0]);
  });

  it('leaves other keys alone, and keeps an empty grid on its headers', () => {
    expect(move('a', [1, 1])).toBeNull();
    expect(move(' ', [1, 1])).toBeNull();
    expect(move('Tab', [1, 1])).toBeNull();
    expect(gridMove('End', true, [-1, -1], 0, 0, 3)).toEqual([-1, -1]);
    expect(gridMove('ArrowDown', false, [-1, 0], 0, 2, 3)).toEqual([-1, 0]);
  });
});
