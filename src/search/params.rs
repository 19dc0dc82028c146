//! The search's tunable parameters, all in one place: every margin, depth,
//! move count, node budget and time factor the search plays by, named and
//! documented. Values tried and not kept are named in one line; the full
//! records are in `docs/tuning.md`, each heuristic's own tag is at its code.
//!
//! The searcher reads them from [`Params`], whose [`Params::DEFAULT`] is
//! what Wuzi plays by. A tuner changes them without a rebuild: the command
//! line's `--param NAME=VALUE` (NAME a field below) sets them once at start
//! ([`install`]), and `scripts/spsa.py` drives matches that way. The VCT
//! solver's own limits stay constants at the end of this file: one of them
//! sizes the solver's line buffer.
//!
//! Freestyle's, renju's and standard's evaluation formulas are here too,
//! for tuning only: their numbers default to the ones the built-in tables
//! were made by, and other numbers install tables made from them
//! (`eval::formula`; caro keeps its built-in tables). The tables themselves
//! are the evaluation's. Not here: the limits that only size the search
//! (`MAX_PLY`, `MAX_DEPTH`, the table sizes), the clock's safety margin
//! (`time.rs`: never losing on time is not a trade-off) and the opening and
//! swap2 probes (`opening.rs`).

use std::sync::OnceLock;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::eval::formula::{self, Formula};
use crate::eval::{self, tables::table_set};
use crate::types::{Color, Pattern, Rule, Threat};

