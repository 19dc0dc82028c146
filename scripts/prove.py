#!/usr/bin/env python3
"""Independent prover for the engine's tactical fixtures.

It shares no code with the engine. Renju's forbidden points come from
``gomoku_rules.py`` (the match referee); fives are found on bitboards of its
own (and checked against the referee in ``test_prove.py``); the search is
written here. It answers three questions about a position:

* ``win``: does the side to move win by force playing only threats — fours
  (moves leaving a five point) and "threes" (moves leaving a winning four
  point) — with at most ``threes`` threes, fours unlimited, against **every**
  defender reply?  The defender is searched full width: every empty cell it
  may legally play (a reply that plainly loses, by F1-F3 below, is settled
  without a search).
* ``vcf``: the same with no threes, searched to the end (every four uses up
  a cell); the shortest win by fours can be asked for too.
* ``defences``: for every legal move of the side to move, does the opponent
  then win?  The moves after which no win is found are the candidate
  defences.

"Win" answers are proofs.  "No win" answers only say that no forcing win of
that kind exists within the limit.

Facts about the rules the full-width defence relies on (freestyle, standard
and renju; caro is not supported), checked by brute force in
``test_prove.py``:

F1. A stone never creates a five point for the other colour.
F2. A five point of c that a stone of colour c creates lies in a five-cell
    window with that stone and three more stones of c and no stone of the
    other colour (so a cell can give c a five point only if it lies in such
    a window with three stones of c and one more empty cell).
F3. A stone of the other colour on a cell other than a five point of c does
    not stop that cell from being a five point of c.  So one stone answers a
    single five point only by taking it, and two five points cannot both be
    answered.

A *winning four point* of c is a legal move of c after which c has two or
more five points (an open four or a double four): if the opponent has no
five point, c wins on its next move.

Usage (fixture files are described in ``tests/data/threat-positions.txt``)::

    scripts/prove.py check FILE [NAME ...]   verify the fixtures' claims
    scripts/prove.py solve FILE NAME         print winning moves / defences
"""

import argparse
import sys
import time
from pathlib import Path

import gomoku_rules as rules

BLACK, WHITE, EMPTY = rules.BLACK, rules.WHITE, rules.EMPTY
RULES = {"freestyle": rules.FREESTYLE, "standard": rules.STANDARD, "renju": rules.RENJU}
COLORS = {"black": BLACK, "white": WHITE}


def opponent(color):
    """The other colour."""
    return rules.opponent(color)


class TracingBoard(rules.Board):
    """A referee board that can record which cells a computation reads.

    Every referee function reads cells through ``get``; a computation that
    never read a cell gives the same answer whatever stone is put there,
    which lets a renju forbidden-point verdict be reused on another board
    that agrees on the cells it read."""

    def __init__(self, width, height=None):
        super().__init__(width, height)
        self.trace = None

    def _traced_get(self, x, y):
        self.trace.add((x, y))
        return rules.Board.get(self, x, y)

    def traced(self, function, *args):
        """``function(*args)`` and the set of cells it read."""
        self.trace = set()
        self.get = self._traced_get
        try:
            result = function(*args)
            return result, self.trace
        finally:
            del self.get
            self.trace = None


