import { fireEvent, render, screen } from '@testing-library/svelte';
import { createRawSnippet } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ConfirmDialog from './ConfirmDialog.svelte';

const children = createRawSnippet(() => ({ render: () => '<p>Gone for good.</p>' }));

/** An opener button (and a `main`) outside the dialog, focused as a user would leave it. */
function page(): { opener: HTMLButtonElement; main: HTMLElement } {
  const main = document.createElement('main');
  main.tabIndex = -1;
  const opener = document.createElement('button');
  opener.textContent = 'Remove…';
  main.append(opener);
  document.body.append(main);
  opener.focus();
  return { opener, main };
}

function props(open: boolean) {
  return {
    open,
    title: 'Remove account?',
    confirmLabel: 'Remove',
    danger: true,
    testid: 'dialog',
    onconfirm: vi.fn(),
    onclose: vi.fn(),
    children,
  };
}

describe('ConfirmDialog focus', () => {
  afterEach(() => {
    document.querySelector('main')?.remove();
  });

  it('starts on Cancel and wraps Tab and Shift+Tab inside the dialog', async () => {
    page();
    const view = render(ConfirmDialog, props(false));
    await view.rerender(props(true));
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    const confirm = screen.getByRole('button', { name: 'Remove' });
    expect(document.activeElement).toBe(cancel);

    await fireEvent.keyDown(cancel, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(confirm);
    await fireEvent.keyDown(confirm, { key: 'Tab' });
    expect(document.activeElement).toBe(cancel);
  });

  it('sends focus that lands on the dialog box on to a control', async () => {
    page();
    const view = render(ConfirmDialog, props(false));
    await view.rerender(props(true));
    const dialog = screen.getByTestId('dialog');
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    const confirm = screen.getByRole('button', { name: 'Remove' });
    // Shift+Tab from the first control, as WebKit does it: the box itself gets focus.
    await fireEvent.focus(dialog, { relatedTarget: cancel });
    expect(document.activeElement).toBe(confirm);
    await fireEvent.focus(dialog, { relatedTarget: confirm });
    expect(document.activeElement).toBe(cancel);
  });

  it('gives focus back to the opener when it closes', async () => {
    const { opener } = page();
    const view = render(ConfirmDialog, props(false));
    await view.rerender(props(true));
    expect(document.activeElement).not.toBe(opener);
    await view.rerender(props(false));
    expect(document.activeElement).toBe(opener);
  });

  it('falls back to the main region when the opener is gone', async () => {
    const { opener, main } = page();
    const view = render(ConfirmDialog, props(false));
    await view.rerender(props(true));
    opener.remove();
    await view.rerender(props(false));
    expect(document.activeElement).toBe(main);
  });
});
