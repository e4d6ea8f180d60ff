//! Previewing a webhook request without posting it and without a database: the same
//! parameter parsing, integration and renderer as `POST /api/v1/external/<name>`
//! (`webhook::plan`), so that a preview and a real send never disagree.
//! What only the database knows is the caller's to give: whom `@**name**`, `@*group*`
//! and `#**channel**` name as the bot sees the organization (a [`Directory`]; without
//! one they render as plain text), and whether the stream exists ([`missing_channel`]
//! previews the notice a missing one causes).

use axum::http::{HeaderMap, StatusCode};
use serde_json::Value;

use crate::compose::Outgoing;
use crate::error::ApiError;
use crate::http::params::Params;
use crate::render::Directory;
use crate::webhook::notices::missing_channel_notice;
use crate::webhook::plan::{
    ACCEPTED_JSON, Plan, find_integration, is_form, missing_header_error, plan, unsupported_body,
};

/// A request to preview.
#[derive(Clone, Copy)]
pub struct DryRunRequest<'a> {
    /// The last segment of `/api/v1/external/<integration>`.
    pub integration: &'a str,
    /// The URL's query string (`api_key` is ignored).
    pub query: &'a str,
    pub headers: &'a HeaderMap,
    pub body: &'a [u8],
    /// Named in the owner's notice about a missing event header.
    pub bot_full_name: &'a str,
    /// The organization as the bot sees it, to resolve mentions and channel links;
    /// `None`: nobody and nothing is named.
    pub directory: Option<&'a dyn Directory>,
}

impl std::fmt::Debug for DryRunRequest<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DryRunRequest")
            .field("integration", &self.integration)
            .field("query", &self.query)
            .field("bot_full_name", &self.bot_full_name)
            .field("directory", &self.directory.is_some())
            .finish_non_exhaustive()
    }
}

/// One message the request would produce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DryRunMessage {
    /// `None`: a direct message (to the bot's owner).
    pub stream: Option<String>,
    pub topic: String,
    /// Markdown, as stored.
    pub content: String,
    /// The HTML the server would store.
    pub rendered: String,
}

/// What the endpoint would answer and send.
#[derive(Debug, Clone, PartialEq)]
pub struct DryRun {
    pub status: u16,
    pub response: Value,
    /// The bot's messages, in order.
    pub messages: Vec<DryRunMessage>,
    /// Notification Bot's direct messages to the bot's owner.
    pub notices: Vec<DryRunMessage>,
}

/// Runs `request` through the endpoint's pure part.
pub fn dry_run(request: &DryRunRequest<'_>) -> DryRun {
    let integration = match find_integration(request.integration) {
        Ok(integration) => integration,
        Err(error) => return refused(&error),
    };
    let mut query = Params::from_query(request.query);
    if is_form(request.headers) {
        query.merge_missing_form(request.body);
    }
    let _ = query.take_str("api_key");
    match plan(integration, request.headers, request.body, query) {
        // A batch refused partway previews as refused (the server stores the messages
        // before the refused item, as Zulip sends them, then answers the same error).
        Err(error)
        | Ok(Plan::Post {
            then: Some(error), ..
        }) => refused(&error),
        Ok(Plan::Post {
            stream, messages, ..
        }) => {
            let rendered: Result<Vec<_>, _> = messages
                .into_iter()
                .map(|draft| match request.directory {
                    Some(directory) => Outgoing::with_directory(draft, directory),
                    None => Outgoing::without_directory(draft),
                })
                .collect();
            match rendered {
                Ok(rendered) => DryRun {
                    status: StatusCode::OK.as_u16(),
                    response: accepted(),
                    messages: rendered
                        .into_iter()
                        .map(|message| preview(stream.clone(), message))
                        .collect(),
                    notices: Vec::new(),
                },
                Err(error) => refused(&error),
            }
        }
        Ok(Plan::Accepted) => DryRun {
            status: StatusCode::OK.as_u16(),
            response: accepted(),
            messages: Vec::new(),
            notices: Vec::new(),
        },
        Ok(Plan::Unsupported { event }) => DryRun {
            status: StatusCode::OK.as_u16(),
            response: unsupported_body(integration, &event),
            messages: Vec::new(),
            notices: Vec::new(),
        },
        Ok(Plan::MissingHeader { header }) => {
            let path = format!("/api/v1/external/{}", integration.name);
            let text = integration.missing_header_notice(request.bot_full_name, &path, header);
            let mut answer = refused(&missing_header_error(header));
            // The notice is the server's own short text: it always renders.
            if let Ok(notice) = Outgoing::new("", &text) {
                answer.notices.push(preview(None, notice));
            }
            answer
        }
    }
}

/// Notification Bot's notice to the bot's owner when the URL's `stream` names no channel:
/// what a real send causes instead of the bot's message (at most once per five minutes).
/// Whether the channel exists is the caller's to know: this preview has no database.
pub fn missing_channel(bot_email: &str, stream: &str) -> Option<DryRunMessage> {
    let text = missing_channel_notice(bot_email, stream);
    Outgoing::new("", &text)
        .ok()
        .map(|notice| preview(None, notice))
}

fn preview(stream: Option<String>, message: Outgoing) -> DryRunMessage {
    DryRunMessage {
        stream,
        topic: message.topic,
        content: message.content,
        rendered: message.rendered,
    }
}

