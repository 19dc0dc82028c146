//! `pbrain-wuzi tune`: plays the self-play games the evaluation is fitted
//! to, and fits the evaluation's tables ([`crate::eval::tables`]) to them.
//!
//! `tune --play FILE` plays fixed-depth games from balanced random openings
//! and appends each, as it finishes, to a records file: one line per game
//! with the opening, the moves, the search's score of each move (`-` for a
//! move played without a search: a single legal move) and the result (the
//! format of `scripts/match.py --log`, which `--records` also reads).
//!
//! `tune --formula --write FILE` writes the tables the evaluation's built-in
//! formulas make ([`crate::eval::formula`], one per table set):
//! `src/eval/tables.bin` is rebuilt so when a formula's numbers change.
//!
//! `tune --records FILE…` replays the games. Each quiet position after the
//! opening (no five point for either side, no open-four point for the side
//! to move: where the search stands pat on the static evaluation) becomes a
//! value sample, labelled with the game's result blended with the recorded
//! search score; each position after the opening, with the move played, a
//! policy sample. Games go to training or validation whole (every tenth
//! held out, `--held-out` says which tenth: ten runs cross-validate). The
//! fit ([`crate::eval::fit`]) starts from the built-in tables, so sets the
//! records do not touch stay as they are; it reports the losses on stderr
//! and writes the new tables file with `--write`.

use std::io::{BufRead, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context, Result};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::engine::parse_depth;
use crate::board::Board;
use crate::eval;
use crate::eval::code::{CODES, DEAD};
use crate::eval::fit::{
    fit, fit_k, fit_policy, fit_policy_k, flatten, loss, param, policy_loss, table_of, unflatten,
    FitSettings, PolicySample, Table, TableSample, PARAMS,
};
use crate::eval::formula;
use crate::eval::tables::{table_set, tables, to_bytes, TABLE_SETS};
use crate::eval::threat::{self, threat_set, threat_table, ThreatTable, THREAT_SETS};
use crate::eval::threat_fit::{fit_threats, ThreatFitSettings, ThreatModel, ThreatSample};
use crate::search::movegen::{generate, MoveList};
use crate::search::opening::{random_opening, BALANCED};
use crate::search::tt::Tt;
use crate::search::{Limits, SearchResult, Searcher, MATE_BOUND};
use crate::types::{Color, Pos, Rule, Threat};

