//! Zulip's shared message templates for version-control integrations
//! (`zerver/lib/webhooks/git.py`), reproduced to the character.
//!
//! Integrations gather the facts from their payloads; these functions word them. Like
//! Zulip, they insert payload text as it comes (Markdown included): the server escapes
//! HTML when rendering.

use std::collections::BTreeMap;

/// How many commits a push message lists (`COMMITS_LIMIT`).
pub const COMMITS_LIMIT: usize = 20;
/// How many committers a push message names before "others" (`PUSH_COMMITTERS_LIMIT_INFO`).
pub const PUSH_COMMITTERS_LIMIT: usize = 3;

/// `TOPIC_WITH_BRANCH_TEMPLATE`: `{repo} / {branch}`.
pub fn topic_with_branch(repo: &str, branch: &str) -> String {
    format!("{repo} / {branch}")
}

/// `TOPIC_WITH_PR_OR_ISSUE_INFO_TEMPLATE`: `{repo} / {type} #{id} {title}`.
pub fn topic_with_pr_or_issue(repo: &str, kind: &str, id: i64, title: &str) -> String {
    format!("{repo} / {kind} #{id} {title}")
}

/// `TOPIC_WITH_RELEASE_TEMPLATE`: `{repo} / {tag} {title}`.
pub fn topic_with_release(repo: &str, tag: &str, title: &str) -> String {
    format!("{repo} / {tag} {title}")
}

/// One commit of a push, as Zulip's `commits_data` entries.
#[derive(Debug, Clone, PartialEq)]
pub struct Commit<'a> {
    /// Who wrote it; counted for "Commits by …".
    pub name: String,
    pub sha: &'a str,
    pub url: &'a str,
    pub message: &'a str,
}

/// A push of commits to a branch (`get_push_commits_event_message`).
#[derive(Debug, Clone, Copy)]
pub struct Push<'a> {
    pub user_name: &'a str,
    /// Where the pushed range can be seen; `None` (or empty) leaves `pushed` unlinked.
    pub compare_url: Option<&'a str>,
    pub branch_name: &'a str,
    pub commits: &'a [Commit<'a>],
    /// The service sent only part of the commits (`[and more commit(s)]`).
    pub is_truncated: bool,
    pub deleted: bool,
    pub force_push: bool,
}

pub fn push_commits_message(push: &Push<'_>) -> String {
    let user_name = push.user_name;
    let branch_name = push.branch_name;
    let compare_url = push.compare_url.filter(|url| !url.is_empty());
    if push.commits.is_empty() && push.deleted {
        let compare_url = compare_url.unwrap_or("None");
        return format!("{user_name} [deleted]({compare_url}) the branch {branch_name}.");
    }
    let push_type = if push.force_push {
        "force pushed"
    } else {
        "pushed"
    };
    if push.commits.is_empty() {
        return match compare_url {
            Some(url) => format!("{user_name} [{push_type}]({url}) the branch {branch_name}."),
            None => format!("{user_name} {push_type} the branch {branch_name}."),
        };
    }
    let count = push.commits.len();
    let commit_or_commits = if count > 1 { "commits" } else { "commit" };
    let pushed_text = match compare_url {
        Some(url) => format!("[{push_type}]({url}) {count} {commit_or_commits}"),
        None => format!("{push_type} {count} {commit_or_commits}"),
    };
    let base_message = format!("{user_name} {pushed_text} to branch {branch_name}.");
    let commits_data = commits_content(push.commits, push.is_truncated);
    let committers = all_committers(push.commits);
    let message = match committers.as_slice() {
        [(only, _)] if only == user_name => format!("{base_message}\n\n{commits_data}\n"),
        _ => {
            let mut details = String::new();
            let last = committers.len().saturating_sub(1);
            for (index, (name, number)) in committers.iter().enumerate() {
                let separator = match index {
                    0 => "",
                    _ if index == last => " and ",
                    _ => ", ",
                };
                details.push_str(&format!("{separator}{name} ({number})"));
            }
            format!("{base_message} Commits by {details}.\n\n{commits_data}\n")
        }
    };
    rstrip(&message).to_owned()
}

/// `FORCE_PUSH_COMMITS_MESSAGE_TEMPLATE`.
pub fn force_push_message(user_name: &str, url: &str, branch_name: &str, head: &str) -> String {
    format!("{user_name} [force pushed]({url}) to branch {branch_name}. Head is now {head}.")
}

