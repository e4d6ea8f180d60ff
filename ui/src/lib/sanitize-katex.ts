/**
 * What `sanitize.ts` lets through for KaTeX's math (the server renders `$$…$$` and
 * ```` ```math ```` with KaTeX, as Zulip does): its MathML, the few SVG elements it draws
 * roots and arrows with, their attributes, and `style` limited to the layout properties
 * KaTeX writes, with values of numbers, units, keywords and `#` colours only.
 */

export const KATEX_TAGS = [
  'math',
  'semantics',
  'annotation',
  'mrow',
  'mi',
  'mn',
  'mo',
  'ms',
  'mtext',
  'mspace',
  'msup',
  'msub',
  'msubsup',
  'mfrac',
  'msqrt',
  'mroot',
  'mover',
  'munder',
  'munderover',
  'mtable',
  'mtr',
  'mtd',
  'mstyle',
  'mpadded',
  'mphantom',
  'menclose',
  'svg',
  'path',
  'line',
];

/** Attribute names as DOMPurify compares them (lower case). */
export const KATEX_ATTR = [
  'style',
  'aria-hidden',
  'display',
  'encoding',
  'mathvariant',
  'mathcolor',
  'mathbackground',
  'separator',
  'stretchy',
  'fence',
  'lspace',
  'rspace',
  'minsize',
  'maxsize',
  'largeop',
  'movablelimits',
  'symmetric',
  'accent',
  'accentunder',
  'linethickness',
  'scriptlevel',
  'displaystyle',
  'columnalign',
  'columnspacing',
  'columnlines',
  'rowspacing',
  'rowlines',
  'rowalign',
  'notation',
  'width',
  'height',
  'depth',
  'voffset',
  'viewbox',
  'preserveaspectratio',
  'd',
  'x1',
  'x2',
  'y1',
  'y2',
  'stroke-width',
];

const STYLE_PROPERTIES = new Set([
  'height',
  'min-width',
  'width',
  'vertical-align',
  'margin',
  'margin-left',
  'margin-right',
  'margin-top',
  'top',
  'bottom',
  'left',
  'right',
  'position',
  'border',
  'border-width',
  'border-bottom-width',
  'border-top-width',
  'border-right-width',
  'border-left-width',
  'border-style',
  'border-color',
  'border-right-style',
  'border-left-style',
  'padding-left',
  'padding-right',
  'color',
  'background-color',
  'font-size',
  'display',
  'text-shadow',
]);
const PLAIN_VALUE = /^[a-z0-9 .#%+-]+$/i;
const PLAIN_ATTRIBUTE = /^[a-z0-9 .,#%:+\s-]*$/i;

/** Whether a `style` value is only KaTeX's layout declarations with plain values. */
export function safeStyle(value: string): boolean {
  return value
    .split(';')
    .map((declaration) => declaration.trim())
    .filter((declaration) => declaration !== '')
    .every((declaration) => {
      const colon = declaration.indexOf(':');
      if (colon < 0) return false;
      const property = declaration.slice(0, colon).trim().toLowerCase();
      const plain = declaration.slice(colon + 1).trim();
      // `relative` is the only position KaTeX writes; `fixed` could cover the app.
      if (property === 'position') return plain === 'relative';
      return STYLE_PROPERTIES.has(property) && PLAIN_VALUE.test(plain);
    });
}

/** `false` for a KaTeX attribute whose value (or element) is not what KaTeX writes. */
export function safeKatexAttribute(element: Element, name: string, value: string): boolean {
  if (name === 'style') return safeStyle(value);
  // Only KaTeX's visual copy of a formula, whose MathML twin is what readers announce.
  if (name === 'aria-hidden') return value === 'true' && element.classList.contains('katex-html');
  if (name === 'encoding') return value === 'application/x-tex';
  if (!KATEX_ATTR.includes(name)) return true;
  return PLAIN_VALUE.test(value) || PLAIN_ATTRIBUTE.test(value);
}
