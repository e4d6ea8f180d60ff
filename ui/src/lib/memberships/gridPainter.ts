/**
 * Paints the memberships grid on one canvas: the cells with their marks, the people's
 * header column and the channels' header row. Without a GPU, WebKit repaints a scrolled
 * area on the main thread, and a DOM element per checkbox (borders, text, one layer each)
 * cost ~40 ms a frame there; drawing the same view here takes a few. The DOM keeps every
 * shown cell and header as a transparent, accessible element on top of the canvas
 * (`MembershipGrid.svelte`): this module only paints, and holds no state of the grid.
 */
import type { GridIndex } from './grid';
import {
  BOX,
  BOX_RADIUS,
  BOX_X,
  BOX_Y,
  COL,
  COL_FILL_LEFT,
  COL_FILL_Y,
  FILL,
  FILL_RADIUS,
  HEAD_H,
  HEAD_W,
  ROW,
  ROW_FILL_TOP,
  ROW_FILL_X,
} from './gridGeometry';
import type { GridPos } from './gridNav';
import { bandRows, bodyTop, CHECKED, DENIED, FAILED, MIXED, STAGED } from './groupBand';

/** The sprite a box is drawn from (room for the 2 px staged ring), and where it goes. */
const SPRITE = BOX + 6;
const SPRITE_X = BOX_X - (SPRITE - BOX) / 2;
const SPRITE_Y = BOX_Y - (SPRITE - BOX) / 2;

/** The people's header: the text's left padding, its gap to the ±. */
const PAD_LEFT = 12;
const GAP = 6;
/** Its lines' middles (text is drawn middle-aligned), from the row's top. */
const NAME_Y = 10;
const EMAIL_Y = 24;
/** Role badges: pills from `BADGE_TOP`, text padded by `BADGE_PAD`, `BADGE_GAP` apart. */
const BADGE_TOP = 8;
const BADGE_H = 17;
const BADGE_PAD = 5;
const BADGE_GAP = 3;

/** The channels' header: the name's room, read bottom to top above the count. */
const NAME_MAX = 88;
/** The subscriber count's line, between the names and the ±. */
const COUNT_H = 14;
const COUNT_GAP = 2;
const NAME_BOTTOM = COL_FILL_Y - COUNT_GAP - COUNT_H;
/** The count's middle, below the names' bottom. */
const COUNT_Y = NAME_BOTTOM + 8;
/** A private channel's padlock, below its name, and the room it takes from the name. */
const LOCK_W = 9;
const LOCK_H = 11;
const LOCK_ROOM = LOCK_H + 3;
/** The corner's "N people · M channels", its middle above the header row's bottom. */
const CORNER_Y = HEAD_H - 17;

/** E-mails, badges and channels' names and counts: in px, the page's small text
 *  (`--text-small`), so that the canvas needs no font face the page has not looked up
 *  already. Names take the page's text size (`PaintStyle.nameSize`). */
const SMALL_SIZE = 12;

function font(size: number, family: string): string {
  return `${size}px ${family}`;
}

/**
 * `[from, to)`: the items of `unit` px that show in a `size` px viewport, `head` px of it
 * taken by a sticky header, scrolled by `offset`, plus `overscan` items on each side.
 */
export function span(
  offset: number,
  size: number,
  head: number,
  unit: number,
  count: number,
  overscan = 0,
): [number, number] {
  const from = Math.max(0, Math.floor(offset / unit) - overscan);
  const to = Math.min(count, Math.ceil((offset + size - head) / unit) + overscan);
  return [from, Math.max(from, to)];
}

/**
 * The grid position under a point of the viewport (`x`, `y` in CSS pixels from its
 * client area's corner): a body cell, or a header's ± button (`[r, -1]`, `[-1, c]`);
 * `null` elsewhere. Clicks land here where scrolling has outrun the DOM layer.
 */
