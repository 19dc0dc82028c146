//! The board: stones on a padded array, with line patterns, threat classes,
//! the evaluation's table sums and the Zobrist hash all kept up to date move
//! by move.
//!
//! Every empty cell carries, for each colour, the [`Pattern`] a stone there
//! would make on each of its four lines, the combined [`Threat`] and the
//! [pattern code](crate::eval::code) that indexes the evaluation's tables
//! ([`crate::eval::tables`]); the board keeps each colour's sums of its table
//! entries over the empty cells.
//! A move touches only the cells within five steps on its four lines. Counts
//! of each threat class per colour answer "does anyone have a five / open
//! four / three?" in O(1); for the threat solvers a board may also keep the
//! sets of cells where each colour makes a four or an open three
//! ([`Board::track_threat_cells`]), so that they need not scan the board.

mod cellset;
pub mod pattern;
pub mod threat;
mod zobrist;

pub use cellset::CellSet;
use cellset::ThreatCells;

use crate::eval;
use crate::eval::tables::{policies, table_set, worths, Policies, Worths};
use crate::types::{Color, Pattern, Pos, Rule, Threat, CELLS, DIRECTIONS, MAX_SIZE, STRIDE};
use pattern::{field_of, PairTable};
use std::ops::Range;
use threat::{Combo, COMBO_SLOTS};

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// No stone.
    Empty,
    /// A stone of this colour.
    Stone(Color),
    /// Off the board, or a blocked cell (a continuous-game marker).
    Wall,
}

impl Cell {
    /// The two-bit code of this cell in a line key seen from black.
    fn key_code(self) -> u32 {
        match self {
            Cell::Empty => pattern::EMPTY,
            Cell::Stone(Color::Black) => pattern::MINE,
            Cell::Stone(Color::White) => pattern::THEIRS,
            Cell::Wall => pattern::WALL,
        }
    }
}

/// Most stones a board can hold.
pub const MAX_MOVES: usize = MAX_SIZE * MAX_SIZE;

/// Everything the board knows about one empty cell.
#[derive(Clone, Copy, Debug)]
struct CellInfo {
    /// Per line: both colours' patterns as the [pair table](PairTable)
    /// holds them, black's in the low four bits and white's in the high.
    lines: [u8; 4],
    /// Both colours' [combination indices](threat::combo_index) of the four
    /// patterns, black's in the low 16 bits and white's in the high: the sum
    /// of the lines' [terms](threat::LINE_COMBO_TERMS).
    combos: u32,
    /// Per colour: the combination's entry, its threat class and
    /// [pattern code](eval::code).
    classes: [Combo; 2],
    /// Per colour: the threat class, as `classes` holds it: read without
    /// unpacking.
    threats: [Threat; 2],
}

/// The cell with four dead lines.
const NO_INFO: CellInfo = CellInfo {
    lines: [0; 4],
    combos: 0,
    classes: [Combo::new(Threat::None, eval::code::DEAD); 2],
    threats: [Threat::None; 2],
};

/// An empty cell's state before a move changed it, kept so that undoing the
/// move restores it instead of recomputing it.
#[derive(Clone, Copy)]
struct SavedCell {
    pos: Pos,
    info: CellInfo,
}

/// The smallest rectangle of columns and rows holding every stone.
#[derive(Clone, Copy, Debug)]
struct StoneBox {
    x: (u8, u8),
    y: (u8, u8),
}

impl StoneBox {
    /// The box of no stone: lowest above highest.
    const EMPTY: StoneBox = StoneBox {
        x: (u8::MAX, 0),
        y: (u8::MAX, 0),
    };

    /// The box grown to hold a stone on `pos`.
    fn with(self, pos: Pos) -> StoneBox {
        let (x, y) = (pos.x() as u8, pos.y() as u8);
        StoneBox {
            x: (self.x.0.min(x), self.x.1.max(x)),
            y: (self.y.0.min(y), self.y.1.max(y)),
        }
    }
}

/// The counts, sums and stone box before a move, and where its saved cells
/// begin.
#[derive(Clone, Copy)]
struct Frame {
    saved_from: u16,
    /// Where the threat cell sets' changes begin in their log.
    threat_cells_from: u16,
    threat_counts: [[u16; Threat::COUNT]; 2],
    table_sums: [[i32; 2]; 2],
    stone_box: StoneBox,
}

const NO_FRAME: Frame = Frame {
    saved_from: 0,
    threat_cells_from: 0,
    threat_counts: [[0; Threat::COUNT]; 2],
    table_sums: [[0; 2]; 2],
    stone_box: StoneBox::EMPTY,
};

/// Most empty cells one move can change: ten on each of four lines.
const CELLS_PER_MOVE: usize = 40;

/// Most changes of the threat cell sets a move logs: one per changed cell
/// (both colours' sets at once), and one for the stone's own cell.
const SET_CHANGES_PER_MOVE: usize = CELLS_PER_MOVE + 1;

// A frame's marks fit in 16 bits, and a frame in a cache line.
const _: () = assert!(MAX_MOVES * SET_CHANGES_PER_MOVE <= 1 << 16);
const _: () = assert!(std::mem::size_of::<Frame>() == 64);