/// `REMOVE_BRANCH_MESSAGE_TEMPLATE`.
pub fn remove_branch_message(user_name: &str, branch_name: &str) -> String {
    format!("{user_name} deleted branch {branch_name}.")
}

/// `get_create_branch_event_message`: the branch linked when there is a URL.
pub fn create_branch_message(user_name: &str, url: Option<&str>, branch_name: &str) -> String {
    match url {
        Some(url) => format!("{user_name} created [{branch_name}]({url}) branch."),
        None => format!("{user_name} created {branch_name} branch."),
    }
}

/// `REMOVE_TAG_MESSAGE_TEMPLATE`.
pub fn remove_tag_message(user_name: &str, tag_name: &str) -> String {
    format!("{user_name} deleted tag {tag_name}.")
}

/// The arguments of `get_pull_request_event_message` (also used for issues, with
/// `kind: "issue"`).
#[derive(Debug, Clone, Copy, Default)]
pub struct PullRequestEvent<'a> {
    pub user_name: &'a str,
    pub action: &'a str,
    pub url: &'a str,
    pub number: Option<i64>,
    pub target_branch: Option<&'a str>,
    pub base_branch: Option<&'a str>,
    /// Quoted under the first line (a description or a comment).
    pub message: Option<&'a str>,
    pub assignee: Option<&'a str>,
    pub assignees: &'a [&'a str],
    /// Who was (un)assigned, for the actions `assigned` and `unassigned`.
    pub assignee_updated: Option<&'a str>,
    pub reviewer: Option<&'a str>,
    /// `PR`, `MR` or `issue`.
    pub kind: &'a str,
    /// Put in the link text; Zulip does so when the user chose the topic.
    pub title: Option<&'a str>,
}

pub fn pull_request_message(event: &PullRequestEvent<'_>) -> String {
    let action = match event.action {
        "approval" => "added their approval for",
        "unapproval" => "removed their approval for",
        other => other,
    };
    let assignee_part = match event.action {
        "assigned" => format!(" {} to", event.assignee_updated.unwrap_or("None")),
        "unassigned" => format!(" {} from", event.assignee_updated.unwrap_or("None")),
        _ => String::new(),
    };
    let id = event
        .number
        .map(|number| format!(" #{number}"))
        .unwrap_or_default();
    let title = event
        .title
        .map(|title| format!(" {title}"))
        .unwrap_or_default();
    let mut message = format!(
        "{user} {action}{assignee_part} [{kind}{id}{title}]({url})",
        user = event.user_name,
        kind = event.kind,
        url = event.url,
    );
    let branches = match (event.target_branch, event.base_branch) {
        (Some(target), Some(base)) if !target.is_empty() && !base.is_empty() => {
            message.push_str(&format!(" from `{target}` to `{base}`"));
            true
        }
        _ => false,
    };
    let assignee = event.assignee.filter(|assignee| !assignee.is_empty());
    if !event.assignees.is_empty() {
        let names = match event.assignees {
            [only] => (*only).to_owned(),
            [first @ .., last] => format!("{} and {last}", first.join(", ")),
            [] => String::new(),
        };
        message.push_str(&format!(" (assigned to {names})"));
    } else if let Some(assignee) = assignee {
        message.push_str(&format!(" (assigned to {assignee})"));
    } else if let Some(reviewer) = event.reviewer.filter(|reviewer| !reviewer.is_empty()) {
        message.push_str(&format!(" (assigned reviewers: {reviewer})"));
    }
    let body = event.message.filter(|body| !body.is_empty());
    let punctuated = !event.assignees.is_empty()
        || assignee.is_some()
        || branches
        || event
            .title
            .is_none_or(|title| !ends_with_punctuation(title));
    if punctuated {
        message.push(if body.is_some() { ':' } else { '.' });
    }
    if let Some(body) = body {
        message.push('\n');
        message.push_str(&quote(body));
    }
    rstrip(&message).to_owned()
}

/// `get_issue_event_message`: the pull request wording with type `issue`.
pub fn issue_message(event: &PullRequestEvent<'_>) -> String {
    pull_request_message(&PullRequestEvent {
        kind: "issue",
        ..*event
    })
}

/// `get_push_tag_event_message`.
pub fn push_tag_message(
    user_name: &str,
    tag_name: &str,
    tag_url: Option<&str>,
    action: &str,
) -> String {
    let tag = match tag_url.filter(|url| !url.is_empty()) {
        Some(url) => format!("[{tag_name}]({url})"),
        None => tag_name.to_owned(),
    };
    let mut message = format!("{user_name} {action} tag {tag}");
    if !ends_with_punctuation(tag_name) {
        message.push('.');
    }
    message
}

