import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { devChannels, type DevChannelOptions } from '../lib/dev-channels';
import { app } from '../lib/stores/app.svelte';
import { useFakeBackend } from '../test/backend';
import { appStatus } from '../test/fixtures';
import ChannelsPage from './ChannelsPage.svelte';

const REMOVE = 'can_remove_subscribers_group';
/** Groups of the dev table: Administrators (12), Platform team (30). */
const ADMINS = 12;
const PLATFORM = 30;

const CHANNELS = [
  { streamId: 1, name: 'general', description: 'Everything', inviteOnly: false },
  { streamId: 2, name: 'design', description: 'Pixels', inviteOnly: false },
  { streamId: 3, name: 'platform', description: 'Servers', inviteOnly: true },
  { streamId: 4, name: 'ops', description: 'Pagers', inviteOnly: true },
];

const cell = (streamId: number, setting = REMOVE) =>
  screen.getByTestId(`chcell-${String(streamId)}-${setting}`);

async function open(options: DevChannelOptions = {}) {
  const backend = useFakeBackend({
    app_status: () => appStatus(),
    ...devChannels(CHANNELS, options),
  });
  await app.load();
  render(ChannelsPage);
  await screen.findByTestId('channel-row-1');
  return backend;
}

function sent(backend: { calls: [string, unknown][] }, name: string): unknown[] {
  return backend.calls.filter(([n]) => n === name).map(([, args]) => args);
}

