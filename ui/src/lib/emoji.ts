/**
 * Zulip's emoji markup, shown as the emoji itself.
 *
 * Zulip's web app draws `<span class="emoji emoji-1f642">:smile:</span>` from an image
 * sprite; Weir has no sprite, so the span's code becomes the characters it names. Codes
 * leave U+FE0F out, which some characters need to be drawn as emoji rather than as text
 * (❤, the ♀ of 🤷‍♀️, keycaps), so it is put back where Unicode's fully-qualified form
 * has it. `:zulip:` is a logo image on Zulip's servers, which the sanitizer would drop:
 * it is shown as its name.
 */

/** A class naming an emoji code: hex code points joined by `-`. */
const EMOJI_CLASS = /^emoji-([0-9a-f]{4,6}(?:-[0-9a-f]{4,6})*)$/i;
/** An emoji character drawn as text unless U+FE0F follows it. */
const TEXT_DEFAULT = /^(?=\p{Emoji})\P{Emoji_Presentation}$/u;
const MODIFIER = /^\p{Emoji_Modifier}$/u;
const VS16 = '\uFE0F';

/** Zulip's rendering of `:zulip:`, exactly as weir-server and Zulip produce it. */
const ZULIP_LOGO =
  '<img alt=":zulip:" class="emoji" ' +
  'src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip">';
const ZULIP_LOGO_AS_TEXT = '<span class="emoji" title="zulip">:zulip:</span>';

/** The characters an emoji code names, or `null` for a code that names none. */
export function emojiText(code: string): string | null {
  const points = code.split('-').map((hex) => Number.parseInt(hex, 16));
  if (points.some((point) => !Number.isInteger(point) || point > 0x10ffff)) return null;
  const chars = points.map((point) => String.fromCodePoint(point));
  return chars
    .map((char, i) => {
      const next = chars[i + 1];
      const modified = next !== undefined && MODIFIER.test(next);
      return TEXT_DEFAULT.test(char) && !modified ? char + VS16 : char;
    })
    .join('');
}

/** Replaces the text of every Zulip emoji span under `root` with the emoji. */
export function showEmoji(root: ParentNode): void {
  for (const span of root.querySelectorAll('span.emoji')) {
    const code = [...span.classList]
      .map((name) => EMOJI_CLASS.exec(name)?.[1])
      .find((found) => found !== undefined);
    const text = code === undefined ? null : emojiText(code);
    if (text === null) continue;
    if (!span.getAttribute('title')) span.setAttribute('title', span.textContent);
    span.textContent = text;
  }
}

/** `html` with Zulip's `:zulip:` logo images turned into text the sanitizer keeps. */
export function zulipLogoAsText(html: string): string {
  return html.split(ZULIP_LOGO).join(ZULIP_LOGO_AS_TEXT);
}
