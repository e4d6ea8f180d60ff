import { describe, expect, it } from 'vitest';
import { largeGrid } from '../../test/memberships';
import { GridIndex } from './grid';
import { COL, HEAD_H, HEAD_W, ROW } from './gridGeometry';
import {
  fit,
  GridPainter,
  pointAt,
  span,
  type Palette,
  type PaintBand,
  type PaintModel,
} from './gridPainter';
import { CHECKED, MIXED, STAGED } from './groupBand';

/** A 2D context that records its calls, with the fill style at each `fill`. */
function recorder(width = 900, height = 600) {
  const calls: [string, ...unknown[]][] = [];
  const state: Record<string | symbol, unknown> = {
    canvas: { width, height },
    fillStyle: '',
  };
  const ctx = new Proxy(state, {
    get(target, name) {
      if (name in target) return target[name];
      if (name === 'measureText') return (text: string) => ({ width: text.length * 6 });
      return (...args: unknown[]) => {
        calls.push([String(name), ...(name === 'fill' ? [target['fillStyle']] : args)]);
      };
    },
  }) as unknown as CanvasRenderingContext2D;
  return { ctx, calls };
}

// Each token's colour is its own name, so a test reads which token was used.
const palette = new Proxy({}, { get: (_, name) => String(name) }) as Palette;

function setup() {
  const index = GridIndex.of(largeGrid(100, 50));
  const staged = new Map<number, boolean>();
  const model: PaintModel = {
    index,
    rows: Array.from({ length: index.peopleCount }, (_, i) => i),
    cols: Array.from({ length: index.streamCount }, (_, i) => i),
    staged: (key) => staged.get(key),
    failed: () => false,
  };
  const { ctx, calls } = recorder();
  const sprites = new Map<object, string>();
  const painter = new GridPainter(
    ctx,
    { palette, fontFamily: 'sans-serif', nameSize: 14, scale: 1 },
    () => {
      const sprite = recorder(24, 24);
      const canvas = { getContext: () => sprite.ctx };
      // A sprite is named by the fills that made it: the box's fill comes last.
      queueMicrotask(() => {
        sprites.set(canvas, sprite.calls.filter(([name]) => name === 'fill').join('|'));
      });
      return canvas as unknown as HTMLCanvasElement;
    },
  );
  /** The cell sprites drawn by the calls since `from`, as [x, y]. */
  const cellsDrawn = (from = 0) =>
    calls
      .slice(from)
      .filter(([name, image]) => name === 'drawImage' && image !== ctx.canvas)
      .map(([, , x, y]) => [x, y]);
  return { index, model, staged, painter, calls, cellsDrawn, ctx, sprites };
}

const view = { top: 0, left: 0, width: 900, height: 600 };

describe('the grid geometry', () => {
  it('spans the rows and columns in view, with overscan, within the grid', () => {
    expect(span(0, 600, HEAD_H, ROW, 1000)).toEqual([0, 14]);
    expect(span(10 * ROW, 600, HEAD_H, ROW, 1000, 3)).toEqual([7, 27]);
    expect(span(0, 600, HEAD_H, ROW, 5)).toEqual([0, 5]);
    expect(span(0, 100, HEAD_H, ROW, 5)).toEqual([0, 0]);
  });

  it('finds the cell or header button under a point, and nothing elsewhere', () => {
    const scrolled = { ...view, top: 2 * ROW, left: COL };
    expect(pointAt(HEAD_W + 1, HEAD_H + 1, scrolled, 100, 50)).toEqual([2, 1]);
    expect(pointAt(HEAD_W + COL + 20, HEAD_H + ROW + 5, view, 100, 50)).toEqual([1, 1]);
    // The ± of a person (right of the header column) and of a channel (bottom of its head).
    expect(pointAt(HEAD_W - 10, HEAD_H + 15, view, 100, 50)).toEqual([0, -1]);
    expect(pointAt(HEAD_W + 17, HEAD_H - 10, view, 100, 50)).toEqual([-1, 0]);
    expect(pointAt(20, HEAD_H + 15, view, 100, 50)).toBeNull();
    expect(pointAt(HEAD_W + 17, 20, view, 100, 50)).toBeNull();
    // Past the last row or column, and outside the viewport.
    expect(pointAt(HEAD_W + 1, HEAD_H + 3 * ROW, view, 3, 50)).toBeNull();
    expect(pointAt(-1, 200, view, 100, 50)).toBeNull();
  });

  it('fits text with an ellipsis', () => {
    const ctx = { measureText: (text: string) => ({ width: text.length * 6 }) as TextMetrics };
    expect(fit(ctx, 'short', 60)).toBe('short');
    expect(fit(ctx, 'a rather long name', 60)).toBe('a rather…');
    expect(fit(ctx, 'x', 0)).toBe('…');
  });
});

