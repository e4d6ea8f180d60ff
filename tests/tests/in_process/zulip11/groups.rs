//! User groups of Zulip 11: reactivation and deactivated groups' members.

use super::*;
use crate::user_groups::{BACKEND, ENGINEERING, change, group, members_path, seed_with_groups};

fn groups_at(level: u32) -> TestServer {
    TestServer::start(seed_with_groups(), &["--feature-level", &level.to_string()])
}

async fn deactivate(server: &TestServer, id: u64) {
    server
        .as_user(&OWNER)
        .post(&format!("/user_groups/{id}/deactivate"), &[])
        .await
        .ok();
}

#[tokio::test]
async fn deactivated_false_reactivates_a_group_from_level_386() {
    let server = groups_at(386);
    deactivate(&server, ENGINEERING).await;
    let path = format!("/user_groups/{ENGINEERING}");
    // Only someone who may manage the group.
    server
        .as_user(&MEMBER)
        .patch(&path, &[("deactivated", json!(false))])
        .await
        .bad_request("Insufficient permission");
    server
        .as_user(&OWNER)
        .patch(&path, &[("deactivated", json!(false))])
        .await
        .ok();
    assert_eq!(group(&server, ENGINEERING).await["deactivated"], false);
    server
        .as_user(&OWNER)
        .get(&members_path(ENGINEERING), &[])
        .await
        .ok();
    // `true` does not deactivate: that has its own endpoint.
    server
        .as_user(&OWNER)
        .patch(&path, &[("deactivated", json!(true))])
        .await
        .ok();
    assert_eq!(group(&server, ENGINEERING).await["deactivated"], false);

    let older = groups_at(385);
    deactivate(&older, ENGINEERING).await;
    older
        .as_user(&OWNER)
        .patch(&path, &[("deactivated", json!(false))])
        .await
        .bad_request("No new data supplied");
    assert_eq!(group(&older, ENGINEERING).await["deactivated"], true);
}

#[tokio::test]
async fn a_deactivated_groups_members_and_subgroups_change_from_level_391() {
    let server = groups_at(391);
    deactivate(&server, ENGINEERING).await;
    let owner = server.as_user(&OWNER);
    change(&owner, ENGINEERING, &[("add", json!([OWNER.id]))])
        .await
        .ok();
    change(
        &owner,
        ENGINEERING,
        &[("delete_subgroups", json!([BACKEND]))],
    )
    .await
    .ok();
    owner
        .post(
            &format!("/user_groups/{ENGINEERING}/subgroups"),
            &[("add", json!([BACKEND]))],
        )
        .await
        .ok();
    let after = group(&server, ENGINEERING).await;
    assert_eq!(after["deactivated"], true, "{after}");
    assert!(
        after["members"]
            .as_array()
            .is_some_and(|m| m.contains(&json!(OWNER.id))),
        "{after}"
    );
    // A deactivated group still cannot become someone's subgroup.
    change(&owner, BACKEND, &[("add_subgroups", json!([ENGINEERING]))])
        .await
        .bad_request("User group is deactivated.");

    let older = groups_at(390);
    deactivate(&older, ENGINEERING).await;
    change(
        &older.as_user(&OWNER),
        ENGINEERING,
        &[("add", json!([OWNER.id]))],
    )
    .await
    .bad_request("User group is deactivated.");
    older
        .as_user(&OWNER)
        .post(
            &format!("/user_groups/{ENGINEERING}/subgroups"),
            &[("delete", json!([BACKEND]))],
        )
        .await
        .bad_request("User group is deactivated.");
}
