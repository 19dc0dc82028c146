//! `pbrain-wuzi openings`: random short openings, kept only when a fixed-depth
//! search scores them near even, printed in the offset format that
//! c-gomoku-cli and `scripts/match.py` read (`dx,dy, dx,dy, …` from the centre).

use std::sync::atomic::AtomicBool;

use anyhow::{bail, Result};
use rand::SeedableRng;

use super::engine::parse_depth;
use super::{parse_rule, parse_size};
use crate::board::Board;
use crate::search::opening::random_opening;
use crate::search::tt::Tt;
use crate::search::{Limits, Searcher};
use crate::types::Rule;

/// Most stones an opening may have.
const MAX_PLIES: u64 = 12;

/// Settings of the opening generator.
#[derive(Debug, PartialEq, Eq, clap::Args)]
pub struct Options {
    /// The rule the openings are for: freestyle standard renju caro caro9,
    /// or 0 1 4 8 9
    #[arg(long, value_name = "R", default_value = "freestyle", value_parser = parse_rule)]
    pub rule: Rule,
    /// Board side, 5 to 22
    #[arg(long, value_name = "N", default_value = "15", value_parser = parse_size)]
    pub size: usize,
    /// How many openings to print
    #[arg(long, value_name = "K", default_value = "20")]
    pub count: usize,
    /// Stones per opening, 1 to 12 (the side to move after it alternates
    /// with parity)
    #[arg(
        long,
        value_name = "P",
        default_value = "4",
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_PLIES)
    )]
    pub plies: usize,
    /// Search depth used to score a candidate
    #[arg(long, value_name = "D", default_value = "4", value_parser = parse_depth)]
    pub depth: i32,
    /// Largest |score| (for the side to move) still called balanced
    #[arg(
        long,
        value_name = "S",
        default_value = "150",
        value_parser = clap::value_parser!(i32).range(0..),
        allow_negative_numbers = true
    )]
    pub max_score: i32,
    /// Fix the random openings
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

/// Generates and prints the openings.
pub fn run(options: &Options) -> Result<()> {
    let mut rng = match options.seed {
        Some(s) => rand::rngs::StdRng::seed_from_u64(s),
        None => rand::rngs::StdRng::from_entropy(),
    };
    let mut tt = Tt::new(16 << 20);
    let stop = AtomicBool::new(false);
    let mut found = 0;
    let mut tries = 0;
    while found < options.count {
        tries += 1;
        if tries > options.count * 1000 {
            bail!("found only {found} balanced openings in {tries} tries");
        }
        let mut board = Board::new(options.size, options.size, options.rule);
        if !random_opening(&mut board, options.plies, &mut rng) {
            continue;
        }
        tt.clear();
        let result = Searcher::new(&board, &mut tt, &stop, Limits::depth(options.depth))
            .optimism(false)
            .run(None);
        if result.score.abs() > options.max_score {
            continue;
        }
        let (cx, cy) = (options.size / 2, options.size / 2);
        let offsets: Vec<String> = board
            .history()
            .iter()
            .map(|p| format!("{},{}", p.x() as i64 - cx as i64, p.y() as i64 - cy as i64))
            .collect();
        println!("{}", offsets.join(", "));
        found += 1;
    }
    Ok(())
}
