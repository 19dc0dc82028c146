//! Judging moves under the rules: renju's forbidden points.

pub mod renju;