class Bits:
    """Bitboard geometry: cell (x, y) is bit ``y * stride + x``, with a
    guard column (stride = width + 1) so that no line wraps around."""

    def __init__(self, width, height):
        self.w, self.h = width, height
        self.stride = width + 1
        self.full = 0
        for y in range(height):
            for x in range(width):
                self.full |= 1 << (y * self.stride + x)
        # Horizontal, vertical, diagonal, anti-diagonal.
        self.steps = (1, self.stride, self.stride + 1, self.stride - 1)

    def bit(self, x, y):
        """The bit of (x, y)."""
        return 1 << (y * self.stride + x)

    def cells(self, mask):
        """The cells of ``mask``, row by row."""
        out = []
        while mask:
            low = mask & -mask
            i = low.bit_length() - 1
            out.append((i % self.stride, i // self.stride))
            mask ^= low
        return out

    def shifted(self, mask, step, times):
        """Bit e of the result is bit e + times * step of ``mask`` (off the
        board reads as empty). One step at a time, so nothing wraps."""
        for _ in range(abs(times)):
            mask = ((mask >> step) if times > 0 else (mask << step)) & self.full
        return mask


class Prover:
    """Forcing-win search over one position."""

    def __init__(self, board, rule, max_nodes=None):
        if rule not in RULES.values():
            raise ValueError("caro is not supported")
        self.board = board  # referee board, kept in step (renju verdicts)
        self.rule = rule
        self.g = Bits(board.width, board.height)
        self.stones = {BLACK: 0, WHITE: 0}
        for y in range(board.height):
            for x in range(board.width):
                v = board.get(x, y)
                if v in (BLACK, WHITE):
                    self.stones[v] |= self.g.bit(x, y)
        self.memo = {}
        self.cache = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        self.to_move = BLACK

    # -- board -------------------------------------------------------------

    def empty_mask(self):
        """The empty cells."""
        return self.g.full & ~(self.stones[BLACK] | self.stones[WHITE])

    def empties(self):
        """Every empty cell, row by row."""
        return self.g.cells(self.empty_mask())

    def empty(self, x, y):
        """Whether (x, y) is an empty cell on the board."""
        return 0 <= x < self.g.w and 0 <= y < self.g.h and bool(self.empty_mask() & self.g.bit(x, y))

    def play(self, x, y, color):
        """Puts a stone of ``color`` on the empty (x, y)."""
        self.stones[color] |= self.g.bit(x, y)
        self.board.place(x, y, color)

    def undo(self, x, y):
        """Takes the stone on (x, y) back."""
        b = self.g.bit(x, y)
        self.stones[BLACK] &= ~b
        self.stones[WHITE] &= ~b
        self.board.remove(x, y)

    def key(self):
        """The position (stones of both colours)."""
        return (self.stones[BLACK], self.stones[WHITE])

    # -- rules -------------------------------------------------------------

    def exact(self, color):
        """Whether only exactly five wins for ``color``."""
        return self.rule == rules.STANDARD or (self.rule == rules.RENJU and color == BLACK)

    def five_mask(self, color, extra=0):
        """The five points of ``color`` (with the cells of ``extra`` holding
        its stones too): empty cells that complete a winning line."""
        g = self.g
        own = self.stones[color] | extra
        empty = g.full & ~(self.stones[BLACK] | self.stones[WHITE] | extra)
        exact = self.exact(color)
        result = 0
        for step in g.steps:
            near = {j: g.shifted(own, step, j) for j in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5)}
            for k in range(5):  # the empty cell is the k-th of the window
                m = empty
                for j in range(-k, 5 - k):
                    if j:
                        m &= near[j]
                if exact:
                    m &= ~near[-k - 1] & ~near[5 - k]
                result |= m
        return result

    def window_cells(self, color, count):
        """Empty cells lying in some five-cell window that holds exactly
        ``count`` stones of ``color``, none of the other colour (so that a
        stone there can lead to a five in that window)."""
        g = self.g
        own, their = self.stones[color], self.stones[opponent(color)]
        empty = self.empty_mask()
        result = 0
        for step in g.steps:
            mine = [g.shifted(own, step, j) for j in range(5)]
            theirs = 0
            for j in range(5):
                theirs |= g.shifted(their, step, j)
            # Window starts (on the board: its last cell must be too).
            starts = g.shifted(g.full, step, 4) & g.full & ~theirs
            # Bit-sliced count of own stones in each window.
            ones = twos = fours = 0
            for m in mine:
                carry = ones & m
                ones ^= m
                carry2 = twos & carry
                twos ^= carry
                fours |= carry2
            want = starts
            want &= ones if count & 1 else ~ones
            want &= twos if count & 2 else ~twos
            want &= fours if count & 4 else ~fours
            for j in range(5):
                result |= g.shifted(want, step, -j)
        return result & empty

    def is_five(self, x, y, color):
        """Whether ``color`` playing the empty (x, y) completes a five."""
        return bool(self.five_mask(color) & self.g.bit(x, y))

    def legal(self, x, y, color):
        """Whether ``color`` may play the empty (x, y) (renju: black not on a
        forbidden point; a five is never forbidden)."""
        return self.legal_reads(x, y, color)[0]

    def legal_reads(self, x, y, color):
        """``legal`` and the cells the verdict depends on (None: no cell)."""
        if self.rule != rules.RENJU or color != BLACK:
            return True, None
        cells = self.board.cells
        w = self.g.w
        entries = self.cache.setdefault((x, y), [])
        for reads, result, read_set in entries:
            if all(cells[i] == v for i, v in reads):
                return result, read_set
        result, read = self.board.traced(self._black_legal, x, y)
        inside = {(px, py) for px, py in read if 0 <= px < w and 0 <= py < self.g.h}
        entries.append((tuple((py * w + px, cells[py * w + px]) for px, py in inside),
                        result, inside))
        if len(entries) > 32:
            del entries[0]
        return result, inside

    def _black_legal(self, x, y):
        return rules.forbidden_kind(self.board, x, y) is None

    def winning_four_points(self, color):
        """The winning four points of ``color`` (which has no five point),
        each with its five points: [((x, y), five mask)]."""
        out = []
        candidates = self.window_cells(color, 3)
        for x, y in self.g.cells(candidates):
            fives = self.five_mask(color, self.g.bit(x, y))
            if fives & (fives - 1) and self.legal(x, y, color):
                out.append(((x, y), fives))
        return out

    # -- search ------------------------------------------------------------

    def _tick(self):
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise TimeoutError("node budget exhausted")

    def threat_moves(self, color, fours_only):
        """Legal moves of ``color`` after which it has a five point (a four)
        or, unless ``fours_only``, a winning four point (a three), with a
        flag telling fours; the ones making the most threats first, fours
        before threes."""
        candidates = self.window_cells(color, 3)
        if not fours_only:
            candidates |= self.window_cells(color, 2)
        scored = []
        for x, y in self.g.cells(candidates):
            self.play(x, y, color)
            try:
                fives = bin(self.five_mask(color)).count("1")
                points = 0 if fives or fours_only else len(self.winning_four_points(color))
            finally:
                self.undo(x, y)
            if (fives or points) and self.legal(x, y, color):
                scored.append((-(fives > 0), -(fives + points), y, x))
        scored.sort()
        return [((x, y), four < 0) for four, _, y, x in scored]

    def attack(self, color, n, threes=0):
        """``color`` to move: True if it wins by threats against every
        defence, within ``n`` of its own moves (the last one the five) of
        which at most ``threes`` are not fours (``threes=0``: a VCF)."""
        if n < 1:
            return False
        key = (self.key(), "a", color, n, threes)
        if key in self.memo:
            return self.memo[key]
        self._tick()
        result = self._attack(color, n, threes)
        self.memo[key] = result
        return result

    def _attack(self, color, n, threes):
        them = opponent(color)
        if self.five_mask(color):
            return True
        if n < 2:
            return False
        theirs = self.g.cells(self.five_mask(them))
        if len(theirs) >= 2:
            return False  # F3: one stone cannot answer both
        if theirs:
            (x, y), = theirs
            if not self.legal(x, y, color):
                return False
            candidates = [((x, y), None)]  # a forced block: four, three or nothing
        else:
            if self.winning_four_points(color):
                return True  # open or double four; they have no five point
            candidates = self.threat_moves(color, threes == 0)
        for (x, y), four in candidates:
            if four is False and threes == 0:
                continue
            self.play(x, y, color)
            try:
                if four is None:
                    four = bool(self.five_mask(color))
                    if not four and (threes == 0 or not self.winning_four_points(color)):
                        continue  # the block makes no threat
                if self.defend(color, n - 1, threes if four else threes - 1):
                    return True
            finally:
                self.undo(x, y)
        return False

    def defend(self, color, n, threes=0):
        """The opponent of ``color`` to move after ``color``'s threat: True if
        every legal reply loses (``color`` then wins within ``n`` moves, at
        most ``threes`` of them not fours)."""
        key = (self.key(), "d", color, n, threes)
        if key in self.memo:
            return self.memo[key]
        self._tick()
        result = self._defend(color, n, threes)
        self.memo[key] = result
        return result

    def _defend(self, color, n, threes):
        them = opponent(color)
        if self.five_mask(them):
            return False
        ours = self.g.cells(self.five_mask(color))
        if ours:
            # F3: only taking the five point can help, and only if it is
            # the only one; every other reply loses to the five.
            replies = [p for p in ours if self.legal(p[0], p[1], them)] if len(ours) == 1 else []
            for x, y in replies:
                self.play(x, y, them)
                try:
                    if not self.attack(color, n, threes):
                        return False
                finally:
                    self.undo(x, y)
            return n >= 1
        points = self.winning_four_points(color)
        if not points:
            return False
        # Full width: every legal reply. A reply loses at once if it leaves
        # some winning four point w standing: it is not w, not one of w's
        # five points (F3), not a cell w's legality verdict read (renju),
        # and it gives the defender no five point (F2: it must lie in a
        # window with three defender stones and no attacker stone).
        empty = self.empty_mask()
        threatening = self.window_cells(them, 3)
        standing = 0
        for (x, y), fives in points:
            _, reads = self.legal_reads(x, y, color)
            spoil = self.g.bit(x, y) | fives
            for px, py in reads or ():
                spoil |= self.g.bit(px, py)
            standing |= empty & ~spoil
        if n < 2:
            standing = 0
        for x, y in self.g.cells(empty & ~(standing & ~threatening)):
            if not self.legal(x, y, them):
                continue
            self.play(x, y, them)
            try:
                if not self.attack(color, n, threes):
                    return False
            finally:
                self.undo(x, y)
        return True

    # -- questions ---------------------------------------------------------

    def wins_with(self, move, threes, n=99):
        """Whether the side to move wins by playing ``move`` first, with at
        most ``threes`` moves that are not fours and ``n`` moves in all
        (None if ``move`` makes no threat)."""
        color = self.to_move
        x, y = move
        if not self.empty(x, y) or not self.legal(x, y, color):
            return False
        if self.is_five(x, y, color):
            return True
        self.play(x, y, color)
        try:
            four = bool(self.five_mask(color))
            if not four and (threes == 0 or not self.winning_four_points(color)):
                return None
            return self.defend(color, n - 1, threes if four else threes - 1)
        finally:
            self.undo(x, y)

    def winning_moves(self, threes, n=99):
        """Every threat move of the side to move that wins with at most
        ``threes`` moves that are not fours and ``n`` moves in all."""
        color = self.to_move
        fives = self.g.cells(self.five_mask(color))
        if fives:
            return fives
        return [m for m, _ in self.threat_moves(color, threes == 0)
                if self.wins_with(m, threes, n)]

    def holds(self, threes, fours_left=4):
        """Whether the side to move, having just moved, holds: the opponent,
        moving now, has no win by fours nor with at most ``threes`` threes.
        When that move was a four, the opponent's forced block need not be a
        threat, so it is played and the side to move must then have a move
        that holds in turn (at most ``fours_left`` fours in a row)."""
        color = self.to_move
        other = opponent(color)
        if self.five_mask(other):
            return False
        blocks = self.g.cells(self.five_mask(color))
        if not blocks:
            return not self.opponent_wins(threes)
        if len(blocks) > 1 or not self.legal(*blocks[0], other):
            return True
        if fours_left == 0:
            return False
        bx, by = blocks[0]
        self.play(bx, by, other)
        try:
            for x, y in self.empties():
                if not self.legal(x, y, color):
                    continue
                self.play(x, y, color)
                try:
                    if self.holds(threes, fours_left - 1):
                        return True
                finally:
                    self.undo(x, y)
            return False
        finally:
            self.undo(bx, by)

    def opponent_wins(self, threes):
        """Whether the opponent of the side to move, moving now, wins with
        at most ``threes`` moves that are not fours."""
        return self.attack(opponent(self.to_move), 99, threes)


# -- fixtures ---------------------------------------------------------------


class Fixture:
    """One position of a fixture file."""

    def __init__(self, name):
        self.name = name
        self.fields = {}
        self.rows = []

    def field(self, key, default=None):
        """A header field's value."""
        return self.fields.get(key, default)

    @property
    def rule(self):
        """The rule bitmask."""
        return RULES[self.fields["rule"]]

    @property
    def to_move(self):
        """The side to move."""
        return COLORS[self.fields["to-move"]]

    def board(self):
        """The board and the marked cells: {mark: [(x, y), ...]}."""
        height, width = len(self.rows), len(self.rows[0])
        board = TracingBoard(width, height)
        marks = {}
        for y, row in enumerate(self.rows):
            if len(row) != width:
                raise ValueError(f"{self.name}: ragged diagram")
            for x, c in enumerate(row):
                if c == "X":
                    board.place(x, y, BLACK)
                elif c == "O":
                    board.place(x, y, WHITE)
                elif c != ".":
                    marks.setdefault(c, []).append((x, y))
        return board, marks

    def prover(self, max_nodes=None, rule=None):
        """A prover for this position (under ``rule``, default its own)."""
        board, _ = self.board()
        prover = Prover(board, self.rule if rule is None else rule, max_nodes)
        prover.to_move = self.to_move
        return prover


def load_fixtures(path):
    """Reads a fixture file: ``[name]`` headers, ``key: value`` fields and
    the diagram rows (lines made of board characters only)."""
    fixtures = []
    current = None
    for raw in Path(path).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = Fixture(line[1:-1])
            fixtures.append(current)
        elif current is None:
            raise ValueError(f"{path}: text before the first [name]")
        elif ":" in line and not set(line.replace(" ", "")) <= set("XO.af"):
            key, value = line.split(":", 1)
            key = key.strip()
            value = value.strip()
            if key in current.fields:
                current.fields[key] += " " + value
            else:
                current.fields[key] = value
        else:
            current.rows.append(line.replace(" ", ""))
    return fixtures


def fmt(points):
    """Cells as text, sorted by row then column."""
    return " ".join(f"{x},{y}" for x, y in sorted(points, key=lambda p: (p[1], p[0])))


def check(fixture, max_nodes=None, log=print):
    """Verifies a fixture's claims; returns a list of problems (empty = ok).

    ``kind: win`` — the ``a`` cells are exactly the threat moves that win
    with at most ``threes`` moves that are not fours (a proof for each, an
    exhaustive search within the limit for the others); with ``vcf: none``
    the side to move has no win by fours (an exhaustive search).
    ``kind: vcf`` — the ``a`` cells are exactly the first moves of a win by
    fours (exhaustive) and the shortest such win takes ``moves`` moves of
    the side to move (its last move the five).
    ``kind: defence`` — every legal move but the ``a`` cells loses: the
    opponent then wins with at most ``threes`` moves that are not fours (a
    proof each); after each ``a`` cell the opponent has no win by fours
    (exhaustive) nor, with ``hold-threes``, with that many threes
    (exhaustive within the limit); after an ``a`` cell that is a four, the
    forced block is played and some move must hold in the same way.
    Every kind: each ``f`` cell is a point the side to move may not play
    (a renju forbidden point); with ``f-wins-under: RULE`` each ``f`` cell
    wins with ``threes`` threes under that rule (where it is allowed); with
    ``no-win-under: RULE ...`` no ``a`` cell wins with ``threes`` threes under
    those rules (exhaustive within the limit): the renju rule decides.
    """
    _, marks = fixture.board()
    accepted = set(marks.get("a", []))
    problems = []
    kind = fixture.field("kind")
    threes = int(fixture.field("threes", "0"))
    prover = fixture.prover(max_nodes)
    color = prover.to_move
    started = time.time()
    if not accepted:
        problems.append("no accepted (a) cell")
    for x, y in marks.get("f", []):
        if prover.legal(x, y, color):
            problems.append(f"{fmt([(x, y)])} is not forbidden")
    for name in (fixture.field("f-wins-under") or "").split():
        other = fixture.prover(max_nodes, rule=RULES[name])
        for move in marks.get("f", []):
            if not other.wins_with(move, threes):
                problems.append(f"{fmt([move])} does not win under {name}")
    for name in (fixture.field("no-win-under") or "").split():
        other = fixture.prover(max_nodes, rule=RULES[name])
        for move in sorted(accepted):
            if other.wins_with(move, threes):
                problems.append(f"{fmt([move])} also wins under {name}")
    if kind == "win":
        found = set(prover.winning_moves(threes))
        if found != accepted:
            problems.append(f"threat moves winning with {threes} threes: {fmt(found)},"
                            f" marked {fmt(accepted)}")
        if fixture.field("vcf") == "none":
            vcf = prover.winning_moves(0)
            if vcf:
                problems.append(f"has a VCF: {fmt(vcf)}")
    elif kind == "vcf":
        found = set(prover.winning_moves(0))
        if found != accepted:
            problems.append(f"VCF first moves {fmt(found)}, marked {fmt(accepted)}")
        moves = int(fixture.field("moves"))
        shortest = next((n for n in range(1, moves + 1) if prover.winning_moves(0, n)), None)
        if shortest != moves:
            problems.append(f"shortest VCF {shortest} moves, claimed {moves}")
    elif kind == "defence":
        hold = int(fixture.field("hold-threes", "0"))
        for x, y in prover.empties():
            if not prover.legal(x, y, color):
                continue
            prover.play(x, y, color)
            try:
                if (x, y) in accepted:
                    if not prover.holds(hold):
                        problems.append(f"{fmt([(x, y)])} loses with {hold} threes")
                elif not (prover.opponent_wins(0) or prover.opponent_wins(threes)):
                    problems.append(f"{fmt([(x, y)])} not shown to lose with {threes} threes")
            finally:
                prover.undo(x, y)
    else:
        problems.append(f"unknown kind {kind!r}")
    log(f"{fixture.name}: {kind}: {'ok' if not problems else 'FAILED'}"
        f" ({prover.nodes} nodes, {time.time() - started:.1f} s)")
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_check = sub.add_parser("check", help="verify fixtures")
    p_check.add_argument("file")
    p_check.add_argument("names", nargs="*")
    p_solve = sub.add_parser("solve", help="print winning moves, or with --defences the "
                             "moves after which the opponent wins")
    p_solve.add_argument("file")
    p_solve.add_argument("name")
    p_solve.add_argument("--threes", type=int, default=2)
    p_solve.add_argument("--defences", action="store_true")
    args = parser.parse_args(argv)
    fixtures = load_fixtures(args.file)
    if args.command == "check":
        chosen = [f for f in fixtures if not args.names or f.name in args.names]
        failed = 0
        for fixture in chosen:
            for problem in check(fixture):
                print(f"  {problem}")
                failed += 1
        return 1 if failed else 0
    fixture = next(f for f in fixtures if f.name == args.name)
    prover = fixture.prover()
    if args.defences:
        color = prover.to_move
        survivors = []
        for x, y in prover.empties():
            if not prover.legal(x, y, color):
                continue
            prover.play(x, y, color)
            try:
                if not (prover.opponent_wins(0) or prover.opponent_wins(args.threes)):
                    survivors.append((x, y))
            finally:
                prover.undo(x, y)
        print(f"moves not shown to lose with {args.threes} threes: {fmt(survivors)}")
        return 0
    for threes in range(args.threes + 1):
        moves = prover.winning_moves(threes)
        print(f"wins with {threes} threes: {fmt(moves) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
