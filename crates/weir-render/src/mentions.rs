//! Zulip's mention and channel-link syntax: `@**Full Name**`, `@**Full Name|42**`,
//! silent `@_**Full Name**`, and `#**channel**`. They need the organization's data, so
//! the caller supplies a [`Directory`].
//!
//! Markdown would read `**…**` as bold, so each recognised mention is swapped for a
//! placeholder before parsing. The renderer then puts a mention's HTML in only where the
//! placeholder lands in text; anywhere else (a link's destination, a code span or block,
//! a fence's language) it gets back the source the mention replaced, so no mention can
//! end up inside an attribute. A source that already holds the placeholder characters is
//! rendered without mentions.

use std::borrow::Cow;
use std::collections::HashMap;

use super::group_mentions::{group_mention_html, group_mention_len};
use super::sanitize::{escape_attr, escape_text};
use super::timestamp::timestamp_at;

/// Looks up the people and channels that mentions name.
pub trait Directory {
    /// The user `@**name**` (or `@**name|id**`) names: `(user_id, full_name)`.
    fn user(&self, name: &str, id: Option<i64>) -> Option<(i64, String)>;
    /// The channel `#**name**` names: `(stream_id, name)`.
    fn stream(&self, name: &str) -> Option<(i64, String)>;
    /// The organization's URL (`https://chat.example.com`), whose links Zulip makes
    /// relative.
    fn realm_url(&self) -> Option<String> {
        None
    }
    /// The active user group `@*name*` names: `(group_id, name)`.
    fn group(&self, _name: &str) -> Option<(i64, String)> {
        None
    }
    /// The deactivated user group `@*name*` names, whose mentions Zulip renders silent.
    fn deactivated_group(&self, _name: &str) -> Option<(i64, String)> {
        None
    }
}

const OPEN: char = '\u{E000}';
const CLOSE: char = '\u{E001}';

/// One recognised mention: the HTML it becomes in text, and the source it replaced.
#[derive(Debug, Clone)]
pub(super) struct Mention {
    html: String,
    source: String,
}

impl Mention {
    /// Any placeholder-borne HTML (inline math uses these too, see `math.rs`).
    pub(super) fn new(html: String, source: String) -> Self {
        Self { html, source }
    }

    /// The placeholder text standing for the `index`th entry.
    pub(super) fn placeholder(index: usize) -> String {
        format!("{OPEN}{index}{CLOSE}")
    }

    #[cfg(test)]
    pub(super) fn html(&self) -> &str {
        &self.html
    }

    /// Whether the HTML is a link (a channel), which must not nest inside another link.
    fn is_link(&self) -> bool {
        self.html.starts_with("<a ")
    }
}

/// Renders `source` with its mentions resolved through `directory`.
pub fn render_with_mentions(source: &str, directory: &dyn Directory) -> String {
    let _budget = super::budget::start();
    if has_placeholders(source) {
        return super::markdown::render(source);
    }
    let (marked, mentions) = mark_mentions(source, directory);
    let (marked, spans) = super::math::mark_inline(marked, mentions);
    let html = super::quoted_mentions::silence_quoted_mentions(super::markdown::render_with(
        &marked, &spans,
    ));
    // Most messages link nowhere: only a link can need the organization's URL (a lookup).
    if !html.contains("<a href=\"") {
        return html;
    }
    match directory.realm_url() {
        Some(realm) => relative_local_links(html, &realm),
        None => html,
    }
}

/// Whether `source` holds the placeholder characters itself (then it is rendered
/// without mentions or inline math, which could not be told apart from it).
pub(super) fn has_placeholders(source: &str) -> bool {
    source.contains(OPEN) || source.contains(CLOSE)
}