fn accepted() -> Value {
    serde_json::from_str(ACCEPTED_JSON).unwrap_or(Value::Null)
}

fn refused(error: &ApiError) -> DryRun {
    DryRun {
        status: error.status.as_u16(),
        response: error.body(),
        messages: Vec::new(),
        notices: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use weir_integrations as integrations;

    use super::*;

    fn run(integration: &str, query: &str, headers: &[(&'static str, &str)], body: &str) -> DryRun {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.insert(*name, value.parse().unwrap());
        }
        dry_run(&DryRunRequest {
            integration,
            query,
            headers: &map,
            body: body.as_bytes(),
            bot_full_name: "Relay",
            directory: None,
        })
    }

    const HELLO: &str = r#"{"featured_title": "Tea", "featured_url": "https://x.test/tea"}"#;

    #[test]
    fn hello_world_previews_its_rendered_message() {
        let preview = run("helloworld", "api_key=x&stream=dev&topic=t", &[], HELLO);
        assert_eq!(preview.status, 200);
        assert_eq!(preview.response["result"], "success");
        assert_eq!(preview.messages.len(), 1);
        let message = &preview.messages[0];
        assert_eq!(message.stream.as_deref(), Some("dev"));
        assert_eq!(message.topic, "t");
        assert_eq!(
            message.rendered,
            crate::render::render_markdown(&message.content)
        );
        assert!(
            message
                .rendered
                .contains("<strong><a href=\"https://x.test/tea\">Tea</a></strong>")
        );
    }

    /// Dana (7) and the channel `general` (3).
    struct Dana;

    impl Directory for Dana {
        fn user(&self, name: &str, _: Option<i64>) -> Option<(i64, String)> {
            (name == "Dana Cohen").then(|| (7, name.to_owned()))
        }

        fn stream(&self, name: &str) -> Option<(i64, String)> {
            (name == "general").then(|| (3, name.to_owned()))
        }
    }

    #[test]
    fn names_resolve_through_the_callers_directory() {
        let title = "x](https://x.test/b)**\n\n@**Dana Cohen** #**general**\n\n**[y";
        let body = serde_json::json!({"featured_title": title, "featured_url": "https://x.test/a"})
            .to_string();
        let mut request = DryRunRequest {
            integration: "helloworld",
            query: "stream=dev",
            headers: &HeaderMap::new(),
            body: body.as_bytes(),
            bot_full_name: "Relay",
            directory: Some(&Dana),
        };
        let rendered = dry_run(&request).messages[0].rendered.clone();
        assert!(
            rendered.contains(
                "<p><span class=\"user-mention\" data-user-id=\"7\">@Dana Cohen</span> \
                 <a class=\"stream\" data-stream-id=\"3\" href=\"/#narrow/channel/3-general\">\
                 #general</a></p>"
            ),
            "{rendered}"
        );
        request.directory = None;
        let plain = dry_run(&request).messages[0].rendered.clone();
        assert!(plain.contains("<strong>Dana Cohen</strong>"), "{plain}");
    }

    #[test]
    fn refusals_and_notices_match_the_endpoint() {
        let missing = run("helloworld", "", &[], r#"{"featured_url": "x"}"#);
        assert_eq!(missing.status, 400);
        assert_eq!(missing.response["code"], "REQUEST_VARIABLE_MISSING");
        assert_eq!(run("nope", "", &[], HELLO).status, 404);
        let (body, _) = bitbucket_fixture("pullrequest_created");
        let no_header = run("bitbucket2", "", &[], body);
        assert_eq!(no_header.status, 400);
        assert_eq!(no_header.response["code"], "MISSING_HTTP_EVENT_HEADER");
        assert_eq!(no_header.notices.len(), 1);
        assert!(no_header.notices[0].content.contains("Your bot Relay"));
        let unsupported = run("bitbucket2", "", &[("X-Event-Key", "repo:nope")], "{}");
        assert_eq!(unsupported.status, 200);
        assert_eq!(
            unsupported.response["code"],
            "UNSUPPORTED_WEBHOOK_EVENT_TYPE"
        );
        assert!(unsupported.messages.is_empty());
    }

    #[test]
    fn zulips_event_names_filter_and_pushes_split() {
        let (body, event) = bitbucket_fixture("push_multiple_changes");
        let all = run("bitbucket2", "stream=dev", &[("X-Event-Key", event)], body);
        assert_eq!(all.messages.len(), 2);
        let only = r#"only_events=["pull_request_*"]"#;
        let filtered = run("bitbucket2", only, &[("X-Event-Key", event)], body);
        assert_eq!(filtered.status, 200);
        assert!(filtered.messages.is_empty());
    }

    #[test]
    fn a_missing_channel_previews_the_owners_notice() {
        let notice = missing_channel("relay-bot@x.test", "genral").unwrap();
        assert_eq!(notice.stream, None);
        assert!(
            notice
                .content
                .starts_with("Your bot `relay-bot@x.test` tried to send")
        );
        assert!(
            notice.rendered.contains("does not exist"),
            "{}",
            notice.rendered
        );
    }

    fn bitbucket_fixture(name: &str) -> (&'static str, &'static str) {
        let fixture = integrations::find("bitbucket2")
            .unwrap()
            .fixtures
            .iter()
            .find(|fixture| fixture.name == name)
            .unwrap();
        (fixture.body, fixture.headers[0].1)
    }
}
