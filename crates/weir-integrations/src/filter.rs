//! `only_events` / `exclude_events`: shell-style patterns over event types, as Zulip
//! matches them with Python's `fnmatch` (`*`, `?`, `[abc]`, `[a-c]`, `[!abc]`).
//!
//! Anyone holding a webhook URL chooses the patterns and the event header, so matching
//! must not backtrack: patterns are compiled once (runs of `*` collapsed) and matched
//! with one pointer into each, returning to the last `*` only, which is at worst
//! pattern × text steps. Lists, patterns and event types are capped on top of that.

/// Most patterns one list may hold.
pub const MAX_EVENT_PATTERNS: usize = 32;
/// Longest pattern, in characters.
pub const MAX_PATTERN_CHARS: usize = 128;

/// One step of a compiled pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Literal(char),
    /// `?`: any one character.
    Any,
    /// `*`: any run of characters (consecutive stars are one token).
    Star,
    /// `[...]`: one character in (or, negated, not in) the set.
    Class {
        negated: bool,
        items: Vec<ClassItem>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum ClassItem {
    One(char),
    Range(char, char),
}

impl Token {
    /// Whether this single-character token accepts `c` (`Star` is handled by the matcher).
    fn accepts(&self, c: char) -> bool {
        match self {
            Self::Literal(literal) => *literal == c,
            Self::Any => true,
            Self::Star => false,
            Self::Class { negated, items } => {
                let found = items.iter().any(|item| match item {
                    ClassItem::One(one) => *one == c,
                    ClassItem::Range(low, high) => (*low..=*high).contains(&c),
                });
                found != *negated
            }
        }
    }
}

/// A compiled shell pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern(Vec<Token>);

impl Pattern {
    pub fn new(pattern: &str) -> Self {
        let chars: Vec<char> = pattern.chars().collect();
        let mut tokens = Vec::with_capacity(chars.len());
        let mut index = 0;
        while let Some(&c) = chars.get(index) {
            index += 1;
            let token = match c {
                '*' if tokens.last() == Some(&Token::Star) => continue,
                '*' => Token::Star,
                '?' => Token::Any,
                '[' => match class(&chars[index..]) {
                    Some((token, used)) => {
                        index += used;
                        token
                    }
                    // No closing bracket: a literal `[`.
                    None => Token::Literal('['),
                },
                literal => Token::Literal(literal),
            };
            tokens.push(token);
        }
        Self(tokens)
    }

    /// Whether the whole of `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        let tokens = &self.0;
        let (mut at, mut pattern) = (0, 0);
        // After a mismatch, retry from the last `*`, letting it swallow one more character.
        let mut last_star: Option<(usize, usize)> = None;
        let text: Vec<char> = text.chars().collect();
        while let Some(&c) = text.get(at) {
            match tokens.get(pattern) {
                Some(Token::Star) => {
                    pattern += 1;
                    last_star = Some((pattern, at));
                }
                Some(token) if token.accepts(c) => {
                    pattern += 1;
                    at += 1;
                }
                _ => match last_star {
                    Some((after_star, swallowed_to)) => {
                        pattern = after_star;
                        at = swallowed_to + 1;
                        last_star = Some((after_star, at));
                    }
                    None => return false,
                },
            }
        }
        tokens[pattern..].iter().all(|token| *token == Token::Star)
    }
}

/// Parses the set after a `[`: `(token, characters used including the `]`)`, or `None`
/// when no `]` closes it. A `]` right after the `[` belongs to the set.
fn class(rest: &[char]) -> Option<(Token, usize)> {
    let close = rest.iter().skip(1).position(|c| *c == ']')? + 1;
    let set = &rest[..close];
    let (negated, set) = match set.split_first() {
        Some(('!', set)) => (true, set),
        _ => (false, set),
    };
    let mut items = Vec::new();
    let mut index = 0;
    while index < set.len() {
        if index + 2 < set.len() && set[index + 1] == '-' {
            items.push(ClassItem::Range(set[index], set[index + 2]));
            index += 3;
        } else {
            items.push(ClassItem::One(set[index]));
            index += 1;
        }
    }
    Some((Token::Class { negated, items }, close + 1))
}

/// Shell-style match of one pattern, compiled on the spot.
pub fn fnmatch(pattern: &str, text: &str) -> bool {
    Pattern::new(pattern).matches(text)
}

/// A pattern list the request's URL gave that the filter refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    #[error("Too many patterns in {parameter} (at most {MAX_EVENT_PATTERNS})")]
    TooManyPatterns { parameter: &'static str },
    #[error("A pattern in {parameter} is too long (at most {MAX_PATTERN_CHARS} characters)")]
    PatternTooLong { parameter: &'static str },
}

/// The URL's `only_events` and `exclude_events`, compiled.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventFilter {
    only: Option<Vec<Pattern>>,
    exclude: Option<Vec<Pattern>>,
}

