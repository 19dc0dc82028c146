//! The Yixin-Board commands beyond the Gomocup protocol and its extensions
//! in `PROTOCOL.md`: opening rules (swap2, soosorv), balancing moves, the
//! defence search, blocked moves, and the hash-file and database commands
//! (not supported, but each read whole and answered once).
//!
//! The forms of the replies are the ones Yixin-Board parses (it upper-cases
//! every line first): `MESSAGE SWAP2 MOVE1 x y`, `MESSAGE SOOSORV MOVE4 x y
//! n`, `MESSAGE SOOSORV MOVE5C x y`, … with the engine's own x,y.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::Rng;

use super::live;
use super::n_best;
use crate::board::Board;
use crate::rules::is_allowed;
use crate::search::opening::{OpeningSearch, Swap2Answer, SOOSORV_MAX_FIFTHS};
use crate::search::tt::Tt;
use crate::search::vcf::Vcf;
use crate::search::vct::Vct;
use crate::search::{Iteration, Limits, Observer, SearchResult, Searcher, MATE};
use crate::types::Pos;

/// A Yixin-Board command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum YxCommand {
    /// `yxswap2step1` (empty board), `…2` (three stones on the board set
    /// by `yxboard`), `…3` (five stones).
    Swap2Step(u8),
    /// `yxsoosorvstep1`–`6` with the stones as `x,y` lines up to `done`
    /// (not for step 1); steps 4 and 5 carry the number of fifth moves.
    SoosorvStep {
        /// 1..=6.
        step: u8,
        /// The number of fifth-move candidates (steps 4 and 5).
        fifths: usize,
    },
    /// `yxblock` + `x,y` lines + `done`: leave these moves out.
    Block,
    /// `yxblockundo` + `x,y` lines + `done`: allow them again.
    BlockUndo,
    /// `yxblockreset`: allow every move again.
    BlockReset,
    /// `yxbalanceone s` (one move) or `yxbalancetwo s` (two moves): the
    /// move(s) after which the score for the side to move is nearest `s`.
    Balance {
        /// Two moves (a move and the reply) instead of one.
        two: bool,
        /// The score wanted.
        target: i32,
    },
    /// `yxsearchdefend`: which moves do not lose to a threat sequence.
    SearchDefend,
    /// `yxshowhashusage`.
    ShowHashUsage,
    /// A command not supported: answered with one `MESSAGE` (silently for
    /// the database queries the GUI sends after every move) once its data
    /// lines have been read.
    Unsupported {
        /// The command word, lower case.
        name: String,
        /// What follows it.
        data: Data,
        /// Whether to say that it is not supported.
        answer: bool,
    },
}

/// What follows a command's own line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Data {
    /// Nothing.
    None,
    /// One line: a file path.
    Path,
    /// Lines up to `done`.
    UntilDone,
}

impl YxCommand {
    /// What follows this command's line.
    pub fn data(&self) -> Data {
        match self {
            YxCommand::SoosorvStep { step, .. } if *step > 1 => Data::UntilDone,
            YxCommand::Block | YxCommand::BlockUndo => Data::UntilDone,
            YxCommand::Unsupported { data, .. } => *data,
            _ => Data::None,
        }
    }
}

/// Database commands that only ask: the GUI sends them after every move,
/// so without a database they get no reply at all.
const DATABASE_QUERIES: [&str; 4] = [
    "YXQUERYDATABASEALL",
    "YXQUERYDATABASEALLT",
    "YXQUERYDATABASEONE",
    "YXQUERYDATABASETEXT",
];

/// Commands followed by position lines up to `done`.
const WITH_LINES: [&str; 10] = [
    "YXBLOCKPATH",
    "YXBLOCKPATHUNDO",
    "YXSETBESTMOVEDATABASE",
    "YXCLEARBESTMOVEDATABASE",
    "YXEDITTVDDATABASE",
    "YXEDITTEXTDATABASE",
    "YXEDITLABELDATABASE",
    "YXDELETEDATABASEONE",
    "YXDELETEDATABASEALL",
    "YXDBTOLIB",
];