/// `get_commits_comment_action_message`.
pub fn commits_comment_action_message(
    user_name: &str,
    action: &str,
    commit_url: &str,
    sha: &str,
    message: Option<&str>,
) -> String {
    let sha = short_sha(sha);
    let mut content = format!("{user_name} {action} on [{sha}]({commit_url})");
    match message.filter(|message| !message.is_empty()) {
        Some(message) => {
            content.push(':');
            content.push_str(&quote(message));
        }
        None => content.push('.'),
    }
    content
}

/// `get_issue_labeled_or_unlabeled_event_message`: `action` is `added` or `removed`.
pub fn issue_labeled_or_unlabeled_message(
    user_name: &str,
    user_url: &str,
    action: &str,
    label_name: &str,
    url: &str,
    number: i64,
    title: Option<&str>,
) -> String {
    let preposition = if action == "added" { "to" } else { "from" };
    let title = title.map(|title| format!(" {title}")).unwrap_or_default();
    format!(
        "[{user_name}]({user_url}) {action} the {label_name} label {preposition} \
         [Issue #{number}{title}]({url})."
    )
}

/// A milestone added to or removed from an issue
/// (`get_issue_milestoned_or_demilestoned_event_message`).
#[derive(Debug, Clone, Copy)]
pub struct IssueMilestoneEvent<'a> {
    pub user_name: &'a str,
    pub user_url: &'a str,
    /// `added` or `removed`.
    pub action: &'a str,
    pub milestone_name: &'a str,
    pub milestone_url: &'a str,
    pub url: &'a str,
    pub number: i64,
    pub title: Option<&'a str>,
}

pub fn issue_milestoned_or_demilestoned_message(event: &IssueMilestoneEvent<'_>) -> String {
    let preposition = if event.action == "added" {
        "to"
    } else {
        "from"
    };
    let title = event
        .title
        .map(|title| format!(" {title}"))
        .unwrap_or_default();
    format!(
        "[{user}]({user_url}) {action} milestone [{milestone}]({milestone_url}) {preposition} \
         [issue #{number}{title}]({url}).",
        user = event.user_name,
        user_url = event.user_url,
        action = event.action,
        milestone = event.milestone_name,
        milestone_url = event.milestone_url,
        number = event.number,
        url = event.url,
    )
}

/// `get_release_event_message` (`RELEASE_MESSAGE_TEMPLATE`).
pub fn release_message(
    user_name: &str,
    action: &str,
    tag_name: &str,
    release_name: &str,
    url: &str,
) -> String {
    format!("{user_name} {action} release [{release_name}]({url}) for tag {tag_name}.")
}

/// `RELEASE_MESSAGE_TEMPLATE_WITHOUT_USER_NAME`, or `..._WITHOUT_URL` when `url` is
/// `None`: `Release [v1](url) for tag v1 was created.`
pub fn release_message_without_user_name(
    release_name: &str,
    url: Option<&str>,
    tagname: &str,
    action: &str,
) -> String {
    let release = match url {
        Some(url) => format!("[{release_name}]({url})"),
        None => release_name.to_owned(),
    };
    format!("Release {release} for tag {tagname} was {action}.")
}

