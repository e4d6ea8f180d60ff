//! Zulip's emoticon translation (`:)` → `:smile:`), a per-user setting
//! (`translate_emoticons`) applied when that user's messages are rendered.
//!
//! The renderer's text hook has no room for options, so the setting travels in a
//! thread-local for the duration of one (synchronous) rendering: see
//! [`with_emoticons`].

use std::cell::Cell;

/// Zulip's `EMOTICON_CONVERSIONS`, in its order (the first that fits wins).
const CONVERSIONS: &[(&str, &str)] = &[
    (":)", "smile"),
    ("(:", "smile"),
    (":(", "frown"),
    ("<3", "heart"),
    (":|", "neutral"),
    (":/", "confused"),
    (";)", "wink"),
    (":D", "grinning"),
    (":o", "open_mouth"),
    (":O", "open_mouth"),
    (":p", "stuck_out_tongue"),
    (":P", "stuck_out_tongue"),
];

/// An emoticon stands alone: between these characters or the ends of its text.
fn is_terminal(c: char) -> bool {
    matches!(
        c,
        ',' | '.' | ';' | '?' | '!' | '(' | ')' | '[' | ']' | ' ' | '"' | '\'' | '\n' | '\t'
    )
}

thread_local! {
    static TRANSLATE: Cell<bool> = const { Cell::new(false) };
}

/// Restores the previous setting even if rendering unwinds.
struct Restore(bool);

impl Drop for Restore {
    fn drop(&mut self) {
        TRANSLATE.with(|translate| translate.set(self.0));
    }
}

/// Runs `render` with emoticon translation on or off.
pub(crate) fn with_emoticons<R>(translate: bool, render: impl FnOnce() -> R) -> R {
    let _restore = Restore(TRANSLATE.with(|cell| cell.replace(translate)));
    render()
}

/// Whether the rendering under way translates emoticons.
pub(super) fn enabled() -> bool {
    TRANSLATE.with(Cell::get)
}

/// The first emoticon in `text`: its byte range and emoji name. `open_start` and
/// `open_end` say whether the text's ends count as boundaries (they do not where an
/// emoji span or other markup touches them, as in Zulip).
pub(super) fn find(
    text: &str,
    open_start: bool,
    open_end: bool,
) -> Option<(usize, usize, &'static str)> {
    let mut previous: Option<char> = None;
    for (at, c) in text.char_indices() {
        let boundary_before = match previous {
            None => open_start,
            Some(p) => is_terminal(p),
        };
        previous = Some(c);
        if !boundary_before || !matches!(c, ':' | '(' | '<' | ';') {
            continue;
        }
        let rest = &text[at..];
        for (emoticon, name) in CONVERSIONS {
            if !rest.starts_with(emoticon) {
                continue;
            }
            let end = at + emoticon.len();
            let boundary_after = text[end..].chars().next().map_or(open_end, is_terminal);
            if boundary_after {
                return Some((at, end, name));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emoticons_need_boundaries() {
        assert_eq!(find(":)", true, true), Some((0, 2, "smile")));
        assert_eq!(find("a:) ;)b", true, true), None);
        assert_eq!(find("!:)?", true, true), Some((1, 3, "smile")));
        assert_eq!(find("x <3", true, true), Some((2, 4, "heart")));
        assert_eq!(find(":)", false, true), None);
        assert_eq!(find(":)", true, false), None);
    }

    #[test]
    fn first_listed_emoticon_wins() {
        // `(:` starts at 0, before `:)` at 1.
        assert_eq!(find("(:)", true, true), Some((0, 2, "smile")));
        assert_eq!(find(":P :p", true, true), Some((0, 2, "stuck_out_tongue")));
    }

    #[test]
    fn the_setting_is_scoped() {
        assert!(!enabled());
        let inside = with_emoticons(true, enabled);
        assert!(inside);
        assert!(!enabled());
    }
}
