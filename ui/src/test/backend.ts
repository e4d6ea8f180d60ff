import { fakeBackend, setBackend, type FakeHandlers } from '../lib/ipc';

/**
 * Commands answered by `handlers` (the stores are reset before each test by the setup).
 * Returns the fake, whose `calls` record every command.
 */
export function useFakeBackend(handlers: FakeHandlers) {
  const backend = fakeBackend(handlers);
  setBackend(backend);
  return backend;
}

/** The names of the commands called so far, in order. */
export function commandNames(backend: { calls: [string, unknown][] }): string[] {
  return backend.calls.map(([name]) => name);
}
