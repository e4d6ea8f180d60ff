import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { setBackend } from './lib/ipc';

async function start(): Promise<void> {
  // User Timing marks for the start-up report (`lib/startup.ts`).
  performance.mark('app script');
  // In a plain browser (`npm run dev`), answer commands from a fake backend. The branch is
  // dropped from production builds, and with it the fake.
  if (import.meta.env.DEV && !('__TAURI_INTERNALS__' in window)) {
    const { createDevBackend } = await import('./lib/dev-backend');
    setBackend(createDevBackend(new URLSearchParams(window.location.search)));
  }
  const target = document.getElementById('app');
  if (!target) throw new Error('index.html has no #app element');
  mount(App, { target });
  performance.mark('app mounted');
}

void start();