/// Settings of the tuner.
#[derive(Debug, PartialEq, clap::Args)]
#[command(group = clap::ArgGroup::new("task").required(true).args(["play", "records", "formula"]))]
#[command(group = clap::ArgGroup::new("prior").args(["prior_set", "prior_own"]))]
pub struct Options {
    /// Play self-play games under --rule and --size and append them to this
    /// records file
    #[arg(long, value_name = "FILE")]
    pub play: Option<PathBuf>,
    /// Write the tables the evaluation's formula makes with its built-in
    /// numbers (src/eval/formula.rs) to --write: how src/eval/tables.bin is
    /// rebuilt when those numbers change
    #[arg(long, requires = "write")]
    pub formula: bool,
    /// Fit the evaluation's tables to the games in these records files
    /// (from --play, or `scripts/match.py --log`)
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub records: Vec<PathBuf>,
    /// The rule of the games
    #[arg(long, value_name = "RULE", default_value = "freestyle", value_parser = super::parse_rule)]
    pub rule: Rule,
    /// The board size of the games
    #[arg(long, value_name = "N", default_value = "15")]
    pub size: usize,
    /// Self-play games to play
    #[arg(long, value_name = "N", default_value = "2500")]
    pub games: usize,
    /// Search depth per self-play move
    #[arg(long, value_name = "D", default_value = "6", value_parser = parse_depth)]
    pub depth: i32,
    /// Node cap per self-play move (0 = none)
    #[arg(long, value_name = "N", default_value = "50000")]
    pub nodes: u64,
    /// Fix the self-play games' random openings and choices
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Gradient steps of each fit (values, then policy)
    #[arg(
        long,
        value_name = "I",
        default_value = "1000",
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    pub iterations: usize,
    /// Which tenth of the games the fit holds out to report its loss on:
    /// game g when g % 10 is this (another tenth for cross-validation)
    #[arg(
        long,
        value_name = "K",
        default_value = "9",
        value_parser = clap::value_parser!(u8).range(0..10)
    )]
    pub held_out: u8,
    /// Adam's step of the fit, in score points
    #[arg(long, value_name = "R", default_value = "0.5")]
    pub rate: f64,
    /// Weight of the recorded search scores in the value labels (the game
    /// results have the rest)
    #[arg(long, value_name = "W", default_value = "0.5")]
    pub score_weight: f64,
    /// Ridge weight of the fit (per entry and squared score point)
    #[arg(long, value_name = "L", default_value = "1e-9")]
    pub ridge: f64,
    /// Let the value tables break monotony (by default a code is worth at
    /// least each weaker code)
    #[arg(long)]
    pub free: bool,
    /// Fit the threat term's tables (src/eval/threats.bin) to the games'
    /// results instead of the cell tables
    #[arg(long, requires = "records")]
    pub threats: bool,
    /// With --threats: start the fit from the built-in threat values of
    /// this threat set (0 freestyle, 1 standard, 2 and 3 renju's black and
    /// white, 4 caro, 5 freestyle on boards larger than 15×15) instead of
    /// zero, and hold it near them (masks the games rarely show keep them)
    #[arg(
        long,
        value_name = "SET",
        requires = "threats",
        value_parser = clap::value_parser!(u8).range(0..THREAT_SETS as i64)
    )]
    pub prior_set: Option<u8>,
    /// With --threats: start each set the games touch from its own
    /// built-in threat values (renju's black and white each from theirs)
    /// and hold it near them
    #[arg(long, requires = "threats")]
    pub prior_own: bool,
    /// With --prior-set or --prior-own: take the prior values from this
    /// threats file (e.g. another rule's fit, not yet built in) instead of
    /// the built-in ones; --write then keeps this file's values for the
    /// sets the games do not touch
    #[arg(long, value_name = "FILE", requires = "prior")]
    pub prior_file: Option<PathBuf>,
    /// Write the fitted tables here (e.g. src/eval/tables.bin, or
    /// src/eval/threats.bin with --threats)
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
}

impl Options {
    /// Whether the fit holds game `game` (its index in the records) out.
    fn holds_out(&self, game: usize) -> bool {
        game % 10 == usize::from(self.held_out)
    }
}

/// The scale `K` the threat fit starts from (about that of the cell tables
/// on game results).
const THREAT_START_K: f64 = 0.003;

/// Whether the search would evaluate this position statically: no five point
/// for either side and no open-four point for the side to move.
pub fn is_quiet(board: &Board) -> bool {
    let us = board.side_to_move();
    board.threat_count(us, Threat::Five) == 0
        && board.threat_count(us.opponent(), Threat::Five) == 0
        && board.threat_count(us, Threat::Flex4) == 0
}

/// Plays the games (`--play`) or fits the tables (`--records`).
pub fn run(options: &Options) -> Result<()> {
    match &options.play {
        Some(path) => {
            let mut rng = match options.seed {
                Some(s) => StdRng::seed_from_u64(s),
                None => StdRng::from_entropy(),
            };
            self_play_records(options, &mut rng, path)
        }
        None if options.formula => write_formula_tables(options),
        None if options.threats => fit_threat_records(options),
        None => fit_records(options),
    }
}

/// Writes the tables of the evaluation's built-in formulas to `--write`.
fn write_formula_tables(options: &Options) -> Result<()> {
    let path = options
        .write
        .as_ref()
        .context("--formula writes to --write FILE")?;
    std::fs::write(path, to_bytes(&formula::tables(&formula::BUILT_IN)))
        .with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!("wrote the formula's tables to {}", path.display());
    Ok(())
}

/// One recorded game: every stone in order (opening first) and the winner.
struct Game {
    moves: Vec<(usize, usize)>,
    opening: usize,
    winner: Option<Color>,
    /// The self-play search's score of each move after the opening, for
    /// the side that played it, if recorded (`None` for a move played
    /// without a search).
    scores: Vec<Option<i32>>,
    /// Who played black and white (empty if not recorded).
    players: [String; 2],
}

/// Parses `x,y x,y …`.
fn parse_moves(text: &str) -> Option<Vec<(usize, usize)>> {
    text.split_whitespace()
        .map(|m| {
            let (x, y) = m.split_once(',')?;
            Some((x.parse().ok()?, y.parse().ok()?))
        })
        .collect()
}

