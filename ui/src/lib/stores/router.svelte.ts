/** Hash routing: `#/memberships`, `#/bots`, `#/local-server`, `#/accounts`, `#/groups`,
 *  `#/channels`.
 *  New pages go last, so the existing Ctrl+digit shortcuts keep their pages. */
import { resettable } from './registry';

export const PAGES = [
  { id: 'memberships', label: 'Memberships' },
  { id: 'bots', label: 'Bots & webhooks' },
  { id: 'local-server', label: 'Local server' },
  { id: 'accounts', label: 'Accounts' },
  { id: 'groups', label: 'Groups' },
  { id: 'channels', label: 'Channels' },
] as const;

export type PageId = (typeof PAGES)[number]['id'];

export const DEFAULT_PAGE: PageId = 'memberships';

export function pageHref(page: PageId): string {
  return `#/${page}`;
}

export function pageFromHash(hash: string): PageId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return PAGES.find((p) => p.id === id)?.id ?? DEFAULT_PAGE;
}

class Router {
  current = $state<PageId>(DEFAULT_PAGE);

  /** Follow the location hash; returns the function that stops following it. */
  start(): () => void {
    const sync = () => {
      this.current = pageFromHash(window.location.hash);
    };
    sync();
    window.addEventListener('hashchange', sync);
    return () => {
      window.removeEventListener('hashchange', sync);
    };
  }

  go(page: PageId): void {
    this.current = page;
    const href = pageHref(page);
    if (window.location.hash !== href) window.location.hash = href;
  }
}

/** Resets to the default page; the location's hash is the test setup's to clear. */
export const router = resettable(new Router(), (state) => {
  state.current = DEFAULT_PAGE;
});