/// Zulip's `rewrite_local_links_to_relative`: links into the organization's own
/// narrows and uploads become relative (`#narrow/…`, `user_uploads/…`). Only a real
/// tag can hold `<a href="`, since text has its `<` escaped.
fn relative_local_links(html: String, realm: &str) -> String {
    let mut prefix = String::from("<a href=\"");
    escape_attr(&mut prefix, realm.trim_end_matches('/'));
    prefix.push('/');
    if realm.is_empty() || !html.contains(&prefix) {
        return html;
    }
    let mut out = String::with_capacity(html.len());
    let mut rest = html.as_str();
    while let Some(at) = rest.find(&prefix) {
        let after = &rest[at + prefix.len()..];
        out.push_str(&rest[..at]);
        if after.starts_with('#') || after.starts_with("user_uploads/") {
            out.push_str("<a href=\"");
        } else {
            out.push_str(&prefix);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// A stretch of text between placeholders, or the mention a placeholder stands for.
pub(super) enum Piece<'t, 'm> {
    Text(&'t str),
    Mention(&'m Mention),
}

/// Splits `text` at placeholders, in one pass: the work is linear in the text.
pub(super) struct Pieces<'t, 'm> {
    rest: &'t str,
    mentions: &'m [Mention],
    /// A mention found after the text just returned.
    next: Option<&'m Mention>,
}

pub(super) fn pieces<'t, 'm>(text: &'t str, mentions: &'m [Mention]) -> Pieces<'t, 'm> {
    Pieces {
        rest: text,
        mentions,
        next: None,
    }
}

impl<'t, 'm> Iterator for Pieces<'t, 'm> {
    type Item = Piece<'t, 'm>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(mention) = self.next.take() {
            return Some(Piece::Mention(mention));
        }
        if self.rest.is_empty() {
            return None;
        }
        let mut searched = 0;
        while let Some(at) = self.rest[searched..].find(OPEN) {
            let open = searched + at;
            let after = open + OPEN.len_utf8();
            let found = self.rest[after..].find(CLOSE).and_then(|close| {
                let index: usize = self.rest[after..after + close].parse().ok()?;
                Some((self.mentions.get(index)?, after + close + CLOSE.len_utf8()))
            });
            if let Some((mention, end)) = found {
                let text = &self.rest[..open];
                self.rest = &self.rest[end..];
                if text.is_empty() {
                    return Some(Piece::Mention(mention));
                }
                self.next = Some(mention);
                return Some(Piece::Text(text));
            }
            searched = after;
        }
        let text = self.rest;
        self.rest = "";
        Some(Piece::Text(text))
    }
}

/// `text` with every placeholder turned back into the source it replaced.
pub(super) fn restore<'t>(text: &'t str, mentions: &[Mention]) -> Cow<'t, str> {
    if mentions.is_empty() || !text.contains(OPEN) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for piece in pieces(text, mentions) {
        match piece {
            Piece::Text(plain) => out.push_str(plain),
            Piece::Mention(mention) => out.push_str(&mention.source),
        }
    }
    Cow::Owned(out)
}

/// Appends the HTML of the text event `text`: mentions as their HTML (inside a link,
/// a channel link as the source text: links do not nest), the rest through `plain`.
pub(super) fn push_with_mentions(
    out: &mut String,
    text: &str,
    mentions: &[Mention],
    in_link: bool,
    plain: fn(&mut String, &str),
) {
    if mentions.is_empty() || !text.contains(OPEN) {
        plain(out, text);
        return;
    }
    let mut pending = String::new();
    for piece in pieces(text, mentions) {
        match piece {
            Piece::Text(text) => pending.push_str(text),
            // Shown as written, and as plain text: its `**` are no emphasis.
            Piece::Mention(mention) if in_link && mention.is_link() => {
                plain(out, &pending);
                pending.clear();
                escape_text(out, &mention.source);
            }
            Piece::Mention(mention) => {
                plain(out, &pending);
                pending.clear();
                out.push_str(&mention.html);
            }
        }
    }
    plain(out, &pending);
}

/// Swaps each recognised mention for a placeholder. Lookups are remembered, so a
/// message naming one channel a thousand times asks the directory once.
fn mark_mentions(source: &str, directory: &dyn Directory) -> (String, Vec<Mention>) {
    let mut marker = Marker {
        directory,
        out: String::with_capacity(source.len()),
        mentions: Vec::new(),
        known: HashMap::new(),
    };
    for line in source.split_inclusive('\n') {
        marker.mark_line(line);
    }
    (marker.out, marker.mentions)
}

/// The first characters of inline code, `<time:…>` and (group) mentions and channel
/// links: the only places [`Marker::mark_line`] has anything to do. ASCII, so a byte
/// equal to one is that character.
const MAY_START_MARKUP: [u8; 4] = [b'`', b'<', b'@', b'#'];

/// Finds the [`MAY_START_MARKUP`] bytes of one line with `memchr` (every byte of every
/// message is looked at here). Two searches, `memchr3` and `memchr`, each remembering
/// what it found, and searching again only once that is behind: no byte is searched
/// twice by either, so a line costs linear time however its markup is spread.
#[derive(Default)]
struct MarkupFinder {
    /// Where each search found its next byte (`usize::MAX`: none up to the end);
    /// `None`: not searched yet.
    three: Option<usize>,
    hash: Option<usize>,
}

impl MarkupFinder {
    /// The first markup byte of `line` at or after `from`.
    fn next(&mut self, line: &[u8], from: usize) -> Option<usize> {
        let [a, b, c, d] = MAY_START_MARKUP;
        let search = |found: usize| found.saturating_add(from);
        if self.three.is_none_or(|at| at < from) {
            self.three = Some(memchr::memchr3(a, b, c, &line[from..]).map_or(usize::MAX, search));
        }
        if self.hash.is_none_or(|at| at < from) {
            self.hash = Some(memchr::memchr(d, &line[from..]).map_or(usize::MAX, search));
        }
        let at = self.three.min(self.hash)?;
        (at != usize::MAX).then_some(at)
    }
}

struct Marker<'d> {
    directory: &'d dyn Directory,
    out: String,
    mentions: Vec<Mention>,
    /// A mention's source text to its HTML (`None`: names nobody).
    known: HashMap<String, Option<String>>,
}

impl Marker<'_> {
    fn mark_line(&mut self, line: &str) {
        let mut rest = line;
        let mut finder = MarkupFinder::default();
        while !rest.is_empty() {
            // Only these can start code, a timestamp or a mention: copy up to the next.
            let from = line.len() - rest.len();
            let plain = finder
                .next(line.as_bytes(), from)
                .map_or(rest.len(), |at| at - from);
            if plain > 0 {
                self.out.push_str(&rest[..plain]);
                rest = &rest[plain..];
                continue;
            }
            // Inline code: copy through the matching run of backticks untouched.
            if rest.starts_with('`') {
                let ticks = rest.len() - rest.trim_start_matches('`').len();
                let fence = &rest[..ticks];
                let after = &rest[ticks..];
                let end = after
                    .find(fence)
                    .map_or(rest.len(), |at| ticks + at + ticks);
                self.out.push_str(&rest[..end]);
                rest = &rest[end..];
                continue;
            }
            // Zulip's `<time:…>`, swapped like a mention so Markdown cannot reach inside.
            if let Some((used, html)) = timestamp_at(rest) {
                self.out.push(OPEN);
                self.out.push_str(&self.mentions.len().to_string());
                self.out.push(CLOSE);
                self.mentions.push(Mention {
                    html,
                    source: rest[..used].to_owned(),
                });
                rest = &rest[used..];
                continue;
            }
            if let Some(used) = mention_len(rest)
                .or_else(|| group_mention_len(rest))
                .filter(|_| after_boundary(&self.out))
            {
                let source = &rest[..used];
                let html = match self.known.get(source) {
                    Some(html) => html.clone(),
                    None => {
                        let html = mention_html(source, self.directory)
                            .or_else(|| group_mention_html(source, self.directory));
                        self.known.insert(source.to_owned(), html.clone());
                        html
                    }
                };
                if let Some(html) = html {
                    self.out.push(OPEN);
                    self.out.push_str(&self.mentions.len().to_string());
                    self.out.push(CLOSE);
                    self.mentions.push(Mention {
                        html,
                        source: source.to_owned(),
                    });
                    rest = &rest[used..];
                    continue;
                }
            }
            let next = rest.chars().next().map_or(1, char::len_utf8);
            self.out.push_str(&rest[..next]);
            rest = &rest[next..];
        }
    }
}