/// `get_commits_content`: a bullet per commit (first line of its message), at most
/// [`COMMITS_LIMIT`], then how many were left out.
pub fn commits_content(commits: &[Commit<'_>], is_truncated: bool) -> String {
    let mut content = String::new();
    for commit in commits.iter().take(COMMITS_LIMIT) {
        let first_line = commit.message.split('\n').next().unwrap_or_default();
        content.push_str(&format!(
            "* {first_line} ([{}]({}))\n",
            short_sha(commit.sha),
            commit.url
        ));
    }
    if commits.len() > COMMITS_LIMIT {
        let more = commits.len() - COMMITS_LIMIT;
        content.push_str(&format!("[and {more} more commit(s)]"));
    } else if is_truncated {
        content.push_str("[and more commit(s)]");
    }
    rstrip(&content).to_owned()
}

/// `get_short_sha`: the first 11 characters.
pub fn short_sha(sha: &str) -> &str {
    match sha.char_indices().nth(11) {
        Some((end, _)) => &sha[..end],
        None => sha,
    }
}

/// `is_branch_name_notifiable`: no `branches` option, or the branch is one of its
/// comma-separated names (each trimmed).
pub fn is_branch_name_notifiable(branch: &str, branches: Option<&str>) -> bool {
    branches.is_none_or(|branches| branches.split(',').any(|name| py_strip(name) == branch))
}

/// `CONTENT_MESSAGE_TEMPLATE`.
pub fn quote(message: &str) -> String {
    format!("\n~~~ quote\n{message}\n~~~")
}

/// `get_all_committers`: commit counts by author, most first (ties by name), the
/// authors after the first [`PUSH_COMMITTERS_LIMIT`] summed up as `others`.
fn all_committers(commits: &[Commit<'_>]) -> Vec<(String, usize)> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for commit in commits {
        *counts.entry(commit.name.as_str()).or_default() += 1;
    }
    let mut items: Vec<(String, usize)> = counts
        .into_iter()
        .map(|(name, count)| (name.to_owned(), count))
        .collect();
    items.sort_by(|(a_name, a_count), (b_name, b_count)| {
        b_count.cmp(a_count).then_with(|| a_name.cmp(b_name))
    });
    if items.len() > PUSH_COMMITTERS_LIMIT {
        let others = items[PUSH_COMMITTERS_LIMIT..]
            .iter()
            .map(|(_, count)| count)
            .sum();
        items.truncate(PUSH_COMMITTERS_LIMIT);
        items.push(("others".to_owned(), others));
    }
    items
}

/// Whether the last character is in Python's `string.punctuation` (ASCII punctuation).
pub fn ends_with_punctuation(text: &str) -> bool {
    text.chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_punctuation())
}

