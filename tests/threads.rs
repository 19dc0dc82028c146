//! Lazy SMP: several threads search one position and share the table. The
//! tests switch the root solvers off and check that every helper thread
//! searched nodes, so they test the threads, not the solvers.

mod common;

use common::board::search_with;
use wuzi::board::Board;
use wuzi::search::{SearchResult, MATE_BOUND};
use wuzi::types::{Color, Rule};

/// Black's (7,7) makes two open threes, row 7 and column 7; white has no four
/// to answer with, so it wins (the same diagram as the tactical suite's
/// `double_three_wins_in_freestyle`). The root VCT solver proves it at once,
/// so the tests of the threads switch the root solvers off.
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

/// A fixed-depth search with `threads` threads. `root_solvers` false sends
/// every position, won or not, to the threaded alpha-beta.
fn search(board: &Board, threads: usize, depth: i32, root_solvers: bool) -> SearchResult {
    search_with(board, depth, 0, |searcher| {
        searcher.threads(threads).root_solvers(root_solvers)
    })
}

/// Asserts that the alpha-beta ran on `threads` threads and that every one
/// of them, helpers included, searched nodes.
fn assert_every_thread_searched(result: &SearchResult, threads: usize) {
    assert_eq!(
        result.thread_nodes.len(),
        threads,
        "threads that searched: {:?}",
        result.thread_nodes
    );
    assert!(
        result.thread_nodes.iter().all(|&n| n > 0),
        "nodes per thread: {:?}",
        result.thread_nodes
    );
}

fn three_three() -> Board {
    Board::from_diagram(Rule::Freestyle, Color::Black, THREE_THREE)
        .unwrap()
        .0
}

#[test]
fn the_root_solvers_decide_the_won_position_before_any_thread() {
    // Why the tests below switch the solvers off: on, the root VCT proves
    // the win and no alpha-beta thread starts.
    let result = search(&three_three(), 4, 7, true);
    assert!(result.score > MATE_BOUND, "score {}", result.score_text());
    assert!(result.thread_nodes.is_empty(), "{:?}", result.thread_nodes);
}

#[test]
fn four_threads_find_the_double_three_win() {
    let board = three_three();
    let result = search(&board, 4, 7, false);
    assert!(result.score > MATE_BOUND, "score {}", result.score_text());
    assert_every_thread_searched(&result, 4);
    let first = result.pv.first().copied();
    assert_eq!(result.best, first);
    // Any winning first move will do; the three-three point is one of them.
    assert!(result.best.is_some_and(|b| board.is_empty(b)));
}

#[test]
fn threads_agree_with_one_thread_on_a_won_position() {
    let board = three_three();
    let one = search(&board, 1, 7, false);
    let two = search(&board, 2, 7, false);
    assert!(one.score > MATE_BOUND, "one thread: {}", one.score_text());
    assert!(two.score > MATE_BOUND, "two threads: {}", two.score_text());
    assert_every_thread_searched(&one, 1);
    assert_every_thread_searched(&two, 2);
}

#[test]
fn threads_search_an_open_position_and_stop() {
    let board = Board::from_moves(Rule::Freestyle, 15, "7,7 8,8 8,6 6,8").unwrap();
    let result = search_with(&board, 6, 0, |searcher| {
        searcher.threads(2).root_solvers(false).safety_check(false)
    });
    let best = result.best.expect("a move");
    assert!(board.is_empty(best));
    assert_eq!(result.depth, 6);
    assert_every_thread_searched(&result, 2);
    // With the solvers and the safety check off, every node is a thread's.
    assert_eq!(result.nodes, result.thread_nodes.iter().sum::<u64>());
}