/// The value of the `name=value` field of a records line, if it has one.
fn record_field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    line.split('\t')
        .find_map(|f| f.strip_prefix(name)?.strip_prefix('='))
}

/// Reads the games of a `scripts/match.py --log` file; lines that are not
/// finished games are skipped.
fn read_records(path: &Path) -> Result<Vec<Game>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut games = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        games.extend(parse_record(&line?));
    }
    Ok(games)
}

/// The game of one records line, if it is a finished game.
fn parse_record(line: &str) -> Option<Game> {
    let field = |name: &str| record_field(line, name);
    let winner = match field("result")? {
        "1-0" => Some(Color::Black),
        "0-1" => Some(Color::White),
        "1/2-1/2" => None,
        _ => return None,
    };
    let opening = parse_moves(field("opening")?)?;
    let rest = parse_moves(field("moves")?)?;
    let count = opening.len();
    let scores = field("scores")
        .map(|text| text.split_whitespace().map(|v| v.parse().ok()).collect())
        .unwrap_or_default();
    Some(Game {
        moves: opening.into_iter().chain(rest).collect(),
        opening: count,
        winner,
        scores,
        players: ["black", "white"].map(|side| field(side).unwrap_or("").to_string()),
    })
}

/// The sample of a quiet position: the side to move's mover entries and
/// the opponent's waiter entries (negated) of every empty cell's code.
pub fn sample(board: &Board, result: f64, game: u32) -> TableSample {
    let us = board.side_to_move();
    let rule = board.rule();
    let mut features: Vec<(u32, i16)> = Vec::with_capacity(128);
    for pos in board.cells().filter(|&p| board.is_empty(p)) {
        for (color, table, sign) in [(us, Table::Mover, 1), (us.opponent(), Table::Waiter, -1)] {
            let code = board.code(pos, color);
            if code != DEAD {
                features.push((param(table_set(rule, color), table, code) as u32, sign));
            }
        }
    }
    features.sort_unstable_by_key(|f| f.0);
    let mut merged: Vec<(u32, i16)> = Vec::with_capacity(features.len());
    for (i, c) in features {
        match merged.last_mut() {
            Some(last) if last.0 == i => last.1 += c,
            _ => merged.push((i, c)),
        }
    }
    TableSample {
        features: merged,
        result,
        game,
    }
}

/// The policy sample of a position where `played` was played: the moves
/// the search would consider, each with its attack and defence entries;
/// `None` if the move played is not among them or is the only one.
fn policy_sample(
    board: &mut Board,
    played: Pos,
    game: u32,
    list: &mut MoveList,
) -> Option<PolicySample> {
    generate(board, list);
    let us = board.side_to_move();
    let them = us.opponent();
    let rule = board.rule();
    let index = list.as_slice().iter().position(|m| m.pos == played)?;
    let candidates = list
        .as_slice()
        .iter()
        .map(|m| {
            [
                param(table_set(rule, us), Table::Attack, board.code(m.pos, us)) as u32,
                param(
                    table_set(rule, them),
                    Table::Defence,
                    board.code(m.pos, them),
                ) as u32,
            ]
        })
        .collect::<Vec<_>>();
    (candidates.len() >= 2).then_some(PolicySample {
        candidates,
        played: index as u32,
        game,
    })
}

/// Replays the games and collects their quiet positions after the opening
/// (value samples) and every position after the opening with the move
/// played (policy samples).
fn samples(
    games: &[Game],
    rule: Rule,
    size: usize,
) -> (Vec<(TableSample, Option<i32>)>, Vec<PolicySample>) {
    let mut out = Vec::new();
    let mut policy = Vec::new();
    let mut list = MoveList::default();
    for (g, game) in games.iter().enumerate() {
        let mut board = Board::new(size, size, rule);
        for (i, &(x, y)) in game.moves.iter().enumerate() {
            if x >= size || y >= size || !board.is_empty(Pos::new(x, y)) {
                break;
            }
            let us = board.side_to_move();
            // The position before the winning five is not quiet anyway.
            if i >= game.opening && is_quiet(&board) && board.threat_count(us, Threat::Five) == 0 {
                let result = match game.winner {
                    None => 0.5,
                    Some(w) if w == us => 1.0,
                    Some(_) => 0.0,
                };
                let score = game.scores.get(i - game.opening).copied().flatten();
                out.push((sample(&board, result, g as u32), score));
            }
            if i >= game.opening {
                policy.extend(policy_sample(
                    &mut board,
                    Pos::new(x, y),
                    g as u32,
                    &mut list,
                ));
            }
            board.make(Pos::new(x, y));
        }
    }
    (out, policy)
}