export function pointAt(
  x: number,
  y: number,
  view: PaintView,
  rows: number,
  cols: number,
  band = 0,
): GridPos | null {
  if (x < 0 || y < 0 || x >= view.width || y >= view.height) return null;
  const head = bodyTop(band);
  const r = Math.floor((y - head + view.top) / ROW);
  const c = Math.floor((x - HEAD_W + view.left) / COL);
  const inRows = y >= head && r >= 0 && r < rows;
  const inCols = x >= HEAD_W && c >= 0 && c < cols;
  if (inRows && inCols) return [band + r, c];
  const within = (value: number, from: number) => value >= from && value < from + FILL;
  const headX = HEAD_W + c * COL - view.left + COL_FILL_LEFT;
  // The band (not scrolled vertically): a group's cell, or a channel's sync button.
  if (inCols && y >= HEAD_H && y < head) {
    const k = Math.floor((y - HEAD_H) / ROW);
    if (k > 0) return [k, c];
    return within(x, headX) && within(y, HEAD_H + ROW_FILL_TOP) ? [0, c] : null;
  }
  if (
    inRows &&
    x < HEAD_W &&
    within(x, ROW_FILL_X) &&
    within(y, head + r * ROW - view.top + ROW_FILL_TOP)
  )
    return [band + r, -1];
  if (inCols && y < HEAD_H && within(x, headX) && within(y, COL_FILL_Y)) return [-1, c];
  return null;
}

/** The theme's colour tokens the grid is painted with. */
const TOKENS = {
  bg: '--bg',
  bgSubtle: '--bg-subtle',
  bgHover: '--bg-hover',
  bgRaised: '--bg-raised',
  border: '--border',
  borderStrong: '--border-strong',
  text: '--text',
  textMuted: '--text-muted',
  textFaint: '--text-faint',
  accent: '--accent',
  accentSoft: '--accent-soft',
  accentSoftText: '--accent-soft-text',
  warning: '--warning',
  warningSoft: '--warning-soft',
  danger: '--danger',
} as const;

export type Palette = Record<keyof typeof TOKENS, string>;

/**
 * The tokens as the page computes them under `probe` (a token holds `light-dark()`, which
 * only a computed colour resolves).
 */
export function readPalette(probe: HTMLElement): Palette {
  const saved = probe.style.color;
  const palette = {} as Palette;
  for (const [name, token] of Object.entries(TOKENS) as [keyof Palette, string][]) {
    probe.style.color = `var(${token})`;
    palette[name] = getComputedStyle(probe).color;
  }
  probe.style.color = saved;
  return palette;
}

/** The group rows frozen above the people (`groupBand.ts`). */
export interface PaintBand {
  /** The groups, top to bottom: the name shown and the number of members. */
  groups: readonly { label: string; members: number }[];
  /** Group `g`'s cell in channel `s`: its sprite bits (`groupCellBits`). */
  cell(g: number, s: number): number;
  /** Said in the corner when not every group wanted fits ("5 of 9 groups shown"). */
  note: string | null;
}

/** What a frame shows: the grid's order of people and channels, and each cell's state. */
export interface PaintModel {
  index: GridIndex;
  rows: readonly number[];
  cols: readonly number[];
  /** The staged state of a cell key, if staged. */
  staged(key: number): boolean | undefined;
  /** Whether the cell's last apply failed. */
  failed(key: number): boolean;
  /** A channel's subscriber count once the staged diff is applied, when it differs. */
  after?(s: number): number | undefined;
  /** Group rows, if any are shown. */
  band?: PaintBand | null;
}

/** The viewport's client area and scroll offsets, in CSS pixels. */
export interface PaintView {
  top: number;
  left: number;
  width: number;
  height: number;
}

export interface PaintStyle {
  palette: Palette;
  /** The page's font family, and the size of names (the user's text size). */
  fontFamily: string;
  nameSize: number;
  /** Device pixels per CSS pixel. */
  scale: number;
}

/** A canvas the painter may draw sprites on (an offscreen or DOM canvas). */
export type MakeCanvas = (
  width: number,
  height: number,
) => { getContext(kind: '2d'): unknown } & CanvasImageSource;

interface RowLabel {
  name: string;
  email: string;
  inactive: boolean;
  badges: { text: string; x: number; width: number; bot: boolean }[];
}

export class GridPainter {
  readonly #ctx: CanvasRenderingContext2D;
  readonly #style: PaintStyle;
  readonly #makeCanvas: MakeCanvas;
  readonly #sprites = new Map<number, CanvasImageSource | null>();
  /** Fitted labels per person and channel index, for the index they were fitted for. */
  #labelsOf: GridIndex | null = null;
  readonly #rowLabels = new Map<number, RowLabel>();
  readonly #colLabels = new Map<number, string>();
  /** The last frame painted, which the next one may build on. */
  #last: Frame | null = null;

