//! Channel folders (Zulip 11, feature levels 389 and 414).

use super::*;

async fn create(api: &Api, name: &str) -> Resp {
    api.post(
        "/channel_folders/create",
        &[("name", json!(name)), ("description", json!("*Ours*"))],
    )
    .await
}

async fn folders(server: &TestServer, include_archived: bool) -> Vec<Value> {
    let r = server
        .as_user(&MEMBER)
        .get(
            "/channel_folders",
            &[("include_archived", json!(include_archived))],
        )
        .await;
    r.ok()["channel_folders"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn names(folders: &[Value]) -> Vec<&str> {
    folders.iter().filter_map(|f| f["name"].as_str()).collect()
}

async fn listed_folder(server: &TestServer, stream_id: u64) -> Value {
    let stream = listed(server, stream_id).await;
    assert!(
        stream.get("folder_id").is_some(),
        "folder_id is always sent: {stream}"
    );
    stream["folder_id"].clone()
}

#[tokio::test]
async fn administrators_keep_channel_folders_from_level_389() {
    let server = at_level(389);
    let admin = server.as_user(&ADMIN);
    let r = create(&admin, "Teams").await;
    let id = r.ok()["channel_folder_id"].as_u64().unwrap_or_default();
    assert!(id > 0, "{}", r.debug());
    create(&server.as_user(&MEMBER), "Mine").await.err(
        400,
        "UNAUTHORIZED_PRINCIPAL",
        "Must be an organization administrator",
    );
    create(&admin, "teams")
        .await
        .bad_request("Channel folder 'teams' already exists");
    create(&admin, "  ")
        .await
        .bad_request("Channel folder name can't be empty.");
    let listed_folders = folders(&server, false).await;
    assert_eq!(listed_folders.len(), 1, "{listed_folders:?}");
    let teams = &listed_folders[0];
    assert_eq!(teams["id"], id);
    assert_eq!(teams["description"], "*Ours*");
    assert_eq!(teams["rendered_description"], "<p><em>Ours</em></p>");
    assert_eq!(teams["creator_id"], ADMIN.id);
    assert_eq!(teams["is_archived"], false);
    assert!(teams.get("order").is_none(), "no order before 414: {teams}");

    // A channel goes into the folder, and out of it with null.
    let path = format!("/streams/{}", VERONA.id);
    admin.patch(&path, &[("folder_id", json!(id))]).await.ok();
    assert_eq!(listed_folder(&server, VERONA.id).await, json!(id));
    assert_eq!(listed_folder(&server, DESIGN.id).await, Value::Null);
    admin
        .patch(&path, &[("folder_id", json!(999))])
        .await
        .bad_request("Invalid channel folder ID");
    let folder_path = format!("/channel_folders/{id}");
    admin
        .patch(&folder_path, &[("is_archived", json!(true))])
        .await
        .bad_request("You need to remove all the channels from this folder to archive it.");
    admin.patch(&path, &[("folder_id", Value::Null)]).await.ok();
    assert_eq!(listed_folder(&server, VERONA.id).await, Value::Null);
    admin
        .patch(
            &folder_path,
            &[("is_archived", json!(true)), ("name", json!("Old teams"))],
        )
        .await
        .ok();
    assert!(folders(&server, false).await.is_empty());
    assert_eq!(names(&folders(&server, true).await), ["Old teams"]);
    // `register` lists archived folders too.
    let body = register(&server.as_user(&MEMBER), json!(["channel_folders"])).await;
    let registered = body["channel_folders"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(names(&registered), ["Old teams"]);
}

#[tokio::test]
async fn a_channel_created_by_subscribing_goes_into_the_folder_given() {
    let server = TestServer::standard();
    let id = create(&server.as_user(&ADMIN), "Labs").await.ok()["channel_folder_id"].clone();
    let member = server.as_user(&MEMBER);
    member
        .post(
            SUBS,
            &[
                ("subscriptions", json!([{"name": "Lab"}])),
                ("folder_id", id.clone()),
            ],
        )
        .await
        .ok();
    member
        .post(
            SUBS,
            &[
                ("subscriptions", json!([{"name": "Lab 2"}])),
                ("folder_id", json!(999)),
            ],
        )
        .await
        .bad_request("Invalid channel folder ID");
    let body = register(&member, json!(["subscription"])).await;
    let lab = body["subscriptions"]
        .as_array()
        .and_then(|subs| subs.iter().find(|s| s["name"] == "Lab"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(lab["folder_id"], id, "{lab}");
}

#[tokio::test]
async fn below_level_389_there_are_no_folders() {
    let server = at_level(388);
    let admin = server.as_user(&ADMIN);
    let r = create(&admin, "Teams").await;
    assert_eq!(r.status, 404, "{}", r.debug());
    assert!(listed(&server, VERONA.id).await.get("folder_id").is_none());
    let r = admin
        .patch(
            &format!("/streams/{}", VERONA.id),
            &[("folder_id", json!(1))],
        )
        .await;
    assert_eq!(ignored(&r), json!(["folder_id"]), "{}", r.debug());
    admin
        .post(
            "/register",
            &[("fetch_event_types", json!(["channel_folders"]))],
        )
        .await
        .bad_request("Unsupported event types: channel_folders");
}

#[tokio::test]
async fn folders_have_an_order_that_administrators_change_from_level_414() {
    let server = at_level(414);
    let admin = server.as_user(&ADMIN);
    let mut ids = Vec::new();
    for name in ["A", "B", "C"] {
        ids.push(create(&admin, name).await.ok()["channel_folder_id"].clone());
    }
    assert_eq!(names(&folders(&server, false).await), ["A", "B", "C"]);
    let order = json!([ids[2], ids[0], ids[1]]);
    server
        .as_user(&MEMBER)
        .patch("/channel_folders", &[("order", order.clone())])
        .await
        .err(
            400,
            "UNAUTHORIZED_PRINCIPAL",
            "Must be an organization administrator",
        );
    admin
        .patch("/channel_folders", &[("order", json!([ids[2], ids[0]]))])
        .await
        .bad_request("Invalid order mapping.");
    admin
        .patch("/channel_folders", &[("order", order)])
        .await
        .ok();
    let listed_folders = folders(&server, false).await;
    assert_eq!(names(&listed_folders), ["C", "A", "B"]);
    assert_eq!(listed_folders[0]["order"], 0);
    assert_eq!(listed_folders[2]["order"], 2);

    let older = at_level(413);
    let r = older
        .as_user(&ADMIN)
        .patch("/channel_folders", &[("order", json!([]))])
        .await;
    assert_eq!(r.status, 404, "{}", r.debug());
    create(&older.as_user(&ADMIN), "D").await.ok();
    assert!(folders(&older, false).await[0].get("order").is_none());
}