/// Commands followed by one line holding a file path.
const WITH_PATH: [&str; 11] = [
    "YXHASHDUMP",
    "YXHASHLOAD",
    "YXSETDATABASE",
    "YXDBTOPOS",
    "YXDBTOTXT",
    "YXDBTOTXTALL",
    "YXTXTTODB",
    "YXLIBTODB",
    "YXDBMERGE",
    "YXDBSPLIT",
    "RELOADCONFIG",
];

/// Commands on one line only.
const SINGLE: [&str; 8] = [
    "YXBLOCKPATHRESET",
    "YXSAVEDATABASE",
    "YXDBCHECK",
    "YXDBFIX",
    "YXPRINTFEATURE",
    "YXFORBID",
    "YXRESIGN",
    "YXDRAW",
];

/// The Yixin-Board command `word` (upper case) with arguments `rest`, or
/// `None` if `word` is not one. Bad numbers fall back to what the GUI
/// itself assumes (0 for a balance score, 1 fifth move).
pub fn parse(word: &str, rest: &str) -> Option<YxCommand> {
    let number = |default: i64| {
        rest.split_whitespace()
            .next()
            .map_or(default, |n| n.parse().unwrap_or(default))
    };
    let step = |prefix: &str| word.strip_prefix(prefix).and_then(|n| n.parse::<u8>().ok());
    if let Some(n) = step("YXSWAP2STEP").filter(|n| (1..=3).contains(n)) {
        return Some(YxCommand::Swap2Step(n));
    }
    if let Some(n) = step("YXSOOSORVSTEP").filter(|n| (1..=6).contains(n)) {
        let fifths = number(1).clamp(1, SOOSORV_MAX_FIFTHS as i64) as usize;
        return Some(YxCommand::SoosorvStep { step: n, fifths });
    }
    let target = || number(0).clamp(-10_000, 10_000) as i32;
    let unsupported = |data: Data, answer: bool| YxCommand::Unsupported {
        name: word.to_ascii_lowercase(),
        data,
        answer,
    };
    Some(match word {
        "YXBLOCK" => YxCommand::Block,
        "YXBLOCKUNDO" => YxCommand::BlockUndo,
        "YXBLOCKRESET" => YxCommand::BlockReset,
        "YXBALANCEONE" => YxCommand::Balance {
            two: false,
            target: target(),
        },
        "YXBALANCETWO" => YxCommand::Balance {
            two: true,
            target: target(),
        },
        "YXSEARCHDEFEND" => YxCommand::SearchDefend,
        "YXSHOWHASHUSAGE" => YxCommand::ShowHashUsage,
        w if DATABASE_QUERIES.contains(&w) => unsupported(Data::UntilDone, false),
        w if WITH_LINES.contains(&w) => unsupported(Data::UntilDone, true),
        w if WITH_PATH.contains(&w) => unsupported(Data::Path, true),
        w if SINGLE.contains(&w) => unsupported(Data::None, true),
        _ => return None,
    })
}

/// A Yixin-Board job for the search thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum YxJob {
    /// A step of an opening rule.
    Opening(OpeningStep),
    /// `yxbalanceone` / `yxbalancetwo`.
    Balance {
        /// Two moves.
        two: bool,
        /// The score wanted.
        target: i32,
    },
    /// `yxsearchdefend`.
    Defend,
}

/// A step of the swap2 or soosorv opening rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningStep {
    /// `yxswap2step1`–`3`.
    Swap2(u8),
    /// `yxsoosorvstep1`–`6`; for step 6 the board holds the four opening
    /// stones and `candidates` the fifth moves offered.
    Soosorv {
        /// 1..=6.
        step: u8,
        /// Fifth moves asked for (steps 4 and 5).
        fifths: usize,
        /// The fifth moves offered (step 6).
        candidates: Vec<Pos>,
    },
}

/// Everything a Yixin-Board job searches with.
pub struct Context<'a> {
    /// The table.
    pub tt: &'a mut Tt,
    /// Stops the job early.
    pub stop: &'a AtomicBool,
    /// The job's limits.
    pub limits: Limits,
    /// Moves the GUI has blocked.
    pub blocked: &'a [Pos],
    /// Live output, if the GUI asked for it.
    pub observer: Option<&'a dyn Observer>,
    /// Whether to print the per-candidate `INFO` blocks.
    pub detail: bool,
}

