import { tick } from 'svelte';

/** Whether `el` can hold focus: in the document and not disabled. */
function canHold(el: Element): el is HTMLElement {
  return el instanceof HTMLElement && el.isConnected && !el.matches(':disabled');
}

/** Focus fell to the page: the body, or `<main>`, where the app puts focus it cannot return. */
function lost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || active.matches('main');
}

/**
 * After an action that removes or disables its own control, focus falls to the page and a
 * keyboard user starts over from the top. Once the DOM has updated, this moves it to the
 * first of `candidates` that can take it, unless the control kept focus or focus was
 * moved somewhere on purpose.
 */
export async function keepFocus(
  control: EventTarget | null,
  ...candidates: (() => Element | null | undefined)[]
): Promise<void> {
  await tick();
  if (!(control instanceof Element) || (canHold(control) && document.activeElement === control))
    return;
  if (document.activeElement !== control && !lost()) return;
  for (const candidate of candidates) {
    const el = candidate();
    if (el && canHold(el)) {
      el.focus();
      if (document.activeElement === el) return;
    }
  }
}

/** The Tab stop (roving focus) of the memberships grid, where editing goes on. */
export function gridTabStop(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[role="grid"] [tabindex="0"]');
}

/**
 * Gives focus back to a button that disabled itself while its action ran (Send, Create,
 * Import…). WebKit blurs a control as it is disabled, so a keyboard user would be left on
 * the page and start over from the top; once the button is enabled again, and focus is
 * still nowhere, it returns. Focus the user moves meanwhile cancels that. Returns the
 * uninstaller.
 */
export function keepFocusThroughBusy(root: Document = document): () => void {
  let observer: MutationObserver | null = null;
  const stop = () => {
    observer?.disconnect();
    observer = null;
  };
  const nowhere = () => root.activeElement === null || root.activeElement === root.body;
  const onfocusout = (event: FocusEvent) => {
    const control = event.target;
    if (event.relatedTarget !== null || !(control instanceof HTMLElement)) return;
    // After the blur has settled: was it lost because the control is now disabled?
    queueMicrotask(() => {
      if (!control.isConnected || !control.matches(':disabled') || !nowhere()) return;
      stop();
      const watch = new MutationObserver(() => {
        if (control.matches(':disabled')) return;
        stop();
        if (control.isConnected && nowhere()) control.focus();
      });
      watch.observe(control, { attributes: true, attributeFilter: ['disabled'] });
      observer = watch;
    });
  };
  root.addEventListener('focusout', onfocusout);
  root.addEventListener('focusin', stop);
  return () => {
    stop();
    root.removeEventListener('focusout', onfocusout);
    root.removeEventListener('focusin', stop);
  };
}

/**
 * Discards a pending change from its ✕ button, which goes with it: focus moves to the next
 * discard button in `list` (or the previous one, or the grid).
 */
export function discardWithFocus(
  button: EventTarget | null,
  list: ParentNode | null | undefined,
  discard: () => void,
): void {
  const all = [...(list?.querySelectorAll<HTMLElement>('button.discard') ?? [])];
  const at = button instanceof HTMLElement ? all.indexOf(button) : -1;
  const next = all[at + 1];
  const previous = all[at - 1];
  discard();
  void keepFocus(
    button,
    () => next,
    () => previous,
    gridTabStop,
  );
}
