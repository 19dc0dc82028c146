//! `pbrain-wuzi openings`: random short openings, kept only when a fixed-depth
//! search scores them near even, printed in the offset format that
//! c-gomoku-cli and `scripts/match.py` read (`dx,dy, dx,dy, …` from the centre).

use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context, Result};
use rand::SeedableRng;

use crate::board::Board;
use crate::search::opening::random_opening;
use crate::search::tt::Tt;
use crate::search::{Limits, Searcher};
use crate::types::Rule;

/// Settings of the opening generator.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    /// Rule the openings are for.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// How many openings to print.
    pub count: usize,
    /// Stones per opening (the side to move after it alternates with parity).
    pub plies: usize,
    /// Search depth used to score a candidate.
    pub depth: i32,
    /// Largest |score| (for the side to move) still called balanced.
    pub max_score: i32,
}

impl Options {
    /// Parses `--rule R --size N --count K [--plies P] [--depth D] [--max-score S]`.
    pub fn parse(args: &[String]) -> Result<Options> {
        let mut options = Options {
            rule: Rule::Freestyle,
            size: 15,
            count: 20,
            plies: 4,
            depth: 4,
            max_score: 150,
        };
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let value = it.next().with_context(|| format!("{flag} needs a value"))?;
            let bad = || format!("bad value for {flag}: {value}");
            match flag.as_str() {
                "--rule" => options.rule = super::parse_rule(value)?,
                "--size" => options.size = value.parse().ok().with_context(bad)?,
                "--count" => options.count = value.parse().ok().with_context(bad)?,
                "--plies" => options.plies = value.parse().ok().with_context(bad)?,
                "--depth" => options.depth = value.parse().ok().with_context(bad)?,
                "--max-score" => options.max_score = value.parse().ok().with_context(bad)?,
                _ => bail!("unknown openings option {flag}"),
            }
        }
        if !(5..=crate::types::MAX_SIZE).contains(&options.size)
            || options.plies == 0
            || options.plies > 12
        {
            bail!("openings: size must be 5..=22 and plies 1..=12");
        }
        Ok(options)
    }
}

/// Generates and prints the openings.
pub fn run(options: &Options, seed: Option<u64>) -> Result<()> {
    let mut rng = match seed {
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
        let result = Searcher::new(&board, &mut tt, &stop, Limits::depth(options.depth)).run(None);
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