fn moves_line(prefix: &str, stones: &[Pos]) -> Vec<String> {
    stones
        .iter()
        .enumerate()
        .map(|(i, p)| format!("MESSAGE {prefix} MOVE{} {} {}", i + 1, p.x(), p.y()))
        .collect()
}

fn yes_no(yes: bool) -> &'static str {
    if yes {
        "YES"
    } else {
        "NO"
    }
}

/// What a Yixin-Board job answers.
pub struct Answer {
    /// The reply lines.
    pub replies: Vec<String>,
    /// The moves it answered (balance, defend), which Yixin-Board plays on
    /// its board: the side to move's first.
    pub played: Vec<Pos>,
}

/// Runs `job` on `board` (the side to move as Yixin-Board set it up).
pub fn run(job: &YxJob, board: &Board, cx: Context, rng: &mut impl Rng) -> Answer {
    let (replies, played) = match job {
        YxJob::Balance { two: false, target } => {
            let mut search = OpeningSearch {
                tt: cx.tt,
                stop: cx.stop,
                limits: cx.limits,
            };
            match search.balance_one(board, *target) {
                Some((p, score)) => (
                    vec![
                        format!("MESSAGE balance: after {p} the mover's score is {score} (wanted {target})"),
                        p.to_string(),
                    ],
                    vec![p],
                ),
                None => (vec!["ERROR no legal move".to_string()], Vec::new()),
            }
        }
        YxJob::Balance { target, .. } => {
            let mut search = OpeningSearch {
                tt: cx.tt,
                stop: cx.stop,
                limits: cx.limits,
            };
            match search.balance_two(board, *target) {
                Some(((a, b), score)) => (
                    vec![
                        format!("MESSAGE balance: after {a} {b} the side to move scores {score} (wanted {target})"),
                        format!("{a} {b}"),
                    ],
                    vec![a, b],
                ),
                None => (vec!["ERROR no legal move".to_string()], Vec::new()),
            }
        }
        YxJob::Defend => defend(board, cx),
        YxJob::Opening(step) => (opening(step, board, cx, rng), Vec::new()),
    };
    Answer { replies, played }
}

/// The replies to an opening-rule step.
fn opening(step: &OpeningStep, board: &Board, cx: Context, rng: &mut impl Rng) -> Vec<String> {
    let mut search = OpeningSearch {
        tt: cx.tt,
        stop: cx.stop,
        limits: cx.limits,
    };
    let stones = board.move_count();
    let wrong_count = |wanted: usize| {
        vec![format!(
            "ERROR {} stones on the board, {wanted} expected",
            stones
        )]
    };
    match step {
        OpeningStep::Swap2(1) => {
            let empty = Board::new(board.width(), board.height(), board.rule());
            moves_line("SWAP2", &search.canonical_opening(&empty, rng))
        }
        OpeningStep::Swap2(2) if stones != 3 => wrong_count(3),
        OpeningStep::Swap2(2) => match search.swap2_three(board) {
            Swap2Answer::Swap => vec!["MESSAGE SWAP2 SWAP1 YES".to_string()],
            Swap2Answer::TwoMoves(white, black) => vec![
                format!("MESSAGE SWAP2 MOVE4 {} {}", white.x(), white.y()),
                format!("MESSAGE SWAP2 MOVE5 {} {}", black.x(), black.y()),
            ],
            // Staying white: the GUI asks for the move next.
            _ => vec!["MESSAGE SWAP2 SWAP1 NO".to_string()],
        },
        OpeningStep::Swap2(_) if stones != 5 => wrong_count(5),
        OpeningStep::Swap2(_) => {
            let keep = search.swap2_keep_black(board);
            vec![format!("MESSAGE SWAP2 SWAP2 {}", yes_no(keep))]
        }
        OpeningStep::Soosorv { step: 1, .. } => {
            let empty = Board::new(board.width(), board.height(), board.rule());
            moves_line("SOOSORV", &search.canonical_opening(&empty, rng))
        }
        OpeningStep::Soosorv { step: 2 | 3, .. } if stones != 3 => wrong_count(3),
        OpeningStep::Soosorv { step: 2, .. } => {
            let take = search.soosorv_take_black(board);
            vec![format!("MESSAGE SOOSORV SWAP1 {}", yes_no(take))]
        }
        OpeningStep::Soosorv { step: 3, .. } => match search.soosorv_fourth(board) {
            Some((p, fifths)) => vec![format!(
                "MESSAGE SOOSORV MOVE4 {} {} {fifths}",
                p.x(),
                p.y()
            )],
            None => vec!["ERROR no legal move".to_string()],
        },
        OpeningStep::Soosorv { .. } if stones != 4 => wrong_count(4),
        OpeningStep::Soosorv {
            step: 4, fifths, ..
        } => {
            let take = search.soosorv_take_white(board, *fifths);
            vec![format!("MESSAGE SOOSORV SWAP2 {}", yes_no(take))]
        }
        OpeningStep::Soosorv {
            step: 5, fifths, ..
        } => {
            let mut replies: Vec<String> = search
                .soosorv_fifths(board, *fifths)
                .iter()
                .map(|p| format!("MESSAGE SOOSORV MOVE5 {} {}", p.x(), p.y()))
                .collect();
            replies.push("MESSAGE SOOSORV MOVE5 REFRESH".to_string());
            replies.push("MESSAGE SOOSORV MOVE5 DONE".to_string());
            replies
        }
        OpeningStep::Soosorv { candidates, .. } => {
            match search.soosorv_pick_fifth(board, candidates) {
                Some(p) => vec![format!("MESSAGE SOOSORV MOVE5C {} {}", p.x(), p.y())],
                None => vec!["ERROR no fifth move offered".to_string()],
            }
        }
    }
}

