import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { setBackend } from './lib/ipc';
import { app } from './lib/stores/app.svelte';
import { memberships } from './lib/stores/memberships.svelte';
import { overview } from './lib/stores/overview.svelte';
import { pageFromHash } from './lib/stores/router.svelte';

/** How long the first paint waits for the first page's data (see `start`). */
const FIRST_PAGE_WAIT_MS = 250;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The app's status and, when the first page is the memberships grid, its data: the
 *  page's own effects then find it loaded (or loading). */
async function loadFirstPage(): Promise<void> {
  await app.start();
  const key = app.dataKey;
  if (key === null || pageFromHash(window.location.hash) !== 'memberships') return;
  await Promise.all([overview.ensure(key), memberships.ensure(key)]);
}

async function start(): Promise<void> {
  // User Timing marks for the start-up report (`lib/startup.ts`).
  performance.mark('app script');
  // In a plain browser (`npm run dev`), answer commands from a fake backend. The branch is
  // dropped from production builds, and with it the fake.
  if (import.meta.env.DEV && !('__TAURI_INTERNALS__' in window)) {
    const { createDevBackend } = await import('./lib/dev-backend');
    setBackend(createDevBackend(new URLSearchParams(window.location.search)));
  }
  // Load before anything is laid out: WebKitGTK lays out and paints in software, and each
  // paint of the app costs a few hundred milliseconds, during which answers wait. The
  // local server is usually up within tens of milliseconds and the demo's grid is small,
  // so wait that long and paint the page with its content, rather than "Starting Weir…"
  // and then a loading grid. A large organization's grid paints in after its loading state.
  await Promise.race([loadFirstPage(), delay(FIRST_PAGE_WAIT_MS)]);
  const target = document.getElementById('app');
  if (!target) throw new Error('index.html has no #app element');
  mount(App, { target });
  performance.mark('app mounted');
}

void start();
