"""Checks scripts/prove.py: its fives and the rule facts its search relies on
against the referee in gomoku_rules.py, small positions worked out by hand,
and a few fixtures of tests/data/threat-positions.txt re-verified quickly
(the whole file takes minutes: ``scripts/prove.py check FILE``).

Run from the repository root:
    python3 -m unittest discover -s scripts -p 'test_*.py'
"""

import random
import unittest
from pathlib import Path

import gomoku_rules as rules
import prove

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "data" / "threat-positions.txt"

# Quick to re-verify, one of each kind (the others are checked the same way
# by `scripts/prove.py check`): a renju win by threats, a white renju win
# that needs black's forbidden points, a freestyle win, a long win by fours
# and a freestyle defence.
QUICK = (
    "win-renju-s1-16",
    "forbidden-s1-6",
    "win-freestyle-s4-0",
    "vcf-renju-p-47",
    "defence-freestyle-d27",
)

RULE_LIST = (rules.FREESTYLE, rules.STANDARD, rules.RENJU)


def prover_for(rows, rule, to_move):
    """A prover for a diagram (rows of X, O, .)."""
    fixture = prove.Fixture("test")
    fixture.fields = {"rule": {v: k for k, v in prove.RULES.items()}[rule],
                      "to-move": "black" if to_move == rules.BLACK else "white"}
    fixture.rows = [r.replace(" ", "") for r in rows]
    return fixture.prover()


def random_board(rng, size, stones):
    """A board with about ``stones`` random stones of either colour."""
    board = prove.TracingBoard(size, size)
    for _ in range(stones):
        x, y = rng.randrange(size), rng.randrange(size)
        if board.is_empty(x, y):
            board.place(x, y, rng.choice((rules.BLACK, rules.WHITE)))
    return board


def referee_fives(board, color, rule):
    """Five points of ``color`` by the referee: every empty cell tried."""
    out = set()
    for y in range(board.height):
        for x in range(board.width):
            if board.is_empty(x, y):
                board.place(x, y, color)
                if rules.is_win(board, x, y, rule):
                    out.add((x, y))
                board.remove(x, y)
    return out


class FivesAndFacts(unittest.TestCase):
    """The prover's bitboard fives and facts F1-F3 on random boards."""

    def test_fives_match_the_referee(self):
        rng = random.Random(5)
        for rule in RULE_LIST:
            for _ in range(40):
                board = random_board(rng, rng.choice((7, 9, 11)), rng.randrange(10, 45))
                p = prove.Prover(board, rule)
                for color in (rules.BLACK, rules.WHITE):
                    with self.subTest(rule=rule, color=color):
                        self.assertEqual(set(p.g.cells(p.five_mask(color))),
                                         referee_fives(board, color, rule))

    def test_facts_f1_f2_f3(self):
        rng = random.Random(11)
        for rule in RULE_LIST:
            for _ in range(25):
                board = random_board(rng, 9, rng.randrange(15, 40))
                p = prove.Prover(board, rule)
                for color in (rules.BLACK, rules.WHITE):
                    other = prove.opponent(color)
                    before = set(p.g.cells(p.five_mask(color)))
                    windows = set(p.g.cells(p.window_cells(color, 3)))
                    for x, y in p.empties():
                        # F1: the other colour creates no five point of ours;
                        # F3: it removes only the one it takes.
                        p.play(x, y, other)
                        after = set(p.g.cells(p.five_mask(color)))
                        p.undo(x, y)
                        self.assertEqual(after, before - {(x, y)}, (rule, x, y))
                        # F2: a cell that gives us a new five point lies in a
                        # window with three of our stones and none of theirs.
                        p.play(x, y, color)
                        new = set(p.g.cells(p.five_mask(color))) - before
                        p.undo(x, y)
                        if new:
                            self.assertIn((x, y), windows, (rule, x, y))


class SmallPositions(unittest.TestCase):
    """Positions worked out by hand."""

    THREE_THREE = (
        ".........",
        ".........",
        "....X....",
        "....X....",
        "..XX.....",
        ".........",
        ".........",
        "O.......O",
        ".........",
    )

    def test_double_three_wins_with_one_three_in_freestyle(self):
        # (4, 4) makes two open threes (the one three of the win: the open
        # four that follows is a four); nothing wins by fours.
        p = prover_for(self.THREE_THREE, rules.FREESTYLE, rules.BLACK)
        self.assertEqual(p.winning_moves(0), [])
        self.assertEqual(p.winning_moves(1), [(4, 4)])

    def test_double_three_is_forbidden_in_renju(self):
        p = prover_for(self.THREE_THREE, rules.RENJU, rules.BLACK)
        self.assertFalse(p.legal(4, 4, rules.BLACK))
        self.assertFalse(p.wins_with((4, 4), 1))
        self.assertEqual(p.winning_moves(1), [])

    def test_only_the_ends_stop_an_open_three(self):
        rows = (
            ".........",
            ".........",
            ".........",
            ".........",
            "...OOO...",
            ".........",
            ".........",
            "X.......X",
            ".........",
        )
        p = prover_for(rows, rules.FREESTYLE, rules.BLACK)
        survivors = []
        for x, y in p.empties():
            p.play(x, y, rules.BLACK)
            if not p.opponent_wins(1):
                survivors.append((x, y))
            p.undo(x, y)
        self.assertEqual(sorted(survivors), [(2, 4), (6, 4)])

    def test_renju_white_wins_on_a_forbidden_block(self):
        # Black's XXX.XX on row 4 makes (4, 4) an overline point. White's
        # (4, 8) makes a four on column 4 (capped by black at (4, 3)) whose
        # only five point is (4, 4): renju's black may not block there. In
        # freestyle the block is black's own six, a win.
        rows = (
            ".........",
            ".........",
            ".........",
            "....X....",
            ".XXX.XX..",
            "....O....",
            "....O....",
            "....O....",
            ".........",
        )
        p = prover_for(rows, rules.RENJU, rules.WHITE)
        self.assertFalse(p.legal(4, 4, rules.BLACK))
        self.assertEqual(p.winning_moves(0), [(4, 8)])
        free = prover_for(rows, rules.FREESTYLE, rules.WHITE)
        self.assertEqual(free.winning_moves(0), [])


class Fixtures(unittest.TestCase):
    """A few fixtures of the engine's threat positions, re-verified."""

    def test_quick_fixtures(self):
        fixtures = {f.name: f for f in prove.load_fixtures(FIXTURES)}
        for name in QUICK:
            with self.subTest(name=name):
                self.assertIn(name, fixtures)
                self.assertEqual(prove.check(fixtures[name], log=lambda _: None), [])

    def test_a_wrong_claim_is_caught(self):
        fixture = {f.name: f for f in prove.load_fixtures(FIXTURES)}["vcf-renju-p-47"]
        fixture.fields["moves"] = "11"
        problems = prove.check(fixture, log=lambda _: None)
        self.assertTrue(any("shortest" in p for p in problems), problems)


if __name__ == "__main__":
    unittest.main()
