//! Fuzzing the costly parts of rendering on stable Rust (proptest): hostile formulas
//! (macro bombs, deep nesting, long expansions) and hostile code blocks (deep brackets,
//! long lines), each message held by the harness to its time (0.5 s per formula, the
//! message's caps per code block, with margin for a busy debug build) and the process's
//! memory held to a bound however many formulas ran (the engine's heap is capped and
//! returned). Weir-server's `tests/fuzz.rs` covers rendering as a whole (safety of the
//! output, mentions).
//!
//! `PROPTEST_CASES=N` changes the number of generated cases per target.
#![allow(clippy::unwrap_used)]

#[path = "fuzz/math_code.rs"]
mod math_code;
// Only its `config` is used here.
#[allow(dead_code)]
#[path = "../../weir-integrations/tests/fuzz/support.rs"]
mod support;
