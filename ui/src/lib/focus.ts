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
