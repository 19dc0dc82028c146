//! `pbrain-wuzi analyze`: one position searched, with the best move (or the
//! n best), its score, line, depth and nodes; or only a threat-space solver
//! (`--solve`).

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::diagram::{self, Marks};
use super::engine::{describe_score, on_search_stack, parse_depth, parse_seconds, Think, TT_BYTES};
use super::game::color_name;
use super::record::{is_psq, parse_move_list, parse_psq, square_both, square_name, Record};
use super::{parse_rule, parse_size, ParamArgs};
use crate::board::Board;
use crate::rules::renju;
use crate::search::nbest::n_best;
use crate::search::tt::Tt;
use crate::search::vcf::Vcf;
use crate::search::vct::Vct;
use crate::search::{Limits, SearchResult, Searcher};
use crate::types::{Color, Pos, Rule};

/// Most moves `--nbest` lists.
const MAX_NBEST: u64 = 50;
/// Node budget of a solver run.
const SOLVER_NODES: u64 = 20_000_000;
/// Time budget of a solver run under `--depth` (which has no clock).
const SOLVER_TIME: Duration = Duration::from_secs(10);

/// Which threat-space solvers `--solve` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// Victory by continuous fours only ([`Vcf`]).
    Vcf,
    /// Victory by continuous threats, fours and open threes ([`Vct`]).
    Vct,
    /// The VCF solver, then the VCT solver if it found nothing (as the
    /// engine does at the root).
    Both,
}

/// Settings of `analyze`.
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
pub struct Options {
    /// The rule: freestyle standard renju caro caro9, or 0 1 4 8 9
    #[arg(long, value_name = "R", default_value = "freestyle", value_parser = parse_rule)]
    pub rule: Rule,
    /// Board side, 5 to 22 [default: 15; a .psq file gives its own]
    #[arg(long, value_name = "N", value_parser = parse_size)]
    pub size: Option<usize>,
    /// Search time, in seconds
    #[arg(
        long,
        value_name = "S",
        default_value = "3",
        value_parser = parse_seconds,
        allow_negative_numbers = true
    )]
    pub time: Duration,
    /// A fixed search depth instead of a clock
    #[arg(long, value_name = "D", value_parser = parse_depth, conflicts_with = "time")]
    pub depth: Option<i32>,
    /// List the K best moves (1 to 50)
    #[arg(
        long,
        value_name = "K",
        default_value = "1",
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_NBEST)
    )]
    pub nbest: usize,
    /// Only the threat solvers: the VCF (continuous fours), then the VCT
    /// (fours and open threes) if it finds nothing; `--solve vcf` or
    /// `--solve vct` runs one of them
    #[arg(long)]
    pub solve: bool,
    /// x,y pairs are offsets from the centre (as in opening files)
    #[arg(long)]
    pub offset: bool,
    /// The search's parameters.
    #[command(flatten)]
    pub params: ParamArgs,
    /// The position: a move string (h8i9j10), an x,y list (7,7 8,8) or a
    /// file (.psq, or a move string)
    #[arg(value_name = "POSITION", allow_negative_numbers = true)]
    pub position: Vec<String>,
}

/// The solver a position word names after `--solve` (`vcf`, `vct`).
fn solver_named(word: &str) -> Option<Solver> {
    match word.to_ascii_lowercase().as_str() {
        "vcf" => Some(Solver::Vcf),
        "vct" => Some(Solver::Vct),
        _ => None,
    }
}

impl Options {
    /// How long to search: `--depth` if given, else `--time`.
    pub fn think(&self) -> Think {
        self.depth.map_or(Think::Time(self.time), Think::Depth)
    }

    /// The solvers `--solve` asks for: the one a word `vcf` or `vct` names,
    /// else both; `None` without `--solve`.
    pub fn solver(&self) -> Option<Solver> {
        self.solve.then(|| {
            self.position
                .iter()
                .find_map(|w| solver_named(w))
                .unwrap_or(Solver::Both)
        })
    }