describe('ChannelsPage', () => {
  it('shows a row per channel and a column per setting, with privacy and description', async () => {
    await open();
    const row = screen.getByTestId('channel-row-3');
    expect(within(row).getByText('#platform')).toBeInTheDocument();
    expect(within(row).getByText('Private, protected history')).toBeInTheDocument();
    expect(within(row).getByText('Servers')).toBeInTheDocument();
    expect(cell(3)).toHaveTextContent('Administrators');
    expect(cell(3, 'can_send_message_group')).toHaveTextContent('Everyone');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent.trim())).toEqual([
      'Channel',
      'Privacy and description',
      'Who can post',
      'Who can add subscribers',
      'Who can remove subscribers',
      'Who can join',
      'Who administers',
    ]);
  });

  it('opens a cell editor whose options are group ids; choosing one stages it', async () => {
    await open();
    await fireEvent.click(cell(2));
    const editor = screen.getByTestId('chcell-editor');
    expect(editor.tagName).toBe('SELECT');
    expect(editor).toHaveFocus();
    const values = [...(editor as HTMLSelectElement).options].map((o) => o.value);
    expect(values.every((v) => /^\d+$/.test(v))).toBe(true);
    expect(values).toContain(String(PLATFORM));
    await fireEvent.change(editor, { target: { value: String(PLATFORM) } });
    expect(screen.queryByTestId('chcell-editor')).toBeNull();
    expect(cell(2)).toHaveTextContent('Platform team');
    expect(cell(2)).toHaveAttribute('data-staged', 'true');
    expect(cell(2)).toHaveFocus();
    expect(screen.getByTestId('pending-count')).toHaveTextContent('1');
  });

  it('sets one setting on the selected channels in one step, plans one request per channel, applies and undoes', async () => {
    const backend = await open();
    for (const id of [1, 2, 4])
      await fireEvent.click(screen.getByTestId(`channel-select-${String(id)}`));
    await fireEvent.click(cell(2));
    expect(screen.getByText(/and 2 other selected channels/)).toBeInTheDocument();
    await fireEvent.change(screen.getByTestId('chcell-editor'), {
      target: { value: String(PLATFORM) },
    });
    expect(screen.getByTestId('pending-count')).toHaveTextContent('3');
    expect(cell(3)).toHaveAttribute('data-staged', 'false');
    expect(await screen.findByTestId('planned-requests')).toHaveTextContent('3 requests');

    // One step: Ctrl+Z takes all three back, and a second Ctrl+Z nothing more.
    await fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect(screen.getByTestId('pending-count')).toHaveTextContent('0');
    await fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    await fireEvent.click(cell(1));
    await fireEvent.change(screen.getByTestId('chcell-editor'), {
      target: { value: String(PLATFORM) },
    });
    expect(screen.getByTestId('pending-count')).toHaveTextContent('3');

    await fireEvent.click(screen.getByTestId('apply-changes'));
    expect(await screen.findByTestId('apply-status')).toHaveTextContent(
      'Applied 3 changes in 3 requests.',
    );
    expect(sent(backend, 'apply_channel_setting_changes')).toHaveLength(1);
    await waitFor(() => {
      expect(cell(4)).toHaveTextContent('Platform team');
    });
    expect(cell(4)).toHaveAttribute('data-staged', 'false');

    const undo = screen.getByTestId('undo-last-apply');
    undo.focus();
    await fireEvent.click(undo);
    await waitFor(() => {
      expect(screen.getByTestId('pending-count')).toHaveTextContent('3');
    });
    expect(cell(4)).toHaveTextContent('Administrators');
    expect(cell(4)).toHaveAttribute('data-staged', 'true');
    expect(screen.getByTestId('apply-changes')).toHaveFocus();
  });

  it('bulk edits the selection from the toolbar', async () => {
    await open();
    await fireEvent.click(screen.getByRole('checkbox', { name: 'Select every channel shown' }));
    await fireEvent.change(screen.getByTestId('bulk-setting'), { target: { value: REMOVE } });
    await fireEvent.change(screen.getByTestId('bulk-group'), {
      target: { value: String(PLATFORM) },
    });
    await fireEvent.click(screen.getByTestId('bulk-stage'));
    expect(screen.getByTestId('pending-count')).toHaveTextContent('4');
    expect(screen.getByRole('status')).toHaveTextContent('on 4 selected channels');
  });

  it('keeps failed cells staged with the server message', async () => {
    await open({ refuse: { [REMOVE]: 'Insufficient permission' } });
    await fireEvent.click(cell(1));
    await fireEvent.change(screen.getByTestId('chcell-editor'), {
      target: { value: String(ADMINS + 1) },
    });
    await fireEvent.click(screen.getByTestId('apply-changes'));
    expect(await screen.findByTestId('apply-status')).toHaveTextContent('1 not applied');
    await waitFor(() => {
      expect(cell(1).getAttribute('aria-label')).toContain('failed: Insufficient permission');
    });
    expect(cell(1)).toHaveAttribute('data-staged', 'true');
  });

  it('disables cells the account may not change, says why, and opens no editor', async () => {
    await open({ lockedChannels: [3] });
    const locked = cell(3);
    expect(locked).toHaveAttribute('aria-disabled', 'true');
    expect(locked).toHaveAttribute(
      'title',
      'You do not have permission to administer this channel.',
    );
    expect(locked.getAttribute('aria-label')).toContain('You do not have permission');
    await fireEvent.click(locked);
    expect(screen.queryByTestId('chcell-editor')).toBeNull();
    expect(cell(2)).not.toHaveAttribute('aria-disabled');
  });

  it('moves between cells with the arrow keys and opens the editor with Enter', async () => {
    await open();
    const first = screen.getByTestId('channel-select-1');
    expect(first).toHaveAttribute('tabindex', '0');
    first.focus();
    await fireEvent.keyDown(first, { key: 'ArrowRight' });
    await waitFor(() => {
      expect(cell(1, 'can_send_message_group')).toHaveFocus();
    });
    await fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    await waitFor(() => {
      expect(cell(2, 'can_send_message_group')).toHaveFocus();
    });
    await fireEvent.keyDown(document.activeElement as Element, { key: 'Enter' });
    expect(screen.getByTestId('chcell-editor')).toHaveFocus();
    await fireEvent.keyDown(screen.getByTestId('chcell-editor'), { key: 'Escape' });
    await waitFor(() => {
      expect(cell(2, 'can_send_message_group')).toHaveFocus();
    });
  });
});