/// Node budget of each threat search of the defence search.
const DEFEND_NODES: u64 = 30_000;
/// Most defences the defence search goes on to search and report.
const DEFENCES_SHOWN: usize = 8;

/// `yxsearchdefend`: tries every move near the stones and marks at once
/// those after which the opponent wins by fours or threats (`MESSAGE
/// REALTIME LOSE`), then searches the best defences among the others one
/// after another (as `YXNBEST` does: live per-candidate output) and answers
/// the best of them.
fn defend(board: &Board, cx: Context) -> (Vec<String>, Vec<Pos>) {
    let Context {
        tt,
        stop,
        limits,
        blocked,
        observer,
        detail,
    } = cx;
    let mut work = board.clone();
    let us = work.side_to_move();
    let candidates: Vec<Pos> = board
        .cells()
        .filter(|&p| board.is_empty(p) && board.has_neighbour(p) && !blocked.contains(&p))
        .filter(|&p| is_allowed(&mut work, p, us))
        .collect();
    // At most half the time for the threat searches, the rest for the search.
    let threat_time = limits.budget.hard / 2;
    let mut losing: Vec<(Pos, i32)> = Vec::new();
    for (i, &pos) in candidates.iter().enumerate() {
        let elapsed = limits.start.elapsed();
        if elapsed >= threat_time {
            break;
        }
        let time = (threat_time - elapsed) / (candidates.len() - i) as u32;
        work.make(pos);
        if work.last_move().is_some_and(|p| work.is_five_at(p)) {
            work.unmake();
            continue;
        }
        let mut line = Vcf::new(&work, stop, Instant::now(), time / 2, DEFEND_NODES).solve();
        if line.is_none() {
            line = Vct::new(&work, stop, Instant::now(), time / 2, DEFEND_NODES).solve();
        }
        work.unmake();
        if let Some(line) = line {
            let score = -(MATE - line.len() as i32 - 1);
            losing.push((pos, score));
            if let Some(observer) = observer {
                observer.leaving(0, pos, score, false);
            }
        }
    }
    let holding = candidates.len() - losing.len();
    let mut replies = Vec::new();
    if observer.is_none() {
        replies.extend(
            losing
                .iter()
                .map(|(p, _)| format!("MESSAGE REALTIME LOSE {p}")),
        );
    }
    replies.push(format!(
        "MESSAGE defend: {holding} of {} moves do not lose to fours or threats",
        candidates.len()
    ));
    let mut excluded: Vec<Pos> = blocked.to_vec();
    excluded.extend(losing.iter().map(|l| l.0));
    let shown = holding.min(DEFENCES_SHOWN);
    let mut results = if shown > 0 {
        if let Some(observer) = observer {
            observer.candidates(shown);
        }
        n_best(board, tt, stop, limits, shown, &excluded, observer)
    } else {
        let all_lose = Searcher::new(board, tt, stop, limits)
            .excluding(blocked)
            .observed(observer)
            .run(None);
        vec![all_lose]
    };
    results.retain(|r| r.best.is_some());
    score_lone_moves(board, tt, stop, limits, observer, &mut results);
    results.sort_by_key(|r| std::cmp::Reverse(r.score));
    if detail {
        let depth = results.iter().map(|r| r.depth).min().unwrap_or(0);
        let mut report = results.clone();
        report.extend(losing.iter().map(|&(pos, score)| SearchResult {
            best: Some(pos),
            score,
            depth,
            pv: vec![pos],
            ..SearchResult::default()
        }));
        replies.extend(live::final_blocks(&report));
    }
    match results.first().and_then(|r| r.best) {
        Some(best) => {
            replies.push(best.to_string());
            (replies, vec![best])
        }
        None => {
            replies.push("ERROR no legal move".to_string());
            (replies, Vec::new())
        }
    }
}

