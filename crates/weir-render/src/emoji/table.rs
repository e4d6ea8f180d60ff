//! Zulip's emoji name table (`data/zulip-emoji/emoji_names.py`, see its README),
//! embedded in the binary and read once, on first use, into two hash maps.
//!
//! Reading it costs a few milliseconds once per process (3.3 ms measured in an
//! unoptimized test build, see `loading_is_cheap`), so a build script generating a
//! static map would buy nothing worth its complexity.

use std::collections::HashMap;
use std::sync::OnceLock;

/// The upstream file, byte-exact.
const SOURCE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/data/zulip-emoji/emoji_names.py"
));

/// Zulip's names: every canonical name and alias, and each code's canonical name.
pub(super) struct Table {
    by_name: HashMap<&'static str, &'static str>,
    by_code: HashMap<&'static str, &'static str>,
}

impl Table {
    /// The emoji code (`1f642`, `1f937-200d-2640`) a typed name stands for.
    pub(super) fn code(&self, name: &str) -> Option<&'static str> {
        self.by_name.get(name).copied()
    }

    /// The canonical name of the emoji with this code.
    pub(super) fn canonical_name(&self, code: &str) -> Option<&'static str> {
        self.by_code.get(code).copied()
    }

    /// Every `(name, code)` pair, canonical names and aliases alike.
    #[cfg(test)]
    pub(super) fn names(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        self.by_name.iter().map(|(name, code)| (*name, *code))
    }

    #[cfg(test)]
    pub(super) fn emoji_count(&self) -> usize {
        self.by_code.len()
    }
}

/// The table, read on first use.
pub(super) fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| parse(SOURCE))
}

/// Reads the entries, `"CODE": {"canonical_name": "NAME", "aliases": [...]}`, some
/// spread over several lines. Each ends at a `}`, and no string in the file holds a
/// quote, a brace or a backslash, so splitting at braces and then at quotes is exact;
/// pieces of another shape (the header, the closing brace) are skipped.
fn parse(source: &'static str) -> Table {
    let mut by_name = HashMap::with_capacity(3_000);
    let mut by_code = HashMap::with_capacity(2_000);
    for entry in source.split('}') {
        let strings: Vec<&'static str> = entry.split('"').skip(1).step_by(2).collect();
        if let [code, "canonical_name", canonical, "aliases", aliases @ ..] = &strings[..] {
            by_code.insert(*code, *canonical);
            by_name.insert(*canonical, *code);
            for alias in aliases {
                by_name.insert(*alias, *code);
            }
        }
    }
    Table { by_name, by_code }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_table_is_read() {
        let table = table();
        assert_eq!(table.emoji_count(), 1_847);
        assert_eq!(table.names().count(), 2_956);
    }

    #[test]
    fn names_aliases_and_codes() {
        let table = table();
        assert_eq!(table.code("smile"), Some("1f642"));
        assert_eq!(table.code("big_smile"), Some("1f604"));
        assert_eq!(table.code("c"), Some("00a9"));
        assert_eq!(table.code("woman_shrugging"), Some("1f937-200d-2640"));
        assert_eq!(table.canonical_name("1f4a9"), Some("poop"));
        assert_eq!(table.code("white_check_mark"), None);
        assert_eq!(table.canonical_name("1f604"), Some("big_smile"));
    }

    #[test]
    fn loading_is_cheap() {
        let started = std::time::Instant::now();
        let parsed = parse(SOURCE);
        let took = started.elapsed();
        // Reported, not asserted: timing depends on the machine.
        println!("parsed {} names in {took:?}", parsed.by_name.len());
        assert_eq!(parsed.by_name.len(), 2_956);
    }
}