    /// The words that give the position (less a solver's name).
    fn position_words(&self) -> Vec<&str> {
        self.position
            .iter()
            .map(String::as_str)
            .filter(|w| !(self.solve && solver_named(w).is_some()))
            .collect()
    }

    /// The position's record: from the file named by the one position word
    /// if there is such a file, else from the words as a move list.
    fn record(&self) -> Result<Record> {
        let size = self.size.unwrap_or(15);
        let words = self.position_words();
        if let [word] = words.as_slice() {
            if std::path::Path::new(word).is_file() {
                let text =
                    std::fs::read_to_string(word).with_context(|| format!("cannot read {word}"))?;
                if is_psq(&text) {
                    let record = parse_psq(&text).map_err(anyhow::Error::msg)?;
                    if self
                        .size
                        .is_some_and(|s| s != record.width || s != record.height)
                    {
                        bail!(
                            "{word} is a {}x{} game, not {size}x{size}",
                            record.width,
                            record.height
                        );
                    }
                    return Ok(record);
                }
                return self.move_list(&text, size);
            }
        }
        self.move_list(&words.join(" "), size)
    }

    fn move_list(&self, text: &str, size: usize) -> Result<Record> {
        let origin = self.offset.then_some((size / 2, size / 2));
        let moves = parse_move_list(text, origin).map_err(anyhow::Error::msg)?;
        Ok(Record {
            width: size,
            height: size,
            moves: moves.into_iter().map(|m| (m, 0)).collect(),
            engines: [false; 2],
        })
    }
}

/// The position as a board: stones in order, black first. Only the cells
/// are checked (a set-up position need not be a legal game).
fn board(record: &Record, rule: Rule) -> Result<Board> {
    let sizes = 5..=crate::types::MAX_SIZE;
    if !sizes.contains(&record.width) || !sizes.contains(&record.height) {
        bail!(
            "board size {}x{} is not supported",
            record.width,
            record.height
        );
    }
    let mut board = Board::new(record.width, record.height, rule);
    for (i, &(square, _)) in record.moves.iter().enumerate() {
        let (x, y) = square;
        if !board.contains(x, y) {
            bail!("move {}: {} is off the board", i + 1, square_both(square));
        }
        if !board.is_empty(Pos::new(x, y)) {
            bail!("move {}: {} is already taken", i + 1, square_both(square));
        }
        board.make(Pos::new(x, y));
    }
    Ok(board)
}

fn name(pos: Pos) -> String {
    square_name((pos.x(), pos.y()))
}

fn both(pos: Pos) -> String {
    square_both((pos.x(), pos.y()))
}

/// A line of moves in both notations: `h8 i9 (7,7 8,8)`.
fn line_text(line: &[Pos]) -> String {
    let names: Vec<String> = line.iter().map(|&p| name(p)).collect();
    let xy: Vec<String> = line.iter().map(|p| p.to_string()).collect();
    format!("{} ({})", names.join(" "), xy.join(" "))
}

/// Analyses the position and prints the result.
pub fn run(options: &Options) -> Result<()> {
    options.params.install()?;
    let record = options.record()?;
    let board = board(&record, options.rule)?;
    let mut out = std::io::stdout().lock();
    match report(&mut out, options, &board) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("analyze"),
    }
}