/// Shows the search of the position after `pos` as the search of `pos`:
/// each iteration with the score negated and `pos` in front of the line.
struct AsMove<'a> {
    inner: &'a dyn Observer,
    pos: Pos,
}

impl Observer for AsMove<'_> {
    fn iteration(&self, iteration: &Iteration, pv: &[Pos]) {
        let as_move = Iteration {
            depth: iteration.depth + 1,
            score: -iteration.score,
            best: self.pos,
            ..*iteration
        };
        let line: Vec<Pos> = std::iter::once(self.pos)
            .chain(pv.iter().copied())
            .collect();
        self.inner.iteration(&as_move, &line);
    }
}

/// Gives a score to the n-best results that had no search (the last move
/// left is answered at once, with no score): a search of the position after
/// it, within the time left, shown live as the search of that move.
pub fn score_lone_moves(
    board: &Board,
    tt: &mut Tt,
    stop: &AtomicBool,
    limits: Limits,
    observer: Option<&dyn Observer>,
    results: &mut [SearchResult],
) {
    for result in results.iter_mut().filter(|r| r.depth == 0) {
        let Some(pos) = result.best else { continue };
        let mut after = board.clone();
        after.make(pos);
        if after.is_five_at(pos) {
            continue;
        }
        let mut part = limits;
        let elapsed = limits.start.elapsed();
        part.start = Instant::now();
        part.budget.soft = limits.budget.soft.saturating_sub(elapsed);
        part.budget.hard = limits.budget.hard.saturating_sub(elapsed);
        let as_move = observer.map(|inner| AsMove { inner, pos });
        let reply = Searcher::new(&after, tt, stop, part)
            .observed(as_move.as_ref().map(|o| o as &dyn Observer))
            .run(None);
        result.score = -reply.score;
        result.depth = reply.depth + 1;
        result.nodes += reply.nodes;
        result.pv = std::iter::once(pos).chain(reply.pv).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_their_data() {
        assert_eq!(parse("YXSWAP2STEP2", ""), Some(YxCommand::Swap2Step(2)));
        assert_eq!(parse("YXSWAP2STEP4", ""), None);
        assert_eq!(
            parse("YXSOOSORVSTEP5", "3"),
            Some(YxCommand::SoosorvStep { step: 5, fifths: 3 })
        );
        assert_eq!(
            parse("YXSOOSORVSTEP4", "99").map(|c| c.data()),
            Some(Data::UntilDone)
        );
        assert_eq!(
            parse("YXSOOSORVSTEP1", "").map(|c| c.data()),
            Some(Data::None)
        );
        assert_eq!(
            parse("YXBALANCETWO", "-40"),
            Some(YxCommand::Balance {
                two: true,
                target: -40
            })
        );
        assert_eq!(
            parse("YXBALANCEONE", "x"),
            Some(YxCommand::Balance {
                two: false,
                target: 0
            })
        );
        assert_eq!(parse("YXHASHDUMP", "").map(|c| c.data()), Some(Data::Path));
        assert_eq!(
            parse("YXQUERYDATABASEALL", "").map(|c| c.data()),
            Some(Data::UntilDone)
        );
        assert_eq!(parse("YXRESIGN", "").map(|c| c.data()), Some(Data::None));
        assert_eq!(parse("YXFROBNICATE", ""), None);
    }
}