/// A move's entry in a record's scores: the search's score, or `-` where
/// it has none ([`SearchResult::is_scored`]), whose 0 would read as a
/// balanced position.
fn score_field(result: &SearchResult) -> String {
    if result.is_scored() {
        result.score.to_string()
    } else {
        "-".to_string()
    }
}

/// Plays `options.games` self-play games under `options.rule` from balanced
/// random openings (depth and node cap from the options), searched without
/// the root side's optimism so that the scores recorded for either side
/// compare, and appends them to `path` as records, one line each, as they
/// finish.
fn self_play_records(options: &Options, rng: &mut StdRng, path: &Path) -> Result<()> {
    let mut out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let mut tt = Tt::new(16 << 20);
    let stop = AtomicBool::new(false);
    let (rule, size) = (options.rule, options.size);
    for game in 0..options.games {
        let Some(mut board) = (0..50).find_map(|_| {
            let mut board = Board::new(size, size, rule);
            let plies = rng.gen_range(3..=6);
            if !random_opening(&mut board, plies, rng) {
                return None;
            }
            tt.clear();
            let probe = Searcher::new(&board, &mut tt, &stop, Limits::depth(4))
                .optimism(false)
                .run(None);
            (probe.score.abs() <= BALANCED).then_some(board)
        }) else {
            continue;
        };
        tt.clear();
        let opening = board.history().len();
        let mut scores = Vec::new();
        let winner = loop {
            if board.empty_count() == 0 {
                break None;
            }
            let us = board.side_to_move();
            let limits = Limits {
                max_nodes: options.nodes,
                ..Limits::depth(options.depth)
            };
            let result = Searcher::new(&board, &mut tt, &stop, limits)
                .optimism(false)
                .run(Some(rng));
            let Some(pos) = result.best else { break None };
            scores.push(score_field(&result));
            board.make(pos);
            if board.is_five_at(pos) {
                break Some(us);
            }
        };
        let list = |moves: &[Pos]| {
            moves
                .iter()
                .map(|p| format!("{},{}", p.x(), p.y()))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let history = board.history();
        let result = match winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        };
        writeln!(
            out,
            "game={}\trule={}\topening={}\tmoves={}\tscores={}\tresult={result}",
            game + 1,
            rule.bits(),
            list(&history[..opening]),
            list(&history[opening..]),
            scores.join(" ")
        )?;
        if (game + 1) % 20 == 0 {
            eprintln!("game {}", game + 1);
        }
    }
    Ok(())
}

