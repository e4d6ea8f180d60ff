// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { emojiText, showEmoji, zulipLogoAsText } from './emoji';
import { sanitizeMessage } from './sanitize';

function shown(html: string): HTMLElement {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  showEmoji(holder);
  return holder;
}

describe('emojiText', () => {
  it("names Zulip's glyphs", () => {
    expect(emojiText('1f642')).toBe('🙂');
    expect(emojiText('1f4a9')).toBe('💩');
    expect(emojiText('1f1eb-1f1f7')).toBe('🇫🇷');
  });

  it('puts back the U+FE0F that text-default characters need', () => {
    expect(emojiText('2764')).toBe('\u2764\uFE0F');
    expect(emojiText('0023-20e3')).toBe('#\uFE0F\u20E3');
    expect(emojiText('1f937-200d-2640')).toBe('\u{1F937}\u200D\u2640\uFE0F');
    expect(emojiText('1f441-200d-1f5e8')).toBe('\u{1F441}\uFE0F\u200D\u{1F5E8}\uFE0F');
  });

  it('leaves skin-toned emoji unqualified', () => {
    expect(emojiText('270c-1f3fd')).toBe('\u270C\u{1F3FD}');
  });

  it('refuses codes beyond Unicode', () => {
    expect(emojiText('110000')).toBeNull();
  });
});

describe('showEmoji', () => {
  it('shows the glyph and keeps the name as the title', () => {
    const span = shown(
      '<span aria-label="smile" class="emoji emoji-1f642" role="img">:smile:</span>',
    ).querySelector('span');
    expect(span?.textContent).toBe('🙂');
    expect(span?.getAttribute('title')).toBe(':smile:');
    expect(span?.getAttribute('aria-label')).toBe('smile');
  });

  it('leaves spans without a valid code alone', () => {
    expect(shown('<span class="emoji emoji-xyz">:x:</span>').textContent).toBe(':x:');
    expect(shown('<span class="emoji emoji-1">:one:</span>').textContent).toBe(':one:');
    expect(shown('<span class="emoji">:zulip:</span>').textContent).toBe(':zulip:');
  });
});

describe(':zulip:', () => {
  const LOGO =
    '<img alt=":zulip:" class="emoji" ' +
    'src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip">';

  it('is shown as its name instead of an image the preview cannot load', () => {
    expect(zulipLogoAsText(`<p>${LOGO} and ${LOGO}</p>`)).toBe(
      '<p><span class="emoji" title="zulip">:zulip:</span> and ' +
        '<span class="emoji" title="zulip">:zulip:</span></p>',
    );
    const holder = document.createElement('div');
    holder.append(sanitizeMessage(`<p>${LOGO}</p>`));
    expect(holder.textContent).toBe(':zulip:');
    expect(holder.querySelector('img')).toBeNull();
  });

  it('only for the exact logo markup: other images are still dropped', () => {
    const holder = document.createElement('div');
    holder.append(sanitizeMessage('<img alt=":zulip:" class="emoji" src="https://evil.test/x">'));
    expect(holder.innerHTML).toBe('');
  });
});