  constructor(ctx: CanvasRenderingContext2D, style: PaintStyle, makeCanvas: MakeCanvas) {
    this.#ctx = ctx;
    this.#style = style;
    this.#makeCanvas = makeCanvas;
  }

  /**
   * Paints `view` of the grid. After a paint of the same grid at the same size, only what
   * changed is drawn: the cells whose state changed, or, after a scroll along one axis,
   * the band it uncovered (the rest is the last frame's pixels, moved).
   */
  paint(model: PaintModel, view: PaintView): void {
    if (this.#labelsOf !== model.index) {
      this.#labelsOf = model.index;
      this.#rowLabels.clear();
      this.#colLabels.clear();
    }
    const frame = frameOf(model, view);
    const last = this.#last;
    this.#last = frame;
    this.#ctx.setTransform(this.#style.scale, 0, 0, this.#style.scale, 0, 0);
    const sameGrid =
      last !== null &&
      last.index === frame.index &&
      last.rows === frame.rows &&
      last.cols === frame.cols &&
      last.band === frame.band &&
      last.view.width === view.width &&
      last.view.height === view.height;
    if (sameGrid && last.view.top === view.top && last.view.left === view.left) {
      if (this.#changedCells(model, last, frame)) return;
    } else if (sameGrid && this.#scrolled(model, last, frame)) {
      return;
    }
    this.#region(model, frame, { x: 0, y: 0, width: view.width, height: view.height });
  }

  /** Redraws the cells whose state changed; false when so many did that a frame is cheaper. */
  #changedCells(model: PaintModel, last: Frame, frame: Frame): boolean {
    const changed: number[] = [];
    frame.states.forEach((state, i) => {
      if (state !== last.states[i]) changed.push(i);
    });
    if (changed.length > frame.states.length / 4) return false;
    const width = frame.c1 - frame.c0;
    // A channel whose count after apply changed: its count line.
    frame.afters.forEach((after, i) => {
      if (after === last.afters[i]) return;
      const c = frame.c0 + i;
      this.#region(model, frame, {
        x: colX(frame, c),
        y: NAME_BOTTOM,
        width: COL,
        height: COUNT_H,
      });
    });
    for (const i of changed) {
      const r = frame.r0 + Math.floor(i / width);
      const c = frame.c0 + (i % width);
      this.#region(model, frame, {
        x: colX(frame, c) + SPRITE_X,
        y: rowY(frame, r) + SPRITE_Y,
        width: SPRITE,
        height: SPRITE,
      });
    }
    // Group cells whose state changed with their members'.
    frame.bandStates.forEach((state, i) => {
      if (state === last.bandStates[i]) return;
      const g = Math.floor(i / width);
      this.#region(model, frame, {
        x: colX(frame, frame.c0 + (i % width)) + SPRITE_X,
        y: HEAD_H + (g + 1) * ROW + SPRITE_Y,
        width: SPRITE,
        height: SPRITE,
      });
    });
    return true;
  }

  /**
   * After a scroll along one axis, moves the last frame's pixels and draws the band that
   * came into view; false when that cannot be done exactly (both axes, a long jump, or a
   * move that is not a whole number of device pixels).
   */
  #scrolled(model: PaintModel, last: Frame, frame: Frame): boolean {
    const { view } = frame;
    const dy = view.top - last.view.top;
    const dx = view.left - last.view.left;
    const scale = this.#style.scale;
    if ((dx !== 0 && dy !== 0) || !Number.isInteger((dx + dy) * scale)) return false;
    const head = frame.head;
    if (!Number.isInteger(head * scale) || !Number.isInteger(HEAD_W * scale)) return false;
    const body = dy !== 0 ? view.height - head : view.width - HEAD_W;
    const move = Math.abs(dy + dx);
    if (move >= body) return false;
    const ctx = this.#ctx;
    const canvas = ctx.canvas;
    // In device pixels: the part of the body (with its sticky headers) that stays in view.
    const keep = (body - move) * scale;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    let band: Rect;
    if (dy !== 0) {
      const from = (head + Math.max(dy, 0)) * scale;
      const to = (head + Math.max(-dy, 0)) * scale;
      ctx.drawImage(canvas, 0, from, canvas.width, keep, 0, to, canvas.width, keep);
      band = { x: 0, y: dy > 0 ? view.height - dy : head, width: view.width, height: move };
    } else {
      const from = (HEAD_W + Math.max(dx, 0)) * scale;
      const to = (HEAD_W + Math.max(-dx, 0)) * scale;
      ctx.drawImage(canvas, from, 0, keep, canvas.height, to, 0, keep, canvas.height);
      band = { x: dx > 0 ? view.width - dx : HEAD_W, y: 0, width: move, height: view.height };
    }
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    this.#region(model, frame, band);
    return true;
  }

  /** Draws everything of the frame that falls in `clip`, over whatever was there. */
  #region(model: PaintModel, frame: Frame, clip: Rect): void {
    const ctx = this.#ctx;
    const { view } = frame;
    const whole = clip.width >= view.width && clip.height >= view.height;
    ctx.save();
    if (!whole) {
      ctx.beginPath();
      ctx.rect(clip.x, clip.y, clip.width, clip.height);
      ctx.clip();
    }
    ctx.fillStyle = this.#style.palette.bg;
    ctx.fillRect(clip.x, clip.y, clip.width, clip.height);
    // The rows and columns the clip touches.
    const rowAt = (y: number) => Math.floor((y - frame.head + view.top) / ROW);
    const colAt = (x: number) => Math.floor((x - HEAD_W + view.left) / COL);
    const r0 = Math.max(frame.r0, rowAt(clip.y));
    const r1 = Math.min(frame.r1, rowAt(clip.y + clip.height) + 1);
    const c0 = Math.max(frame.c0, colAt(clip.x));
    const c1 = Math.min(frame.c1, colAt(clip.x + clip.width) + 1);
    const body = clip.y + clip.height > frame.head;
    if (body) {
      this.#cells(frame, r0, r1, c0, c1);
      this.#rowLines(frame, r0, r1, frame.right);
      if (clip.x < HEAD_W) this.#rowHeads(model, frame, r0, r1);
    }
    // The band after the body: rows scrolled under it are covered.
    if (frame.band && clip.y < frame.head && clip.y + clip.height > HEAD_H) {
      this.#band(frame.band, frame, c0, c1, clip.x < HEAD_W);
    }
    if (clip.y < HEAD_H) {
      this.#colHeads(model, frame, c0, c1);
      if (clip.x < HEAD_W) this.#corner(model);
    }
    ctx.restore();
  }

  #cells(frame: Frame, r0: number, r1: number, c0: number, c1: number): void {
    const width = frame.c1 - frame.c0;
    for (let r = r0; r < r1; r++) {
      const y = rowY(frame, r) + SPRITE_Y;
      for (let c = c0; c < c1; c++) {
        const state = frame.states[(r - frame.r0) * width + (c - frame.c0)] ?? 0;
        const sprite = this.#sprite(state);
        const x = colX(frame, c) + SPRITE_X;
        if (sprite) this.#ctx.drawImage(sprite, x, y, SPRITE, SPRITE);
      }
    }
  }

  /** Each row's bottom line, from the left edge to `right`. */
  #rowLines(frame: Frame, r0: number, r1: number, right: number): void {
    const ctx = this.#ctx;
    ctx.beginPath();
    for (let r = r0; r < r1; r++) {
      const y = rowY(frame, r) + ROW - 0.5;
      ctx.moveTo(0, y);
      ctx.lineTo(right, y);
    }
    ctx.strokeStyle = this.#style.palette.border;
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  #rowHeads(model: PaintModel, frame: Frame, r0: number, r1: number): void {
    const ctx = this.#ctx;
    const { palette, fontFamily, nameSize } = this.#style;
    if (r1 <= r0) return;
    const top = Math.max(frame.head, rowY(frame, r0));
    const bottom = rowY(frame, r1);
    // Cells scrolled under the sticky column are covered, its row lines drawn again.
    ctx.fillStyle = palette.bg;
    ctx.fillRect(0, top, HEAD_W, bottom - top);
    this.#rowLines(frame, r0, r1, HEAD_W);
    this.#line(HEAD_W - 0.5, top, HEAD_W - 0.5, bottom, palette.border);

    const labels: [RowLabel, number][] = [];
    for (let r = r0; r < r1; r++) {
      const person = model.index.person(model.rows[r] ?? -1);
      if (person) labels.push([this.#rowLabel(model, model.rows[r] ?? 0), rowY(frame, r)]);
    }
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.font = font(nameSize, fontFamily);
    for (const [label, y] of labels) {
      ctx.fillStyle = label.inactive ? palette.textFaint : palette.text;
      ctx.fillText(label.name, PAD_LEFT, y + NAME_Y);
      if (label.inactive) {
        // Struck through: a 1 px line, on the pixel grid.
        const width = ctx.measureText(label.name).width;
        const strike = y + NAME_Y + 0.5;
        this.#line(PAD_LEFT, strike, PAD_LEFT + width, strike, palette.textFaint);
      }
    }
    ctx.font = font(SMALL_SIZE, fontFamily);
    ctx.fillStyle = palette.textFaint;
    for (const [label, y] of labels) ctx.fillText(label.email, PAD_LEFT, y + EMAIL_Y);

    for (const [label, y] of labels) {
      for (const badge of label.badges) {
        ctx.fillStyle = badge.bot ? palette.accentSoft : palette.bgHover;
        ctx.beginPath();
        ctx.roundRect(badge.x, y + BADGE_TOP, badge.width, BADGE_H, BADGE_H / 2);
        ctx.fill();
        ctx.fillStyle = badge.bot ? palette.accentSoftText : palette.textMuted;
        ctx.fillText(badge.text, badge.x + BADGE_PAD, y + BADGE_TOP + BADGE_H / 2);
      }
    }
    this.#fillButtons(labels.map(([, y]) => [ROW_FILL_X, y + ROW_FILL_TOP]));
  }

  #colHeads(model: PaintModel, frame: Frame, c0: number, c1: number): void {
    const ctx = this.#ctx;
    const { palette, fontFamily } = this.#style;
    const right = frame.right;
    const x = (c: number) => colX(frame, c);
    ctx.fillStyle = palette.bgSubtle;
    ctx.fillRect(0, 0, right, HEAD_H);
    this.#line(0, HEAD_H - 0.5, right, HEAD_H - 0.5, palette.border);

    ctx.textBaseline = 'middle';
    ctx.textAlign = 'center';
    ctx.font = font(SMALL_SIZE, fontFamily);
    for (let c = c0; c < c1; c++) {
      const stream = model.index.stream(model.cols[c] ?? -1);
      if (!stream) continue;
      // Staged: the count it will have, in the accent colour ("8 → 37" is in the title).
      const after = frame.afters[c - frame.c0] ?? -1;
      ctx.fillStyle = after >= 0 ? palette.accent : palette.textFaint;
      ctx.font = `${after >= 0 ? 'bold ' : ''}${font(SMALL_SIZE, fontFamily)}`;
      ctx.fillText(String(after >= 0 ? after : stream.subscriberCount), x(c) + COL / 2, COUNT_Y);
    }
    ctx.font = font(SMALL_SIZE, fontFamily);
    ctx.textAlign = 'left';
    for (let c = c0; c < c1; c++) {
      const s = model.cols[c] ?? -1;
      const stream = model.index.stream(s);
      if (!stream) continue;
      const mid = x(c) + COL / 2;
      let from = NAME_BOTTOM;
      if (stream.inviteOnly) {
        this.#lock(mid - LOCK_W / 2, from - LOCK_H);
        from -= LOCK_ROOM;
      }
      ctx.save();
      ctx.translate(mid, from);
      ctx.rotate(-Math.PI / 2);
      ctx.fillStyle = palette.text;
      ctx.fillText(this.#colLabel(s, stream.name, stream.inviteOnly), 0, 0);
      ctx.restore();
    }
    const buttons: [number, number][] = [];
    for (let c = c0; c < c1; c++) buttons.push([x(c) + COL_FILL_LEFT, COL_FILL_Y]);
    this.#fillButtons(buttons);
  }

  #corner(model: PaintModel): void {
    const ctx = this.#ctx;
    const { palette, fontFamily } = this.#style;
    ctx.fillStyle = palette.bgSubtle;
    ctx.fillRect(0, 0, HEAD_W, HEAD_H - 1);
    this.#line(HEAD_W - 0.5, 0, HEAD_W - 0.5, HEAD_H, palette.border);
    ctx.font = font(SMALL_SIZE, fontFamily);
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = palette.textMuted;
    ctx.fillText(`${model.rows.length} people · ${model.cols.length} channels`, PAD_LEFT, CORNER_Y);
    const note = model.band?.note;
    if (note) ctx.fillText(note, PAD_LEFT, CORNER_Y - 18);
  }

  /**
   * The group rows, over the channels' columns `c0..c1`: the legend and each channel's
   * sync button in the first row, a group's cells in each next one; `heads`: their
   * header column too.
   */
  #band(band: PaintBand, frame: Frame, c0: number, c1: number, heads: boolean): void {
    const ctx = this.#ctx;
    const { palette, fontFamily, nameSize } = this.#style;
    const rows = frame.bandRows;
    const bottom = frame.head;
    ctx.fillStyle = palette.bgSubtle;
    ctx.fillRect(0, HEAD_H, frame.right, bottom - HEAD_H);
    const lines = (right: number) => {
      ctx.beginPath();
      for (let k = 1; k < rows; k++) {
        ctx.moveTo(0, HEAD_H + k * ROW - 0.5);
        ctx.lineTo(right, HEAD_H + k * ROW - 0.5);
      }
      ctx.strokeStyle = palette.border;
      ctx.lineWidth = 1;
      ctx.stroke();
      // The band's bottom edge, stronger: the people start below it.
      this.#line(0, bottom - 0.5, right, bottom - 0.5, palette.borderStrong);
    };
    lines(frame.right);
    const width = frame.c1 - frame.c0;
    for (let g = 0; g < rows - 1; g++) {
      const y = HEAD_H + (g + 1) * ROW + SPRITE_Y;
      for (let c = c0; c < c1; c++) {
        const sprite = this.#sprite(frame.bandStates[g * width + (c - frame.c0)] ?? 0);
        if (sprite) ctx.drawImage(sprite, colX(frame, c) + SPRITE_X, y, SPRITE, SPRITE);
      }
    }
    const sync: [number, number][] = [];
    for (let c = c0; c < c1; c++)
      sync.push([colX(frame, c) + COL_FILL_LEFT, HEAD_H + ROW_FILL_TOP]);
    this.#fillButtons(sync, '⇄');
    if (!heads) return;

    ctx.fillStyle = palette.bgSubtle;
    ctx.fillRect(0, HEAD_H, HEAD_W, bottom - HEAD_H);
    lines(HEAD_W);
    this.#line(HEAD_W - 0.5, HEAD_H, HEAD_W - 0.5, bottom, palette.border);
    // The legend: what a filled, half-filled and empty group cell says.
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.font = font(SMALL_SIZE, fontFamily);
    ctx.fillStyle = palette.textMuted;
    const mid = HEAD_H + BOX_Y + BOX / 2;
    let x = PAD_LEFT;
    ctx.fillText('Groups:', x, mid);
    x += Math.ceil(ctx.measureText('Groups:').width) + 8;
    for (const [bits, word] of [
      [CHECKED, 'all'],
      [MIXED, 'some'],
      [0, 'none'],
    ] as const) {
      const sprite = this.#sprite(bits);
      if (sprite) ctx.drawImage(sprite, x - (SPRITE - BOX) / 2, HEAD_H + SPRITE_Y, SPRITE, SPRITE);
      x += BOX + 4;
      ctx.fillStyle = palette.textMuted;
      ctx.fillText(word, x, mid);
      x += Math.ceil(ctx.measureText(word).width) + 10;
    }
    band.groups.forEach((group, g) => {
      const y = HEAD_H + (g + 1) * ROW;
      ctx.font = font(nameSize, fontFamily);
      ctx.fillStyle = palette.text;
      ctx.fillText(fit(ctx, group.label, HEAD_W - 2 * PAD_LEFT), PAD_LEFT, y + NAME_Y);
      ctx.font = font(SMALL_SIZE, fontFamily);
      ctx.fillStyle = palette.textMuted;
      ctx.fillText(
        `${group.members} ${group.members === 1 ? 'member' : 'members'}`,
        PAD_LEFT,
        y + EMAIL_Y,
      );
    });
  }

  /** The ± buttons of whole rows or columns (or another `glyph`), at their top left corners. */
  #fillButtons(at: [number, number][], glyph = '±'): void {
    const ctx = this.#ctx;
    const { palette, fontFamily } = this.#style;
    ctx.beginPath();
    for (const [x, y] of at) ctx.roundRect(x + 0.5, y + 0.5, FILL - 1, FILL - 1, FILL_RADIUS);
    ctx.fillStyle = palette.bgRaised;
    ctx.fill();
    ctx.strokeStyle = palette.border;
    ctx.lineWidth = 1;
    ctx.stroke();
    ctx.font = font(SMALL_SIZE, fontFamily);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = palette.textMuted;
    for (const [x, y] of at) ctx.fillText(glyph, x + FILL / 2, y + FILL / 2);
    ctx.textAlign = 'left';
  }

  /** A private channel's padlock, `LOCK_W` × `LOCK_H` (9 × 11). */
  #lock(x: number, y: number): void {
    const ctx = this.#ctx;
    ctx.fillStyle = this.#style.palette.textMuted;
    ctx.strokeStyle = this.#style.palette.textMuted;
    ctx.beginPath();
    ctx.roundRect(x + 0.5, y + 5, 8, 6, 1);
    ctx.fill();
    ctx.beginPath();
    ctx.lineWidth = 1.4;
    ctx.arc(x + 4.5, y + 3.5, 2, Math.PI, 0);
    ctx.moveTo(x + 2.5, y + 3.5);
    ctx.lineTo(x + 2.5, y + 5);
    ctx.moveTo(x + 6.5, y + 3.5);
    ctx.lineTo(x + 6.5, y + 5);
    ctx.stroke();
  }

  #line(x0: number, y0: number, x1: number, y1: number, color: string): void {
    const ctx = this.#ctx;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.strokeStyle = color;
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  /** A person's name, e-mail and badges, fitted to the header column once. */
  #rowLabel(model: PaintModel, p: number): RowLabel {
    const known = this.#rowLabels.get(p);
    if (known) return known;
    const ctx = this.#ctx;
    const { fontFamily, nameSize } = this.#style;
    const person = model.index.person(p);
    ctx.font = font(SMALL_SIZE, fontFamily);
    let x = ROW_FILL_X - GAP;
    const badges: RowLabel['badges'] = [];
    for (const { text, bot } of model.index.badges(p).reverse()) {
      const width = Math.ceil(ctx.measureText(text).width) + 2 * BADGE_PAD;
      x -= width;
      badges.unshift({ text, x, width, bot });
      x -= BADGE_GAP;
    }
    const room = (badges.length > 0 ? x + BADGE_GAP - GAP : ROW_FILL_X - GAP) - PAD_LEFT;
    ctx.font = font(nameSize, fontFamily);
    const name = fit(ctx, person?.fullName ?? '', room);
    ctx.font = font(SMALL_SIZE, fontFamily);
    const email = fit(ctx, person?.email ?? '', room);
    const label = { name, email, inactive: person ? !person.isActive : false, badges };
    this.#rowLabels.set(p, label);
    return label;
  }

  /** A channel's name, fitted to its header (the font is set by the caller). */
  #colLabel(s: number, name: string, locked: boolean): string {
    const known = this.#colLabels.get(s);
    if (known !== undefined) return known;
    const label = fit(this.#ctx, name, NAME_MAX - (locked ? LOCK_ROOM : 0));
    this.#colLabels.set(s, label);
    return label;
  }

  /** The box for a combination of states, drawn once per painter. */
  #sprite(state: number): CanvasImageSource | null {
    const known = this.#sprites.get(state);
    if (known !== undefined) return known;
    const { palette, scale } = this.#style;
    const canvas = this.#makeCanvas(Math.ceil(SPRITE * scale), Math.ceil(SPRITE * scale));
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D | null;
    if (!ctx) {
      this.#sprites.set(state, null);
      return null;
    }
    ctx.scale(scale, scale);
    const at = (SPRITE - BOX) / 2;
    const checked = (state & CHECKED) !== 0;
    const mixed = (state & MIXED) !== 0;
    const denied = (state & DENIED) !== 0;
    // A staged or failed cell's ring, outside the box (a 2 px box-shadow before).
    if (state & (STAGED | FAILED)) {
      ctx.beginPath();
      ctx.roundRect(at - 1, at - 1, BOX + 2, BOX + 2, BOX_RADIUS + 1);
      ctx.lineWidth = 2;
      ctx.strokeStyle = state & FAILED ? palette.danger : palette.warning;
      ctx.stroke();
    }
    ctx.beginPath();
    // The 1.5 px outline is drawn inside the box, its corners on the box's radius.
    ctx.roundRect(at + 0.75, at + 0.75, BOX - 1.5, BOX - 1.5, BOX_RADIUS - 0.75);
    ctx.lineWidth = 1.5;
    if (denied) {
      // Locked cells keep their state readable: a dashed outline, a grey fill if checked.
      if (checked) {
        ctx.fillStyle = palette.textFaint;
        ctx.fill();
      } else {
        ctx.setLineDash([3, 2]);
      }
      ctx.strokeStyle = palette.textFaint;
    } else if (checked) {
      ctx.fillStyle = palette.accent;
      ctx.fill();
      ctx.strokeStyle = palette.accent;
    } else if (mixed) {
      // Half filled (its top left), so it is told apart from all and none without colour.
      ctx.fillStyle = state & STAGED ? palette.warningSoft : palette.bgRaised;
      ctx.fill();
      ctx.save();
      ctx.clip();
      ctx.beginPath();
      ctx.moveTo(at, at);
      ctx.lineTo(at + BOX, at);
      ctx.lineTo(at, at + BOX);
      ctx.closePath();
      ctx.fillStyle = palette.accent;
      ctx.fill();
      ctx.restore();
      ctx.beginPath();
      ctx.roundRect(at + 0.75, at + 0.75, BOX - 1.5, BOX - 1.5, BOX_RADIUS - 0.75);
      ctx.strokeStyle = palette.accent;
    } else {
      ctx.fillStyle = state & STAGED ? palette.warningSoft : palette.bgRaised;
      ctx.fill();
      ctx.strokeStyle = palette.borderStrong;
    }
    ctx.stroke();
    this.#sprites.set(state, canvas);
    return canvas;
  }
}