/// Reads the records, fits the tables and writes them (with the losses on
/// stderr).
fn fit_records(options: &Options) -> Result<()> {
    let mut games = Vec::new();
    for path in &options.records {
        games.extend(read_records(path)?);
    }
    let (all, policy) = samples(&games, options.rule, options.size);
    let start = flatten(
        &(0..TABLE_SETS)
            .map(|s| tables(s).clone())
            .collect::<Vec<_>>(),
    );
    // Labels: the game's result, blended with the self-play search's
    // score where one was recorded (a proven win or loss counts as 1 or 0).
    let results: Vec<TableSample> = all.iter().map(|(s, _)| s.clone()).collect();
    let k = fit_k(&results, &start);
    let lambda = options.score_weight;
    let all = all.into_iter().map(|(mut s, score)| {
        if let Some(score) = score {
            let p = if score > MATE_BOUND {
                1.0
            } else if score < -MATE_BOUND {
                0.0
            } else {
                1.0 / (1.0 + (-k * f64::from(score)).exp())
            };
            s.result = lambda * p + (1.0 - lambda) * s.result;
        }
        s
    });
    let (train, test): (Vec<TableSample>, Vec<TableSample>) =
        all.partition(|s| !options.holds_out(s.game as usize));
    let (policy_train, policy_test): (Vec<PolicySample>, Vec<PolicySample>) = policy
        .into_iter()
        .partition(|s| !options.holds_out(s.game as usize));
    if train.is_empty() {
        bail!("tune: no positions in the records");
    }
    eprintln!(
        "{} games, positions: training {}, held out {}",
        games.len(),
        train.len(),
        test.len()
    );
    let k = fit_k(&train, &start);
    eprintln!("K {k:.6}");
    let report = |name: &str, w: &[f64]| {
        eprintln!(
            "{name}: loss training {:.6}, held out {:.6}",
            loss(&train, w, k),
            loss(&test, w, k)
        );
    };
    report("current tables", &start);
    // The all-dead cell is the baseline: worth nothing.
    let fixed_unless = |tables: [Table; 2]| -> Vec<bool> {
        (0..PARAMS)
            .map(|i| i % CODES == DEAD || !tables.contains(&table_of(i)))
            .collect()
    };
    let settings = FitSettings {
        k,
        iterations: options.iterations,
        rate: options.rate,
        ridge: options.ridge,
        monotone: !options.free,
    };
    let fixed = fixed_unless([Table::Mover, Table::Waiter]);
    let w = fit(&train, &start, &fixed, settings, |step, w| {
        if step % 100 == 0 {
            report(&format!("step {step}"), w);
        }
    });
    let rounded = flatten(&unflatten(&w));
    report("fitted tables (rounded)", &rounded);

    let policy_k = fit_policy_k(&policy_train, &rounded);
    eprintln!(
        "policy positions: training {}, held out {}; K {policy_k:.6}",
        policy_train.len(),
        policy_test.len()
    );
    let policy_report = |name: &str, w: &[f64]| {
        let (train_loss, train_hits) = policy_loss(&policy_train, w, policy_k);
        let (test_loss, test_hits) = policy_loss(&policy_test, w, policy_k);
        eprintln!(
            "{name}: cross entropy training {train_loss:.4} (top move {:.1} %), held out {test_loss:.4} ({:.1} %)",
            100.0 * train_hits,
            100.0 * test_hits
        );
    };
    policy_report("current policy", &rounded);
    let fixed = fixed_unless([Table::Attack, Table::Defence]);
    let settings = FitSettings {
        k: policy_k,
        ..settings
    };
    let w = fit_policy(&policy_train, &rounded, &fixed, settings, |step, w| {
        if step % 100 == 0 {
            policy_report(&format!("step {step}"), w);
        }
    });
    let rounded = unflatten(&w);
    policy_report("fitted policy (rounded)", &flatten(&rounded));
    if let Some(path) = &options.write {
        write(path, &to_bytes(&rounded))?;
    }
    Ok(())
}

/// Replays the games and collects every position after the opening where
/// the side to move has no five point, with its smoothed evaluation (the
/// mean of its own raw evaluation and its parent's, as the search takes
/// it) and its threat mask. `players` collects the players' names.
fn threat_samples(
    games: &[Game],
    rule: Rule,
    size: usize,
    players: &mut Vec<String>,
) -> Vec<(ThreatSample, usize)> {
    let mut out = Vec::new();
    let mut index = |name: &str| match players.iter().position(|p| p == name) {
        Some(i) => i,
        None => {
            players.push(name.to_string());
            players.len() - 1
        }
    };
    for (g, game) in games.iter().enumerate() {
        let ids = [index(&game.players[0]), index(&game.players[1])];
        let mut board = Board::new(size, size, rule);
        // The parent's raw evaluation, none after a position with a five point.
        let mut parent: Option<i32> = None;
        for (i, &(x, y)) in game.moves.iter().enumerate() {
            if x >= size || y >= size || !board.is_empty(Pos::new(x, y)) {
                break;
            }
            let us = board.side_to_move();
            let them = us.opponent();
            let raw = eval::evaluate(board.table_sum(us, true), board.table_sum(them, false));
            if i >= game.opening && board.threat_count(us, Threat::Five) == 0 {
                let result = match game.winner {
                    None => 0.5,
                    Some(w) if w == us => 1.0,
                    Some(_) => 0.0,
                };
                let sample = ThreatSample {
                    eval: parent.map_or(raw, |p| (raw - p) / 2),
                    set: threat_set(rule, size, size, us),
                    mask: threat::mask(board.threat_counts(us), board.threat_counts(them)),
                    players: [ids[us.index()], ids[them.index()]],
                    result,
                };
                out.push((sample, g));
            }
            let five_point =
                board.threat_count(us, Threat::Five) + board.threat_count(them, Threat::Five) > 0;
            parent = (!five_point).then_some(raw);
            board.make(Pos::new(x, y));
        }
    }
    out
}

