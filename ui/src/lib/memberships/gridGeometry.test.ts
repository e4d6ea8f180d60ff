import { describe, expect, it } from 'vitest';
import {
  BOX_X,
  BOX_Y,
  COL_FILL_LEFT,
  COL_FILL_Y,
  GRID_CSS_VARS,
  gridStyle,
  ROW_FILL_TOP,
  ROW_FILL_X,
} from './gridGeometry';

describe('the grid geometry', () => {
  it('places the box and the ± buttons on whole or half pixels, as the layer did', () => {
    expect([BOX_X, BOX_Y]).toEqual([8, 7]);
    expect([ROW_FILL_X, ROW_FILL_TOP]).toEqual([254, 6.5]);
    expect([COL_FILL_LEFT, COL_FILL_Y]).toEqual([7, 108]);
  });

  it('gives the accessible layer the same numbers, as custom properties', () => {
    expect(GRID_CSS_VARS).toMatchObject({
      '--row-height': '34px',
      '--col-width': '34px',
      '--row-header-width': '280px',
      '--col-header-height': '132px',
      '--box-x': '8px',
      '--box-y': '7px',
      '--row-fill-top': '6.5px',
      '--col-fill-left': '7px',
    });
    const probe = document.createElement('div');
    probe.setAttribute('style', gridStyle);
    for (const [name, value] of Object.entries(GRID_CSS_VARS)) {
      expect(probe.style.getPropertyValue(name)).toBe(value);
    }
  });
});
