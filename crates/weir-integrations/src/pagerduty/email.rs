//! The user name Zulip takes from a V1 user's e-mail: the local part of the address as
//! Python's `email.headerregistry.Address(addr_spec=...)` parses it.

/// RFC 5322 `atext`, what a dot-atom is made of; Python's parser also takes non-ASCII
/// characters, which it refuses afterwards in a local part only.
fn is_atext(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || !c.is_ascii()
}

fn is_dot_atom(text: &str) -> bool {
    !text.is_empty()
        && text
            .split('.')
            .all(|atom| !atom.is_empty() && atom.chars().all(is_atext))
}

/// The local part of `address`, unquoted; `None` where Python's parser rejects the
/// address (no domain, a malformed or non-ASCII local part, trailing text).
pub(super) fn username(address: &str) -> Option<String> {
    let address = address.trim_matches([' ', '\t']);
    let (local, domain) = if let Some(quoted) = address.strip_prefix('"') {
        let mut local = String::new();
        let mut chars = quoted.char_indices();
        let end = loop {
            match chars.next()? {
                (_, '\\') => local.push(chars.next()?.1),
                (at, '"') => break at,
                (_, c) => local.push(c),
            }
        };
        if !local.is_ascii() {
            return None;
        }
        (local, quoted[end + 1..].strip_prefix('@')?)
    } else {
        let (local, domain) = address.split_once('@')?;
        if !is_dot_atom(local) {
            return None;
        }
        (local.to_owned(), domain)
    };
    let literal = domain
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .is_some_and(|inside| !inside.contains(['[', ']', '\\']));
    (local.is_ascii() && (literal || is_dot_atom(domain))).then_some(local)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_local_part_as_python_does() {
        assert_eq!(username("armooo@zulip.com").as_deref(), Some("armooo"));
        assert_eq!(
            username(" first.last+tag@x.example ").as_deref(),
            Some("first.last+tag")
        );
        assert_eq!(
            username("\"a b\\\"c\"@x.example").as_deref(),
            Some("a b\"c")
        );
        assert_eq!(username("someone@[192.0.2.1]").as_deref(), Some("someone"));
        for bad in [
            "nobody",
            "a..b@x",
            "@x",
            "a@",
            "a@b@c",
            "ünï@x.example",
            "a b@x",
        ] {
            assert_eq!(username(bad), None, "{bad}");
        }
    }
}
