//! Wuzi (五子): a Gomoku / Renju engine for the Gomocup pbrain protocol.
//!
//! Layers, each reaching only down: [`types`] (sides, rules, cells, pattern
//! and threat names), [`board`] (stones, line patterns, threat classes),
//! [`rules`] (renju's forbidden points), [`eval`],
//! [`search`] (alpha-beta, hash table, time), [`levels`] (weaker players for
//! `INFO strength`), [`protocol`] (the pbrain session) and [`cli`] (the
//! terminal game, position analysis and developer commands).

pub mod board;
pub mod cli;
pub mod eval;
pub mod levels;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod types;