/// Defines [`Params`] from one list: each field with its doc comment, type,
/// default and the values `--param` accepts; then, under `@formula`, each
/// number of the evaluation formula as freestyle's, renju's and standard's
/// field, the [`Formula`] entry it sets and its values (`i32`, defaults from
/// [`Formula::FREESTYLE`], [`Formula::RENJU`] and [`Formula::STANDARD`]),
/// with [`Params::formula`], [`Params::renju_formula`] and
/// [`Params::standard_formula`] made from them.
macro_rules! params {
    (
        $( $(#[$doc:meta])* $name:ident: $ty:ty = $default:expr, $range:expr; )*
        @formula {
            $( $(#[$fdoc:meta])* $free:ident, $renju:ident, $standard:ident:
                $entry:ident $([$index:expr])?, $frange:expr; )*
        }
    ) => {
        params!(@fields
            $( $(#[$doc])* $name: $ty = $default, $range; )*
            $( $(#[$fdoc])* $free: i32 = Formula::FREESTYLE.$entry $([$index])?, $frange; )*
            $( $(#[$fdoc])* $renju: i32 = Formula::RENJU.$entry $([$index])?, $frange; )*
            $( $(#[$fdoc])* $standard: i32 = Formula::STANDARD.$entry $([$index])?, $frange; )*
        );

        impl Params {
            /// Freestyle's evaluation formula with these parameters' numbers.
            pub fn formula(&self) -> Formula {
                let mut formula = Formula::FREESTYLE;
                $( formula.$entry $([$index])? = self.$free; )*
                formula
            }

            /// Renju's evaluation formula (both colours) with these
            /// parameters' numbers.
            pub fn renju_formula(&self) -> Formula {
                let mut formula = Formula::RENJU;
                $( formula.$entry $([$index])? = self.$renju; )*
                formula
            }

            /// Standard's evaluation formula with these parameters' numbers.
            pub fn standard_formula(&self) -> Formula {
                let mut formula = Formula::STANDARD;
                $( formula.$entry $([$index])? = self.$standard; )*
                formula
            }
        }
    };
    (@fields $( $(#[$doc:meta])* $name:ident: $ty:ty = $default:expr, $range:expr; )*) => {
        /// The search's parameters (see the module's documentation).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Params {
            $( $(#[$doc])* pub $name: $ty, )*
        }

        impl Params {
            /// The values Wuzi plays by.
            pub const DEFAULT: Params = Params { $( $name: $default, )* };

            /// Every parameter's name, in the order of the fields.
            pub const NAMES: &'static [&'static str] = &[$( stringify!($name), )*];

            /// Sets the parameter `name` to `value` (a number within the
            /// parameter's range).
            pub fn set(&mut self, name: &str, value: &str) -> Result<()> {
                match name {
                    $( stringify!($name) => {
                        let range = $range;
                        let parsed: $ty = value.trim().parse().ok().filter(|v| range.contains(v))
                            .with_context(|| format!(
                                "bad value {value:?} for {name}: {} to {}",
                                range.start(), range.end()
                            ))?;
                        self.$name = parsed;
                    } )*
                    _ => bail!("unknown parameter {name:?}; known: {}", Self::NAMES.join(", ")),
                }
                Ok(())
            }

            /// The parameters whose default lies outside the values
            /// `--param` accepts (none, as a test checks).
            #[cfg(test)]
            fn defaults_out_of_range() -> Vec<&'static str> {
                let mut names = Vec::new();
                $( if !($range).contains(&Self::DEFAULT.$name) {
                    names.push(stringify!($name));
                } )*
                names
            }
        }
    };
}

params! {
    // Iterative deepening

    /// Half-width of the first aspiration window around the last score.
    aspiration_window: i32 = 60, 1..=1000;
    /// Iterations from which aspiration windows are used.
    aspiration_depth: i32 = 5, 1..=64;
    /// Factor by which a failed aspiration window widens.
    aspiration_growth: i32 = 2, 2..=16;

    // Alpha-beta: pruning and reductions

    /// Depth up to which reverse futility pruning applies. Tried: 6, with
    /// move-count pruning to depth 6 too (27 and 35 quiet moves at depths 5
    /// and 6: −7.4 Elo, 236 games); Rapfi's pruning by the evaluation at
    /// every depth with its history table: −7.2 of 100 (docs/tuning.md).
    pruning_depth: i32 = 4, 0..=64;
    /// Margin per remaining ply of reverse futility pruning. (Razoring at
    /// depths 1 and 2 with margins 60 and 100 below alpha: −7.5 Elo, 600
    /// games; into the quiescence of chains of fours with 45 and 70: −14.6
    /// Elo, 167 games; neither kept.)
    futility_margin: i32 = 90, 0..=2000;
    /// Move-count pruning: at every depth, a non-PV node searches at most
    /// `move_count_base + depth^move_count_exponent` quiet moves
    /// (truncated), half as many when its static evaluation is not above
    /// its grandparent's (the side to move is not improving). (Before:
    /// 6/10/14/20 quiet moves at depths 1–4 only. Counting every move, in PV
    /// nodes too: −16.3 Elo, 277 games against Rapfi; counting every move
    /// and pruning one-three moves: +18.0 Elo in self-play with two other
    /// changes, 1200 games, not kept; docs/tuning.md.)
    move_count_base: f32 = 3.0, 0.0..=100.0;
    /// The exponent of the move-count limit's growth with depth.
    move_count_exponent: f32 = 1.32, 0.0..=3.0;
    /// Late-move reductions apply from this depth on...
    lmr_min_depth: i32 = 3, 2..=64;
    /// ...to quiet moves from this place in the move order on (0 = first).
    /// Tried: every move after the first from depth 2 by Rapfi's base
    /// reduction (−17.5 of 200 points against Rapfi; docs/tuning.md). The
    /// other way, Wuzi's reduction (these settings) in place of Rapfi's in
    /// Rapfi's search with Wuzi's evaluation and policy cost Rapfi 38.5 of
    /// 100 points against main; Rapfi's base reduction with its pruning by
    /// the evaluation and its history table: −16.6 of 200 (docs/tuning.md).
    lmr_min_index: usize = 3, 1..=400;
    /// Constant term of the late-move reduction `base + ln(depth)·ln(index)
    /// / divisor` (truncated). Tried: the reduction unrounded, with depth in
    /// sixteenths of a ply: −14.6 of 200 points against Rapfi; with base 0
    /// (the mean of this rounding): −13.1 of 200 (docs/tuning.md).
    lmr_base: f32 = 0.5, -4.0..=4.0;
    /// Divisor of the late-move reduction's logarithmic term. Tried: 1.4
    /// (−2.2 Elo, 472 games).
    lmr_divisor: f32 = 1.8, 0.1..=100.0;
    /// Under the rules [`Params::prunes_threes_under`] names: move-count
    /// pruning also skips moves that make one open three (no four, no stop
    /// of a double threat) when 1; they count with the quiet moves. 0: only
    /// quiet moves.
    move_count_threes: i32 = 1, 0..=1;
    /// Under the rules [`Params::reduces_answers_under`] names: facing an
    /// open three, every answer after the first that makes no four of ours
    /// is searched this many plies shallower than a late quiet move would
    /// be (from `lmr_min_depth` on). 2 rather than 1 under freestyle: +7.5
    /// points of 400 against Rapfi, within the noise; 3: 24.5 of 98 where
    /// main scored 35.5.
    defence_reduction: i32 = 2, -64..=64;
    /// Under the same rules: facing an open three, a four of ours that stops
    /// nothing and lies more than four cells from the opponent's last move
    /// (a delay, not a defence) is searched this many plies shallower,
    /// after the first move.
    distant_four_reduction: i32 = 2, 0..=64;

    // Extensions

    /// Depth from which a table move may be extended as singular...
    singular_depth: i32 = 7, 2..=65;
    /// ...when its table entry is at most this many plies shallower...
    singular_tt_depth: i32 = 2, 0..=64;
    /// ...and every other move, searched to half the depth, stays this far
    /// per ply below the table score. Tried: 1 (+4.5 of 200 renju points
    /// against Rapfi, paired SE 7.1; 0.0 of 200 freestyle points, 7.8).
    singular_margin: i32 = 2, 0..=200;

    // Quiescence

    /// Most plies the quiescence search follows: chains of fours of the
    /// side to move and their blocks (blocks of fours already on the board
    /// always), the chain kept near our last move and from the third four on
    /// to fours that also make a three or an open two (+71.0 Elo, 253 games,
    /// 10 s + 0.1 s, against one four and its block). Tried without those
    /// restrictions: 4 (−41.9 Elo, 100 games), 24 (−74.1 Elo, 100 games).
    max_quiescence_ply: i32 = 16, 0..=32;
    /// Quiescence plies from which the side to move's fours must lie near
    /// its own last move (the 5×5 square around it, its lines to four
    /// cells): from its second four on. Under freestyle, see the next.
    quiescence_near_ply: i32 = 2, 0..=32;
    /// The same under freestyle: from the side to move's first four on, as
    /// in Rapfi's quiescence (127.0 of 400 freestyle points against Rapfi
    /// over four runs, about 3.5 a hundred above 2, the same moves in less
    /// time; under renju 46.0 of 168 where earlier builds scored 57.0 and
    /// 52.0 over the same games; under standard 148.5 of 400 where main
    /// scored 152.5; caro is not measured; docs/tuning.md).
    freestyle_quiescence_near_ply: i32 = 0, 0..=32;
    /// The root side's optimism under freestyle (see
    /// [`Params::optimism_under`]): in the static evaluation the table sums
    /// of the root side's opponent weigh this many percent less, so that
    /// the search thinks better of the root side's chances than of its
    /// opponent's. 15: +12.5 of 400 points against Rapfi over the same
    /// games (paired standard error 10.7; its black +15.5, its white −3.0);
    /// 30: 23.0 of 61 where 15 scored 27.0; −20 (pessimism): 7.0 of 35
    /// where 0 scored 14.5 (docs/tuning.md).
    freestyle_optimism: i32 = 15, -100..=90;
    /// The same under the other rules: 15 and −15 scored 34.0 and 34.0 of
    /// 100 renju points where 0 scored 39.5, and 27.0 and 30.5 of 100
    /// standard points where 0 scored 30.0 (docs/tuning.md).
    optimism: i32 = 0, -100..=90;
    /// Quiescence plies from which only fours that also make a three or an
    /// open two continue the chain: from the side to move's third four on.
    quiescence_plus_four_ply: i32 = 4, 0..=32;

    // Time: how much of the budget one search uses

    /// Iterations from which the soft limit stretches or shrinks.
    time_scaling_depth: i32 = 4, 0..=64;
    /// Share of the soft limit while the best move just changed.
    time_unstable_share: f64 = 1.5, 0.1..=10.0;
    /// Iterations the best move must hold before the soft limit shrinks...
    time_stable_iterations: i32 = 4, 1..=64;
    /// ...to this share.
    time_stable_share: f64 = 0.6, 0.1..=10.0;
    /// A score this far below the last iteration's (twice the first
    /// aspiration window)...
    time_score_drop: i32 = 120, 0..=10_000;
    /// ...multiplies the share by this. Tried: 2 after a drop of 80 (+1.0
    /// of 200 freestyle points against Rapfi, zero; docs/tuning.md).
    time_drop_factor: f64 = 1.3, 0.1..=10.0;
    /// How many more own moves a game is assumed to last when sharing out
    /// the game clock. 8 against 20: +41.9 Elo, 12 against 20: +27.9 (100
    /// games each).
    moves_to_go: u64 = 8, 1..=1000;
    /// Never spend more than this fraction (1/n) of the remaining game time
    /// on one move.
    max_share_of_left: u64 = 5, 1..=1000;
    /// The soft limit (start no new iteration) as a percentage of the
    /// optimum time for a move.
    soft_percent: u64 = 60, 1..=100;

    // Root solvers and the safety check

    /// Node budget of the VCF search at the root. Tried: 200 k nodes with
    /// 1/4 of the time (−40.7 Elo, 120 games).
    root_vcf_nodes: u64 = 100_000, 0..=1_000_000_000;
    /// The root VCF search gets at most this fraction (1/n) of the hard
    /// time limit.
    root_vcf_time_share: u32 = 10, 1..=1000;
    /// Node budget of the VCT search at the root (its VCF searches
    /// included). Tried: 300 k (+14.1 Elo in 1600 self-play games, but 22
    /// against 37 points over the same 200 games against Rapfi).
    root_vct_nodes: u64 = 100_000, 0..=1_000_000_000;
    /// The root VCT search gets at most this fraction (1/n) of the hard
    /// time limit, counted from when it starts (after the VCF search).
    root_vct_time_share: u32 = 10, 1..=1000;
    /// Nodes the safety check may spend proving that the chosen move does
    /// not allow the opponent a win by fours, and looking for one that does
    /// not.
    safety_vcf_nodes: u64 = 100_000, 0..=1_000_000_000;
    /// Nodes the safety check may spend on the opponent's VCT solves: after
    /// the chosen move and, if it finds a win there, after the others.
    /// Tried: 400 k more nodes and a third of the hard limit for the others
    /// alone (+0.5 of 600 points against Rapfi over three rules, zero).
    safety_vct_nodes: u64 = 100_000, 0..=1_000_000_000;

    // The evaluation formula, freestyle's, renju's and standard's numbers
    // (tuning only: tables made from other numbers replace the built-in
    // ones, see `eval::formula`; renju's serve both colours, black's
    // forbidden points worth nothing)

    @formula {
        /// Value of a closed one on a cell's line.
        cell_block1, renju_cell_block1, standard_cell_block1:
            pattern[Pattern::Block1 as usize], 0..=5000;
        /// Value of an open one on a cell's line.
        cell_flex1, renju_cell_flex1, standard_cell_flex1:
            pattern[Pattern::Flex1 as usize], 0..=5000;
        /// Value of a closed two on a cell's line.
        cell_block2, renju_cell_block2, standard_cell_block2:
            pattern[Pattern::Block2 as usize], 0..=5000;
        /// Value of an open two on a cell's line.
        cell_flex2, renju_cell_flex2, standard_cell_flex2:
            pattern[Pattern::Flex2 as usize], 0..=5000;
        /// Value of a closed three on a cell's line.
        cell_block3, renju_cell_block3, standard_cell_block3:
            pattern[Pattern::Block3 as usize], 0..=5000;
        /// Value of an open three on a cell's line.
        cell_flex3, renju_cell_flex3, standard_cell_flex3:
            pattern[Pattern::Flex3 as usize], 0..=5000;
        /// Value of a four on a cell's line.
        cell_block4, renju_cell_block4, standard_cell_block4:
            pattern[Pattern::Block4 as usize], 0..=5000;
        /// Value of two fours on one line through a cell (such as `X.XXX.X`).
        cell_double_four, renju_cell_double_four, standard_cell_double_four:
            pattern[Pattern::DoubleFour as usize], 0..=5000;
        /// Value of an open four on a cell's line.
        cell_flex4, renju_cell_flex4, standard_cell_flex4:
            pattern[Pattern::Flex4 as usize], 0..=5000;
        /// Extra value of a cell where a stone makes a closed three or an open two.
        bonus_two, renju_bonus_two, standard_bonus_two:
            class[Threat::Two as usize], 0..=5000;
        /// Extra value of a cell where a stone makes one open three.
        bonus_three, renju_bonus_three, standard_bonus_three:
            class[Threat::Three as usize], 0..=5000;
        /// Extra value of a cell where a stone makes two open threes.
        bonus_double_three, renju_bonus_double_three, standard_bonus_double_three:
            class[Threat::DoubleThree as usize], 0..=5000;
        /// Extra value of a cell where a stone makes one four.
        bonus_four, renju_bonus_four, standard_bonus_four:
            class[Threat::Four as usize], 0..=5000;
        /// Extra value of a cell where a stone makes a four with an open three.
        bonus_four_three, renju_bonus_four_three, standard_bonus_four_three:
            class[Threat::FourThree as usize], 0..=5000;
        /// Extra value of a cell where a stone makes an open four or a double four.
        bonus_flex4, renju_bonus_flex4, standard_bonus_flex4:
            class[Threat::Flex4 as usize], 0..=5000;
        /// A cell's worth to the side to move, per unit of value.
        cell_mover, renju_cell_mover, standard_cell_mover:
            mover, 0..=256;
        /// A cell's worth to the side waiting, per unit of value.
        cell_waiter, renju_cell_waiter, standard_cell_waiter:
            waiter, 0..=256;
    }
}

impl Params {
    /// Whether the search under `rule` prunes one-three moves by move count:
    /// when [`Params::move_count_threes`] asks for it, under freestyle, with
    /// the answers' reductions below (+11.5 points of 400 against Rapfi,
    /// docs/tuning.md); not under renju, where with them it scored −6.5 of
    /// 200 points (the reductions alone +15.5 of 400), nor standard, where
    /// with them it scored 0.5 of 400 points below main, nor caro, which
    /// is not measured.
    pub fn prunes_threes_under(&self, rule: Rule) -> bool {
        self.move_count_threes == 1 && rule == Rule::Freestyle
    }

    /// Whether the search under `rule` reduces the answers to an open three
    /// after the first ([`Params::defence_reduction`],
    /// [`Params::distant_four_reduction`]): under freestyle, renju and
    /// standard (against Rapfi, renju +15.5 points of 400, standard +17.5
    /// of 400, its white +16.0; docs/tuning.md); not caro, not measured.
    pub fn reduces_answers_under(&self, rule: Rule) -> bool {
        matches!(rule, Rule::Freestyle | Rule::Renju | Rule::Standard)
    }

    /// The root side's optimism under `rule`, in percent: freestyle's own,
    /// else the others'.
    pub fn optimism_under(&self, rule: Rule) -> i32 {
        if rule == Rule::Freestyle {
            self.freestyle_optimism
        } else {
            self.optimism
        }
    }

    /// The quiescence ply from which the side to move's fours must lie near
    /// its own last move under `rule`: freestyle's own, else the others'.
    pub fn quiescence_near_ply_under(&self, rule: Rule) -> i32 {
        if rule == Rule::Freestyle {
            self.freestyle_quiescence_near_ply
        } else {
            self.quiescence_near_ply
        }
    }
}

/// The parameters this process searches with, once [`install`]ed.
static INSTALLED: OnceLock<Params> = OnceLock::new();

/// Makes `params` the parameters of every search of this process. Only the
/// command line calls it, once, before the first search; a second call
/// fails.
pub fn install(params: Params) -> Result<()> {
    let mut formulas = formula::BUILT_IN;
    let tuned = [
        (Rule::Freestyle, params.formula()),
        (Rule::Renju, params.renju_formula()),
        (Rule::Standard, params.standard_formula()),
    ];
    for (rule, rule_formula) in tuned {
        for color in [Color::Black, Color::White] {
            formulas[table_set(rule, color)] = rule_formula;
        }
    }
    if formulas != formula::BUILT_IN {
        eval::tables::install(formula::tables(&formulas)).map_err(anyhow::Error::msg)?;
    }
    INSTALLED
        .set(params)
        .map_err(|_| anyhow::anyhow!("the search parameters are already set"))
}

/// The parameters searches use: the [`install`]ed ones, else the defaults.
pub fn active() -> &'static Params {
    INSTALLED.get().unwrap_or(&Params::DEFAULT)
}

/// Reads `NAME=VALUE` settings (the command line's `--param`) over the
/// defaults.
pub fn parse_settings<S: AsRef<str>>(settings: &[S]) -> Result<Params> {
    let mut params = Params::DEFAULT;
    for setting in settings {
        let setting = setting.as_ref();
        let (name, value) = setting
            .split_once('=')
            .with_context(|| format!("bad parameter setting {setting:?}: want NAME=VALUE"))?;
        params.set(name.trim(), value)?;
    }
    Ok(params)
}

// The VCT solver (constants: the first sizes the solver's line buffer)

/// Most attacker moves (forced blocks not counted) before the VCF tail: the
/// last iteration of the VCT's iterative deepening.
pub const VCT_MAX_THREATS: u32 = 24;
/// Nodes the VCF solver may spend at one attacker node of the VCT.
pub const VCT_VCF_NODES: u64 = 500;
/// Extra nodes for writing the VCT's winning line down...
pub const VCT_LINE_NODES: u64 = 20_000;
/// ...and extra time.
pub const VCT_LINE_TIME: Duration = Duration::from_millis(50);

#[cfg(test)]
mod tests {
    use super::*;

    /// Freestyle prunes one-three moves and reduces the answers to an open
    /// three; renju and standard only reduce the answers; caro does neither.
    #[test]
    fn the_selective_defence_is_freestyles_and_renju_and_standard_reduce_the_answers() {
        let params = Params::DEFAULT;
        let rules = [Rule::Freestyle, Rule::Renju, Rule::Standard, Rule::Caro];
        let prunes = rules.map(|rule| params.prunes_threes_under(rule));
        let reduces = rules.map(|rule| params.reduces_answers_under(rule));
        assert_eq!(prunes, [true, false, false, false]);
        assert_eq!(reduces, [true, true, true, false]);
    }

    #[test]
    fn settings_override_the_defaults_by_name() {
        let params = parse_settings(&["futility_margin=95", " lmr_divisor = 1.75"]).unwrap();
        assert_eq!(params.futility_margin, 95);
        assert_eq!(params.lmr_divisor, 1.75);
        assert_eq!(
            Params {
                futility_margin: 90,
                lmr_divisor: 1.8,
                ..params
            },
            Params::DEFAULT
        );
    }

    #[test]
    fn bad_settings_are_refused_with_the_reason() {
        let error = |s: &str| parse_settings(&[s]).unwrap_err().to_string();
        assert!(error("futility_margin").contains("NAME=VALUE"));
        assert!(error("no_such=1").contains("unknown parameter"));
        assert!(error("futility_margin=9.5").contains("bad value"));
        assert!(error("moves_to_go=0").contains("1 to 1000"));
        assert!(error("lmr_base=nan").contains("bad value"));
    }

    #[test]
    fn the_formula_numbers_map_to_their_own_entries() {
        assert_eq!(Params::DEFAULT.formula(), Formula::FREESTYLE);
        assert_eq!(Params::DEFAULT.renju_formula(), Formula::RENJU);
        assert_eq!(Params::DEFAULT.standard_formula(), Formula::STANDARD);
        let params = parse_settings(&["cell_flex2=40", "bonus_four=200", "cell_mover=30"]).unwrap();
        let mut expected = Formula::FREESTYLE;
        expected.pattern[Pattern::Flex2 as usize] = 40;
        expected.class[Threat::Four as usize] = 200;
        expected.mover = 30;
        assert_eq!(params.formula(), expected);
        assert_eq!(params.renju_formula(), Formula::RENJU);
        let params = parse_settings(&["renju_cell_flex2=40", "renju_cell_waiter=30"]).unwrap();
        let mut expected = Formula::RENJU;
        expected.pattern[Pattern::Flex2 as usize] = 40;
        expected.waiter = 30;
        assert_eq!(params.renju_formula(), expected);
        assert_eq!(params.formula(), Formula::FREESTYLE);
        let params = parse_settings(&["standard_bonus_three=70"]).unwrap();
        let mut expected = Formula::STANDARD;
        expected.class[Threat::Three as usize] = 70;
        assert_eq!(params.standard_formula(), expected);
        assert_eq!(params.renju_formula(), Formula::RENJU);
        assert_eq!(params.formula(), Formula::FREESTYLE);
    }

    #[test]
    fn every_default_is_within_its_own_range() {
        assert_eq!(Params::defaults_out_of_range(), Vec::<&str>::new());
    }
}