/// What a stone's refresh of the cells on its lines reads and keeps in
/// locals: the tables, the sums and the count of saved cells, updated as
/// it goes and written back at the end.
struct Refresh<P: PairEntry> {
    pair_entry: P,
    combos: [&'static [Combo; COMBO_SLOTS]; 2],
    worths: [&'static Worths; 2],
    table_sums: [[i32; 2]; 2],
    saved_count: usize,
}

/// A look-up in the board's pair table, of a shape known to the compiler:
/// line key → [pair table](PairTable) entry.
trait PairEntry: Fn(u32) -> u8 + Copy {}

impl<F: Fn(u32) -> u8 + Copy> PairEntry for F {}

/// A position with its incremental pattern state.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    /// Both colours' line patterns by line key.
    pairs: PairTable,
    /// Per colour: pattern quadruple → threat class and pattern code.
    combos: [&'static [Combo; COMBO_SLOTS]; 2],
    cells: [Cell; CELLS],
    /// Per cell and direction: the line key of its neighbours, seen from black.
    keys: [[u32; 4]; CELLS],
    /// Per cell: patterns, threats and pattern codes of a stone there.
    info: [CellInfo; CELLS],
    /// Per colour and threat class: how many empty cells have that class.
    threat_counts: [[u16; Threat::COUNT]; 2],
    /// Black's four cells, black's three cells, white's four cells and
    /// white's three cells (see [`Board::four_cells`] and
    /// [`Board::three_cells`]); a cell's threat classes decide, by
    /// [`cell_sets`].
    threat_cells: ThreatCells,
    /// Whether moves keep `threat_cells` up to date (see
    /// [`Board::track_threat_cells`]).
    tracking: bool,
    /// The number of stones on the board when tracking began: taking back
    /// a move from before stops it.
    tracked_from: usize,
    /// Per colour: the `attack` and `defence` entries of the tables it plays
    /// by, side by side.
    policies: [&'static Policies; 2],
    /// Per colour: its tables' `mover` and `waiter` entries side by side.
    worths: [&'static Worths; 2],
    /// Per colour and role (0 mover, 1 waiter): the sum of the colour's
    /// table entries over empty cells.
    table_sums: [[i32; 2]; 2],
    /// Per cell: how many stones lie within two cells (square neighbourhood).
    near: [u8; CELLS],
    /// The rectangle the stones lie in.
    stone_box: StoneBox,
    hash: u64,
    history: [Pos; MAX_MOVES],
    moves: usize,
    empties: usize,
    side: Color,
    /// One frame per stone placed (moves and probe stones), newest last.
    frames: Box<[Frame]>,
    frame_count: usize,
    /// The cells the frames saved, newest last.
    saved: Box<[SavedCell]>,
    saved_count: usize,
}

impl Board {
    /// An empty `width` × `height` board (each 5..=22) under `rule`, black to move.
    pub fn new(width: usize, height: usize, rule: Rule) -> Board {
        assert!((5..=MAX_SIZE).contains(&width) && (5..=MAX_SIZE).contains(&height));
        let mut board = Board {
            width,
            height,
            rule,
            pairs: pattern::pair_table(rule.five_rule(Color::Black), rule.five_rule(Color::White)),
            combos: [
                threat::combo_table(rule.has_forbidden(Color::Black)),
                threat::combo_table(rule.has_forbidden(Color::White)),
            ],
            cells: [Cell::Wall; CELLS],
            keys: [[0; 4]; CELLS],
            info: [NO_INFO; CELLS],
            threat_counts: [[0; Threat::COUNT]; 2],
            threat_cells: ThreatCells::new(MAX_MOVES * SET_CHANGES_PER_MOVE),
            tracking: false,
            tracked_from: 0,
            policies: [
                policies(table_set(rule, Color::Black)),
                policies(table_set(rule, Color::White)),
            ],
            worths: [
                worths(table_set(rule, Color::Black)),
                worths(table_set(rule, Color::White)),
            ],
            table_sums: [[0; 2]; 2],
            near: [0; CELLS],
            stone_box: StoneBox::EMPTY,
            hash: 0,
            history: [Pos(0); MAX_MOVES],
            moves: 0,
            empties: width * height,
            side: Color::Black,
            frames: vec![NO_FRAME; MAX_MOVES].into_boxed_slice(),
            frame_count: 0,
            saved: vec![
                SavedCell {
                    pos: Pos(0),
                    info: NO_INFO
                };
                MAX_MOVES * CELLS_PER_MOVE
            ]
            .into_boxed_slice(),
            saved_count: 0,
        };
        for y in 0..height {
            for x in 0..width {
                board.cells[Pos::new(x, y).index()] = Cell::Empty;
            }
        }
        for y in 0..height {
            for x in 0..width {
                let pos = Pos::new(x, y);
                for (d, &dir) in DIRECTIONS.iter().enumerate() {
                    let mut key = 0;
                    for offset in -5isize..=5 {
                        if offset != 0 {
                            let code = board.cells[pos.step(dir, offset).index()].key_code();
                            key |= code << (2 * field_of(offset as i32));
                        }
                    }
                    board.keys[pos.index()][d] = key;
                }
                // Counted as a blank cell first, then each line read in.
                board.count_cell(pos, 1);
                for d in 0..4 {
                    board.update_line(pos, d);
                }
            }
        }
        board
    }

    /// A `size` × `size` board under `rule` after the moves `x,y x,y …`
    /// (black first, alternating); `pass` skips a turn. Errors name the first
    /// malformed, off-board or occupied move.
    pub fn from_moves(rule: Rule, size: usize, moves: &str) -> Result<Board, String> {
        if !(5..=MAX_SIZE).contains(&size) {
            return Err(format!("unsupported board size {size}"));
        }
        let mut board = Board::new(size, size, rule);
        for token in moves.split_whitespace() {
            if token == "pass" {
                board.set_side_to_move(board.side_to_move().opponent());
                continue;
            }
            let xy = token
                .split_once(',')
                .and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)));
            match xy {
                Some((x, y)) if board.contains(x, y) && board.is_empty(Pos::new(x, y)) => {
                    board.make(Pos::new(x, y))
                }
                _ => return Err(format!("illegal move {token:?}")),
            }
        }
        Ok(board)
    }

    /// A board drawn as rows of characters: `X` black, `O` white, `.` empty;
    /// blanks are ignored and every other character marks an empty cell,
    /// returned with its position. `to_move` moves next.
    pub fn from_diagram(
        rule: Rule,
        to_move: Color,
        picture: &str,
    ) -> Result<(Board, Vec<(char, Pos)>), String> {
        let rows: Vec<Vec<char>> = picture
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let (height, width) = (rows.len(), rows.first().map_or(0, Vec::len));
        if !(5..=MAX_SIZE).contains(&width) || !(5..=MAX_SIZE).contains(&height) {
            return Err(format!("unsupported diagram size {width}x{height}"));
        }
        if rows.iter().any(|r| r.len() != width) {
            return Err("ragged diagram".into());
        }
        let mut board = Board::new(width, height, rule);
        let mut marks = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                let pos = Pos::new(x, y);
                match c {
                    'X' | 'O' => {
                        board.set_side_to_move(if c == 'X' { Color::Black } else { Color::White });
                        board.make(pos);
                    }
                    '.' => {}
                    mark => marks.push((mark, pos)),
                }
            }
        }
        board.set_side_to_move(to_move);
        Ok((board, marks))
    }

    /// Board width (the x range).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height (the y range).
    pub fn height(&self) -> usize {
        self.height
    }

    /// The rule this board is played under.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Sets the side to move (for positions whose stone counts do not say).
    pub fn set_side_to_move(&mut self, side: Color) {
        if side != self.side {
            self.side = side;
            self.hash ^= zobrist::SIDE_KEY;
        }
    }

    /// The Zobrist hash of stones and side to move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash the position will have once the side to move plays `pos`.
    #[inline]
    pub fn hash_after(&self, pos: Pos) -> u64 {
        self.hash ^ zobrist::STONE_KEYS[self.side.index()][pos.index()] ^ zobrist::SIDE_KEY
    }

    /// Stones placed so far (moves made, including set-up stones).
    pub fn move_count(&self) -> usize {
        self.moves
    }

    /// The moves made, oldest first.
    pub fn history(&self) -> &[Pos] {
        &self.history[..self.moves]
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Pos> {
        self.moves.checked_sub(1).map(|i| self.history[i])
    }

    /// Empty cells left.
    pub fn empty_count(&self) -> usize {
        self.empties
    }

    /// Whether (x, y) lies on the board.
    pub fn contains(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height
    }

    /// The cell at `pos`.
    #[inline]
    pub fn cell(&self, pos: Pos) -> Cell {
        self.cells[pos.index()]
    }

    /// Whether `pos` is an empty cell on the board.
    #[inline]
    pub fn is_empty(&self, pos: Pos) -> bool {
        self.cells[pos.index()] == Cell::Empty
    }

    /// Whether a stone lies within two cells of `pos`.
    #[inline]
    pub fn has_neighbour(&self, pos: Pos) -> bool {
        self.near[pos.index()] > 0
    }

    /// The pattern a stone of `color` on empty cell `pos` makes on line `dir`
    /// (an index into [`DIRECTIONS`]).
    #[inline]
    pub fn pattern(&self, pos: Pos, color: Color, dir: usize) -> Pattern {
        let lines = self.info[pos.index()].lines[dir];
        pattern::pair_entry_pattern(lines, color.index())
    }

    /// The lines on which a stone of `color` on empty cell `pos` makes a
    /// four or better ([`Pattern::Block4`] up to [`Pattern::Five`]): bit `d`
    /// for line `d`.
    #[inline]
    pub fn four_lines(&self, pos: Pos, color: Color) -> u32 {
        // The fours and the five are the patterns numbered 8 to 11: those
        // with bit 3 set.
        const _: () = assert!(Pattern::Block4 as u8 == 8 && Pattern::Five as u8 == 11);
        let lines = u32::from_le_bytes(self.info[pos.index()].lines) >> (4 * color.index());
        let fours = (lines >> 3) & 0x0101_0101;
        // Gathers the flags at bits 0, 8, 16 and 24 into bits 24 to 27; the
        // other products land below bit 24 without carries.
        (fours.wrapping_mul(0x0102_0408) >> 24) & 15
    }

    /// Keeps the [threat cell sets](Board::four_cells) up to date from now
    /// on, for the threat solvers. Moves cost a little more while they are
    /// kept (the alpha-beta's board does not keep them). Taking back a move
    /// made before this call stops it.
    pub fn track_threat_cells(&mut self) {
        if !self.tracking {
            self.track_threat_cells_anew();
        }
    }

    /// Whether the board keeps its threat cell sets up to date.
    #[inline]
    pub fn tracks_threat_cells(&self) -> bool {
        self.tracking
    }

    /// Builds the threat cell sets from the cells' classes, and keeps them
    /// from the position on the board.
    fn track_threat_cells_anew(&mut self) {
        let (cells, info) = (&self.cells, &self.info);
        let empty = self.cells().filter(|pos| cells[pos.index()] == Cell::Empty);
        self.threat_cells
            .reset(empty.map(|pos| (pos.index(), cell_sets(info[pos.index()].threats))));
        self.tracking = true;
        self.tracked_from = self.frame_count;
    }

    /// The empty cells where a stone of `color` may make a four: those of a
    /// threat class from [`Threat::Four`] up, and renju black's
    /// [`Threat::Forbidden`] and [`Threat::MaybeForbidden`] cells (which may
    /// hold a four or not: [`Board::four_lines`] tells). Every cell with a
    /// four on some line is among them. Row by row, as [`Board::cells`]
    /// meets them. Only on a board that [keeps
    /// them](Board::track_threat_cells).
    #[inline]
    pub fn four_cells(&self, color: Color) -> &CellSet {
        debug_assert!(self.tracking, "threat cell sets not kept");
        self.threat_cells.set(2 * color.index())
    }

    /// The empty cells where a stone of `color` may make an open three or
    /// better on some line: the [`Board::four_cells`] and those of the
    /// classes [`Threat::Three`] and [`Threat::DoubleThree`]. Every cell
    /// with an open three or a four on some line is among them. Only on a
    /// board that [keeps them](Board::track_threat_cells).
    #[inline]
    pub fn three_cells(&self, color: Color) -> &CellSet {
        debug_assert!(self.tracking, "threat cell sets not kept");
        self.threat_cells.set(2 * color.index() + 1)
    }

    /// Whether a stone of either colour on empty cell `pos` makes a four or
    /// better on some line: where neither does, [`Board::four_lines`] is
    /// empty for both colours and neither has a threat of
    /// [`Threat::Four`] or above.
    #[inline]
    pub fn makes_any_four(&self, pos: Pos) -> bool {
        // Bit 3 of each pattern field: see `four_lines`.
        u32::from_le_bytes(self.info[pos.index()].lines) & 0x8888_8888 != 0
    }

    /// The threat class of a stone of `color` on empty cell `pos`.
    #[inline]
    pub fn threat(&self, pos: Pos, color: Color) -> Threat {
        self.info[pos.index()].threats[color.index()]
    }

    /// The [pattern code](eval::code) of `color`'s four patterns through
    /// empty cell `pos`.
    #[inline]
    pub fn code(&self, pos: Pos, color: Color) -> usize {
        self.info[pos.index()].classes[color.index()].code() as usize
    }

    /// Per [pattern code](eval::code): the `attack` and `defence` entries of
    /// the policy tables `color` plays by.
    #[inline]
    pub fn policies(&self, color: Color) -> &'static Policies {
        self.policies[color.index()]
    }

    /// How many empty cells give `color` the threat class `threat`.
    #[inline]
    pub fn threat_count(&self, color: Color, threat: Threat) -> usize {
        self.threat_counts[color.index()][threat as usize] as usize
    }

    /// Per threat class, how many empty cells have it for `color`.
    #[inline]
    pub fn threat_counts(&self, color: Color) -> &[u16; Threat::COUNT] {
        &self.threat_counts[color.index()]
    }

    /// The sum over empty cells of `color`'s table entries for the side to
    /// move ([`Tables::mover`](crate::eval::tables::Tables::mover)) if
    /// `mover`, else for the side waiting.
    #[inline]
    pub fn table_sum(&self, color: Color, mover: bool) -> i32 {
        self.table_sums[color.index()][!mover as usize]
    }

    /// The rows and the columns of the on-board cells within `margin` rows
    /// and columns of the smallest rectangle holding every stone (both empty
    /// without stones). A scan of these cells, row by row, meets every cell
    /// within `margin` cells of a stone, in the order of [`Board::cells`].
    #[inline]
    pub fn near_stones(&self, margin: usize) -> (Range<usize>, Range<usize>) {
        let StoneBox { x, y } = self.stone_box;
        if x.0 > x.1 {
            return (0..0, 0..0);
        }
        let span = |(low, high): (u8, u8), size: usize| {
            (low as usize).saturating_sub(margin)..(high as usize + margin + 1).min(size)
        };
        (span(y, self.height), span(x, self.width))
    }

    /// Every on-board cell, row by row. The iterator does not borrow the
    /// board, so a loop over it may make and unmake moves.
    pub fn cells(&self) -> impl Iterator<Item = Pos> {
        let (width, height) = (self.width, self.height);
        (0..height).flat_map(move |y| (0..width).map(move |x| Pos::new(x, y)))
    }

    /// Places a stone of the side to move on empty cell `pos` and passes the
    /// turn. The caller checks that `pos` is empty and on the board.
    #[inline]
    pub fn make(&mut self, pos: Pos) {
        debug_assert!(self.is_empty(pos));
        if self.tracking {
            self.place::<true>(pos, self.side);
        } else {
            self.place::<false>(pos, self.side);
        }
        self.history[self.moves] = pos;
        self.moves += 1;
        self.side = self.side.opponent();
        self.hash ^= zobrist::SIDE_KEY;
    }

    /// Takes back the last move made.
    #[inline]
    pub fn unmake(&mut self) {
        debug_assert!(self.moves > 0);
        self.moves -= 1;
        let pos = self.history[self.moves];
        self.side = self.side.opponent();
        self.hash ^= zobrist::SIDE_KEY;
        self.remove(pos);
    }

    /// Puts a continuous-game marker (a cell nobody may use) on empty `pos`.
    /// Set-up only, before any stone: it cannot be taken back.
    pub fn block(&mut self, pos: Pos) {
        debug_assert!(self.is_empty(pos) && self.frame_count == 0);
        self.count_cell(pos, -1);
        self.cells[pos.index()] = Cell::Wall;
        self.empties -= 1;
        self.toggle_keys(pos, Cell::Wall.key_code());
        for (d, &dir) in DIRECTIONS.iter().enumerate() {
            for k in (-5isize..=5).filter(|&k| k != 0) {
                let q = pos.step(dir, k);
                if self.is_empty(q) {
                    self.update_line(q, d);
                }
            }
        }
        if self.tracking {
            self.track_threat_cells_anew();
        }
    }

    /// Runs `probe` on the board with a stone of `color` on empty cell `pos`,
    /// then takes the stone back. The stone is not a move: the side to move
    /// and the move history stay as they were, while the line patterns,
    /// threat classes, pattern codes, counts and sums (and the hash) are those of the
    /// board with the stone. `probe` may make and unmake moves, and probe
    /// further stones, as long as it leaves the board as it found it.
    /// Renju's false-three check reads a three's four points this way.
    #[inline]
    pub fn with_probe<R>(
        &mut self,
        pos: Pos,
        color: Color,
        probe: impl FnOnce(&mut Board) -> R,
    ) -> R {
        debug_assert!(self.is_empty(pos));
        if self.tracking {
            self.place::<true>(pos, color);
        } else {
            self.place::<false>(pos, color);
        }
        let result = probe(self);
        self.remove(pos);
        result
    }

    /// Places a stone on empty `pos`, updating the patterns of the empty
    /// cells on its four lines. [`Board::remove`] takes it back; stones are
    /// removed newest first.
    fn place<const TRACK: bool>(&mut self, pos: Pos, color: Color) {
        self.frames[self.frame_count] = Frame {
            saved_from: self.saved_count as u16,
            threat_cells_from: self.threat_cells.mark() as u16,
            threat_counts: self.threat_counts,
            table_sums: self.table_sums,
            stone_box: self.stone_box,
        };
        self.frame_count += 1;
        self.stone_box = self.stone_box.with(pos);
        self.count_cell(pos, -1);
        self.cells[pos.index()] = Cell::Stone(color);
        self.empties -= 1;
        self.hash ^= zobrist::STONE_KEYS[color.index()][pos.index()];
        self.adjust_near(pos, 1);
        self.toggle_keys(pos, Cell::Stone(color).key_code());
        // How far along a line a stone changes other cells' patterns: four
        // steps when five or more wins for both colours (the short pair
        // table), else five (overlines, blocked fives).
        match self.pairs {
            PairTable::Short(entries) => {
                self.refresh_lines::<4, TRACK>(pos, |key| pattern::short_pair_entry(entries, key))
            }
            PairTable::Full(entries) => {
                self.refresh_lines::<5, TRACK>(pos, |key| pattern::full_pair_entry(entries, key))
            }
        }
    }

    /// Rereads the lines of the empty cells within `REACH` steps of a stone
    /// just placed on `pos`, one direction at a time; `pair_entry` reads the
    /// board's pair table.
    #[inline(always)]
    fn refresh_lines<const REACH: isize, const TRACK: bool>(
        &mut self,
        pos: Pos,
        pair_entry: impl PairEntry,
    ) {
        // The sums and the count of saved cells in locals, so that the
        // compiler keeps them in registers across the loops' stores.
        let mut refresh = Refresh {
            pair_entry,
            combos: self.combos,
            worths: self.worths,
            table_sums: self.table_sums,
            saved_count: self.saved_count,
        };
        self.refresh_direction::<0, REACH, TRACK>(pos, &mut refresh);
        self.refresh_direction::<1, REACH, TRACK>(pos, &mut refresh);
        self.refresh_direction::<2, REACH, TRACK>(pos, &mut refresh);
        self.refresh_direction::<3, REACH, TRACK>(pos, &mut refresh);
        self.table_sums = refresh.table_sums;
        self.saved_count = refresh.saved_count;
    }

    /// Rereads line `D` of the empty cells within `REACH` steps of `pos` on
    /// it. With the direction and the reach constants the compiler turns
    /// the steps into immediates.
    #[inline(always)]
    fn refresh_direction<const D: usize, const REACH: isize, const TRACK: bool>(
        &mut self,
        pos: Pos,
        refresh: &mut Refresh<impl PairEntry>,
    ) {
        for k in 1..REACH + 1 {
            self.refresh_line::<D, TRACK>(pos.step(DIRECTIONS[D], k), refresh);
            self.refresh_line::<D, TRACK>(pos.step(DIRECTIONS[D], -k), refresh);
        }
    }

    /// Rereads line `D` of `cell` after a stone was placed on the line, if
    /// `cell` is empty, saving the cell's state first if the line changed.
    #[inline(always)]
    fn refresh_line<const D: usize, const TRACK: bool>(
        &mut self,
        cell: Pos,
        refresh: &mut Refresh<impl PairEntry>,
    ) {
        if self.cells[cell.index()] != Cell::Empty {
            return;
        }
        let lines = (refresh.pair_entry)(self.keys[cell.index()][D]);
        let info = &mut self.info[cell.index()];
        // A stone far along the line often leaves both patterns as they
        // were: nothing to save or update.
        if info.lines[D] != lines {
            self.saved[refresh.saved_count] = SavedCell {
                pos: cell,
                info: *info,
            };
            refresh.saved_count += 1;
            let changed = set_line_patterns::<TRACK>(
                info,
                D,
                lines,
                refresh.combos,
                refresh.worths,
                &mut self.threat_counts,
                &mut refresh.table_sums,
            );
            if TRACK {
                self.threat_cells.toggle(cell.index(), changed);
            }
        }
    }

    /// Removes the newest stone, on `pos`, restoring the saved cell states.
    fn remove(&mut self, pos: Pos) {
        let Cell::Stone(color) = self.cells[pos.index()] else {
            debug_assert!(false, "no stone on {pos}");
            return;
        };
        self.frame_count -= 1;
        if self.frame_count < self.tracked_from {
            self.tracking = false;
        }
        let frame = self.frames[self.frame_count];
        let from = frame.saved_from as usize;
        self.threat_cells.undo(frame.threat_cells_from as usize);
        for saved in &self.saved[from..self.saved_count] {
            self.info[saved.pos.index()] = saved.info;
        }
        self.saved_count = from;
        self.threat_counts = frame.threat_counts;
        self.table_sums = frame.table_sums;
        self.stone_box = frame.stone_box;
        self.hash ^= zobrist::STONE_KEYS[color.index()][pos.index()];
        self.adjust_near(pos, -1);
        self.cells[pos.index()] = Cell::Empty;
        self.empties += 1;
        self.toggle_keys(pos, Cell::Stone(color).key_code());
    }

    /// Adds `delta` to the neighbour counts of the 5 × 5 square around
    /// `pos`, a row of five cells at a time (one bounds check a row).
    fn adjust_near(&mut self, pos: Pos, delta: i8) {
        for dy in -2isize..=2 {
            let middle = pos.index() as isize + dy * STRIDE as isize;
            let row: &mut [u8; 5] = (&mut self.near[middle as usize - 2..middle as usize + 3])
                .try_into()
                .expect("five cells");
            for near in row {
                *near = near.wrapping_add_signed(delta);
            }
        }
    }

    /// Toggles `code` into the line keys of the cells within five steps of
    /// `pos` on its four lines.
    #[inline]
    fn toggle_keys(&mut self, pos: Pos, code: u32) {
        for (d, &dir) in DIRECTIONS.iter().enumerate() {
            let step = dir as usize;
            // The keys of the line's eleven cells, `pos` in the middle, one
            // bounds check for all.
            let line = &mut self.keys[pos.index() - 5 * step..=pos.index() + 5 * step];
            for k in 1..=5 {
                line[(5 + k) * step][d] ^= code << (2 * field_of(-(k as i32)));
                line[(5 - k) * step][d] ^= code << (2 * field_of(k as i32));
            }
        }
    }

    /// Adds (`sign` 1) or removes (−1) an empty cell's contribution to the
    /// counts and sums.
    #[inline(always)]
    fn count_cell(&mut self, pos: Pos, sign: i32) {
        // In or out of the threat cell sets by its classes.
        if self.tracking {
            let sets = cell_sets(self.info[pos.index()].threats);
            self.threat_cells.toggle(pos.index(), sets);
        }
        for c in 0..2 {
            let info = &self.info[pos.index()];
            let slot = &mut self.threat_counts[c][info.threats[c] as usize];
            *slot = (*slot as i32 + sign) as u16;
            let [mover, waiter] = self.worths[c][info.classes[c].code() as usize];
            self.table_sums[c][0] += sign * mover;
            self.table_sums[c][1] += sign * waiter;
        }
    }

    /// Recomputes one line's patterns of a counted empty cell, then its
    /// threat and pattern code; the counts and sums follow.
    fn update_line(&mut self, pos: Pos, d: usize) {
        let lines = self.pairs.entry(self.keys[pos.index()][d]);
        set_line_patterns::<false>(
            &mut self.info[pos.index()],
            d,
            lines,
            self.combos,
            self.worths,
            &mut self.threat_counts,
            &mut self.table_sums,
        );
    }

    /// Whether the stone on `pos` is part of a winning row for its colour
    /// under the board's rule (used to judge a finished game).
    pub fn is_five_at(&self, pos: Pos) -> bool {
        let Cell::Stone(color) = self.cell(pos) else {
            return false;
        };
        // A cell's own keys stay current while it is occupied.
        (0..4).any(|d| {
            let (black, white) = self.pairs.get(self.keys[pos.index()][d]);
            let pattern = if color == Color::Black { black } else { white };
            pattern == Pattern::Five
        })
    }
}