/// Reads the records, fits the threat term's tables to the games' results
/// and writes them (with the losses on stderr). Sets the games do not touch
/// keep their values: those of `--prior-file` if given, else the built-in
/// ones, so that a fit from a file not yet built in writes that file with
/// the fitted sets replaced.
fn fit_threat_records(options: &Options) -> Result<()> {
    let mut games = Vec::new();
    for path in &options.records {
        games.extend(read_records(path)?);
    }
    let mut players = Vec::new();
    let all = threat_samples(&games, options.rule, options.size, &mut players);
    let (train, test): (Vec<_>, Vec<_>) =
        all.into_iter().partition(|&(_, g)| !options.holds_out(g));
    let train: Vec<ThreatSample> = train.into_iter().map(|(s, _)| s).collect();
    let test: Vec<ThreatSample> = test.into_iter().map(|(s, _)| s).collect();
    if train.is_empty() {
        bail!("tune: no positions in the records");
    }
    eprintln!(
        "{} games, {} players, positions: training {}, held out {}",
        games.len(),
        players.len(),
        train.len(),
        test.len()
    );
    let settings = ThreatFitSettings {
        iterations: options.iterations,
        rate: options.rate,
        ridge: options.ridge,
        fit_tables: false,
    };
    let mut start = ThreatModel::new(THREAT_START_K, players.len(), THREAT_SETS);
    let priors = threat_priors(
        options.prior_set,
        options.prior_own,
        options.prior_file.as_deref(),
    )?;
    let has_prior = priors.is_some();
    if let Some(priors) = priors {
        start.tables = priors;
    }
    let report = |name: &str, model: &ThreatModel| {
        eprintln!(
            "{name}: K {:.6}, loss training {:.6}, held out {:.6}",
            model.k,
            model.loss(&train),
            model.loss(&test)
        );
    };
    let baseline = fit_threats(&train, start.clone(), settings);
    report(
        if has_prior {
            "cell tables and the prior"
        } else {
            "cell tables alone"
        },
        &baseline,
    );
    let settings = ThreatFitSettings {
        fit_tables: true,
        ..settings
    };
    let mut fitted = fit_threats(&train, start, settings);
    for table in &mut fitted.tables {
        table.iter_mut().for_each(|v| *v = v.round());
    }
    report("with the threat term (rounded)", &fitted);
    for (name, strength) in players.iter().zip(&fitted.strengths) {
        eprintln!("strength of {name:?}: {strength:.3}");
    }
    let mut sets = threat_sets(options.prior_file.as_deref())?;
    for (set, table) in sets.iter_mut().enumerate() {
        if train.iter().any(|s| s.set == set) {
            *table = std::array::from_fn(|mask| fitted.tables[set][mask] as i32);
        }
    }
    if let Some(path) = &options.write {
        write(path, &threat::to_bytes(&sets))?;
    }
    Ok(())
}

/// The threat values each threat set's fit starts from and is held near:
/// set `set`'s values for every set, or with `own` each set's own, from the
/// threats file `file` or the built-in ones; `None` (start from zero)
/// without either.
fn threat_priors(set: Option<u8>, own: bool, file: Option<&Path>) -> Result<Option<Vec<Vec<f64>>>> {
    if set.is_none() && !own {
        return Ok(None);
    }
    let sets = threat_sets(file)?;
    let values = |table: &ThreatTable| table.map(f64::from).to_vec();
    Ok(Some(match set {
        Some(set) => vec![values(&sets[set as usize]); THREAT_SETS],
        None => sets.iter().map(values).collect(),
    }))
}