impl EventFilter {
    /// Compiles both lists (absent lists filter nothing), refusing oversized ones.
    pub fn new(
        only_events: Option<&[String]>,
        exclude_events: Option<&[String]>,
    ) -> Result<Self, FilterError> {
        Ok(Self {
            only: compile(only_events, "only_events")?,
            exclude: compile(exclude_events, "exclude_events")?,
        })
    }

    /// Whether a request of this event type goes through: it matches `only_events` (when
    /// given) and does not match `exclude_events`.
    pub fn allows(&self, event: &str) -> bool {
        let any = |patterns: &Option<Vec<Pattern>>| {
            patterns
                .as_ref()
                .map(|patterns| patterns.iter().any(|pattern| pattern.matches(event)))
        };
        any(&self.only) != Some(false) && any(&self.exclude) != Some(true)
    }
}

fn compile(
    patterns: Option<&[String]>,
    parameter: &'static str,
) -> Result<Option<Vec<Pattern>>, FilterError> {
    let Some(patterns) = patterns else {
        return Ok(None);
    };
    if patterns.len() > MAX_EVENT_PATTERNS {
        return Err(FilterError::TooManyPatterns { parameter });
    }
    patterns
        .iter()
        .map(|pattern| {
            if pattern.chars().count() > MAX_PATTERN_CHARS {
                return Err(FilterError::PatternTooLong { parameter });
            }
            Ok(Pattern::new(pattern))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;

    #[test]
    fn fnmatch_follows_shell_rules() {
        assert!(fnmatch("repo:*", "repo:push"));
        assert!(fnmatch("pull?equest:*", "pullrequest:created"));
        assert!(fnmatch("[pr]*", "push") && !fnmatch("[!p]*", "push"));
        assert!(fnmatch("[a-c]x", "bx") && !fnmatch("[a-c]x", "dx"));
        assert!(!fnmatch("repo:push", "repo:pushed"));
        assert!(fnmatch("*", ""));
        assert!(fnmatch("[]]", "]") && fnmatch("[x", "[x") && !fnmatch("[x", "x"));
        assert!(fnmatch("a*b*c", "aXbYbZc") && !fnmatch("a*b*c", "aXbYbZ"));
        assert!(fnmatch("*:*ed", "issue:created") && !fnmatch("*:*ed", "issue:create"));
        assert!(fnmatch("**", "x") && fnmatch("a**", "a") && !fnmatch("?", ""));
        assert!(fnmatch("é?", "éa") && !fnmatch("?", "éa"));
    }

    /// Finding 2 of issue 11: `****b` against 200 characters backtracked for hours. Run
    /// on a thread so that a regression fails here instead of hanging the suite.
    #[test]
    fn stars_never_backtrack_exponentially() {
        let (done, finished) = mpsc::channel();
        std::thread::spawn(move || {
            let event = "a".repeat(200);
            let mut results = Vec::new();
            for stars in [4, 16, 64, MAX_PATTERN_CHARS - 1] {
                let pattern = format!("{}b", "*".repeat(stars));
                results.push(fnmatch(&pattern, &event));
                let alternating = format!("{}b", "*a".repeat(stars / 2));
                results.push(fnmatch(&alternating, &event));
            }
            let _ = done.send(results);
        });
        // A generous budget: each match is a few thousand steps.
        let results = finished.recv_timeout(Duration::from_secs(20));
        assert_eq!(results, Ok(vec![false; 8]));
    }

    #[test]
    fn filters_apply_only_then_exclude() {
        let list = |items: &[&str]| items.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let only = list(&["repo:*", "issue:created"]);
        let exclude = list(&["repo:fork"]);
        let filter = EventFilter::new(Some(&only), Some(&exclude)).unwrap();
        assert!(filter.allows("repo:push") && filter.allows("issue:created"));
        assert!(!filter.allows("repo:fork") && !filter.allows("issue:updated"));
        assert!(EventFilter::default().allows("anything"));
        let empty = EventFilter::new(Some(&[]), None).unwrap();
        assert!(
            !empty.allows("repo:push"),
            "an empty only_events lets nothing through"
        );
    }

    #[test]
    fn oversized_lists_are_refused() {
        let many = vec!["a".to_owned(); MAX_EVENT_PATTERNS + 1];
        assert_eq!(
            EventFilter::new(Some(&many), None),
            Err(FilterError::TooManyPatterns {
                parameter: "only_events"
            })
        );
        let long = vec!["*".repeat(MAX_PATTERN_CHARS + 1)];
        assert_eq!(
            EventFilter::new(None, Some(&long)),
            Err(FilterError::PatternTooLong {
                parameter: "exclude_events"
            })
        );
        let fits = vec!["*".repeat(MAX_PATTERN_CHARS); MAX_EVENT_PATTERNS];
        assert!(EventFilter::new(Some(&fits), Some(&fits)).is_ok());
    }
}
