//! Zulip's user-group mentions: `@*group*` and silent `@_*group*`, found after the
//! people's `@**…**` (whose `**` they must not take).

use super::mentions::Directory;
use super::sanitize::escape_text;

/// The prefix of a group mention at the start of `text`, and whether it is silent.
fn prefix(text: &str) -> Option<(&'static str, bool)> {
    if text.starts_with("@_**") || text.starts_with("@**") {
        None
    } else if text.starts_with("@_*") {
        Some(("@_*", true))
    } else if text.starts_with("@*") {
        Some(("@*", false))
    } else {
        None
    }
}

/// How many bytes the group mention at the start of `text` spans, if it is one: the
/// name runs to the next `*` on the line (Zulip's `@(_?)\*([^\*]+)\*`).
pub(super) fn group_mention_len(text: &str) -> Option<usize> {
    let (prefix, _) = prefix(text)?;
    let inner_end = text[prefix.len()..].find('*')?;
    let inner = &text[prefix.len()..prefix.len() + inner_end];
    if inner.is_empty() || inner.contains('\n') {
        return None;
    }
    Some(prefix.len() + inner_end + 1)
}

/// `<span class="user-group-mention" data-user-group-id="ID">@name</span>` (silent: the
/// class `user-group-mention silent` and no `@`), if the name is a group's.
pub(super) fn group_mention_html(source: &str, directory: &dyn Directory) -> Option<String> {
    let (prefix, silent) = prefix(source)?;
    let inner = source.get(prefix.len()..source.len().checked_sub(1)?)?;
    // A deactivated group's mention is silent, as in Zulip's `UserGroupMentionPattern`.
    let ((group_id, name), silent) = match directory.group(inner) {
        Some(found) => (found, silent),
        None => (directory.deactivated_group(inner)?, true),
    };
    let class = if silent {
        "user-group-mention silent"
    } else {
        "user-group-mention"
    };
    let mut html = format!("<span class=\"{class}\" data-user-group-id=\"{group_id}\">");
    if !silent {
        html.push('@');
    }
    escape_text(&mut html, &name);
    html.push_str("</span>");
    Some(html)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render_with_mentions;

    struct Org;

    impl Directory for Org {
        fn user(&self, name: &str, _id: Option<i64>) -> Option<(i64, String)> {
            (name == "Ada").then(|| (8, "Ada".to_owned()))
        }

        fn stream(&self, _name: &str) -> Option<(i64, String)> {
            None
        }

        fn group(&self, name: &str) -> Option<(i64, String)> {
            name.eq_ignore_ascii_case("support <team>")
                .then(|| (12, "support <team>".to_owned()))
        }

        fn deactivated_group(&self, name: &str) -> Option<(i64, String)> {
            (name == "old").then(|| (13, "old".to_owned()))
        }
    }

    #[test]
    fn a_deactivated_groups_mention_is_silent() {
        assert_eq!(
            render_with_mentions("@*old* @_*old*", &Org),
            "<p><span class=\"user-group-mention silent\" data-user-group-id=\"13\">old</span> \
             <span class=\"user-group-mention silent\" data-user-group-id=\"13\">old</span></p>"
        );
    }

    #[test]
    fn quoted_group_mentions_are_silent() {
        assert_eq!(
            render_with_mentions(
                "> @*support <team>*\n\n```quote\n@*support <team>*\n```",
                &Org
            ),
            "<blockquote>\n<p><span class=\"user-group-mention silent\" data-user-group-id=\"12\">\
             support &lt;team&gt;</span></p>\n</blockquote>\n\
             <blockquote>\n<p><span class=\"user-group-mention silent\" data-user-group-id=\"12\">\
             support &lt;team&gt;</span></p>\n</blockquote>"
        );
    }

    #[test]
    fn group_mentions_render_as_zulip_does() {
        assert_eq!(
            render_with_mentions("hi @*support <team>*!", &Org),
            "<p>hi <span class=\"user-group-mention\" data-user-group-id=\"12\">\
             @support &lt;team&gt;</span>!</p>"
        );
        assert_eq!(
            render_with_mentions("@_*Support <Team>*", &Org),
            "<p><span class=\"user-group-mention silent\" data-user-group-id=\"12\">\
             support &lt;team&gt;</span></p>"
        );
    }

    #[test]
    fn unknown_groups_people_and_code_stay_as_they_are() {
        assert_eq!(
            render_with_mentions("@*nobody*", &Org),
            "<p>@<em>nobody</em></p>"
        );
        assert_eq!(
            render_with_mentions("@**Ada** and `@*support <team>*`", &Org),
            "<p><span class=\"user-mention\" data-user-id=\"8\">@Ada</span> and \
             <code>@*support &lt;team&gt;*</code></p>"
        );
    }
}
