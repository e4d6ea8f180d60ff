//! Zulip's rules, as pure functions over rows and strings, so that every endpoint applies
//! them alike: who may see a stream (`access`), who is in which group (`groups`, `group_graph`), valid names (`names`), the most one
//! request may ask for ([`limits`]), and API keys (`keys`).

pub(crate) mod access;
pub(crate) mod group_graph;
pub(crate) mod groups;
pub(crate) mod keys;
pub mod limits;
pub(crate) mod names;
