import { PAGES, type PageId } from './stores/router.svelte';

function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** How to show and announce the shortcut Ctrl/Cmd+`digit`. */
export function shortcutLabel(digit: number): { text: string; aria: string } {
  return isMac()
    ? { text: `⌘${digit}`, aria: `Meta+${digit}` }
    : { text: `Ctrl+${digit}`, aria: `Control+${digit}` };
}

/** The page a key press asks for (Ctrl/Cmd + 1..5), or `null`. */
export function pageForShortcut(event: KeyboardEvent): PageId | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return null;
  // `code` covers layouts where the digit row types other characters (AZERTY).
  const digit = /^[1-9]$/.test(event.key)
    ? event.key
    : /^(?:Digit|Numpad)([1-9])$/.exec(event.code)?.[1];
  if (digit === undefined) return null;
  return PAGES[Number(digit) - 1]?.id ?? null;
}