/** `text`, cut with an ellipsis to at most `width` px in the context's font. */
export function fit(
  ctx: Pick<CanvasRenderingContext2D, 'measureText'>,
  text: string,
  width: number,
): string {
  if (ctx.measureText(text).width <= width) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (ctx.measureText(`${text.slice(0, mid)}…`).width <= width) low = mid;
    else high = mid - 1;
  }
  return `${text.slice(0, low).trimEnd()}…`;
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One painted view: what it showed, and each shown cell's state (row-major). */
interface Frame {
  index: GridIndex;
  rows: readonly number[];
  cols: readonly number[];
  view: PaintView;
  r0: number;
  r1: number;
  c0: number;
  c1: number;
  /** Where the content ends when it is narrower than the viewport. */
  right: number;
  states: Uint8Array;
  /** The shown channels' counts after apply (-1: unchanged), from `c0`. */
  afters: Int32Array;
  /** The group rows (the same object while they stay the same), and the band's rows. */
  band: PaintBand | null;
  bandRows: number;
  /** Where the people's rows start: below the headers and the band. */
  head: number;
  /** Each group cell's sprite bits, row-major over `c0..c1`. */
  bandStates: Uint8Array;
}

function frameOf(model: PaintModel, view: PaintView): Frame {
  const { index, rows, cols } = model;
  const band = model.band ?? null;
  const groups = band?.groups.length ?? 0;
  const head = bodyTop(bandRows(groups));
  const [r0, r1] = span(view.top, view.height, head, ROW, rows.length);
  const [c0, c1] = span(view.left, view.width, HEAD_W, COL, cols.length);
  const states = new Uint8Array((r1 - r0) * (c1 - c0));
  let i = 0;
  for (let r = r0; r < r1; r++) {
    const p = rows[r] ?? 0;
    for (let c = c0; c < c1; c++) {
      const s = cols[c] ?? 0;
      const key = index.key(p, s);
      const staged = model.staged(key);
      let state = (staged ?? index.subscribed(p, s)) ? CHECKED : 0;
      if (staged !== undefined) state |= STAGED;
      if (model.failed(key)) state |= FAILED;
      if (index.denied(p, s) !== null) state |= DENIED;
      states[i++] = state;
    }
  }
  const afters = new Int32Array(c1 - c0);
  for (let c = c0; c < c1; c++) afters[c - c0] = model.after?.(cols[c] ?? 0) ?? -1;
  const right = Math.min(view.width, HEAD_W + cols.length * COL - view.left);
  const bandStates = new Uint8Array(groups * (c1 - c0));
  let j = 0;
  for (let g = 0; g < groups; g++) {
    for (let c = c0; c < c1; c++) bandStates[j++] = band?.cell(g, cols[c] ?? 0) ?? 0;
  }
  return {
    index,
    rows,
    cols,
    view,
    r0,
    r1,
    c0,
    c1,
    right,
    states,
    afters,
    band,
    bandRows: bandRows(groups),
    head,
    bandStates,
  };
}

function rowY(frame: Frame, r: number): number {
  return frame.head + r * ROW - frame.view.top;
}

function colX(frame: Frame, c: number): number {
  return HEAD_W + c * COL - frame.view.left;
}
