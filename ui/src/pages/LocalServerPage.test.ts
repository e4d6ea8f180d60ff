import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocalServerStatus } from '../lib/bindings/LocalServerStatus';
import { app } from '../lib/stores/app.svelte';
import { newestFirst } from '../lib/stores/localServer.svelte';
import { commandNames, useFakeBackend } from '../test/backend';
import { appStatus, localServerStatus, request } from '../test/fixtures';
import LocalServerPage from './LocalServerPage.svelte';

const T = 1_700_000_000_000;

function paths(): string[] {
  return screen
    .getAllByTestId('request-row')
    .map((row) => within(row).getAllByRole('cell')[1]?.textContent ?? '');
}

describe('newestFirst', () => {
  it('orders by time, newest first, and by id within the same millisecond', () => {
    const sorted = newestFirst([request(1, T), request(3, T + 5), request(2, T + 5)]);
    expect(sorted.map((r) => r.id)).toEqual([3, 2, 1]);
  });
});

describe('LocalServerPage', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the URL, status, data dir and the request log newest first', async () => {
    const status = localServerStatus({
      requests: [
        request(1, T, '/api/v1/users'),
        request(3, T + 2000, '/api/v1/bots'),
        request(2, T + 1000, '/api/v1/streams'),
      ],
    });
    useFakeBackend({ app_status: () => appStatus(), local_server_status: () => status });
    await app.load();
    render(LocalServerPage);
    await vi.advanceTimersByTimeAsync(0);

    expect(screen.getByTestId('local-server-url')).toHaveTextContent('http://127.0.0.1:40001');
    expect(screen.getByTestId('local-server-status')).toHaveTextContent('Running');
    expect(screen.getByTestId('local-server-data-dir')).toHaveTextContent('/tmp/weir-data');
    expect(paths()).toEqual(['/api/v1/bots', '/api/v1/streams', '/api/v1/users']);
  });

  it('loads the log once, then follows only its new entries every second', async () => {
    let next = 2;
    const backend = useFakeBackend({
      app_status: () => appStatus(),
      local_server_status: () =>
        localServerStatus({ requests: [request(2, T + 10), request(1, T)] }),
      local_server_updates: ({ request: { sinceId } }) => {
        next++;
        expect(sinceId).toBe(next - 1);
        return localServerStatus({ requests: [request(next, T + next * 10)] });
      },
    });
    await app.load();
    const { unmount } = render(LocalServerPage);
    await vi.advanceTimersByTimeAsync(0);
    expect(screen.getAllByTestId('request-row')).toHaveLength(2);

    await vi.advanceTimersByTimeAsync(1000);
    await vi.advanceTimersByTimeAsync(1000);
    // The newest request (id 4, path /api/v1/r4) is on top; none is repeated.
    expect(paths()[0]).toBe('/api/v1/r4');
    expect(screen.getAllByTestId('request-row')).toHaveLength(4);
    expect(commandNames(backend).filter((n) => n === 'local_server_status')).toHaveLength(1);

    unmount();
    await vi.advanceTimersByTimeAsync(5000);
    expect(commandNames(backend).filter((n) => n === 'local_server_updates')).toHaveLength(2);
  });

  it('resets demo data only after the confirm step', async () => {
    let current: LocalServerStatus = localServerStatus({ requests: [request(1, T)] });
    const backend = useFakeBackend({
      app_status: () => appStatus({ localServer: current }),
      local_server_status: () => current,
      reset_demo_data: () => {
        current = localServerStatus({ requests: [] });
        return current;
      },
    });
    await app.load();
    render(LocalServerPage);
    await vi.advanceTimersByTimeAsync(0);

    await fireEvent.click(screen.getByRole('button', { name: 'Reset demo data…' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset demo data?' });
    expect(commandNames(backend)).not.toContain('reset_demo_data');

    // Escape backs out.
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(commandNames(backend)).not.toContain('reset_demo_data');

    await fireEvent.click(screen.getByRole('button', { name: 'Reset demo data…' }));
    await fireEvent.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Reset demo data' }),
    );
    await vi.advanceTimersByTimeAsync(0);

    expect(commandNames(backend)).toContain('reset_demo_data');
    expect(screen.getByText(/reset to its original data/)).toBeInTheDocument();
    expect(screen.queryByTestId('request-row')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('starts a stopped server on demand', async () => {
    let running = false;
    const status = () =>
      localServerStatus(running ? {} : { running: false, url: null, startedAt: null });
    useFakeBackend({
      app_status: () => appStatus({ localServer: status() }),
      local_server_status: status,
      start_local_server: () => {
        running = true;
        return status();
      },
    });
    await app.load();
    render(LocalServerPage);
    await vi.advanceTimersByTimeAsync(0);
    expect(screen.getByTestId('local-server-status')).toHaveTextContent('Stopped');

    await fireEvent.click(screen.getByTestId('start-local-server'));
    await vi.advanceTimersByTimeAsync(0);

    expect(screen.getByTestId('local-server-status')).toHaveTextContent('Running');
    expect(screen.getByTestId('local-server-url')).toHaveTextContent('http://127.0.0.1:40001');
    expect(screen.queryByTestId('start-local-server')).toBeNull();
  });
});
