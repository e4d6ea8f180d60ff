/**
 * The memberships grid's geometry, in CSS pixels: one source for the canvas that paints the
 * grid (`gridPainter.ts`) and for the transparent, accessible elements laid on top of it
 * (`MembershipGrid.svelte`, through `gridStyle`). A cell, header or ± button the user
 * focuses or clicks is then exactly where it is painted.
 */

/** Fixed sizes make both axes virtual with plain arithmetic. */
export const ROW = 34;
export const COL = 34;
/** The people's header column and the channels' header row. */
export const HEAD_W = 280;
export const HEAD_H = 132;

/** A cell's checkbox, and where it sits in the cell (the cell's last pixel row is the
 *  row line). */
export const BOX = 18;
export const BOX_RADIUS = 4;
export const BOX_X = (COL - BOX) / 2;
export const BOX_Y = Math.floor((ROW - 1 - BOX) / 2);

/** The ± button that fills a whole row or column. */
export const FILL = 20;
export const FILL_RADIUS = 4;
/** A person's ±: at the right of the header column, centred on the row. */
export const ROW_FILL_RIGHT = 6;
export const ROW_FILL_X = HEAD_W - ROW_FILL_RIGHT - FILL;
export const ROW_FILL_TOP = (ROW - 1 - FILL) / 2;
/** A channel's ±: at the bottom of the header row, centred on the column. */
export const COL_FILL_BOTTOM = 4;
export const COL_FILL_LEFT = (COL - FILL) / 2;
export const COL_FILL_Y = HEAD_H - COL_FILL_BOTTOM - FILL;

const px = (value: number) => `${value}px`;

/** The geometry as the custom properties the grid's stylesheet lays its elements out by. */
export const GRID_CSS_VARS: Readonly<Record<`--${string}`, string>> = {
  '--row-height': px(ROW),
  '--col-width': px(COL),
  '--row-header-width': px(HEAD_W),
  '--col-header-height': px(HEAD_H),
  '--box-size': px(BOX),
  '--box-radius': px(BOX_RADIUS),
  '--box-x': px(BOX_X),
  '--box-y': px(BOX_Y),
  '--fill-size': px(FILL),
  '--fill-radius': px(FILL_RADIUS),
  '--row-fill-top': px(ROW_FILL_TOP),
  '--row-fill-right': px(ROW_FILL_RIGHT),
  '--col-fill-left': px(COL_FILL_LEFT),
  '--col-fill-bottom': px(COL_FILL_BOTTOM),
};

/** `GRID_CSS_VARS` as a `style` attribute. */
export const gridStyle = Object.entries(GRID_CSS_VARS)
  .map(([name, value]) => `${name}: ${value}`)
  .join('; ');
