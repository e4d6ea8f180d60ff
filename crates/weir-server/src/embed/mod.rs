//! Running the server: inside another program ([`local`], as the desktop app does) or as
//! the `weir-server` command line (`cli`, feature `cli`), over a private data dir
//! ([`data_dir`]) that starts with the demo organization (`demo`) or a seed.

#[cfg(feature = "cli")]
pub mod cli;
pub mod data_dir;
pub(crate) mod demo;
pub mod local;
