//! `--feature-level N`: the behaviours tied to levels 9, 145 and 208 change here
//! (`docs/zulip-compatibility.md`: Versions and feature levels; the user-group and
//! channel-group levels are tested in `user_groups.rs`, Zulip 11's in `zulip11.rs`).

use serde_json::Value;
use weir_tests::*;

const SUBS: &str = "/users/me/subscriptions";

fn at_level(level: u32) -> TestServer {
    let level = level.to_string();
    TestServer::standard_with(&["--feature-level", &level])
}

async fn remove(api: &Api, names: Value, principals: Value) -> Resp {
    api.delete(
        SUBS,
        &[("subscriptions", names), ("principals", principals)],
    )
    .await
}

async fn assert_unchanged(server: &TestServer) {
    assert_eq!(
        server.subscription_state().await,
        seeded_state(),
        "nothing may change"
    );
}

// --------------------------------------------------------------------- reporting

#[tokio::test]
async fn the_default_feature_level_is_421_zulip_11() {
    let server = TestServer::standard();

    let r = server.anon().get("/server_settings", &[]).await;

    assert_eq!(r.ok()["zulip_feature_level"], 421, "{}", r.debug());
    assert_eq!(r.ok()["zulip_version"], "11.0", "{}", r.debug());
}

#[tokio::test]
async fn below_421_the_server_says_it_is_zulip_10() {
    let server = at_level(420);

    let r = server.anon().get("/server_settings", &[]).await;

    assert_eq!(r.ok()["zulip_version"], "10.0", "{}", r.debug());
}

#[tokio::test]
async fn server_settings_and_register_report_the_emulated_level() {
    for level in [8u32, 144, 207, 300] {
        let server = at_level(level);

        let settings = server.anon().get("/server_settings", &[]).await;
        let register = server
            .as_user(&MEMBER)
            .post(
                "/register",
                &[("fetch_event_types", json!(["realm_user", "subscription"]))],
            )
            .await;

        assert_eq!(
            settings.ok()["zulip_feature_level"],
            level,
            "{}",
            settings.debug()
        );
        assert_eq!(
            register.ok()["zulip_feature_level"],
            level,
            "{}",
            register.debug()
        );
    }
}

// ------------------------------------------------------------ level 9: integer ids

