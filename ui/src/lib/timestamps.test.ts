// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { sanitizeMessageHtml } from './sanitize';
import { showTimestamps, timestampOf } from './timestamps';

describe('timestamps', () => {
  it('reads ISO 8601 moments and refuses others', () => {
    expect(timestampOf('2020-08-06T04:30:00Z')?.getTime()).toBe(1596688200000);
    expect(timestampOf('soon')).toBeNull();
  });

  it('shows a <time datetime> as a local date, leaving invalid ones alone', () => {
    const root = document.createElement('div');
    root.innerHTML =
      '<time datetime="2020-08-06T04:30:00Z">1596688200</time> <time datetime="x">kept</time>';
    showTimestamps(root, 'en-US');
    const [valid, invalid] = root.querySelectorAll('time');
    expect(valid?.textContent).toContain('2020');
    expect(valid?.textContent).not.toBe('1596688200');
    expect(invalid?.textContent).toBe('kept');
  });

  it('survive the sanitizer with their datetime, and no other attribute', () => {
    const html = sanitizeMessageHtml(
      '<p><time datetime="2020-08-06T04:30:00Z" onclick="x()">1</time></p>',
    );
    expect(html).toMatch(/^<p><time datetime="2020-08-06T04:30:00Z">[^<]*2020[^<]*<\/time><\/p>$/);
  });

  it('drops a datetime that is not an ISO moment', () => {
    expect(sanitizeMessageHtml('<time datetime="javascript:1 x">1</time>')).toBe('<time>1</time>');
  });

  it('keeps tel: and sms: links, as Zulip renders them', () => {
    expect(sanitizeMessageHtml('<a href="tel:+15551234">call</a>')).toBe(
      '<a href="tel:+15551234">call</a>',
    );
    expect(sanitizeMessageHtml('<a href="sms:+15551234">text</a>')).toBe(
      '<a href="sms:+15551234">text</a>',
    );
    expect(sanitizeMessageHtml('<a href="javascript:1">x</a>')).toBe('<a>x</a>');
  });
});