/// Python's `str.isspace`, which also counts the separators U+001C–U+001F.
pub fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.rstrip()`.
pub fn rstrip(text: &str) -> &str {
    text.trim_end_matches(is_py_space)
}

/// Python's `str.strip()`.
pub fn py_strip(text: &str) -> &str {
    text.trim_matches(is_py_space)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit(name: &str) -> Commit<'static> {
        Commit {
            name: name.to_owned(),
            sha: "0123456789abcdef0123456789abcdef01234567",
            url: "https://git.test/c",
            message: "Subject line\n\nBody",
        }
    }

    #[test]
    fn lists_at_most_twenty_commits() {
        let commits: Vec<_> = (0..23).map(|_| commit("Ada")).collect();
        let message = push_commits_message(&Push {
            user_name: "Ada",
            compare_url: Some("https://git.test/compare"),
            branch_name: "main",
            commits: &commits,
            is_truncated: false,
            deleted: false,
            force_push: false,
        });
        let row = "* Subject line ([0123456789a](https://git.test/c))\n";
        assert_eq!(
            message,
            format!(
                "Ada [pushed](https://git.test/compare) 23 commits to branch main.\n\n{}\
                 [and 3 more commit(s)]",
                row.repeat(20)
            )
        );
    }

    #[test]
    fn names_committers_by_count_then_name() {
        let names = ["Cy", "Bo", "Bo", "Al", "Al", "Di", "Ed", "Al"];
        let commits: Vec<_> = names.iter().map(|name| commit(name)).collect();
        let message = push_commits_message(&Push {
            user_name: "Al",
            compare_url: None,
            branch_name: "dev",
            commits: &commits,
            is_truncated: true,
            deleted: false,
            force_push: false,
        });
        let first = message.lines().next().unwrap_or_default();
        assert_eq!(
            first,
            "Al pushed 8 commits to branch dev. Commits by Al (3), Bo (2), Cy (1) and others (2)."
        );
        assert!(message.ends_with("))\n[and more commit(s)]"));
        let two: Vec<_> = ["Bo", "Al"].iter().map(|name| commit(name)).collect();
        let message = push_commits_message(&Push {
            commits: &two,
            ..Push {
                user_name: "Al",
                compare_url: None,
                branch_name: "dev",
                commits: &[],
                is_truncated: false,
                deleted: false,
                force_push: true,
            }
        });
        assert!(message.starts_with(
            "Al force pushed 2 commits to branch dev. Commits by Al (1) and Bo (1).\n\n"
        ));
    }

    #[test]
    fn words_branch_pushes_without_commits() {
        let push = Push {
            user_name: "Al",
            compare_url: Some("https://git.test/b"),
            branch_name: "x",
            commits: &[],
            is_truncated: false,
            deleted: true,
            force_push: false,
        };
        assert_eq!(
            push_commits_message(&push),
            "Al [deleted](https://git.test/b) the branch x."
        );
        let created = Push {
            deleted: false,
            ..push
        };
        assert_eq!(
            push_commits_message(&created),
            "Al [pushed](https://git.test/b) the branch x."
        );
        let unlinked = Push {
            compare_url: Some(""),
            ..created
        };
        assert_eq!(push_commits_message(&unlinked), "Al pushed the branch x.");
    }

    #[test]
    fn words_pull_request_events() {
        let event = PullRequestEvent {
            user_name: "Al",
            action: "assigned",
            url: "https://git.test/pr/1",
            number: Some(1),
            assignee_updated: Some("Bo"),
            kind: "PR",
            title: Some("Fix it!"),
            ..PullRequestEvent::default()
        };
        assert_eq!(
            pull_request_message(&event),
            "Al assigned Bo to [PR #1 Fix it!](https://git.test/pr/1)"
        );
        let event = PullRequestEvent {
            action: "opened",
            assignees: &["Bo", "Cy", "Di"],
            message: Some("Body  \n"),
            ..event
        };
        assert_eq!(
            pull_request_message(&event),
            "Al opened [PR #1 Fix it!](https://git.test/pr/1) (assigned to Bo, Cy and Di):\n\n\
             ~~~ quote\nBody  \n\n~~~"
        );
        let event = PullRequestEvent {
            action: "approval",
            assignees: &[],
            reviewer: Some("Cy"),
            message: None,
            title: None,
            ..event
        };
        assert_eq!(
            issue_message(&event),
            "Al added their approval for [issue #1](https://git.test/pr/1) (assigned reviewers: Cy)."
        );
    }

    #[test]
    fn words_labels_milestones_and_releases() {
        assert_eq!(
            issue_labeled_or_unlabeled_message(
                "Al",
                "https://u",
                "removed",
                "bug",
                "https://i",
                9,
                None
            ),
            "[Al](https://u) removed the bug label from [Issue #9](https://i)."
        );
        assert_eq!(
            issue_labeled_or_unlabeled_message(
                "Al",
                "https://u",
                "added",
                "bug",
                "https://i",
                9,
                Some("T")
            ),
            "[Al](https://u) added the bug label to [Issue #9 T](https://i)."
        );
        let event = IssueMilestoneEvent {
            user_name: "Al",
            user_url: "https://u",
            action: "added",
            milestone_name: "v2",
            milestone_url: "https://m",
            url: "https://i",
            number: 6,
            title: Some("T"),
        };
        assert_eq!(
            issue_milestoned_or_demilestoned_message(&event),
            "[Al](https://u) added milestone [v2](https://m) to [issue #6 T](https://i)."
        );
        let removed = IssueMilestoneEvent {
            action: "removed",
            title: None,
            ..event
        };
        assert_eq!(
            issue_milestoned_or_demilestoned_message(&removed),
            "[Al](https://u) removed milestone [v2](https://m) from [issue #6](https://i)."
        );
        assert_eq!(
            release_message("Al", "published", "v1", "One", "https://r"),
            "Al published release [One](https://r) for tag v1."
        );
    }

    #[test]
    fn words_branches_tags_and_releases() {
        assert_eq!(
            create_branch_message("Al", Some("https://git.test/src/x"), "x"),
            "Al created [x](https://git.test/src/x) branch."
        );
        assert_eq!(
            create_branch_message("Al", None, "x"),
            "Al created x branch."
        );
        assert_eq!(remove_tag_message("Al", "`v1`"), "Al deleted tag `v1`.");
        assert_eq!(
            release_message("Al", "published", "v1", "One", "https://git.test/r"),
            "Al published release [One](https://git.test/r) for tag v1."
        );
        assert_eq!(topic_with_release("repo", "v1", "One"), "repo / v1 One");
    }

    #[test]
    fn small_helpers_follow_python() {
        assert_eq!(short_sha("abc"), "abc");
        assert_eq!(short_sha("0123456789abcdef"), "0123456789a");
        assert!(is_branch_name_notifiable("main", None));
        assert!(is_branch_name_notifiable("main", Some("dev, main ")));
        assert!(!is_branch_name_notifiable("main", Some("mainline,dev")));
        assert!(!is_branch_name_notifiable("main", Some("")));
        assert_eq!(rstrip("a \n\u{1f}"), "a");
        assert_eq!(
            push_tag_message("Al", "v1.0!", Some("https://git.test/t"), "pushed"),
            "Al pushed tag [v1.0!](https://git.test/t)"
        );
        assert_eq!(
            push_tag_message("Al", "v1", None, "removed"),
            "Al removed tag v1."
        );
        assert_eq!(
            commits_comment_action_message("Al", "commented", "https://git.test/c", "abc", None),
            "Al commented on [abc](https://git.test/c)."
        );
    }
}
