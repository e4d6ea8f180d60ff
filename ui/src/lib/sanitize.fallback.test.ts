import { describe, expect, it } from 'vitest';
import { sanitizeMessage, sanitizerWorks } from './sanitize';

// happy-dom's DOM defeats DOMPurify (it keeps `onerror`): the self-check must notice and
// fall back to plain text, so that a broken DOM never shows unsanitized HTML.
describe('sanitizeMessage where DOMPurify does not work', () => {
  it('shows the message as text, never as markup', () => {
    expect(sanitizerWorks()).toBe(false);
    const holder = document.createElement('div');
    const payload = '<img src=x onerror="window.pwned = 1"><b>bold</b>';
    holder.append(sanitizeMessage(payload));
    expect(holder.children).toHaveLength(0);
    expect(holder.textContent).toBe(payload);
  });
});
