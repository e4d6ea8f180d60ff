//! User groups: `GET /user_groups`, `POST /user_groups/create`, `PATCH /user_groups/{id}`,
//! members and subgroups, `POST /user_groups/{id}/deactivate` and `realm_user_groups` in
//! `register`, at Zulip 10's default permissions.
//!
//! The standard organization plus two groups: `backend` (30; members 104 and 105,
//! managed by 104) and `engineering` (31; member 102, subgroup `backend`, managed by
//! nobody but owners, who manage every group). The channel settings that name groups
//! are in `channel_groups.rs`, on the same organization.

use serde_json::{Value, json};
use weir_tests::*;

pub(crate) const BACKEND: u64 = 30;
pub(crate) const ENGINEERING: u64 = 31;
pub(crate) const PERMISSION: &str = "Insufficient permission";

// System group ids (docs/zulip-compatibility.md: User groups).
pub(crate) const NOBODY: u64 = 1;
pub(crate) const OWNERS: u64 = 2;
pub(crate) const ADMINISTRATORS: u64 = 3;
pub(crate) const MODERATORS: u64 = 4;
pub(crate) const FULL_MEMBERS: u64 = 5;
pub(crate) const MEMBERS: u64 = 6;
pub(crate) const EVERYONE: u64 = 7;
pub(crate) const INTERNET: u64 = 8;

pub(crate) fn seed_with_groups() -> Value {
    let mut seed = standard_seed();
    seed["groups"] = json!([
        {"group_id": BACKEND, "name": "backend", "description": "Servers",
         "members": [MEMBER.id, MEMBER2.id],
         "can_manage_group": {"direct_members": [MEMBER.id], "direct_subgroups": []}},
        {"group_id": ENGINEERING, "name": "engineering", "members": [ADMIN.id],
         "subgroups": ["backend"]}
    ]);
    seed
}

pub(crate) fn server() -> TestServer {
    TestServer::start(seed_with_groups(), &[])
}

