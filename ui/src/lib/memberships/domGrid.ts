/**
 * Events of the grids drawn as DOM cells (the grid's group rows and the groups page), which
 * mark each cell with `data-r` and `data-c` (its position, `-1` for headers): a click,
 * Space or Enter on a body cell activates it; the arrow keys and friends move focus
 * ([`gridMove`]); focus landing on a cell makes it the roving Tab stop.
 */
import { gridMove, type GridPos } from './gridNav';

/** The position of the cell an event happened in, or `null` outside any cell. */
export function posOf(target: EventTarget | null): GridPos | null {
  if (!(target instanceof Element)) return null;
  const cell = target.closest<HTMLElement>('[data-r]');
  if (!cell) return null;
  return [Number(cell.dataset['r']), Number(cell.dataset['c'])];
}

/** Focuses the cell at `at` inside `root`, if it is rendered. */
export function focusCell(root: ParentNode | undefined, [r, c]: GridPos): void {
  root?.querySelector<HTMLElement>(`[data-r="${String(r)}"][data-c="${String(c)}"]`)?.focus();
}

export interface DomGrid {
  /** Body rows and columns (headers not counted). */
  rows: () => number;
  cols: () => number;
  /** Rows Page Up/Down jump. */
  page: () => number;
  activate: (at: GridPos) => void;
  /** Focus arrived at `at` (by Tab, a click or a move): it is the Tab stop now. */
  focused: (at: GridPos) => void;
  /** A key moved focus to `to`: make it the Tab stop, bring it into view and focus it. */
  move: (to: GridPos) => Promise<void>;
}

export interface DomGridEvents {
  onfocusin: (event: FocusEvent) => void;
  onclick: (event: MouseEvent) => void;
  onkeydown: (event: KeyboardEvent) => Promise<void>;
}

export function domGridEvents(grid: DomGrid): DomGridEvents {
  return {
    onfocusin: (event) => {
      const at = posOf(event.target);
      if (at) grid.focused(at);
    },
    onclick: (event) => {
      const at = posOf(event.target);
      if (at && at[0] >= 0 && at[1] >= 0) grid.activate(at);
    },
    onkeydown: async (event) => {
      const at = posOf(event.target);
      if (!at || event.altKey) return;
      if ((event.key === ' ' || event.key === 'Enter') && at[0] >= 0 && at[1] >= 0) {
        event.preventDefault();
        grid.activate(at);
        return;
      }
      const next = gridMove(
        event.key,
        event.ctrlKey || event.metaKey,
        at,
        grid.rows(),
        grid.cols(),
        grid.page(),
      );
      if (!next) return;
      event.preventDefault();
      await grid.move(next);
    },
  };
}
