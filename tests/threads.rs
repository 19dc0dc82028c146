//! Lazy SMP: several threads search one position and share the table.

use std::sync::atomic::AtomicBool;

use wuzi::board::Board;
use wuzi::search::tt::Tt;
use wuzi::search::{Limits, Searcher, MATE_BOUND};
use wuzi::types::{Color, Rule};

/// Black's (7,7) makes two open threes, row 7 and column 7; white has no four
/// to answer with, so it wins (the same diagram as the tactical suite's
/// `double_three_wins_in_freestyle`). There is no four on the board, so the
/// root VCF solver finds nothing and the threads' alpha-beta must find it.
const THREE_THREE: &str = "
        ...............
        ...............
        ...............
        ...............
        ...............
        .......X.......
        .......X.......
        .....XX........
        ...............
        ...............
        ...............
        ..O........O...
        ...............
        ...............
        ...............";

fn search(board: &Board, threads: usize, depth: i32) -> wuzi::search::SearchResult {
    let mut tt = Tt::new(8 << 20);
    let stop = AtomicBool::new(false);
    Searcher::new(board, &mut tt, &stop, Limits::depth(depth))
        .threads(threads)
        .run(None)
}

#[test]
fn four_threads_find_the_double_three_win() {
    let (board, _) = Board::from_diagram(Rule::Freestyle, Color::Black, THREE_THREE).unwrap();
    let result = search(&board, 4, 7);
    assert!(result.score > MATE_BOUND, "score {}", result.score_text());
    let first = result.pv.first().copied();
    assert_eq!(result.best, first);
    // Any winning first move will do; the three-three point is one of them.
    assert!(result.best.is_some_and(|b| board.is_empty(b)));
}

#[test]
fn threads_agree_with_one_thread_on_a_won_position() {
    let (board, _) = Board::from_diagram(Rule::Freestyle, Color::Black, THREE_THREE).unwrap();
    let one = search(&board, 1, 7);
    let two = search(&board, 2, 7);
    assert!(one.score > MATE_BOUND && two.score > MATE_BOUND);
}

#[test]
fn threads_search_an_open_position_and_stop() {
    let board = Board::from_moves(Rule::Freestyle, 15, "7,7 8,8 8,6 6,8").unwrap();
    let result = search(&board, 2, 6);
    let best = result.best.expect("a move");
    assert!(board.is_empty(best));
    assert_eq!(result.depth, 6);
    assert!(result.nodes > 0);
}
