//! The three kinds of staged change, as the [`Pipeline`](super::Pipeline) runs them.

use std::future::Future;

use super::{Counts, StagedKind};
use crate::channels::{
    ChannelApplyReport, ChannelCellResult, ChannelPlan, ChannelSettingChange, LoadedChannels,
    apply_channel_settings, plan_channel_settings, reverse_channel_cells,
};
use crate::client::ZulipClient;
use crate::memberships::{
    ApplyOptions, ApplyReport, Cancel, CellResult, Change, ChangeKind, GroupApplyReport,
    GroupCellResult, GroupMemberChange, GroupPlan, Limits, Matrix, Plan, Progress, apply,
    apply_group_members, plan, plan_group_members, reverse_group_cells, reverse_of,
};

/// Subscriptions on the memberships grid: the fewest `POST`/`DELETE
/// /users/me/subscriptions`, rate limits waited out.
#[derive(Debug)]
pub enum Memberships {}

/// Direct members of user groups: one `POST /user_groups/{id}/members` per group.
#[derive(Debug)]
pub enum GroupMembers {}

/// Channel settings that name groups: one `PATCH /streams/{id}` per channel.
#[derive(Debug)]
pub enum ChannelSettings {}

/// Progress of the kinds that only count requests.
fn done(on_progress: &mut (dyn FnMut(Progress) + Send), done: usize, total: usize) {
    on_progress(Progress::Done { done, total });
}

impl StagedKind for Memberships {
    const KIND: ChangeKind = ChangeKind::Memberships;
    type Loaded = Matrix;
    type Change = Change;
    type Plan = Plan;
    type Cell = CellResult;
    type Report = ApplyReport;

    fn plan(loaded: &Matrix, changes: &[Change]) -> Plan {
        plan(loaded, changes, &Limits::default())
    }

    async fn apply<'a>(
        client: &'a ZulipClient,
        plan: &'a Plan,
        cancel: &'a Cancel,
        on_progress: &'a mut (dyn FnMut(Progress) + Send),
    ) -> ApplyReport {
        apply(client, plan, &ApplyOptions::default(), cancel, on_progress).await
    }

    fn counts(report: &ApplyReport) -> Counts {
        Counts {
            requests_total: report.requests_total,
            requests_sent: report.requests_sent,
            cancelled: report.cancelled,
            changed: report.cells.iter().filter(|c| c.status.changed()).count(),
            failed: report.failed_count(),
        }
    }

    fn cells(report: &ApplyReport) -> &[CellResult] {
        &report.cells
    }

    fn reverse(cells: &[CellResult]) -> Vec<Change> {
        reverse_of(cells)
    }
}

impl StagedKind for GroupMembers {
    const KIND: ChangeKind = ChangeKind::GroupMembers;
    type Loaded = Matrix;
    type Change = GroupMemberChange;
    type Plan = GroupPlan;
    type Cell = GroupCellResult;
    type Report = GroupApplyReport;

    fn plan(loaded: &Matrix, changes: &[GroupMemberChange]) -> GroupPlan {
        plan_group_members(loaded, changes)
    }

    fn apply<'a>(
        client: &'a ZulipClient,
        plan: &'a GroupPlan,
        cancel: &'a Cancel,
        on_progress: &'a mut (dyn FnMut(Progress) + Send),
    ) -> impl Future<Output = GroupApplyReport> + Send + 'a {
        apply_group_members(client, plan, cancel, move |d, t| done(on_progress, d, t))
    }

    fn counts(report: &GroupApplyReport) -> Counts {
        Counts {
            requests_total: report.requests_total,
            requests_sent: report.requests_sent,
            cancelled: report.cancelled(),
            changed: report.cells.iter().filter(|c| c.error.is_none()).count(),
            failed: report.failed_count(),
        }
    }

    fn cells(report: &GroupApplyReport) -> &[GroupCellResult] {
        &report.cells
    }

    fn reverse(cells: &[GroupCellResult]) -> Vec<GroupMemberChange> {
        reverse_group_cells(cells)
    }
}

impl StagedKind for ChannelSettings {
    const KIND: ChangeKind = ChangeKind::ChannelSettings;
    type Loaded = LoadedChannels;
    type Change = ChannelSettingChange;
    type Plan = ChannelPlan;
    type Cell = ChannelCellResult;
    type Report = ChannelApplyReport;

    fn plan(loaded: &LoadedChannels, changes: &[ChannelSettingChange]) -> ChannelPlan {
        plan_channel_settings(loaded, changes)
    }

    fn apply<'a>(
        client: &'a ZulipClient,
        plan: &'a ChannelPlan,
        cancel: &'a Cancel,
        on_progress: &'a mut (dyn FnMut(Progress) + Send),
    ) -> impl Future<Output = ChannelApplyReport> + Send + 'a {
        apply_channel_settings(client, plan, cancel, move |d, t| done(on_progress, d, t))
    }

    fn counts(report: &ChannelApplyReport) -> Counts {
        Counts {
            requests_total: report.requests_total,
            requests_sent: report.requests_sent,
            cancelled: report.cancelled,
            changed: report.cells.iter().filter(|c| c.succeeded()).count(),
            failed: report.failed_count(),
        }
    }

    fn cells(report: &ChannelApplyReport) -> &[ChannelCellResult] {
        &report.cells
    }

    fn reverse(cells: &[ChannelCellResult]) -> Vec<ChannelSettingChange> {
        reverse_channel_cells(cells)
    }
}
