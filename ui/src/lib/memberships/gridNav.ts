/**
 * Keyboard movement in the memberships grid, after the ARIA grid pattern. Positions are
 * `[row, column]` over the shown people and channels; `-1` is the header row (the channel
 * headers) and the header column (the people), so every header is a cell the arrows reach
 * like any other: `[-1, -1]` is the corner, `[r, -1]` a person's header, `[-1, c]` a
 * channel's header.
 */
export type GridPos = [row: number, col: number];

/** The keys that move focus; anything else is left to the browser. */
const MOVES = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);

/**
 * Where `key` moves focus from `at` in a grid of `rows` × `cols` body cells (headers not
 * counted), or `null` when the key is not a move. `page` is how many rows Page Up/Down
 * jump. Home/End go to the first/last cell of the row, with Ctrl to the first/last cell
 * of the grid; moves stop at the edges (no wrapping), as the pattern recommends.
 */
export function gridMove(
  key: string,
  ctrl: boolean,
  at: GridPos,
  rows: number,
  cols: number,
  page: number,
): GridPos | null {
  if (!MOVES.has(key)) return null;
  const [r, c] = at;
  const lastRow = rows - 1;
  const lastCol = cols - 1;
  let next: GridPos;
  switch (key) {
    case 'ArrowUp':
      next = [r - 1, c];
      break;
    case 'ArrowDown':
      next = [r + 1, c];
      break;
    case 'ArrowLeft':
      next = [r, c - 1];
      break;
    case 'ArrowRight':
      next = [r, c + 1];
      break;
    case 'Home':
      next = ctrl ? [-1, -1] : [r, -1];
      break;
    case 'End':
      next = ctrl ? [lastRow, lastCol] : [r, lastCol];
      break;
    case 'PageUp':
      next = [r - Math.max(1, page), c];
      break;
    default:
      next = [r + Math.max(1, page), c];
  }
  return [clamp(next[0], lastRow), clamp(next[1], lastCol)];
}

/** Within the headers (-1) and the last body index. */
export function clamp(value: number, last: number): number {
  return Math.min(Math.max(value, -1), Math.max(last, -1));
}

/** The person (index `p`, shown at row `r`) or channel (`s`, at column `c`) whose menu is
 *  open. */
export type MenuTarget =
  { kind: 'row'; p: number; r: number } | { kind: 'col'; s: number; c: number };
