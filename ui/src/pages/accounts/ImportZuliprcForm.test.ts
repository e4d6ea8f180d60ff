import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { app } from '../../lib/stores/app.svelte';
import { commandNames, useFakeBackend } from '../../test/backend';
import type { ImportZuliprcResponse } from '../../lib/bindings/ImportZuliprcResponse';
import { acmeAccount, appStatus, ipcError, overview } from '../../test/fixtures';
import ImportZuliprcForm from './ImportZuliprcForm.svelte';

const dialog = vi.hoisted(() => ({ open: vi.fn() }));
vi.mock('@tauri-apps/plugin-dialog', () => dialog);

function backend(importZuliprc?: (path: string) => ImportZuliprcResponse) {
  return useFakeBackend({
    app_status: () => appStatus(),
    organization_overview: () => overview(),
    import_zuliprc: ({ request }) =>
      importZuliprc
        ? importZuliprc(request.path)
        : { account: { ...acmeAccount, id: 7 }, path: request.path, canDeleteFile: false },
  });
}

async function renderForm() {
  await app.load();
  const onnotice = vi.fn();
  render(ImportZuliprcForm, { onnotice });
  return { onnotice, user: userEvent.setup() };
}

const field = () => screen.getByTestId<HTMLInputElement>('zuliprc-path');

describe('ImportZuliprcForm', () => {
  beforeEach(() => {
    dialog.open.mockReset();
  });

  it('puts the file chosen in the dialog in the field, then imports it', async () => {
    const fake = backend();
    dialog.open.mockResolvedValue('/home/ada/Downloads/zuliprc');
    const { user } = await renderForm();

    await user.click(screen.getByRole('button', { name: 'Choose file…' }));

    await waitFor(() => {
      expect(field()).toHaveValue('/home/ada/Downloads/zuliprc');
    });
    expect(dialog.open).toHaveBeenCalledTimes(1);
    // One file, not a folder, starting at home; no extension filter (a zuliprc has none).
    expect(dialog.open).toHaveBeenCalledWith({
      title: 'Choose a zuliprc file',
      multiple: false,
      directory: false,
      defaultPath: '/home/ada',
    });
    expect(field()).toHaveFocus();
    // Choosing does not import by itself.
    expect(commandNames(fake)).not.toContain('import_zuliprc');

    await user.click(screen.getByTestId('zuliprc-import'));
    await waitFor(() => {
      expect(fake.calls).toContainEqual([
        'import_zuliprc',
        { request: { path: '/home/ada/Downloads/zuliprc' } },
      ]);
    });
  });

  it('keeps what was typed when the dialog is cancelled', async () => {
    backend();
    dialog.open.mockResolvedValue(null);
    const { user } = await renderForm();

    await user.type(field(), '~/zuliprc');
    await user.click(screen.getByTestId('zuliprc-browse'));

    await waitFor(() => {
      expect(dialog.open).toHaveBeenCalledTimes(1);
    });
    expect(field()).toHaveValue('~/zuliprc');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('starts the dialog without a folder when the home is unknown', async () => {
    useFakeBackend({ app_status: () => appStatus({ homeDir: null }) });
    dialog.open.mockResolvedValue(null);
    const { user } = await renderForm();

    await user.click(screen.getByTestId('zuliprc-browse'));

    await waitFor(() => {
      expect(dialog.open).toHaveBeenCalledTimes(1);
    });
    expect(dialog.open.mock.calls[0]?.[0]).not.toHaveProperty('defaultPath');
  });

  it('shows a dialog that fails as an error', async () => {
    backend();
    dialog.open.mockRejectedValue('dialog.open not allowed');
    const { user } = await renderForm();

    await user.click(screen.getByTestId('zuliprc-browse'));

    expect(await screen.findByRole('alert')).toHaveTextContent('dialog.open not allowed');
    expect(screen.getByTestId('zuliprc-browse')).toBeEnabled();
  });

  it('sends a typed ~ path as typed (the backend expands it)', async () => {
    const fake = backend();
    const { user } = await renderForm();

    await user.type(field(), '  ~/zuliprc{Enter}');

    await waitFor(() => {
      expect(fake.calls).toContainEqual(['import_zuliprc', { request: { path: '~/zuliprc' } }]);
    });
  });

  it('says when the file cannot be opened, and marks the path', async () => {
    backend(() => {
      throw ipcError('zuliprc_unreadable', 'there is no file at /home/ada/zuliprc');
    });
    const { user, onnotice } = await renderForm();

    await user.type(field(), '~/zuliprc{Enter}');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Weir cannot open the file: there is no file at /home/ada/zuliprc. Check the path, or use “Choose file…” to pick the file.',
    );
    expect(alert).toHaveAttribute('data-code', 'zuliprc_unreadable');
    expect(field()).toHaveAttribute('aria-invalid', 'true');
    expect(field()).toHaveValue('~/zuliprc');
    expect(onnotice).not.toHaveBeenCalled();
  });

  it('says what is wrong with a file that is not a zuliprc, without marking the path', async () => {
    backend(() => {
      throw ipcError(
        'invalid_zuliprc',
        'invalid zuliprc: it has no [api] section, so it is not a zuliprc',
      );
    });
    const { user } = await renderForm();

    await user.type(field(), '/home/ada/notes.txt{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This file is not a usable zuliprc: it has no [api] section, so it is not a zuliprc.',
    );
    expect(field()).not.toHaveAttribute('aria-invalid');
  });
});