/// Zulip's `BEFORE_MENTION_ALLOWED_REGEX`: a mention starts the text or follows
/// whitespace or one of `'"({[/<`, so `a@**b**` is no mention.
fn after_boundary(before: &str) -> bool {
    before
        .chars()
        .next_back()
        .is_none_or(|c| c.is_whitespace() || "'\"({[/<".contains(c))
}

/// The prefix of a mention at the start of `text`, and whether it is silent / a channel.
fn prefix(text: &str) -> Option<(&'static str, bool, bool)> {
    if text.starts_with("@_**") {
        Some(("@_**", true, false))
    } else if text.starts_with("@**") {
        Some(("@**", false, false))
    } else if text.starts_with("#**") {
        Some(("#**", false, true))
    } else {
        None
    }
}

/// How many bytes the mention syntax at the start of `text` spans, if it is one.
/// The search for the closing `**` stops at the next mention's own `**` at the latest,
/// so scanning a line costs time linear in its length.
fn mention_len(text: &str) -> Option<usize> {
    let (prefix, _, _) = prefix(text)?;
    let inner_end = text[prefix.len()..].find("**")?;
    let inner = &text[prefix.len()..prefix.len() + inner_end];
    if inner.is_empty() || inner.contains(['\n', '*']) {
        return None;
    }
    Some(prefix.len() + inner_end + 2)
}

