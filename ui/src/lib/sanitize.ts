/**
 * Rendered message HTML comes from a server that rendered a payload anyone could send:
 * it is untrusted. It is shown only after this strict allow-list (DOMPurify), on top of
 * the server's own sanitizing and the app's CSP (no inline scripts):
 * - only the tags Zulip's Markdown produces for text (no img, iframe, form, style), plus
 *   the MathML and the three SVG elements (`svg`, `path`, `line`) of KaTeX's math;
 * - only `href`, `title`, `class`, `aria-label`, `role` and `datetime` attributes, KaTeX's MathML
 *   and SVG geometry attributes, `aria-hidden="true"`, and `style` only when every
 *   declaration is a layout property KaTeX sets with a plain value (no `url(…)`, no
 *   functions), or on a table cell a column's `text-align` as Zulip writes it: so no
 *   event handlers and no styles that load or hide anything;
 * - links only to `http(s):`, `mailto:`, `tel:`, `sms:` or in-page `#…` targets;
 * - Zulip's `<time datetime>`, shown as the reader's local time (`timestamps.ts`);
 * - class names only from `[a-z0-9_-]`.
 *
 * Before first use the sanitizer checks itself on a hostile probe; a DOM in which it
 * does not work (some test DOMs) gets the message as plain text instead.
 */
import DOMPurify from 'dompurify';
import { showEmoji, zulipLogoAsText } from './emoji';
import { KATEX_ATTR, KATEX_TAGS, safeKatexAttribute } from './sanitize-katex';
import { showTimestamps } from './timestamps';

const ALLOWED_TAGS = [
  'a',
  'b',
  'blockquote',
  'br',
  'code',
  'del',
  'div',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'li',
  'ol',
  'p',
  'pre',
  's',
  'span',
  'strong',
  'sub',
  'sup',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'time',
  'tr',
  'ul',
  ...KATEX_TAGS,
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'aria-label', 'role', 'datetime', ...KATEX_ATTR];
const SAFE_LINK = /^(?:https?:|mailto:|tel:|sms:|#)/i;
const SAFE_CLASS = /^[a-z0-9_-]+$/i;
/** What weir-server and Zulip write in `<time datetime>`: an ISO 8601 moment. */
const ISO_MOMENT = /^[0-9T:.Z+-]{1,40}$/;
/** A table column's alignment, as Zulip (Python-Markdown's tables) writes it on cells. */
const CELL_ALIGN = /^text-align: (?:left|center|right);?$/;

const CONFIG = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: SAFE_LINK,
  // KaTeX's attributes and `datetime` hold words and numbers, not URLs: checked in the
  // hook instead.
  ADD_URI_SAFE_ATTR: [...KATEX_ATTR, 'datetime'],
  KEEP_CONTENT: true,
};

type Purifier = ReturnType<typeof DOMPurify>;

/** `null` before the first use; `false` when the self-check failed. */
let purifier: Purifier | false | null = null;

const PROBE = '<img src="x" onerror="1"><a href="javascript:1" onclick="1">a</a><b>b</b>';

function configured(): Purifier | false {
  if (purifier !== null) return purifier;
  const instance = DOMPurify(window);
  instance.addHook('uponSanitizeAttribute', (node, data) => {
    // DOMPurify allows every aria-* attribute; Zulip's messages use only aria-label
    // (and KaTeX aria-hidden="true" on its visual copy of the math).
    if (
      data.attrName.startsWith('aria-') &&
      data.attrName !== 'aria-label' &&
      data.attrName !== 'aria-hidden'
    ) {
      data.keepAttr = false;
    }
    const cellAlign =
      data.attrName === 'style' &&
      (node.tagName === 'TH' || node.tagName === 'TD') &&
      CELL_ALIGN.test(data.attrValue.trim());
    if (!cellAlign && !safeKatexAttribute(node, data.attrName, data.attrValue)) {
      data.keepAttr = false;
    }
    if (data.attrName === 'datetime' && !ISO_MOMENT.test(data.attrValue)) {
      data.keepAttr = false;
    }
    if (data.attrName === 'href' && !SAFE_LINK.test(data.attrValue.trim())) {
      data.keepAttr = false;
    }
    if (data.attrName === 'class') {
      data.attrValue = data.attrValue
        .split(/\s+/)
        .filter((name) => SAFE_CLASS.test(name))
        .join(' ');
    }
  });
  purifier = worksOnProbe(instance) ? instance : false;
  return purifier;
}

function worksOnProbe(instance: Purifier): boolean {
  if (!instance.isSupported) return false;
  const holder = document.createElement('div');
  holder.append(instance.sanitize(PROBE, { ...CONFIG, RETURN_DOM_FRAGMENT: true }));
  const all = [...holder.querySelectorAll('*')];
  return (
    all.length === 2 &&
    holder.querySelector('b')?.textContent === 'b' &&
    all.every((element) => [...element.attributes].every((a) => a.name === 'href')) &&
    holder.querySelector('[href]') === null
  );
}

/** The sanitized message as a fragment, ready to append (not re-parsed from text). */
export function sanitizeMessage(html: string): DocumentFragment {
  const instance = configured();
  if (instance === false) {
    const fragment = document.createDocumentFragment();
    fragment.append(document.createTextNode(html));
    return fragment;
  }
  const fragment = instance.sanitize(zulipLogoAsText(html), {
    ...CONFIG,
    RETURN_DOM_FRAGMENT: true,
  });
  showEmoji(fragment);
  showTimestamps(fragment);
  return fragment;
}

/** Whether messages are shown as HTML (the sanitizer passed its self-check). */
export function sanitizerWorks(): boolean {
  return configured() !== false;
}

/** The sanitized message as HTML text (tests, and copying the preview). */
export function sanitizeMessageHtml(html: string): string {
  const holder = document.createElement('div');
  holder.append(sanitizeMessage(html));
  return holder.innerHTML;
}
