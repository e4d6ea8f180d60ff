import { open } from '@tauri-apps/plugin-dialog';

/**
 * Asks for a zuliprc with the native open dialog, starting in `homeDir` when known.
 * No filter is set: a zuliprc has no extension, and an extension filter (even `*`) hides
 * files without one. Resolves to the chosen path, or `null` when the dialog is cancelled.
 */
export async function chooseZuliprc(homeDir: string | null): Promise<string | null> {
  return open({
    title: 'Choose a zuliprc file',
    multiple: false,
    directory: false,
    ...(homeDir ? { defaultPath: homeDir } : {}),
  });
}