describe('the grid painter', () => {
  it('draws one box per cell in view, each from the sprite of its state', async () => {
    const { index, model, staged, painter, cellsDrawn, sprites, calls } = setup();
    staged.set(index.key(0, 1), true);
    painter.paint(model, view);
    await Promise.resolve();
    const cells = cellsDrawn();
    expect(cells).toHaveLength(14 * 19);
    const spriteAt = (r: number, c: number) => {
      const call = calls.find(
        ([name, , x, y]) =>
          name === 'drawImage' && x === HEAD_W + c * COL + 5 && y === HEAD_H + r * ROW + 4,
      );
      return sprites.get(call?.[1] as object);
    };
    // Person 0 is in stream 0; staging stream 1 shows it checked, with the staged ring.
    expect(spriteAt(0, 0)).toBe('fill,accent');
    expect(spriteAt(0, 1)).toBe('fill,accent');
    expect(spriteAt(0, 2)).toBe('fill,bgRaised');
    expect(spriteAt(0, 1)).toBe(spriteAt(0, 0));
    // The staged sprite draws its ring first (a stroke, not a fill): a separate sprite.
    const first = calls.find(([name, , x]) => name === 'drawImage' && x === HEAD_W + COL + 5);
    const plain = calls.find(([name, , x]) => name === 'drawImage' && x === HEAD_W + 5);
    expect(first?.[1]).not.toBe(plain?.[1]);
  });

  it('redraws only the cell that changed', () => {
    const { index, model, staged, painter, calls, cellsDrawn } = setup();
    painter.paint(model, view);
    const before = calls.length;
    staged.set(index.key(2, 3), true);
    painter.paint(model, view);
    expect(cellsDrawn(before)).toEqual([[HEAD_W + 3 * COL + 5, HEAD_H + 2 * ROW + 4]]);
    // No text: the headers were not painted again.
    expect(calls.slice(before).some(([name]) => name === 'fillText')).toBe(false);
  });

  it('moves the last frame on a scroll and draws only the rows that came into view', () => {
    const { model, painter, calls, cellsDrawn, ctx } = setup();
    painter.paint(model, view);
    const before = calls.length;
    painter.paint(model, { ...view, top: ROW });
    const moved = calls
      .slice(before)
      .filter(([name, image]) => name === 'drawImage' && image === ctx.canvas);
    expect(moved).toHaveLength(1);
    // The band uncovered is one row high: the last row, and the one cut off before it.
    const rows = new Set(cellsDrawn(before).map(([, y]) => y));
    expect([...rows]).toEqual([HEAD_H + 12 * ROW + 4, HEAD_H + 13 * ROW + 4]);
    expect(cellsDrawn(before)).toHaveLength(2 * 19);
  });

  it('paints the whole frame again after a scroll on both axes', () => {
    const { model, painter, calls, cellsDrawn } = setup();
    painter.paint(model, view);
    const before = calls.length;
    painter.paint(model, { ...view, top: ROW, left: COL });
    expect(cellsDrawn(before)).toHaveLength(14 * 19);
  });
});

