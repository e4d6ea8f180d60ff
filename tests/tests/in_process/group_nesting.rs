//! Group settings that name a thousand nested groups decide as Zulip does (membership
//! through every level of subgroups), and go on deciding after the groups change. The
//! cost is bounded by the size of the groups' graph, not by its depth times the groups
//! named (weir-server's `rules/group_graph.rs` tests count the walk's visits and
//! `store/group_cache.rs` the graph's reads; `tests/fuzz/group_settings.rs` checks the
//! same rule against a model within the fuzz harness's time budget).

use serde_json::json;
use weir_tests::*;

use crate::user_groups::{BACKEND, PERMISSION, members_path, server};

#[tokio::test]
async fn a_setting_naming_a_thousand_nested_groups_holds_whoever_is_in_the_innermost() {
    let server = server();
    let owner = server.as_user(&OWNER);
    // nest 1 ⊂ nest 2 ⊂ … ⊂ nest 1000, Mona directly in nest 1 alone.
    let mut nested: Vec<u64> = Vec::new();
    for n in 1..=1_000 {
        let members = if n == 1 {
            json!([MODERATOR.id])
        } else {
            json!([])
        };
        let r = owner
            .post(
                "/user_groups/create",
                &[
                    ("name", json!(format!("nest {n}"))),
                    ("description", json!("")),
                    ("members", members),
                    (
                        "subgroups",
                        json!(nested.last().map_or(vec![], |g| vec![*g])),
                    ),
                ],
            )
            .await;
        nested.push(r.ok()["group_id"].as_u64().expect("group_id"));
    }
    owner
        .patch(
            &format!("/user_groups/{BACKEND}"),
            &[(
                "can_manage_group",
                json!({"new": {"direct_members": [], "direct_subgroups": nested}}),
            )],
        )
        .await
        .ok();
    let describe = |who: &Account, text: &'static str| {
        let api = server.as_user(who);
        async move {
            api.patch(
                &format!("/user_groups/{BACKEND}"),
                &[("description", json!(text))],
            )
            .await
        }
    };
    // Nina is in none of them, however often she asks; Mona, in the innermost, manages.
    for _ in 0..5 {
        describe(&MEMBER2, "Nina's").await.bad_request(PERMISSION);
    }
    describe(&MODERATOR, "Mona's").await.ok();
    // Taken out of nest 1, Mona is refused; put into nest 1000, she manages again.
    owner
        .post(
            &members_path(nested[0]),
            &[("delete", json!([MODERATOR.id]))],
        )
        .await
        .ok();
    describe(&MODERATOR, "again").await.bad_request(PERMISSION);
    owner
        .post(
            &members_path(nested[999]),
            &[("add", json!([MODERATOR.id]))],
        )
        .await
        .ok();
    describe(&MODERATOR, "once more").await.ok();
    let backend = crate::user_groups::group(&server, BACKEND).await;
    assert_eq!(backend["description"], "once more");
}