fn report(out: &mut impl Write, options: &Options, board: &Board) -> std::io::Result<()> {
    let us = board.side_to_move();
    writeln!(
        out,
        "{} {}x{}, {} stones, {} to move",
        board.rule().name(),
        board.width(),
        board.height(),
        board.move_count(),
        color_name(us)
    )?;
    let last = board.last_move();
    let finished = last.filter(|&p| board.is_five_at(p));
    let forbidden = if us == Color::Black && finished.is_none() {
        renju::forbidden_points(board)
    } else {
        Vec::new()
    };
    let marks = Marks {
        last,
        forbidden,
        ..Marks::default()
    };
    write!(out, "{}", diagram::render(board, &marks))?;
    if let Some(five) = finished {
        return writeln!(
            out,
            "the game is over: {} has five ({})",
            color_name(us.opponent()),
            name(five)
        );
    }
    if board.empty_count() == 0 {
        return writeln!(out, "the game is over: the board is full");
    }
    let think = options.think();
    match options.solver() {
        Some(solver) => solve(out, board, solver, think),
        None if options.nbest > 1 => best_moves(out, board, think, options.nbest),
        None => best_move(out, board, think),
    }
}

fn best_move(out: &mut impl Write, board: &Board, think: Think) -> std::io::Result<()> {
    let limits = think.limits();
    let result = on_search_stack(|| {
        let mut tt = Tt::new(TT_BYTES);
        let stop = AtomicBool::new(false);
        Searcher::new(board, &mut tt, &stop, limits).run(None)
    });
    let Some(best) = result.best else {
        return writeln!(out, "no legal move");
    };
    writeln!(out, "best move: {}", both(best))?;
    writeln!(out, "score: {}", describe_score(&result))?;
    writeln!(out, "line: {}", line_text(&result.pv))?;
    writeln!(
        out,
        "depth {}, {} nodes, {:.2} s",
        result.depth,
        result.nodes,
        result.elapsed.as_secs_f64()
    )
}

fn best_moves(out: &mut impl Write, board: &Board, think: Think, n: usize) -> std::io::Result<()> {
    let limits: Limits = think.limits();
    let results: Vec<SearchResult> = on_search_stack(|| {
        let mut tt = Tt::new(TT_BYTES);
        let stop = AtomicBool::new(false);
        n_best(board, &mut tt, &stop, limits, n, &[], None)
    });
    for (i, result) in results.iter().enumerate() {
        let Some(best) = result.best else { continue };
        writeln!(
            out,
            "{}. {}  score {}, depth {}, {} nodes, line {}",
            i + 1,
            both(best),
            describe_score(result),
            result.depth,
            result.nodes,
            line_text(&result.pv)
        )?;
    }
    match results.first().and_then(|r| r.best) {
        Some(best) => writeln!(out, "best move: {}", both(best)),
        None => writeln!(out, "no legal move"),
    }
}

