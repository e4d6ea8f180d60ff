import { afterEach, describe, expect, it } from 'vitest';
import { keepFocusThroughBusy } from './focus';

/** What WebKit does to a focused control that gets disabled: it loses focus (happy-dom
 *  ignores blur() on a disabled control, hence the order). */
function disable(button: HTMLButtonElement) {
  button.blur();
  button.disabled = true;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('keepFocusThroughBusy', () => {
  let uninstall: (() => void) | null = null;
  afterEach(() => {
    uninstall?.();
    document.body.replaceChildren();
  });

  function setup() {
    document.body.innerHTML = '<button id="send">Send</button><input id="other" />';
    uninstall = keepFocusThroughBusy();
    const send = document.getElementById('send') as HTMLButtonElement;
    const other = document.getElementById('other') as HTMLInputElement;
    return { send, other };
  }

  it('returns focus to a busy button once it is enabled again', async () => {
    const { send } = setup();
    send.focus();
    disable(send);
    await settle();
    expect(document.activeElement).toBe(document.body);
    send.disabled = false;
    await settle();
    expect(document.activeElement).toBe(send);
  });

  it('leaves focus the user moved meanwhile, and buttons that were only blurred', async () => {
    const { send, other } = setup();
    send.focus();
    disable(send);
    await settle();
    other.focus();
    send.disabled = false;
    await settle();
    expect(document.activeElement).toBe(other);

    send.focus();
    send.blur();
    await settle();
    send.disabled = true;
    send.disabled = false;
    await settle();
    expect(document.activeElement).toBe(document.body);
  });

  it('does nothing once uninstalled', async () => {
    const { send } = setup();
    uninstall?.();
    uninstall = null;
    send.focus();
    disable(send);
    await settle();
    send.disabled = false;
    await settle();
    expect(document.activeElement).toBe(document.body);
  });
});
