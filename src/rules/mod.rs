//! Judging moves under the rules: which cells a side may play, and renju's
//! forbidden points.

pub mod renju;

use crate::board::Board;
use crate::types::{Color, Pos, Threat};

/// Whether the side to move may play `pos` (renju's black: not forbidden).
#[inline]
pub fn is_allowed(board: &mut Board, pos: Pos, us: Color) -> bool {
    if !board.rule().has_forbidden(us) {
        return true;
    }
    match board.threat(pos, us) {
        Threat::Forbidden => false,
        Threat::MaybeForbidden => !renju::is_forbidden(board, pos),
        _ => true,
    }
}
