//! Messages rendered on the server's behalf resolve names as the user acting sees the
//! organization (issue 39): a group notice as the actor sees channels (Zulip renders it
//! as its sender's action), a webhook message as its bot sees them.

use serde_json::Value;
use weir_tests::helloworld::{bot_to, hello, payload};
use weir_tests::server::TestServer;
use weir_tests::*;

/// `who` creates a group named `name` with only themself in it, then adds `added`; the
/// notice `added` receives (rendered).
async fn group_notice(server: &TestServer, who: &Account, name: &str, added: &Account) -> String {
    let api = server.as_user(who);
    let r = api
        .post(
            "/user_groups/create",
            &[
                ("name", json!(name)),
                ("description", json!("notices")),
                ("members", json!([who.id])),
            ],
        )
        .await;
    let group = r.ok()["group_id"].as_u64().expect("group_id");
    api.post(
        &format!("/user_groups/{group}/members"),
        &[("add", json!([added.id]))],
    )
    .await
    .ok();
    let received = read_all(&server.as_user(added), json!([]), true).await;
    received
        .iter()
        .rev()
        .filter_map(|m| m["content"].as_str())
        .find(|content| content.contains("added you to"))
        .expect("the notice")
        .to_owned()
}

fn links_stream(html: &str, stream: Stream) -> bool {
    html.contains(&format!("data-stream-id=\"{}\"", stream.id))
}

#[tokio::test]
async fn a_group_notice_links_a_private_channel_only_for_an_actor_who_sees_it() {
    let server = TestServer::standard();
    // Nina is not in Secret Plans: her notice to Mark (who is) does not link it.
    let notice = group_notice(&server, &MEMBER2, "ops #**Secret Plans** team", &MEMBER).await;
    assert!(!links_stream(&notice, SECRET_PLANS), "{notice}");
    assert!(notice.contains("Secret Plans"), "{notice}");
    // Mark is: his notice links it, as Zulip's does.
    let notice = group_notice(&server, &MEMBER, "dev #**Secret Plans** crew", &MODERATOR).await;
    assert!(links_stream(&notice, SECRET_PLANS), "{notice}");
}

/// The newest message the webhook bot sent, as `reader` reads it.
async fn newest_from_bot(server: &TestServer, reader: &Account) -> Value {
    let all = read_all(&server.as_user(reader), json!([]), true).await;
    all.into_iter()
        .rev()
        .find(|m| m["sender_id"].as_u64() == Some(WEBHOOK_BOT.id))
        .expect("a message from the bot")
}

#[tokio::test]
async fn webhook_messages_resolve_names_as_their_bot_sees_them() {
    let server = TestServer::standard();
    // The title closes Hello World's link, so that the names stand in the text.
    let title = "x](https://x.test/b) #**Verona** #**Secret Plans** @**Mark Member** [y";
    let r = hello(
        &server,
        &bot_to(ENGINEERING.name),
        &payload(title, "https://x.test/a"),
    )
    .await;
    r.ok();
    let m = newest_from_bot(&server, &OWNER).await;
    let html = m["content"].as_str().unwrap_or_default();
    assert!(links_stream(html, VERONA), "{html}");
    assert!(!links_stream(html, SECRET_PLANS), "{html}");
    assert!(
        html.contains(&format!("data-user-id=\"{}\"", MEMBER.id)),
        "{html}"
    );
}