/// The HTML of the mention `source` (as [`mention_len`] delimited it), if it names
/// someone or a channel.
fn mention_html(source: &str, directory: &dyn Directory) -> Option<String> {
    let (prefix, silent, is_stream) = prefix(source)?;
    let inner = source.get(prefix.len()..source.len().checked_sub(2)?)?;
    if is_stream {
        return channel_link_html(inner, directory);
    }
    if let Some(html) = wildcard_html(inner, silent) {
        return Some(html);
    }
    let (name, id) = match inner.rsplit_once('|') {
        Some((name, id)) => (name, Some(id.parse().ok()?)),
        None => (inner, None),
    };
    let (user_id, full_name) = directory.user(name, id)?;
    let class = if silent {
        "user-mention silent"
    } else {
        "user-mention"
    };
    let mut html = format!("<span class=\"{class}\" data-user-id=\"{user_id}\">");
    if !silent {
        html.push('@');
    }
    escape_text(&mut html, &full_name);
    html.push_str("</span>");
    Some(html)
}

/// `#**channel**`, `#**channel>topic**` and `#**channel>topic@id**`, as Zulip's
/// `StreamPattern`, `StreamTopicPattern` and `StreamTopicMessagePattern` render them.
fn channel_link_html(inner: &str, directory: &dyn Directory) -> Option<String> {
    let mut html = String::new();
    let Some((channel, topic)) = inner.split_once('>') else {
        let (id, name) = directory.stream(inner)?;
        html.push_str(&format!(
            "<a class=\"stream\" data-stream-id=\"{id}\" href=\""
        ));
        escape_attr(
            &mut html,
            &format!("/#narrow/channel/{}", encode_stream(id, &name)),
        );
        html.push_str("\">#");
        escape_text(&mut html, &name);
        html.push_str("</a>");
        return Some(html);
    };
    let message = topic.rsplit_once('@').and_then(|(topic, id)| {
        (!id.is_empty() && id.len() <= 18 && id.bytes().all(|b| b.is_ascii_digit()))
            .then_some((topic, id))
    });
    let (id, name) = directory.stream(channel)?;
    let topic = message.map_or(topic, |(topic, _)| topic);
    let mut href = format!(
        "/#narrow/channel/{}/topic/{}",
        encode_stream(id, &name),
        encode_hash_component(topic)
    );
    match message {
        Some((_, message_id)) => {
            href.push_str(&format!("/near/{message_id}"));
            html.push_str("<a class=\"message-link\" href=\"");
        }
        None => html.push_str(&format!(
            "<a class=\"stream-topic\" data-stream-id=\"{id}\" href=\""
        )),
    }
    escape_attr(&mut html, &href);
    html.push_str("\">#");
    escape_text(&mut html, &name);
    html.push_str(" &gt; ");
    if topic.is_empty() {
        // Zulip's name for the empty topic.
        html.push_str("<em>general chat</em>");
    } else {
        escape_text(&mut html, topic);
    }
    if message.is_some() {
        html.push_str(" @ 💬");
    }
    html.push_str("</a>");
    Some(html)
}

/// `@**all**` (`everyone`, `channel`, `stream`) and `@**topic**`, Zulip's wildcards.
fn wildcard_html(name: &str, silent: bool) -> Option<String> {
    let (class, user_id) = match name {
        "all" | "everyone" | "channel" | "stream" => (
            "user-mention channel-wildcard-mention",
            " data-user-id=\"*\"",
        ),
        "topic" => ("topic-mention", ""),
        _ => return None,
    };
    let (silent_class, at) = if silent { (" silent", "") } else { ("", "@") };
    Some(format!(
        "<span class=\"{class}{silent_class}\"{user_id}>{at}{name}</span>"
    ))
}