describe('the group rows', () => {
  /** One group row whose cells are all, some or none by channel (0, 1, else). */
  const band: PaintBand = {
    groups: [{ label: 'research', members: 3 }],
    cell: (_, s) => (s === 0 ? CHECKED : s === 1 ? MIXED | STAGED : 0),
    note: null,
  };

  it('finds a group cell or a sync button in the band, and people below it', () => {
    expect(pointAt(HEAD_W + 1, HEAD_H + ROW + 1, view, 100, 50, 2)).toEqual([1, 0]);
    expect(pointAt(HEAD_W + 17, HEAD_H + 15, view, 100, 50, 2)).toEqual([0, 0]);
    expect(pointAt(HEAD_W + 2, HEAD_H + 2, view, 100, 50, 2)).toBeNull();
    // The band does not scroll: scrolled down, the people under it are not hit.
    const scrolled = { ...view, top: 5 * ROW };
    expect(pointAt(HEAD_W + 1, HEAD_H + ROW + 1, scrolled, 100, 50, 2)).toEqual([1, 0]);
    expect(pointAt(HEAD_W + 1, HEAD_H + 2 * ROW + 1, scrolled, 100, 50, 2)).toEqual([2 + 5, 0]);
    expect(pointAt(HEAD_W - 10, HEAD_H + 2 * ROW + 15, view, 100, 50, 2)).toEqual([2, -1]);
  });

  it('paints the band under the headers and the people below it, each cell by its state', async () => {
    const { model, painter, calls, sprites, cellsDrawn } = setup();
    painter.paint({ ...model, band }, view);
    await Promise.resolve();
    const spriteAt = (x: number, y: number) =>
      sprites.get(
        calls.find(
          ([name, , cx, cy]) => name === 'drawImage' && cx === x && cy === y,
        )?.[1] as object,
      );
    const bandY = HEAD_H + ROW + 4;
    expect(spriteAt(HEAD_W + 5, bandY)).toBe('fill,accent');
    // Mixed: a raised (staged: soft) box with its top left half filled.
    expect(spriteAt(HEAD_W + COL + 5, bandY)).toBe('fill,warningSoft|fill,accent');
    expect(spriteAt(HEAD_W + 2 * COL + 5, bandY)).toBe('fill,bgRaised');
    // People start two rows lower; as many rows fit as the band leaves.
    const rows = new Set(cellsDrawn().map(([, y]) => y));
    expect(rows.has(HEAD_H + 2 * ROW + 4)).toBe(true);
    expect(calls.some(([name, text]) => name === 'fillText' && text === 'research')).toBe(true);
    expect(calls.some(([name, text]) => name === 'fillText' && text === 'some')).toBe(true);
    expect(calls.some(([name, text]) => name === 'fillText' && text === '⇄')).toBe(true);
  });

  it('keeps the band still when the people scroll: only the rows uncovered are drawn', () => {
    const { model, painter, calls, cellsDrawn, ctx } = setup();
    const withBand = { ...model, band };
    painter.paint(withBand, view);
    const before = calls.length;
    painter.paint(withBand, { ...view, top: ROW });
    const moved = calls
      .slice(before)
      .filter(([name, image]) => name === 'drawImage' && image === ctx.canvas);
    // Moved from below the band, to below the band.
    expect(moved).toHaveLength(1);
    expect(moved[0]?.[3]).toBe(HEAD_H + 2 * ROW + ROW);
    expect(moved[0]?.[7]).toBe(HEAD_H + 2 * ROW);
    expect(new Set(cellsDrawn(before).map(([, y]) => y)).has(HEAD_H + ROW + 4)).toBe(false);
  });

  it('redraws a group cell whose members changed', () => {
    const { model, painter, calls, cellsDrawn } = setup();
    let state = 0;
    const changing = { ...band, cell: () => state };
    painter.paint({ ...model, band: changing }, view);
    const before = calls.length;
    state = CHECKED;
    painter.paint({ ...model, band: changing }, view);
    expect(cellsDrawn(before)).toContainEqual([HEAD_W + 5, HEAD_H + ROW + 4]);
  });
});