pub(crate) async fn groups(server: &TestServer, include_deactivated: bool) -> Vec<Value> {
    let r = server
        .as_user(&OWNER)
        .get(
            "/user_groups",
            &[("include_deactivated_groups", json!(include_deactivated))],
        )
        .await;
    r.ok()["user_groups"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

pub(crate) async fn group(server: &TestServer, id: u64) -> Value {
    groups(server, true)
        .await
        .into_iter()
        .find(|group| group["id"] == id)
        .unwrap_or_else(|| panic!("group {id} not listed"))
}

pub(crate) async fn members_of(server: &TestServer, id: u64) -> Value {
    group(server, id).await["members"].clone()
}

pub(crate) fn members_path(id: u64) -> String {
    format!("/user_groups/{id}/members")
}

pub(crate) async fn change(api: &Api, id: u64, params: &[Param<'_>]) -> Resp {
    api.post(&members_path(id), params).await
}

// ------------------------------------------------------------------------ listing

#[tokio::test]
async fn system_groups_take_their_members_from_roles() {
    let server = server();
    let all = groups(&server, false).await;
    let by_name = |name: &str| {
        all.iter()
            .find(|group| group["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} not listed"))
    };
    let expect = [
        ("role:nobody", NOBODY, json!([]), json!([])),
        ("role:owners", OWNERS, json!([101]), json!([])),
        (
            "role:administrators",
            ADMINISTRATORS,
            json!([102]),
            json!([OWNERS]),
        ),
        (
            "role:moderators",
            MODERATORS,
            json!([103]),
            json!([ADMINISTRATORS]),
        ),
        // Bots have the member role; the deactivated 107 is in no group. As in Zulip,
        // members are direct members of both role:members and role:fullmembers.
        (
            "role:fullmembers",
            FULL_MEMBERS,
            json!([104, 105, 201, 202, 203]),
            json!([MODERATORS]),
        ),
        (
            "role:members",
            MEMBERS,
            json!([104, 105, 201, 202, 203]),
            json!([FULL_MEMBERS]),
        ),
        ("role:everyone", EVERYONE, json!([106]), json!([MEMBERS])),
        ("role:internet", INTERNET, json!([]), json!([EVERYONE])),
    ];
    for (name, id, members, subgroups) in expect {
        let group = by_name(name);
        assert_eq!(group["id"], id, "{name}");
        assert_eq!(group["members"], members, "{name}");
        assert_eq!(group["direct_subgroup_ids"], subgroups, "{name}");
        assert_eq!(group["is_system_group"], true, "{name}");
        assert_eq!(group["can_manage_group"], NOBODY, "{name}");
    }
    let engineering = by_name("engineering");
    assert_eq!(engineering["members"], json!([102]));
    assert_eq!(engineering["direct_subgroup_ids"], json!([BACKEND]));
    assert_eq!(engineering["is_system_group"], false);
    assert_eq!(engineering["deactivated"], false);
    assert_eq!(all.len(), 10);
}

#[tokio::test]
async fn guests_and_bots_may_not_use_groups() {
    let server = server();
    for path in ["/user_groups".to_owned(), members_path(BACKEND)] {
        server
            .as_user(&GUEST)
            .get(&path, &[])
            .await
            .bad_request("Not allowed for guest users");
        server
            .as_user(&GENERIC_BOT)
            .get(&path, &[])
            .await
            .bad_request("This endpoint does not accept bot requests.");
    }
}

#[tokio::test]
async fn register_lists_groups_when_asked_and_deactivated_ones_by_capability() {
    let server = server();
    server
        .as_user(&OWNER)
        .post(&format!("/user_groups/{ENGINEERING}/deactivate"), &[])
        .await
        .ok();
    let register = |capabilities: Value| {
        let owner = server.as_user(&OWNER);
        async move {
            let r = owner
                .post(
                    "/register",
                    &[
                        ("fetch_event_types", json!(["realm_user_groups"])),
                        ("client_capabilities", capabilities),
                    ],
                )
                .await;
            r.ok()["realm_user_groups"]
                .as_array()
                .map(|groups| groups.iter().map(|g| g["id"].clone()).collect::<Vec<_>>())
                .unwrap_or_default()
        }
    };
    let without = register(json!({})).await;
    assert_eq!(without.len(), 9);
    assert!(!without.contains(&json!(ENGINEERING)));
    let with = register(json!({"include_deactivated_groups": true})).await;
    assert!(with.contains(&json!(ENGINEERING)));
}

// ----------------------------------------------------------------------- creating

#[tokio::test]
async fn a_member_creates_a_group_they_then_manage() {
    let server = server();
    let r = server
        .as_user(&MEMBER2)
        .post(
            "/user_groups/create",
            &[
                ("name", json!("frontend")),
                ("description", json!("Clients")),
                ("members", json!([MEMBER2.id, MODERATOR.id])),
                ("subgroups", json!([BACKEND])),
            ],
        )
        .await;
    let id = r.ok()["group_id"].as_u64().expect("group_id");
    let created = group(&server, id).await;
    assert_eq!(created["name"], "frontend");
    assert_eq!(created["description"], "Clients");
    assert_eq!(created["members"], json!([103, 105]));
    assert_eq!(created["direct_subgroup_ids"], json!([BACKEND]));
    assert_eq!(created["creator_id"], MEMBER2.id);
    assert!(created["date_created"].is_u64());
    let creator = json!({"direct_members": [MEMBER2.id], "direct_subgroups": []});
    assert_eq!(created["can_manage_group"], creator);
    assert_eq!(created["can_add_members_group"], creator);
    assert_eq!(created["can_join_group"], NOBODY);
    assert_eq!(created["can_leave_group"], EVERYONE);
    assert_eq!(created["can_mention_group"], EVERYONE);
    // The creator manages it: adding someone works.
    change(&server.as_user(&MEMBER2), id, &[("add", json!([OWNER.id]))])
        .await
        .ok();
}

#[tokio::test]
async fn creating_refuses_zulips_bad_requests_and_changes_nothing() {
    let server = server();
    let member = server.as_user(&MEMBER);
    let create = |name: &'static str, members: Value, extra: Option<Param<'static>>| {
        let member = member.clone();
        async move {
            let mut params = vec![
                ("name", json!(name)),
                ("description", json!("")),
                ("members", members),
            ];
            params.extend(extra);
            member.post("/user_groups/create", &params).await
        }
    };
    create("backend", json!([]), None)
        .await
        .bad_request("User group 'backend' already exists.");
    create("role:managers", json!([]), None)
        .await
        .bad_request("User group name cannot start with 'role:'.");
    create("@team", json!([]), None)
        .await
        .bad_request("User group name cannot start with '@'.");
    create(" ", json!([]), None)
        .await
        .bad_request("User group name can't be empty!");
    create("new", json!([999]), None)
        .await
        .bad_request("Invalid user ID: 999");
    create("new", json!([DEACTIVATED.id]), None)
        .await
        .bad_request("Invalid user ID: 107");
    create("new", json!([]), Some(("subgroups", json!([999]))))
        .await
        .bad_request("Invalid user group ID: 999");
    create(
        "new",
        json!([]),
        Some(("can_manage_group", json!(EVERYONE))),
    )
    .await
    .bad_request("'can_manage_group' setting cannot be set to 'role:everyone' group.");
    create(
        "new",
        json!([]),
        Some(("can_mention_group", json!(INTERNET))),
    )
    .await
    .bad_request("'can_mention_group' setting cannot be set to 'role:internet' group.");
    let too_many: Vec<u64> = (0..1_001).collect();
    create("new", json!(too_many), None)
        .await
        .bad_request("members is too long (limit: 1000 items)");
    member
        .post(
            "/user_groups/create",
            &[("name", json!("new")), ("description", json!(""))],
        )
        .await
        .err(
            400,
            "REQUEST_VARIABLE_MISSING",
            "Missing 'members' argument",
        );
    server
        .as_user(&GUEST)
        .post(
            "/user_groups/create",
            &[
                ("name", json!("new")),
                ("description", json!("")),
                ("members", json!([])),
            ],
        )
        .await
        .bad_request("Not allowed for guest users");
    assert_eq!(groups(&server, true).await.len(), 10, "nothing was created");
}

// ------------------------------------------------------------------------ members

#[tokio::test]
async fn one_request_adds_and_removes_members() {
    let server = server();
    change(
        &server.as_user(&MEMBER),
        BACKEND,
        &[
            ("add", json!([MODERATOR.id, WEBHOOK_BOT.id])),
            ("delete", json!([MEMBER2.id])),
        ],
    )
    .await
    .ok();
    assert_eq!(members_of(&server, BACKEND).await, json!([103, 104, 201]));
}

#[tokio::test]
async fn people_added_or_removed_by_someone_else_hear_from_notification_bot() {
    let server = server();
    let before = everything(&server).await;
    change(
        &server.as_user(&MEMBER),
        BACKEND,
        &[
            ("add", json!([MODERATOR.id, WEBHOOK_BOT.id])),
            ("delete", json!([MEMBER2.id])),
        ],
    )
    .await
    .ok();
    let mut new = new_since(&server, &before).await;
    new.sort_by_key(dm_people);
    let bot = |m: &Value| m["sender_email"] == "notification-bot@zulip.com";
    assert!(new.iter().all(bot), "{new:#?}");
    // Not the bot that was added; not the actor.
    assert_eq!(new.len(), 2, "{new:#?}");
    assert!(dm_people(&new[0]).contains(&MODERATOR.id));
    assert_eq!(
        new[0]["content"],
        "@_**Mark Member|104** added you to the group @_*backend*."
    );
    assert!(dm_people(&new[1]).contains(&MEMBER2.id));
    assert_eq!(
        new[1]["content"],
        "@_**Mark Member|104** removed you from the group @_*backend*."
    );
    // Leaving by yourself tells nobody.
    let before = everything(&server).await;
    change(
        &server.as_user(&MODERATOR),
        BACKEND,
        &[("delete", json!([MODERATOR.id]))],
    )
    .await
    .ok();
    assert_nothing_new(&new_since(&server, &before).await, "leaving a group");
}

#[tokio::test]
async fn member_changes_are_refused_with_zulips_messages_all_or_nothing() {
    let server = server();
    let manager = server.as_user(&MEMBER);
    let cases: [(&[Param<'_>], u64, &str); 9] = [
        (
            &[("add", json!([MEMBER2.id]))],
            BACKEND,
            "User 105 is already a member of this group",
        ),
        (
            &[
                ("add", json!([OWNER.id])),
                ("delete", json!([MODERATOR.id])),
            ],
            BACKEND,
            "There is no member '103' in this user group",
        ),
        (&[("add", json!([999]))], BACKEND, "Invalid user ID: 999"),
        (
            &[("add", json!([DEACTIVATED.id]))],
            BACKEND,
            "Invalid user ID: 107",
        ),
        (&[("delete", json!([999]))], BACKEND, "Invalid user ID: 999"),
        (
            &[],
            BACKEND,
            "Nothing to do. Specify at least one of \"add\", \"delete\", \"add_subgroups\" or \"delete_subgroups\".",
        ),
        (&[("add", json!([OWNER.id]))], 999, "Invalid user group"),
        (&[("add", json!([OWNER.id]))], MODERATORS, PERMISSION),
        (&[("add", json!([OWNER.id]))], ENGINEERING, PERMISSION),
    ];
    for (params, id, msg) in cases {
        change(&manager, id, params).await.bad_request(msg);
    }
    assert_eq!(members_of(&server, BACKEND).await, json!([104, 105]));
    assert_eq!(members_of(&server, ENGINEERING).await, json!([102]));
}

#[tokio::test]
async fn who_may_change_members_follows_zulip_10_defaults() {
    let server = server();
    let add_owner = [("add", json!([OWNER.id]))];
    // Not a manager of backend: a member, a moderator, even an administrator.
    for who in [MEMBER2, MODERATOR, ADMIN] {
        change(&server.as_user(&who), BACKEND, &add_owner)
            .await
            .bad_request(PERMISSION);
    }
    // Nobody may join by themself (`can_join_group` is role:nobody)...
    change(
        &server.as_user(&MODERATOR),
        BACKEND,
        &[("add", json!([MODERATOR.id]))],
    )
    .await
    .bad_request(PERMISSION);
    // ...everyone may leave (`can_leave_group` is role:everyone)...
    change(
        &server.as_user(&MEMBER2),
        BACKEND,
        &[("delete", json!([MEMBER2.id]))],
    )
    .await
    .ok();
    // ...but removing someone else takes managing the group.
    change(
        &server.as_user(&MEMBER2),
        BACKEND,
        &[("delete", json!([MEMBER.id]))],
    )
    .await
    .bad_request(PERMISSION);
    // Owners manage every group (`can_manage_all_groups` is role:owners).
    change(&server.as_user(&OWNER), ENGINEERING, &add_owner)
        .await
        .ok();
    change(&server.as_user(&MEMBER), BACKEND, &add_owner)
        .await
        .ok();
    assert_eq!(members_of(&server, BACKEND).await, json!([101, 104]));
    assert_eq!(members_of(&server, ENGINEERING).await, json!([101, 102]));
}

#[tokio::test]
async fn whoever_may_add_or_remove_anyone_may_add_or_remove_themself() {
    let server = server();
    let owner = server.as_user(&OWNER);
    // Backend: Mona adds members, Nina removes them; nobody joins or leaves by themself.
    owner
        .patch(
            &format!("/user_groups/{BACKEND}"),
            &[
                (
                    "can_add_members_group",
                    json!({"new": {"direct_members": [MODERATOR.id], "direct_subgroups": []}}),
                ),
                ("can_leave_group", json!({"new": NOBODY})),
                (
                    "can_remove_members_group",
                    json!({"new": {"direct_members": [MEMBER2.id], "direct_subgroups": []}}),
                ),
            ],
        )
        .await
        .ok();
    // Zulip falls back from `can_join_group` to `can_add_members_group`...
    change(
        &server.as_user(&MODERATOR),
        BACKEND,
        &[("add", json!([MODERATOR.id]))],
    )
    .await
    .ok();
    change(
        &server.as_user(&ADMIN),
        BACKEND,
        &[("add", json!([ADMIN.id]))],
    )
    .await
    .bad_request(PERMISSION);
    // ...and from `can_leave_group` to `can_remove_members_group`.
    change(
        &server.as_user(&MODERATOR),
        BACKEND,
        &[("delete", json!([MODERATOR.id]))],
    )
    .await
    .bad_request(PERMISSION);
    change(
        &server.as_user(&MEMBER2),
        BACKEND,
        &[("delete", json!([MEMBER2.id]))],
    )
    .await
    .ok();
    assert_eq!(
        members_of(&server, BACKEND).await,
        json!([MODERATOR.id, MEMBER.id])
    );
}

#[tokio::test]
async fn members_are_listed_through_subgroups_unless_direct_only() {
    let server = server();
    let api = server.as_user(&MEMBER2);
    let all = api.get(&members_path(ENGINEERING), &[]).await;
    assert_eq!(all.ok()["members"], json!([102, 104, 105]));
    let direct = api
        .get(
            &members_path(ENGINEERING),
            &[("direct_member_only", json!(true))],
        )
        .await;
    assert_eq!(direct.ok()["members"], json!([102]));
    let system = api.get(&members_path(ADMINISTRATORS), &[]).await;
    assert_eq!(system.ok()["members"], json!([101, 102]));

    let is_member = |user: u64, direct: bool| {
        let api = api.clone();
        async move {
            api.get(
                &format!("/user_groups/{ENGINEERING}/members/{user}"),
                &[("direct_member_only", json!(direct))],
            )
            .await
        }
    };
    assert_eq!(
        is_member(104, false).await.ok()["is_user_group_member"],
        true
    );
    assert_eq!(
        is_member(104, true).await.ok()["is_user_group_member"],
        false
    );
    assert_eq!(
        is_member(103, false).await.ok()["is_user_group_member"],
        false
    );
    is_member(999, false).await.bad_request("No such user");
    is_member(DEACTIVATED.id, false)
        .await
        .bad_request("User is deactivated");
    api.get(&members_path(999), &[])
        .await
        .bad_request("Invalid user group");
}

// ---------------------------------------------------------------------- subgroups

#[tokio::test]
async fn below_level_311_subgroups_are_not_parameters_of_create_and_members() {
    let server = TestServer::start(seed_with_groups(), &["--feature-level", "310"]);
    let owner = server.as_user(&OWNER);
    let r = change(&owner, BACKEND, &[("add_subgroups", json!([MODERATORS]))]).await;
    r.bad_request("Nothing to do. Specify at least one of \"add\" or \"delete\".");
    let r = change(
        &owner,
        BACKEND,
        &[
            ("add", json!([OWNER.id])),
            ("add_subgroups", json!([MODERATORS])),
        ],
    )
    .await;
    assert_eq!(
        r.ok()["ignored_parameters_unsupported"],
        json!(["add_subgroups"])
    );
    assert_eq!(
        group(&server, BACKEND).await["direct_subgroup_ids"],
        json!([])
    );
    let r = owner
        .post(
            "/user_groups/create",
            &[
                ("name", json!("old")),
                ("description", json!("")),
                ("members", json!([])),
                ("subgroups", json!([BACKEND])),
            ],
        )
        .await;
    let id = r.ok()["group_id"].as_u64().expect("group_id");
    assert_eq!(
        r.json["ignored_parameters_unsupported"],
        json!(["subgroups"])
    );
    assert_eq!(group(&server, id).await["direct_subgroup_ids"], json!([]));
}

#[tokio::test]
async fn subgroups_are_added_removed_and_listed() {
    let server = server();
    let owner = server.as_user(&OWNER);
    let subgroups = |direct: bool| {
        let owner = owner.clone();
        async move {
            let r = owner
                .get(
                    &format!("/user_groups/{ENGINEERING}/subgroups"),
                    &[("direct_subgroup_only", json!(direct))],
                )
                .await;
            r.ok()["subgroups"].clone()
        }
    };
    change(&owner, BACKEND, &[("add_subgroups", json!([MODERATORS]))])
        .await
        .ok();
    assert_eq!(subgroups(true).await, json!([BACKEND]));
    assert_eq!(
        subgroups(false).await,
        json!([OWNERS, ADMINISTRATORS, MODERATORS, BACKEND])
    );
    owner
        .post(
            &format!("/user_groups/{ENGINEERING}/subgroups"),
            &[("delete", json!([BACKEND])), ("add", json!([OWNERS]))],
        )
        .await
        .ok();
    assert_eq!(subgroups(true).await, json!([OWNERS]));
}

#[tokio::test]
async fn subgroup_changes_refuse_cycles_and_repeats() {
    let server = server();
    let owner = server.as_user(&OWNER);
    let cases: [(u64, &[Param<'_>], &str); 6] = [
        (
            BACKEND,
            &[("add_subgroups", json!([ENGINEERING]))],
            "User group 30 is already a subgroup of one of the passed subgroups.",
        ),
        (
            BACKEND,
            &[("add_subgroups", json!([BACKEND]))],
            "User group 30 is already a subgroup of one of the passed subgroups.",
        ),
        (
            ENGINEERING,
            &[("add_subgroups", json!([BACKEND]))],
            "User group 30 is already a subgroup of this group.",
        ),
        (
            ENGINEERING,
            &[("delete_subgroups", json!([OWNERS]))],
            "User group 2 is not a subgroup of this group.",
        ),
        (
            ENGINEERING,
            &[("add_subgroups", json!([999]))],
            "Invalid user group ID: 999",
        ),
        (MEMBERS, &[("add_subgroups", json!([BACKEND]))], PERMISSION),
    ];
    for (id, params, msg) in cases {
        change(&owner, id, params).await.bad_request(msg);
    }
    owner
        .post(&format!("/user_groups/{ENGINEERING}/subgroups"), &[])
        .await
        .bad_request("Nothing to do. Specify at least one of \"add\" or \"delete\".");
    assert_eq!(
        group(&server, BACKEND).await["direct_subgroup_ids"],
        json!([])
    );
    assert_eq!(
        group(&server, ENGINEERING).await["direct_subgroup_ids"],
        json!([BACKEND])
    );
}

// ----------------------------------------------------------------------- updating

#[tokio::test]
async fn a_manager_renames_describes_and_opens_a_group() {
    let server = server();
    let manager = server.as_user(&MEMBER);
    manager
        .patch(
            &format!("/user_groups/{BACKEND}"),
            &[
                ("name", json!("platform")),
                ("description", json!("Servers and storage")),
                ("can_join_group", json!({"new": MEMBERS, "old": NOBODY})),
            ],
        )
        .await
        .ok();
    let updated = group(&server, BACKEND).await;
    assert_eq!(updated["name"], "platform");
    assert_eq!(updated["description"], "Servers and storage");
    assert_eq!(updated["can_join_group"], MEMBERS);
    // Joining is now open to members.
    change(
        &server.as_user(&MODERATOR),
        BACKEND,
        &[("add", json!([MODERATOR.id]))],
    )
    .await
    .ok();
}

#[tokio::test]
async fn updates_are_refused_with_zulips_messages() {
    let server = server();
    let path = format!("/user_groups/{BACKEND}");
    let manager = server.as_user(&MEMBER);
    manager
        .patch(&path, &[])
        .await
        .bad_request("No new data supplied");
    manager
        .patch(&path, &[("name", json!("Engineering"))])
        .await
        .bad_request("User group 'Engineering' already exists.");
    manager
        .patch(&path, &[("name", json!("role:x"))])
        .await
        .bad_request("User group name cannot start with 'role:'.");
    manager
        .patch(
            &path,
            &[("can_join_group", json!({"new": MEMBERS, "old": EVERYONE}))],
        )
        .await
        .err(
            400,
            "EXPECTATION_MISMATCH",
            "'old' value does not match the expected value.",
        );
    manager
        .patch(&path, &[("can_manage_group", json!({"new": EVERYONE}))])
        .await
        .bad_request("'can_manage_group' setting cannot be set to 'role:everyone' group.");
    server
        .as_user(&MEMBER2)
        .patch(&path, &[("name", json!("mine"))])
        .await
        .bad_request(PERMISSION);
    server
        .as_user(&OWNER)
        .patch(
            &format!("/user_groups/{OWNERS}"),
            &[("description", json!("x"))],
        )
        .await
        .bad_request(PERMISSION);
    let unchanged = group(&server, BACKEND).await;
    assert_eq!(unchanged["name"], "backend");
    assert_eq!(unchanged["can_join_group"], NOBODY);
}

// ------------------------------------------------------------------- deactivating

#[tokio::test]
async fn a_group_in_use_is_not_deactivated_and_an_unused_one_is() {
    // Level 390: from 391 a deactivated group's members may change (`zulip11.rs`).
    let server = TestServer::start(seed_with_groups(), &["--feature-level", "390"]);
    let owner = server.as_user(&OWNER);
    let r = owner
        .post(&format!("/user_groups/{BACKEND}/deactivate"), &[])
        .await;
    let body = r.err(
        400,
        "CANNOT_DEACTIVATE_GROUP_IN_USE",
        "Cannot deactivate user group in use.",
    );
    assert_eq!(
        body["objections"],
        json!([{"type": "subgroup", "supergroup_ids": [ENGINEERING]}])
    );
    server
        .as_user(&MEMBER)
        .post(&format!("/user_groups/{ENGINEERING}/deactivate"), &[])
        .await
        .bad_request(PERMISSION);
    owner
        .post(&format!("/user_groups/{ENGINEERING}/deactivate"), &[])
        .await
        .ok();
    assert!(
        groups(&server, false)
            .await
            .iter()
            .all(|group| group["id"] != ENGINEERING)
    );
    assert_eq!(group(&server, ENGINEERING).await["deactivated"], true);
    owner
        .get(&members_path(ENGINEERING), &[])
        .await
        .bad_request("User group is deactivated.");
    change(&owner, ENGINEERING, &[("add", json!([OWNER.id]))])
        .await
        .bad_request("User group is deactivated.");
    change(&owner, BACKEND, &[("add_subgroups", json!([ENGINEERING]))])
        .await
        .bad_request("User group is deactivated.");
    // Now unused, backend can go too.
    owner
        .post(&format!("/user_groups/{BACKEND}/deactivate"), &[])
        .await
        .ok();
}

// ------------------------------------------------------------------------ mentions

#[tokio::test]
async fn group_mentions_render_aloud_while_the_group_is_active() {
    let server = server();
    let member = server.as_user(&MEMBER);
    let render = |content: &'static str| {
        let member = member.clone();
        async move {
            let r = member
                .post("/messages/render", &[("content", json!(content))])
                .await;
            r.ok()["rendered"].clone()
        }
    };
    assert_eq!(
        render("@*backend* and @_*Engineering*").await,
        "<p><span class=\"user-group-mention\" data-user-group-id=\"30\">@backend</span> and \
         <span class=\"user-group-mention silent\" data-user-group-id=\"31\">engineering</span></p>"
    );
    server
        .as_user(&OWNER)
        .post(&format!("/user_groups/{ENGINEERING}/deactivate"), &[])
        .await
        .ok();
    // A deactivated group's mention stays, silent (Zulip's `UserGroupMentionPattern`).
    assert_eq!(
        render("@*engineering*").await,
        "<p><span class=\"user-group-mention silent\" data-user-group-id=\"31\">engineering</span></p>"
    );
}

#[tokio::test]
async fn a_deactivated_groups_description_changes_from_level_340_its_name_always() {
    for (level, description_changes) in [(362, true), (340, true), (339, false)] {
        let server =
            TestServer::start(seed_with_groups(), &["--feature-level", &level.to_string()]);
        let owner = server.as_user(&OWNER);
        let path = format!("/user_groups/{ENGINEERING}");
        owner.post(&format!("{path}/deactivate"), &[]).await.ok();
        owner
            .patch(&path, &[("name", json!("old engineering"))])
            .await
            .ok();
        let r = owner.patch(&path, &[("description", json!("Gone"))]).await;
        if description_changes {
            r.ok();
        } else {
            r.bad_request("User group is deactivated.");
        }
        let after = group(&server, ENGINEERING).await;
        assert_eq!(after["name"], "old engineering", "level {level}");
        assert_eq!(
            after["description"] == "Gone",
            description_changes,
            "level {level}"
        );
    }
}

#[tokio::test]
async fn group_fields_newer_than_the_level_are_left_out() {
    let server = TestServer::start(seed_with_groups(), &["--feature-level", "300"]);
    let r = server.as_user(&OWNER).get("/user_groups", &[]).await;
    let backend = r.ok()["user_groups"]
        .as_array()
        .and_then(|groups| groups.iter().find(|g| g["id"] == BACKEND))
        .cloned()
        .unwrap_or_default();
    for absent in [
        "can_join_group",
        "can_add_members_group",
        "can_leave_group",
        "can_remove_members_group",
    ] {
        assert!(
            backend.get(absent).is_none(),
            "{absent} at level 300: {backend}"
        );
    }
    for present in [
        "can_manage_group",
        "can_mention_group",
        "deactivated",
        "creator_id",
    ] {
        assert!(
            backend.get(present).is_some(),
            "{present} at level 300: {backend}"
        );
    }
}