/// Per threat class, two bits at twice its number: the threat cell sets
/// of its colour a cell of that class belongs to, the lower bit for the
/// four cells ([`Board::four_cells`]) and the upper for the three cells
/// ([`Board::three_cells`]). Shifts, not a table, so that the test inlined
/// into every cell's update loads nothing.
const CELL_SETS: u32 = {
    let mut sets = 0;
    let mut i = 0;
    while i < Threat::COUNT {
        let threat = Threat::ALL[i];
        let four = matches!(threat, Threat::Forbidden | Threat::MaybeForbidden)
            || threat as u8 >= Threat::Four as u8;
        let three = four || matches!(threat, Threat::Three | Threat::DoubleThree);
        sets |= (four as u32 | (three as u32) << 1) << (2 * i);
        i += 1;
    }
    sets
};

/// The threat cell sets of its colour a cell of class `threat` belongs to
/// (bit 0 the four cells, bit 1 the three cells).
#[inline(always)]
fn class_sets(threat: Threat) -> u32 {
    CELL_SETS >> (2 * threat as u32) & 3
}

/// The threat cell sets a cell with both colours' classes `threats`
/// belongs to: black's [`class_sets`] bits, then white's two above them, as
/// [`Board::threat_cells`] orders the sets.
#[inline(always)]
fn cell_sets(threats: [Threat; 2]) -> u32 {
    class_sets(threats[0]) | class_sets(threats[1]) << 2
}

