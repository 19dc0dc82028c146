//! `pbrain-wuzi bench`: fixed positions searched to a fixed depth in one
//! thread with a fixed table size. The node total and the signature change
//! only when search behaviour changes; nodes per second measure speed.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Result;

use super::engine::parse_depth;
use super::ParamArgs;
use crate::board::Board;
use crate::search::tt::Tt;
use crate::search::{Limits, Searcher};
use crate::types::{Pos, Rule};

/// Transposition table size used by `bench`, fixed so runs compare.
const BENCH_TT_BYTES: usize = 16 << 20;

/// Settings of `bench`.
#[derive(Debug, PartialEq, Eq, clap::Args)]
pub struct Options {
    /// Search depth
    #[arg(value_name = "DEPTH", default_value = "8", value_parser = parse_depth)]
    pub depth: i32,
    /// The search's parameters.
    #[command(flatten)]
    pub params: ParamArgs,
}

/// One bench position: rule, board size and the moves in play order.
struct BenchPosition {
    rule: Rule,
    size: usize,
    moves: &'static str,
}

const POSITIONS: &[BenchPosition] = &[
    BenchPosition { rule: Rule::Freestyle, size: 15, moves: "7,7 8,6 8,8 6,6 9,9" },
    BenchPosition { rule: Rule::Freestyle, size: 15, moves: "7,7 7,8 8,8 9,9 6,6 5,5 8,6" },
    // vcf-puzzles.txt, banbu-gomoku vcf-material item i=0.
    BenchPosition {
        rule: Rule::Freestyle,
        size: 15,
        moves: "3,7 3,1 4,2 3,2 4,3 3,5 4,6 4,4 5,2 5,3 5,4 6,3 5,5 6,4 5,7 6,6 6,5 7,3 7,2 7,4 7,7 7,5 8,3 8,2 8,4 8,7 8,6 9,4",
    },
    BenchPosition { rule: Rule::Freestyle, size: 20, moves: "10,10 11,10 9,11 10,12 11,12" },
    BenchPosition {
        rule: Rule::Freestyle,
        size: 20,
        moves: "5,9 5,3 6,4 5,4 6,5 5,7 6,8 6,6 7,4 7,5 7,6 8,5 7,7 8,6 7,9 8,8 8,7 9,5 9,4 9,6 9,9 9,7 10,5 10,4 10,6 10,9 10,8 11,6",
    },
    BenchPosition { rule: Rule::Standard, size: 15, moves: "7,7 8,8 6,8 8,6 8,7" },
    BenchPosition { rule: Rule::Standard, size: 15, moves: "7,7 6,8 8,8 6,6 6,7 5,7 9,9 10,10" },
    BenchPosition { rule: Rule::Renju, size: 15, moves: "7,7 7,6 8,8 6,6 9,6" },
    BenchPosition {
        rule: Rule::Renju,
        size: 15,
        moves: "2,10 3,9 4,10 4,7 5,8 4,9 6,7 4,11 6,9 5,7 6,10 5,10 6,11 6,8 7,7 7,6 7,9 7,8 8,6 8,9 8,8 9,7 8,11 9,12 9,9 10,8 10,7 10,9 10,11 10,10",
    },
    BenchPosition { rule: Rule::Caro, size: 15, moves: "7,7 8,7 8,8 6,6 9,9 10,10" },
    BenchPosition { rule: Rule::CaroExact, size: 15, moves: "7,7 7,8 6,6 8,8 5,5 4,4" },
    BenchPosition { rule: Rule::Freestyle, size: 20, moves: "9,9 10,10 10,9 8,9 11,8 12,7 9,10" },
];

/// Runs the bench at `options.depth` and prints one line per position and a
/// summary.
pub fn run(options: &Options) -> Result<()> {
    options.params.install()?;
    let depth = options.depth;
    let mut tt = Tt::new(BENCH_TT_BYTES);
    let stop = AtomicBool::new(false);
    let mut total_nodes = 0u64;
    let mut signature: u64 = 0xcbf2_9ce4_8422_2325;
    // Build every rule's pattern tables first (START does this once per
    // game), so the time below is search alone.
    for p in POSITIONS {
        Board::new(p.size, p.size, p.rule);
    }
    let started = Instant::now();
    for (i, p) in POSITIONS.iter().enumerate() {
        let board = Board::from_moves(p.rule, p.size, p.moves).map_err(anyhow::Error::msg)?;
        tt.clear();
        let result = Searcher::new(&board, &mut tt, &stop, Limits::depth(depth)).run(None);
        let best = result.best.map_or("none".to_string(), |m| m.to_string());
        println!(
            "position {:2} {:9} {}x{}  best {:6} score {:>7}  nodes {:>10}",
            i + 1,
            p.rule.name(),
            p.size,
            p.size,
            best,
            result.score_text(),
            result.nodes
        );
        total_nodes += result.nodes;
        for value in [result.nodes, result.best.map_or(0, |m| m.0 as u64)] {
            signature = (signature ^ value).wrapping_mul(0x0100_0000_01b3);
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let (rate, make_seconds) = make_unmake_rate();
    println!("depth {depth}, {} positions", POSITIONS.len());
    println!("total nodes {total_nodes}");
    println!("time {seconds:.2} s");
    println!("nodes/s {:.0}", total_nodes as f64 / seconds.max(1e-9));
    println!("make+unmake/s {rate:.0} ({make_seconds:.2} s)");
    println!("signature {signature:016x}");
    Ok(())
}

/// Measures make+unmake pairs per second on a fixed sequence of moves.
fn make_unmake_rate() -> (f64, f64) {
    let mut board = Board::new(15, 15, Rule::Freestyle);
    let line: Vec<Pos> = (0..40)
        .map(|i| Pos::new((i * 7) % 15, (i * 4 + i / 15) % 15))
        .collect();
    let line: Vec<Pos> = line
        .iter()
        .enumerate()
        .filter(|(i, p)| !line[..*i].contains(p))
        .map(|(_, &p)| p)
        .collect();
    const ROUNDS: usize = 20_000;
    let started = Instant::now();
    for _ in 0..ROUNDS {
        for &pos in &line {
            board.make(pos);
        }
        for _ in &line {
            board.unmake();
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    ((ROUNDS * line.len()) as f64 / seconds.max(1e-9), seconds)
}