#[tokio::test]
async fn below_level_9_integer_principals_are_not_strings() {
    let server = at_level(8);
    let admin = server.as_user(&ADMIN);

    remove(&admin, json!(["Engineering"]), json!([MEMBER.id]))
        .await
        .bad_request("principals[0] is not a string");
    remove(
        &admin,
        json!(["Engineering"]),
        json!(["mark@globex.test", MEMBER2.id]),
    )
    .await
    .bad_request("principals[1] is not a string");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn below_level_9_email_principals_work() {
    let server = at_level(8);

    let r = remove(
        &server.as_user(&ADMIN),
        json!(["Engineering"]),
        json!(["mark@globex.test", "NINA@globex.test"]),
    )
    .await;

    assert_unsubscribed(&r, &["Engineering", "Engineering"], &[]);
}

#[tokio::test]
async fn below_level_9_empty_principals_mean_the_caller() {
    let server = at_level(8);

    let r = remove(&server.as_user(&MEMBER), json!(["Engineering"]), json!([])).await;

    assert_unsubscribed(&r, &["Engineering"], &[]);
}

#[tokio::test]
async fn from_level_9_integer_principals_work() {
    let server = at_level(9);

    let r = remove(
        &server.as_user(&ADMIN),
        json!(["Engineering"]),
        json!([MEMBER.id]),
    )
    .await;

    assert_unsubscribed(&r, &["Engineering"], &[]);
    assert!(!server.members_of(ENGINEERING.id).await.contains(&MEMBER.id));
}

// ---------------------------------------------------------- level 145: bot owners

#[tokio::test]
async fn below_level_145_a_bot_owner_cannot_remove_their_bot() {
    let server = at_level(144);
    let mark = server.as_user(&MEMBER);

    remove(&mark, json!(["Engineering"]), json!([GENERIC_BOT.id]))
        .await
        .bad_request("Insufficient permission");
    remove(&mark, json!(["Secret Plans"]), json!([GENERIC_BOT.id]))
        .await
        .bad_request("Insufficient permission");
    remove(
        &mark,
        json!(["Engineering"]),
        json!([MEMBER.id, WEBHOOK_BOT.id]),
    )
    .await
    .bad_request("Insufficient permission");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn from_level_145_a_bot_owner_removes_their_bot() {
    let server = at_level(145);
    let mark = server.as_user(&MEMBER);

    let public = remove(&mark, json!(["Engineering"]), json!([GENERIC_BOT.id])).await;
    let private = remove(&mark, json!(["Secret Plans"]), json!([GENERIC_BOT.id])).await;
    let with_self = remove(&mark, json!(["Verona"]), json!([MEMBER.id, WEBHOOK_BOT.id])).await;

    assert_unsubscribed(&public, &["Engineering"], &[]);
    assert_unsubscribed(&private, &["Secret Plans"], &[]);
    assert_unsubscribed(&with_self, &["Verona"], &["Verona"]);
}

#[tokio::test]
async fn below_level_145_removing_yourself_and_admins_removing_bots_still_work() {
    let server = at_level(144);

    let own = remove(
        &server.as_user(&MEMBER),
        json!(["Engineering"]),
        json!([MEMBER.id]),
    )
    .await;
    let admin = remove(
        &server.as_user(&ADMIN),
        json!(["Engineering"]),
        json!([GENERIC_BOT.id]),
    )
    .await;

    assert_unsubscribed(&own, &["Engineering"], &[]);
    assert_unsubscribed(&admin, &["Engineering"], &[]);
}

// ------------------------------------------ level 208: unknown/deactivated principals

#[tokio::test]
async fn below_level_208_an_unknown_principal_is_unauthorized_principal() {
    let server = at_level(207);
    let admin = server.as_user(&ADMIN);

    remove(&admin, json!(["Engineering"]), json!([9999]))
        .await
        .err(
            403,
            "UNAUTHORIZED_PRINCIPAL",
            "User not authorized to execute queries on behalf of '9999'",
        );
    remove(
        &admin,
        json!(["Engineering"]),
        json!(["nobody@globex.test"]),
    )
    .await
    .err(
        403,
        "UNAUTHORIZED_PRINCIPAL",
        "User not authorized to execute queries on behalf of 'nobody@globex.test'",
    );
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn below_level_208_a_deactivated_principal_is_unauthorized_principal() {
    let server = at_level(207);
    let admin = server.as_user(&ADMIN);

    remove(
        &admin,
        json!(["Engineering"]),
        json!([MEMBER.id, DEACTIVATED.id]),
    )
    .await
    .err(
        403,
        "UNAUTHORIZED_PRINCIPAL",
        "User not authorized to execute queries on behalf of '107'",
    );
    remove(&admin, json!(["Engineering"]), json!([DEACTIVATED.email]))
        .await
        .err(
            403,
            "UNAUTHORIZED_PRINCIPAL",
            "User not authorized to execute queries on behalf of 'dora@globex.test'",
        );
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn from_level_208_unknown_and_deactivated_principals_are_bad_requests() {
    let server = at_level(208);
    let admin = server.as_user(&ADMIN);

    remove(&admin, json!(["Engineering"]), json!([9999]))
        .await
        .bad_request("No such user");
    remove(
        &admin,
        json!(["Engineering"]),
        json!(["nobody@globex.test"]),
    )
    .await
    .bad_request("No such user");
    remove(&admin, json!(["Engineering"]), json!([DEACTIVATED.id]))
        .await
        .bad_request("User is deactivated");
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn below_level_9_an_unknown_email_principal_still_follows_level_208_rules() {
    let server = at_level(8);

    let r = remove(
        &server.as_user(&ADMIN),
        json!(["Engineering"]),
        json!(["ghost@globex.test"]),
    )
    .await;

    r.err(
        403,
        "UNAUTHORIZED_PRINCIPAL",
        "User not authorized to execute queries on behalf of 'ghost@globex.test'",
    );
}

// ---------------------------------------- the same levels apply to subscribing

#[tokio::test]
async fn below_level_9_subscribe_principals_must_be_strings() {
    let server = at_level(8);
    let admin = server.as_user(&ADMIN);

    let ints = admin
        .post(
            SUBS,
            &[
                ("subscriptions", json!([{"name": "Design"}])),
                ("principals", json!([MEMBER.id])),
            ],
        )
        .await;
    let emails = admin
        .post(
            SUBS,
            &[
                ("subscriptions", json!([{"name": "Design"}])),
                ("principals", json!([MEMBER.email])),
            ],
        )
        .await;

    ints.bad_request("principals[0] is not a string");
    assert_eq!(
        by_user(&emails.ok()["subscribed"]),
        user_map(&[(MEMBER.id, &["Design"])])
    );
}

#[tokio::test]
async fn below_level_208_subscribing_unknown_or_deactivated_users_is_unauthorized_principal() {
    let server = at_level(207);
    let admin = server.as_user(&ADMIN);

    for (principal, shown) in [
        (json!([9999]), "9999"),
        (json!([DEACTIVATED.email]), DEACTIVATED.email),
    ] {
        let r = admin
            .post(
                SUBS,
                &[
                    ("subscriptions", json!([{"name": "Design"}])),
                    ("principals", principal),
                ],
            )
            .await;
        r.err(
            403,
            "UNAUTHORIZED_PRINCIPAL",
            &format!("User not authorized to execute queries on behalf of '{shown}'"),
        );
    }
    assert_unchanged(&server).await;
}

#[tokio::test]
async fn from_level_208_subscribing_unknown_or_deactivated_users_is_a_bad_request() {
    let server = at_level(208);
    let admin = server.as_user(&ADMIN);
    let post = |principals: Value| {
        let admin = admin.clone();
        async move {
            admin
                .post(
                    SUBS,
                    &[
                        ("subscriptions", json!([{"name": "Design"}])),
                        ("principals", principals),
                    ],
                )
                .await
        }
    };

    post(json!([9999])).await.bad_request("No such user");
    post(json!([DEACTIVATED.id]))
        .await
        .bad_request("User is deactivated");
}

// -------------------------------------------- everything else as at the default

#[tokio::test]
async fn at_an_old_level_other_behaviour_stays_as_at_the_default() {
    let server = at_level(8);
    let mark = server.as_user(&MEMBER);

    leave_check(&mark).await;
    // The documented missing-stream shape and the private-stream rule do not change.
    mark.delete(SUBS, &[("subscriptions", json!(["nope"]))])
        .await
        .stream_does_not_exist("nope");
    mark.delete(SUBS, &[("subscriptions", json!(["Hidden Lair"]))])
        .await
        .stream_does_not_exist("Hidden Lair");
    mark.delete(SUBS, &[("subscriptions", json!([""]))])
        .await
        .bad_request("Channel name can't be empty.");
    // Subscribe answers are keyed by user id whatever the level.
    let r = mark
        .post(SUBS, &[("subscriptions", json!([{"name": "Design"}]))])
        .await;
    assert_eq!(
        by_user(&r.ok()["subscribed"]),
        user_map(&[(MEMBER.id, &["Design"])])
    );
}

async fn leave_check(mark: &Api) {
    let r = mark
        .delete(SUBS, &[("subscriptions", json!(["engineering"]))])
        .await;
    assert_unsubscribed(&r, &["Engineering"], &[]);
}