/// Every threat set's values: those of the threats file `file`, or the
/// built-in ones.
fn threat_sets(file: Option<&Path>) -> Result<Vec<ThreatTable>> {
    match file {
        Some(path) => {
            let bytes = std::fs::read(path)
                .with_context(|| format!("tune: cannot read {}", path.display()))?;
            threat::parse(&bytes).map_err(anyhow::Error::msg)
        }
        None => Ok((0..THREAT_SETS).map(|set| *threat_table(set)).collect()),
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("tune: cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval;

    #[test]
    fn a_move_played_without_a_search_is_recorded_without_a_score() {
        let stop = AtomicBool::new(false);
        let mut tt = Tt::new(1 << 20);
        let mut scored = |moves: &str| {
            let board = Board::from_moves(Rule::Freestyle, 15, moves).expect("legal moves");
            score_field(&Searcher::new(&board, &mut tt, &stop, Limits::depth(3)).run(None))
        };
        // White must block black's four at 7,11 (7,6 is white's): one move.
        assert_eq!(scored("7,7 7,6 7,8 0,0 7,9 0,2 7,10"), "-");
        let open = scored("7,7 8,8 6,8");
        assert!(
            open.parse::<i32>().is_ok(),
            "a searched move has a score: {open}"
        );
    }

    #[test]
    fn the_threat_prior_comes_from_the_file_given() {
        let path = std::env::temp_dir().join(format!("wuzi-prior-{}.bin", std::process::id()));
        let mut sets = threat_sets(None).expect("built in");
        sets[0][5] += 77;
        std::fs::write(&path, threat::to_bytes(&sets)).expect("temporary file");
        let prior =
            |file| threat_priors(Some(0), false, file).map(|p| p.expect("priors")[0].clone());
        let from_file = prior(Some(&path)).expect("a threats file");
        let built_in = prior(None).expect("built in");
        std::fs::remove_file(&path).ok();
        assert_eq!(from_file[5], built_in[5] + 77.0);
        assert_eq!(from_file[6], built_in[6]);
        assert!(prior(Some(Path::new("/nonexistent/threats.bin"))).is_err());
    }

    #[test]
    fn each_set_starts_from_one_set_or_from_its_own() {
        let path = std::env::temp_dir().join(format!("wuzi-priors-{}.bin", std::process::id()));
        let mut sets = threat_sets(None).expect("built in");
        sets[2][5] = 1234;
        sets[3][5] = -1234;
        std::fs::write(&path, threat::to_bytes(&sets)).expect("temporary file");
        let own = threat_priors(None, true, Some(&path));
        let from_black = threat_priors(Some(2), false, Some(&path));
        std::fs::remove_file(&path).ok();
        let own = own.expect("a threats file").expect("priors");
        assert_eq!((own[2][5], own[3][5]), (1234.0, -1234.0));
        assert_eq!(own[0][7], f64::from(threat_table(0)[7]));
        let from_black = from_black.expect("a threats file").expect("priors");
        assert!(from_black.iter().all(|table| table[5] == 1234.0));
        assert!(threat_priors(None, false, None).expect("no file").is_none());
    }

    #[test]
    fn a_threat_fit_from_a_file_writes_the_files_other_sets() {
        let name = |what: &str| {
            std::env::temp_dir().join(format!("wuzi-fit-{what}-{}", std::process::id()))
        };
        let (records, prior, out) = (name("records"), name("prior"), name("out"));
        // A freestyle game (threat set 0) that black wins with a five.
        let game = "game=1\tblack=a\twhite=b\topening=7,7 8,8\tmoves=7,8 8,9 7,9 8,10 7,10 0,0 7,6\tresult=1-0\n";
        std::fs::write(&records, game).expect("temporary file");
        let mut sets = threat_sets(None).expect("built in");
        sets[4][5] += 77;
        std::fs::write(&prior, threat::to_bytes(&sets)).expect("temporary file");
        let args: [&std::ffi::OsStr; 12] = [
            "pbrain-wuzi".as_ref(),
            "tune".as_ref(),
            "--records".as_ref(),
            records.as_ref(),
            "--threats".as_ref(),
            "--prior-own".as_ref(),
            "--prior-file".as_ref(),
            prior.as_ref(),
            "--iterations".as_ref(),
            "1".as_ref(),
            "--write".as_ref(),
            out.as_ref(),
        ];
        let Ok(crate::cli::Cli {
            command: Some(crate::cli::Command::Tune(options)),
            ..
        }) = crate::cli::Cli::try_from_args(args)
        else {
            panic!("valid tune options")
        };
        let fitted = fit_threat_records(&options);
        let written = std::fs::read(&out).map_err(anyhow::Error::from);
        for p in [&records, &prior, &out] {
            std::fs::remove_file(p).ok();
        }
        fitted.expect("the fit runs");
        let written = threat::parse(&written.expect("written")).expect("a threats file");
        assert_eq!(written[4], sets[4], "caro's set, untouched, is the file's");
    }

    /// Every kept game record (`scripts/records`, a directory per rule and
    /// board side such as `renju-15`, a `.log` file per match) reads whole
    /// and replays: the terminal's referee ([`crate::cli::game::Game`])
    /// takes each stone (an empty cell its side may play, the game not yet
    /// over), and a game won by a five ends with the winner's five.
    #[test]
    fn the_kept_records_replay_under_their_rule() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/records");
        let mut files = 0;
        for dir in std::fs::read_dir(&root).expect("scripts/records") {
            let dir = dir.expect("a directory entry").path();
            if !dir.is_dir() {
                continue;
            }
            let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let (rule, size) = name.rsplit_once('-').expect("named RULE-SIZE");
            let rule = crate::cli::parse_rule(rule).expect("a rule's name");
            let size: usize = size.parse().expect("a board side");
            for file in std::fs::read_dir(&dir).expect("a records directory") {
                let file = file.expect("a directory entry").path();
                if file.extension().is_some_and(|e| e == "log") {
                    replay_records(&file, rule, size);
                    files += 1;
                }
            }
        }
        assert!(files > 0, "records to check");
    }

    /// Replays every game of the records file `path` (of `rule` on a
    /// `size` × `size` board) through the referee; see above.
    fn replay_records(path: &Path, rule: Rule, size: usize) {
        use crate::cli::game::{Game as Referee, GameResult};
        let text = std::fs::read_to_string(path).expect("a records file");
        let path = path.display();
        let lines = text.lines().filter(|line| line.starts_with("game="));
        for (g, line) in lines.enumerate() {
            let game = parse_record(line)
                .unwrap_or_else(|| panic!("{path} game {}: every game reads", g + 1));
            let mut referee = Referee::new(size, size, rule);
            for (i, &square) in game.moves.iter().enumerate() {
                if let Err(refused) = referee.play(square, 0) {
                    panic!("{path} game {}: stone {i}: {refused}", g + 1);
                }
            }
            if record_field(line, "reason") == Some("five") {
                let winner = game.winner.expect("a five has a winner");
                assert_eq!(
                    referee.result(),
                    Some(GameResult::Win(winner)),
                    "{path} game {}",
                    g + 1
                );
            }
        }
    }

    #[test]
    fn a_missing_score_keeps_the_later_scores_in_place() {
        let path = std::env::temp_dir().join(format!("wuzi-records-{}.rec", std::process::id()));
        std::fs::write(
            &path,
            "game=1\trule=0\topening=7,7 8,8\tmoves=6,8 8,6 8,7\tscores=12 - -30\tresult=1-0\n",
        )
        .unwrap();
        let games = read_records(&path);
        std::fs::remove_file(&path).unwrap();
        let games = games.unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].scores, [Some(12), None, Some(-30)]);
    }

    /// A sample's features dotted with the built-in tables give the engine's
    /// own evaluation, under every rule and for either side to move.
    #[test]
    fn samples_reproduce_the_evaluation() {
        let positions = [
            (Rule::Freestyle, "7,7 8,8 6,8 8,6 8,7 9,9 5,9"),
            (Rule::Freestyle, "7,7 8,8 6,8 8,6 8,7 9,9"),
            (Rule::Standard, "7,7 6,8 8,8 6,6 6,7 5,7 9,9 10,10"),
            (Rule::Renju, "7,7 7,6 8,8 6,6 9,6 9,7 6,8 5,5 7,9"),
            (Rule::Renju, "7,7 7,6 8,8 6,6 9,6 9,7 6,8 5,5"),
            (Rule::Caro, "7,7 8,8 6,8 8,6 8,7"),
        ];
        let w = flatten(
            &(0..TABLE_SETS)
                .map(|s| tables(s).clone())
                .collect::<Vec<_>>(),
        );
        for (rule, moves) in positions {
            let board = Board::from_moves(rule, 15, moves).expect("legal moves");
            let us = board.side_to_move();
            let engine = eval::evaluate(
                board.table_sum(us, true),
                board.table_sum(us.opponent(), false),
            );
            let fitted = eval::fit::eval(&sample(&board, 0.5, 0), &w);
            assert_eq!(fitted.trunc() as i32, engine, "{rule:?} {moves}");
            assert_ne!(engine, 0, "{rule:?} {moves}: a real position");
        }
    }
}
