// The one list of Weir's IPC commands, as `module::function` under `src/commands/`.
//
// Everything else is derived from it: `build.rs` includes this file to give tauri-build
// the names (it generates an `allow-<name>` permission for each), `lib.rs` registers the
// handler from it, and `bindings::typescript` writes each command's signature (from its
// `#[command]`) to `ui/src/lib/bindings/Commands.ts`, by which `ipc.ts` is typed.
// `tests/app/commands.rs` checks that `capabilities/default.json` grants exactly these
// and that each one is registered and allowed. To add a command: write it with
// `#[command]` in its module, add it here and grant `allow-<name>` in the capability.
//
// Plain `macro_rules!` (no `//!` docs) so that `build.rs` can `include!` it as it is.

/// Calls `$callback! { module::function, ... }` with every command.
macro_rules! weir_commands {
    ($callback:ident) => {
        $callback! {
            accounts::app_status,
            accounts::list_accounts,
            accounts::add_account,
            accounts::import_zuliprc,
            accounts::delete_zuliprc,
            accounts::switch_account,
            accounts::remove_account,
            organization::organization_overview,
            bots::list_bots,
            bots::create_bot,
            bots::reveal_bot_key,
            bots::copy_bot_key,
            bots::copy_bot_zuliprc,
            bots::save_bot_zuliprc,
            bots::regenerate_bot_key,
            bots::deactivate_bot,
            bots::reactivate_bot,
            webhooks::list_integrations,
            webhooks::webhook_catalog,
            webhooks::preview_webhook_url,
            webhooks::copy_webhook_url,
            webhooks::copy_remembered_url,
            webhooks::webhook_urls,
            webhooks::send_webhook,
            webhooks::dry_run_webhook,
            webhooks::list_webhook_channels,
            webhooks::render_markdown,
            local_server::local_server_status,
            local_server::local_server_updates,
            local_server::reset_demo_data,
            local_server::start_local_server,
            system::open_external,
            startup::report_startup,
            memberships::load_memberships,
            memberships::plan_membership_changes,
            memberships::apply_membership_changes,
            memberships::cancel_membership_apply,
            memberships::list_membership_applies,
            memberships::undo_membership_apply,
            memberships::export_memberships_csv,
            memberships::import_memberships_csv,
            memberships::plan_group_sync,
            memberships::copy_memberships,
            groups::plan_group_member_changes,
            groups::apply_group_member_changes,
            groups::list_group_member_applies,
            groups::undo_group_member_apply,
            groups::create_user_group,
            channels::load_channel_settings,
            channels::plan_channel_setting_changes,
            channels::apply_channel_setting_changes,
            channels::list_channel_setting_applies,
            channels::undo_channel_setting_apply,
            group_csv::export_groups_csv,
            group_csv::import_groups_csv,
        }
    };
}

/// The command names of a `weir_commands!` list, as a `&[&str]`.
macro_rules! command_names {
    ($($module:ident::$name:ident),* $(,)?) => {
        &[$(stringify!($name)),*]
    };
}