/// Runs the solvers for the side to move and prints the winning line or
/// that none was found. The VCF and VCT share the time budget; the node
/// budget is per solver.
fn solve(out: &mut impl Write, board: &Board, solver: Solver, think: Think) -> std::io::Result<()> {
    let time = match think {
        Think::Time(time) => time,
        Think::Depth(_) => SOLVER_TIME,
    };
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let run_vcf = || {
        let mut vcf = Vcf::new(board, &stop, started, time, SOLVER_NODES);
        (vcf.solve(), vcf.nodes())
    };
    let run_vct = || {
        let mut vct = Vct::new(board, &stop, started, time, SOLVER_NODES);
        (vct.solve(), vct.nodes())
    };
    let (line, nodes, what) = on_search_stack(|| match solver {
        Solver::Vcf => {
            let (line, nodes) = run_vcf();
            (line, nodes, "VCF")
        }
        Solver::Vct => {
            let (line, nodes) = run_vct();
            (line, nodes, "VCT")
        }
        Solver::Both => match run_vcf() {
            (Some(line), nodes) => (Some(line), nodes, "VCF"),
            (None, vcf_nodes) => {
                let (line, nodes) = run_vct();
                let what = if line.is_some() { "VCT" } else { "VCF or VCT" };
                (line, vcf_nodes + nodes, what)
            }
        },
    });
    let seconds = started.elapsed().as_secs_f64();
    let attacker = color_name(board.side_to_move());
    match line {
        Some(line) => {
            let first = line.first().copied();
            writeln!(
                out,
                "{what}: {attacker} wins in {} moves: {}",
                line.len().div_ceil(2),
                line_text(&line)
            )?;
            if let Some(first) = first {
                writeln!(out, "best move: {}", both(first))?;
            }
            writeln!(out, "{nodes} nodes, {seconds:.2} s")
        }
        None => writeln!(out, "no {what} found ({nodes} nodes, {seconds:.2} s)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses `analyze` with `args` as the command line does.
    fn parse(args: &str) -> Result<Options, clap::Error> {
        let line = format!("pbrain-wuzi analyze {args}");
        match crate::cli::Cli::try_from_args(line.split_whitespace())?.command {
            Some(crate::cli::Command::Analyze(options)) => Ok(options),
            other => panic!("not analyze: {other:?}"),
        }
    }

    fn analyse(text: &str) -> String {
        let options = parse(text).expect("parses");
        let record = options.record().expect("a position");
        let board = board(&record, options.rule).expect("legal");
        let mut out = Vec::new();
        report(&mut out, &options, &board).expect("writes");
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn options() {
        let o = parse("--rule renju --depth 4 --nbest 3 7,7 8,8").expect("parses");
        assert_eq!(
            (o.rule, o.think(), o.nbest, o.position.len()),
            (Rule::Renju, Think::Depth(4), 3, 2)
        );
        let o = parse("").expect("parses");
        assert_eq!(
            (o.rule, o.size, o.think(), o.nbest, o.solver()),
            (
                Rule::Freestyle,
                None,
                Think::Time(Duration::from_secs(3)),
                1,
                None
            )
        );
        let o = parse("--solve vcf h8 --offset --size 19").expect("parses");
        assert_eq!(
            (o.solver(), o.offset, o.size, o.position_words()),
            (Some(Solver::Vcf), true, Some(19), vec!["h8"])
        );
        let o = parse("--solve h8").expect("parses");
        assert_eq!(
            (o.solver(), o.position_words()),
            (Some(Solver::Both), vec!["h8"])
        );
        let o = parse("--solve VCT h8").expect("parses");
        assert_eq!(o.solver(), Some(Solver::Vct));
        for bad in [
            "--nbest 0",
            "--nbest 51",
            "--depth x",
            "--size 4",
            "--bogus 1",
            "--time",
            "--time 2 --depth 3",
            "--seed 3 h8",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let offsets = parse("--offset 0,0, 1,-1").expect("parses");
        assert_eq!(
            offsets.record().expect("ok").squares(),
            vec![(7, 7), (8, 6)]
        );
        let negative = parse("-1,0, 0,0 --offset --size 9").expect("parses");
        assert_eq!(
            (negative.size, negative.record().expect("ok").squares()),
            (Some(9), vec![(3, 4), (4, 4)])
        );
    }

    #[test]
    fn finds_the_five_and_the_vcf() {
        // Black four on row 7 (h8 i8 j8 k8): g8 or l8 wins at once.
        let out = analyse("--depth 3 h8a1i8a3j8a5k8a7");
        assert!(
            out.contains("best move: g8 (6,7)") || out.contains("best move: l8 (11,7)"),
            "{out}"
        );
        assert!(out.contains("score: +W1 (a win in 1 ply)"), "{out}");
        let solved = analyse("--solve h8a1i8a3j8a5");
        assert!(solved.contains("VCF: black wins in "), "{solved}");
        let none = analyse("--solve h8 i9");
        assert!(none.contains("no VCF or VCT found"), "{none}");
        let none = analyse("--solve vcf h8 i9");
        assert!(none.contains("no VCF found"), "{none}");
        let over = analyse("h8a1i8a3j8a5k8a7l8");
        assert!(
            over.contains("the game is over: black has five (l8)"),
            "{over}"
        );
        let many = analyse("--depth 2 --nbest 3 h8 i9");
        assert!(
            many.contains("\n3. ") && many.contains("best move: "),
            "{many}"
        );
    }
}
