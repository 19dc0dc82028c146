//! Wuzi (五子): a Gomoku / Renju engine for the Gomocup pbrain protocol.
//!
//! The crate is built in layers, lowest first; each uses only its own and
//! lower layers, never a higher one or a neighbour of its own level
//! (`tests/layers.rs` checks every `crate::` path under `src/`):
//!
//! 1. [`types`]: the shared vocabulary: [`types::Color`], [`types::Rule`]
//!    and [`types::FiveRule`], cells ([`types::Pos`] on the padded array),
//!    and line patterns and threat classes by name.
//! 2. [`eval`]: the evaluation: pattern codes, the tables they index (a
//!    code's worth and its move-policy score, per rule and colour), the
//!    formula on the two sides' table sums, and the fitter of the tables.
//! 3. [`board`]: stones with line patterns, threat classes, pattern codes
//!    and table sums (from [`eval`]) and the Zobrist hash, all kept up to
//!    date move by move.
//! 4. [`rules`]: which moves a side may play: renju's forbidden points.
//! 5. [`search`]: the threat solvers (VCF, VCT), alpha-beta with iterative
//!    deepening, move generation, hash table, time, the `n` best moves.
//! 6. [`levels`]: weaker players for `INFO strength`.
//! 7. [`protocol`]: the pbrain session: command parsing, the state machine,
//!    the I/O loop.
//! 8. [`cli`]: the terminal game, position analysis and the developer
//!    commands (bench, openings, tune).
//! 9. [`web`]: the board in the browser (`gui`): a server with its page
//!    embedded, built on [`cli`]'s game referee, records and engine driver.
//!
//! The binary (`src/main.rs`) sits on top and starts the protocol or a
//! command.

pub mod board;
pub mod cli;
pub mod eval;
pub mod levels;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod types;
pub mod web;