/// Sets both colours' patterns on line `d` of a counted empty cell (a
/// [pair table](PairTable) entry), then their threats and pattern codes,
/// looked up in `combos`; the threat counts and the sums of the `worths`
/// follow. With `TRACK`, returns the threat cell sets the cell enters or
/// leaves (bits as [`cell_sets`] numbers them), for the caller to apply;
/// else 0.
#[inline(always)]
fn set_line_patterns<const TRACK: bool>(
    cell: &mut CellInfo,
    d: usize,
    lines: u8,
    combos: [&'static [Combo; COMBO_SLOTS]; 2],
    worths: [&'static Worths; 2],
    threat_counts: &mut [[u16; Threat::COUNT]; 2],
    table_sums: &mut [[i32; 2]; 2],
) -> u32 {
    let old_lines = cell.lines[d];
    cell.lines[d] = lines;
    let terms = &threat::LINE_COMBO_TERMS[d];
    cell.combos = cell
        .combos
        .wrapping_add(terms[lines as usize])
        .wrapping_sub(terms[old_lines as usize]);
    let mut changed = 0;
    for c in 0..2 {
        let combo = (cell.combos >> (16 * c)) as u16;
        debug_assert_eq!(
            combo as usize,
            threat::combo_index(cell.lines.map(|l| pattern::pair_entry_pattern(l, c)))
        );
        let class = combos[c][combo as usize];
        let old = cell.classes[c];
        cell.classes[c] = class;
        if !class.same_threat(old) {
            let threat = class.threat();
            let counts = &mut threat_counts[c];
            counts[cell.threats[c] as usize] -= 1;
            counts[threat as usize] += 1;
            if TRACK {
                changed |= (class_sets(cell.threats[c]) ^ class_sets(threat)) << (2 * c);
            }
            cell.threats[c] = threat;
        }
        let ([new_mover, new_waiter], [old_mover, old_waiter]) = (
            worths[c][class.code() as usize],
            worths[c][old.code() as usize],
        );
        let sums = &mut table_sums[c];
        sums[0] += new_mover - old_mover;
        sums[1] += new_waiter - old_waiter;
    }
    changed
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for y in 0..self.height {
            for x in 0..self.width {
                let c = match self.cell(Pos::new(x, y)) {
                    Cell::Empty => '.',
                    Cell::Stone(Color::Black) => 'X',
                    Cell::Stone(Color::White) => 'O',
                    Cell::Wall => '#',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh_state(board: &Board) -> Board {
        let mut fresh = Board::new(board.width, board.height, board.rule);
        if board.tracks_threat_cells() {
            fresh.track_threat_cells();
        }
        for &pos in board.history() {
            fresh.make(pos);
        }
        fresh
    }

    fn assert_same_state(a: &Board, b: &Board) {
        assert_eq!(a.hash, b.hash);
        assert_eq!(a.threat_counts, b.threat_counts);
        assert_eq!(a.table_sums, b.table_sums);
        assert_eq!(a.tracks_threat_cells(), b.tracks_threat_cells());
        for c in [Color::Black, Color::White]
            .into_iter()
            .filter(|_| a.tracking)
        {
            assert_eq!(a.four_cells(c), b.four_cells(c));
            assert_eq!(a.three_cells(c), b.three_cells(c));
            assert_threat_cells(a, c);
        }
        for pos in a.cells() {
            assert_eq!(a.cell(pos), b.cell(pos));
            assert_eq!(a.near[pos.index()], b.near[pos.index()]);
            if a.is_empty(pos) {
                for c in [Color::Black, Color::White] {
                    assert_eq!(a.threat(pos, c), b.threat(pos, c), "{pos} {c:?}");
                    for d in 0..4 {
                        assert_eq!(a.pattern(pos, c, d), b.pattern(pos, c, d));
                    }
                }
            }
        }
    }

    /// The threat cell sets hold the empty cells their classes put there,
    /// and every cell with a four (an open three) on some line.
    fn assert_threat_cells(board: &Board, c: Color) {
        for pos in board.cells() {
            let empty = board.is_empty(pos);
            let sets = if empty {
                class_sets(board.threat(pos, c))
            } else {
                0
            };
            assert_eq!(
                board.four_cells(c).contains(pos),
                sets & 1 != 0,
                "{pos} {c:?}"
            );
            assert_eq!(
                board.three_cells(c).contains(pos),
                sets & 2 != 0,
                "{pos} {c:?}"
            );
            if empty && board.four_lines(pos, c) != 0 {
                assert!(board.four_cells(c).contains(pos), "{pos} {c:?}");
            }
            if empty && (0..4).any(|d| board.pattern(pos, c, d) >= Pattern::Flex3) {
                assert!(board.three_cells(c).contains(pos), "{pos} {c:?}");
            }
        }
    }

    #[test]
    fn make_unmake_restores_everything() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for (rule, track) in [
            (Rule::Freestyle, false),
            (Rule::Freestyle, true),
            (Rule::Renju, true),
            (Rule::CaroExact, true),
        ] {
            let mut board = Board::new(15, 15, rule);
            if track {
                board.track_threat_cells();
            }
            let empty = board.clone();
            for _ in 0..120 {
                let pos = Pos::new(rng.gen_range(0..15), rng.gen_range(0..15));
                if board.is_empty(pos) {
                    let predicted = board.hash_after(pos);
                    board.make(pos);
                    assert_eq!(board.hash(), predicted, "hash_after {pos}");
                    for c in [Color::Black, Color::White].into_iter().filter(|_| track) {
                        assert_threat_cells(&board, c);
                    }
                }
            }
            assert_same_state(&board, &fresh_state(&board));
            while board.move_count() > 0 {
                board.unmake();
            }
            assert_same_state(&board, &empty);
        }
    }

    #[test]
    fn threat_cells_kept_from_any_point_and_stopped_before_it() {
        let moves = "7,7 8,8 7,8 6,6 7,9 9,9 8,7 6,9 9,6 5,5";
        let mut late = Board::from_moves(Rule::Renju, 15, moves).expect("legal");
        late.track_threat_cells();
        for (x, y) in [(7, 10), (7, 6), (10, 5)] {
            late.make(Pos::new(x, y));
        }
        let mut early = Board::new(15, 15, Rule::Renju);
        early.track_threat_cells();
        for &pos in late.history() {
            early.make(pos);
        }
        assert_same_state(&late, &early);
        for _ in 0..3 {
            late.unmake();
        }
        assert!(late.tracks_threat_cells());
        late.unmake();
        assert!(!late.tracks_threat_cells());
    }

    #[test]
    fn probe_stone_is_seen_then_taken_back() {
        let mut board = Board::from_moves(Rule::Renju, 15, "7,7 0,0 8,7 0,14").expect("legal");
        let before = board.clone();
        let (side, moves) = (board.side_to_move(), board.move_count());
        let seen = board.with_probe(Pos::new(9, 7), Color::Black, |board| {
            assert_eq!(board.side_to_move(), side);
            assert_eq!(board.move_count(), moves);
            assert_eq!(board.cell(Pos::new(9, 7)), Cell::Stone(Color::Black));
            board.threat(Pos::new(10, 7), Color::Black)
        });
        assert_eq!(seen, Threat::Flex4);
        assert_eq!(board.threat(Pos::new(10, 7), Color::Black), Threat::Three);
        assert_same_state(&board, &before);
    }

    #[test]
    fn from_moves_with_passes_and_errors() {
        let board = Board::from_moves(Rule::Freestyle, 15, "7,7 pass 8,8").expect("legal");
        assert_eq!(board.cell(Pos::new(8, 8)), Cell::Stone(Color::Black));
        assert_eq!(board.side_to_move(), Color::White);
        for bad in ["7,7 7,7", "7,7 15,0", "7;7", "a,b"] {
            assert!(
                Board::from_moves(Rule::Freestyle, 15, bad).is_err(),
                "{bad}"
            );
        }
        assert!(Board::from_moves(Rule::Freestyle, 30, "").is_err());
    }

    #[test]
    fn open_three_and_five_counts() {
        let mut board = Board::new(15, 15, Rule::Freestyle);
        for (x, y) in [(5, 7), (5, 0), (6, 7), (6, 0), (7, 7), (14, 14)] {
            board.make(Pos::new(x, y));
        }
        // Black has an open three 5..7 on row 7: two cells make an open four.
        assert_eq!(board.threat(Pos::new(4, 7), Color::Black), Threat::Flex4);
        assert_eq!(board.threat(Pos::new(8, 7), Color::Black), Threat::Flex4);
        assert_eq!(board.threat_count(Color::Black, Threat::Flex4), 2);
        assert!(board.makes_any_four(Pos::new(4, 7)));
        assert!(!board.makes_any_four(Pos::new(5, 8)) && !board.makes_any_four(Pos::new(10, 12)));
        assert_eq!(board.threat_count(Color::Black, Threat::Five), 0);
        board.make(Pos::new(8, 7));
        board.make(Pos::new(0, 14));
        assert_eq!(board.threat_count(Color::Black, Threat::Five), 2);
        board.make(Pos::new(4, 7));
        assert!(board.is_five_at(Pos::new(4, 7)));
        assert!(!board.is_five_at(Pos::new(0, 14)));
    }
}
