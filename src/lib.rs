//! Wuzi (五子): a Gomoku / Renju engine for the Gomocup pbrain protocol.
//!
//! Layers, each reaching only down: [`board`] (stones, line patterns, threat
//! classes), [`rules`] (winning rules and renju's forbidden points), [`eval`],
//! [`search`] (alpha-beta, hash table, time), [`levels`] (weaker players for
//! `INFO strength`), [`protocol`] (the pbrain session), and on top [`cli`]
//! (the terminal game, position analysis and developer commands) and
//! [`web`] (the board in the browser).

pub mod board;
pub mod cli;
pub mod eval;
pub mod levels;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod web;