/// Zulip's `encode_stream`: the id, then the name with spaces as dashes.
fn encode_stream(id: i64, name: &str) -> String {
    format!("{id}-{}", encode_hash_component(&name.replace(' ', "-")))
}

/// Zulip's `hash_util_encode`: Python's `quote(text, safe="")` (letters, digits and
/// `-_.~` kept), then `.` as `.2E` and `%` as `.`.
fn encode_hash_component(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!(".{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Org;

    impl Directory for Org {
        fn user(&self, name: &str, id: Option<i64>) -> Option<(i64, String)> {
            let known = [(8, "Ada Okafor"), (9, "Bruno <b>")];
            known
                .iter()
                .find(|(uid, full)| {
                    full.eq_ignore_ascii_case(name) && id.is_none_or(|id| id == *uid)
                })
                .map(|(uid, full)| (*uid, (*full).to_owned()))
        }

        fn stream(&self, name: &str) -> Option<(i64, String)> {
            if name.eq_ignore_ascii_case("general") {
                return Some((4, "general".to_owned()));
            }
            name.eq_ignore_ascii_case("design team")
                .then(|| (3, "Design team".to_owned()))
        }
    }

    const GENERAL: &str =
        "<a class=\"stream\" data-stream-id=\"4\" href=\"/#narrow/channel/4-general\">#general</a>";

    #[test]
    fn mentions_in_a_link_destination_stay_source_text() {
        assert_eq!(
            render_with_mentions("[x](#**general**)", &Org),
            "<p><a href=\"#**general**\">x</a></p>"
        );
        assert_eq!(
            render_with_mentions("[x](<https://a.org/@**Ada Okafor**>) #**general**", &Org),
            format!("<p><a href=\"https://a.org/@**Ada Okafor**\">x</a> {GENERAL}</p>")
        );
        // Image syntax is text in Zulip: its mentions are text too, never attributes.
        let html = render_with_mentions("![#**general**](https://a.org/#**general**)", &Org);
        assert!(!html.contains("href=\"https://a.org/<"), "{html}");
    }

    #[test]
    fn mentions_in_code_and_fence_languages_stay_source_text() {
        assert_eq!(
            render_with_mentions("> ```#**general**\n> x\n> ```", &Org),
            "<blockquote>\n<div class=\"codehilite\" data-code-language=\"#**general**\">\
             <pre><span></span><code>x\n</code></pre></div>\n</blockquote>"
        );
        assert_eq!(
            render_with_mentions("    #**general**", &Org),
            "<div class=\"codehilite\"><pre><span></span><code>#**general**\n</code></pre></div>"
        );
        assert_eq!(
            render_with_mentions("``` \n@**Ada Okafor**\n```", &Org),
            "<div class=\"codehilite\"><pre><span></span><code>@**Ada Okafor**\n</code></pre></div>"
        );
    }

    #[test]
    fn mentions_inside_quote_blocks_resolve() {
        assert_eq!(
            render_with_mentions("```quote\n#**general**\n```", &Org),
            format!("<blockquote>\n<p>{GENERAL}</p>\n</blockquote>")
        );
    }

    #[test]
    fn a_channel_link_inside_link_text_is_not_nested() {
        assert_eq!(
            render_with_mentions("[see #**general**](https://a.org)", &Org),
            "<p><a href=\"https://a.org\">see #**general**</a></p>"
        );
    }

    /// Counts lookups, to show each distinct mention is looked up once.
    struct Counting(std::cell::Cell<usize>);

    impl Directory for Counting {
        fn user(&self, _: &str, _: Option<i64>) -> Option<(i64, String)> {
            None
        }

        fn stream(&self, name: &str) -> Option<(i64, String)> {
            self.0.set(self.0.get() + 1);
            Org.stream(name)
        }
    }

    /// 100,000 channel links: replacing each placeholder in the whole output, as this
    /// module once did, would take minutes; one pass takes a moment.
    #[test]
    fn many_mentions_render_in_one_pass_with_one_lookup_each() {
        let count = 100_000;
        let source = "#**general** ".repeat(count);
        let directory = Counting(std::cell::Cell::new(0));
        let html = render_with_mentions(&source, &directory);
        assert_eq!(html.matches(GENERAL).count(), count);
        assert_eq!(directory.0.get(), 1);
    }

    #[test]
    fn user_mentions_become_zulips_spans() {
        assert_eq!(
            render_with_mentions("@**Ada Okafor|8** subscribed you", &Org),
            "<p><span class=\"user-mention\" data-user-id=\"8\">@Ada Okafor</span> subscribed you</p>"
        );
        assert_eq!(
            render_with_mentions("hi @_**ada okafor**", &Org),
            "<p>hi <span class=\"user-mention silent\" data-user-id=\"8\">Ada Okafor</span></p>"
        );
    }

    #[test]
    fn channel_links_point_at_the_narrow() {
        assert_eq!(
            render_with_mentions("* #**design team**", &Org),
            "<ul>\n<li><a class=\"stream\" data-stream-id=\"3\" href=\"/#narrow/channel/3-Design-team\">#Design team</a></li>\n</ul>"
        );
    }

    #[test]
    fn unknown_names_ids_that_do_not_match_and_code_stay_as_written() {
        assert_eq!(
            render_with_mentions("#**nope**", &Org),
            "<p>#<strong>nope</strong></p>"
        );
        assert_eq!(
            render_with_mentions("@**Ada Okafor|9**", &Org),
            "<p>@<strong>Ada Okafor|9</strong></p>"
        );
        assert_eq!(
            render_with_mentions("`@**Ada Okafor**`", &Org),
            "<p><code>@**Ada Okafor**</code></p>"
        );
    }

    #[test]
    fn topic_and_message_links_and_wildcards_are_zulips() {
        assert_eq!(
            render_with_mentions("#**general>Café talk!**", &Org),
            "<p><a class=\"stream-topic\" data-stream-id=\"4\" \
             href=\"/#narrow/channel/4-general/topic/Caf.C3.A9.20talk.21\">#general &gt; \
             Café talk!</a></p>"
        );
        assert_eq!(
            render_with_mentions("#**general>t@42** #**general>**", &Org),
            "<p><a class=\"message-link\" href=\"/#narrow/channel/4-general/topic/t/near/42\">\
             #general &gt; t @ 💬</a> <a class=\"stream-topic\" data-stream-id=\"4\" \
             href=\"/#narrow/channel/4-general/topic/\">#general &gt; <em>general chat</em></a></p>"
        );
        assert_eq!(
            render_with_mentions("@**all** @_**topic**", &Org),
            "<p><span class=\"user-mention channel-wildcard-mention\" data-user-id=\"*\">@all</span> \
             <span class=\"topic-mention silent\">topic</span></p>"
        );
    }

    #[test]
    fn mentions_need_a_boundary_before_them() {
        assert_eq!(
            render_with_mentions("a@**Ada Okafor** (@**Ada Okafor**)", &Org),
            "<p>a@<strong>Ada Okafor</strong> (<span class=\"user-mention\" data-user-id=\"8\">\
             @Ada Okafor</span>)</p>"
        );
    }

    #[test]
    fn links_into_the_organization_become_relative() {
        struct Realm;
        impl Directory for Realm {
            fn user(&self, _: &str, _: Option<i64>) -> Option<(i64, String)> {
                None
            }
            fn stream(&self, _: &str) -> Option<(i64, String)> {
                None
            }
            fn realm_url(&self) -> Option<String> {
                Some("https://chat.example.com".to_owned())
            }
        }
        assert_eq!(
            render_with_mentions(
                "[a](https://chat.example.com/#narrow/channel/1) \
                 https://chat.example.com/user_uploads/2/x.png \
                 https://chat.example.com/help",
                &Realm
            ),
            "<p><a href=\"#narrow/channel/1\">a</a> <a href=\"user_uploads/2/x.png\">\
             https://chat.example.com/user_uploads/2/x.png</a> \
             <a href=\"https://chat.example.com/help\">https://chat.example.com/help</a></p>"
        );
    }

    #[test]
    fn names_are_escaped() {
        let html = render_with_mentions("@**Bruno <b>**", &Org);
        assert!(html.contains("@Bruno &lt;b&gt;</span>"), "{html}");
    }

    #[test]
    fn placeholder_characters_in_the_source_disable_mentions() {
        let html = render_with_mentions("\u{E000}0\u{E001} @**Ada Okafor**", &Org);
        assert!(!html.contains("user-mention"), "{html}");
    }
}
