import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { setBackend } from './lib/ipc';
import { app } from './lib/stores/app.svelte';

/** How long the first paint waits for the app's status (see `start`). */
const STATUS_WAIT_MS = 200;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
  // Ask for the status before anything is laid out: WebKit sends the request on only
  // once the page has painted, and the app's first paint is its costliest. The local
  // server is usually up within tens of milliseconds, so wait that long for the answer
  // and paint the page itself rather than "Starting Weir…" first.
  await Promise.race([app.start(), delay(STATUS_WAIT_MS)]);
  const target = document.getElementById('app');
  if (!target) throw new Error('index.html has no #app element');
  mount(App, { target });
  performance.mark('app mounted');
}

void start();
