"""Checks match.py: openings, scheduling, statistics and real games against
random_engine.py, including each way an engine can lose.

Run from the repository root:
    python3 -m unittest discover -s scripts -p 'test_*.py'
"""

import contextlib
import io
import re
import sys
import unittest
from pathlib import Path

import gomoku_rules as rules
import match

SCRIPTS = Path(__file__).resolve().parent
OPENINGS = SCRIPTS.parents[1] / "shared" / "testsets" / "openings"
RANDOM_ENGINE = [sys.executable, str(SCRIPTS / "random_engine.py")]


def config(**changes):
    """A quick freestyle 15x15 Config, with changes."""
    settings = dict(width=15, height=15, rule=rules.FREESTYLE, turn_ms=1000, match_ms=0,
                    increment_ms=0, tolerance_ms=1000, max_memory=0, draw_after=225)
    settings.update(changes)
    return match.Config(**settings)


def specs(engine1_args=(), engine2_args=()):
    """Random-engine EngineSpecs with extra arguments."""
    return [match.EngineSpec(RANDOM_ENGINE + list(engine1_args), "random#1"),
            match.EngineSpec(RANDOM_ENGINE + list(engine2_args), "random#2")]


def play(cfg, engine_specs, games=2, openings=()):
    """Results of a short match."""
    plan = match.schedule(games, list(openings))
    return match.run_games(cfg, engine_specs, plan, 2, lambda result: None)


class Openings(unittest.TestCase):
    """Offset-format opening files."""

    def test_parse_offsets(self):
        """Spaces after commas are optional; odd counts are rejected."""
        self.assertEqual(match.parse_offsets("0,0, 1,-1, -2,3"), [(0, 0), (1, -1), (-2, 3)])
        self.assertEqual(match.parse_offsets("-6,1,-6,0\r"), [(-6, 1), (-6, 0)])
        with self.assertRaises(ValueError):
            match.parse_offsets("0,0, 1")

    def test_place_opening(self):
        """Offsets are from the centre; off-board or repeated points are refused."""
        self.assertEqual(match.place_opening([(0, 0), (1, -1)], 15, 15), [(7, 7), (8, 6)])
        self.assertEqual(match.place_opening([(0, 0)], 20, 10), [(10, 5)])
        self.assertIsNone(match.place_opening([(-8, 0)], 15, 15))
        self.assertIsNone(match.place_opening([(0, 0), (0, 0)], 15, 15))

    def test_shared_files(self):
        """The shared opening files parse; openings that do not fit are skipped."""
        if not OPENINGS.is_dir():
            self.skipTest(f"shared openings not found at {OPENINGS}")
        piskvork = OPENINGS / "piskvork_openings.txt"
        self.assertEqual(len(match.read_openings(piskvork)), 41)
        warnings = []
        small = match.load_openings(piskvork, 15, 15, warnings.append)
        self.assertEqual(len(small) + len(warnings), 41)
        self.assertTrue(warnings)
        self.assertEqual(len(match.load_openings(piskvork, 20, 20, warnings.append)), 41)
        for path in OPENINGS.glob("*.txt"):
            with self.subTest(path=path.name):
                self.assertTrue(match.load_openings(path, 20, 20, warnings.append))

    def test_project_files(self):
        """Every file of scripts/openings fits its board (20x20 for a "-20"
        file) and holds at least 40 openings, none of them twice."""
        files = sorted((SCRIPTS / "openings").glob("*.txt"))
        self.assertTrue(files)
        for path in files:
            with self.subTest(path=path.name):
                size = 20 if "-20" in path.name else 15
                warnings = []
                openings = match.load_openings(path, size, size, warnings.append)
                self.assertEqual(warnings, [])
                self.assertGreaterEqual(len(openings), 40)
                self.assertEqual(len({tuple(o) for o in openings}), len(openings))

    def test_schedule(self):
        """Each opening is played twice with colours swapped, cycling."""
        plan = match.schedule(5, ["a", "b"])
        self.assertEqual(plan, [(0, "a", 0), (1, "a", 1), (2, "b", 0), (3, "b", 1), (4, "a", 0)])
        self.assertEqual(match.schedule(2, []), [(0, [], 0), (1, [], 1)])


class Statistics(unittest.TestCase):
    """Elo and time-control parsing."""

    def test_elo(self):
        """Logistic Elo, symmetric, clamped at 0% and 100%."""
        self.assertEqual(match.elo(0.5), 0.0)
        self.assertAlmostEqual(match.elo(0.75), 190.85, places=2)
        self.assertAlmostEqual(match.elo(0.25), -match.elo(0.75))
        self.assertTrue(match.elo(1.0) > 1000 and match.elo(0.0) < -1000)

    def test_interval(self):
        """The interval brackets the estimate and is empty without variance."""
        rating, low, high = match.elo_interval([1, 0, 0.5, 1, 1, 0])
        self.assertLess(low, rating)
        self.assertLess(rating, high)
        self.assertEqual(match.elo_interval([0.5, 0.5]), (0.0, 0.0, 0.0))

    def test_tc(self):
        """G+I is seconds per game plus increment seconds."""
        self.assertEqual(match.parse_tc("10+0.1"), (10000, 100))
        self.assertEqual(match.parse_tc("60"), (60000, 0))
        args = match.parse_args(["--engine1", "a", "--engine2", "b", "--tc", "5+1"])
        self.assertEqual((args.match_ms, args.increment_ms, args.turn_ms), (5000, 1000, 5000))


class SequentialTest(unittest.TestCase):
    """The SPRT over pentanomial pair scores."""

    def test_pairs(self):
        """Only pairs with both games finished count; a pair scores its mean."""
        results = [match.GameResult(index=i, black=i % 2, opening=[], winner=w) for i, w in
                   ((0, 0), (1, 0), (2, 1), (3, None), (4, 0))]
        self.assertEqual(match.pair_scores(results), [1.0, 0.25])

    def test_llr_direction(self):
        """Wins push the ratio towards H1, losses towards H0, an even score
        towards whichever hypothesis is nearer 0 Elo."""
        self.assertGreater(match.sprt_llr([1.0, 0.75] * 10, 0, 10), 2.95)
        self.assertLess(match.sprt_llr([0.0, 0.25] * 10, 0, 10), -2.95)
        self.assertLess(match.sprt_llr([0.5, 0.25, 0.75] * 40, 0, 10), 0)
        self.assertGreater(match.sprt_llr([0.5, 0.25, 0.75] * 40, -10, 0), 0)
        self.assertEqual(match.sprt_llr([], 0, 10), 0)

    def test_bounds(self):
        """alpha = beta = 0.05 gives the usual +-2.94."""
        lower, upper = match.sprt_bounds(0.05, 0.05)
        self.assertAlmostEqual(upper, 2.944, places=3)
        self.assertAlmostEqual(lower, -2.944, places=3)

    def test_parse(self):
        """ELO0,ELO1 with ELO0 < ELO1."""
        self.assertEqual(match.parse_sprt("0,5"), (0.0, 5.0))
        self.assertEqual(match.parse_sprt("-3.5, 2"), (-3.5, 2.0))
        for bad in ("5,0", "1", "a,b"):
            with self.assertRaises(Exception):
                match.parse_sprt(bad)

    def test_stops_early(self):
        """Against an engine that crashes at once the test accepts H1 long
        before the game limit."""
        engine = " ".join(RANDOM_ENGINE)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = match.main(["--engine1", engine, "--engine2", engine + " --fault crash",
                               "--games", "40", "--concurrency", "2", "--sprt", "0,10",
                               "--quiet"])
        self.assertEqual(code, 0)
        result = out.getvalue().splitlines()[-1]
        self.assertIn("sprt=H1", result)
        games = int(re.search(r"games=(\d+)", result).group(1))
        self.assertLess(games, 40)


class Commands(unittest.TestCase):
    """What the manager sends for a move, without running engines."""

    def test_begin_board_turn(self):
        """BEGIN on an empty board, BOARD in play order first, then TURN."""
        game = match.Game(config(), specs(), 0, [], black=0)
        self.assertEqual(game._move_commands(0), ["BEGIN"])
        game = match.Game(config(), specs(), 0, [(7, 7), (8, 8), (9, 9)], black=1)
        self.assertEqual(game._move_commands(0),
                         ["BOARD", "7,7,2", "8,8,1", "9,9,2", "DONE"])
        game._put(6, 6)
        self.assertEqual(game._move_commands(1),
                         ["BOARD", "7,7,1", "8,8,2", "9,9,1", "6,6,2", "DONE"])
        game._put(5, 5)
        self.assertEqual(game._move_commands(0), ["TURN 5,5"])

    def test_node_limit(self):
        """An engine with a node limit gets INFO max_node after its times;
        one without gets no such line."""
        engine_specs = specs()
        engine_specs[1].max_node = 50000
        game = match.Game(config(), engine_specs, 0, [], black=0)
        self.assertFalse([line for line in game._settings(0) if "max_node" in line])
        self.assertEqual(game._settings(1)[-1], "INFO max_node 50000")
        self.assertEqual(game._settings(1)[0], "INFO timeout_turn 1000")
        args = match.parse_args(["--engine1", "a", "--engine2", "b", "--nodes2", "7"])
        self.assertEqual((args.nodes1, args.nodes2), (0, 7))
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            match.parse_args(["--engine1", "a", "--engine2", "b", "--nodes1", "-1"])


class Games(unittest.TestCase):
    """Real games against random_engine.py."""

    def test_random_games(self):
        """Games end in a five or a draw, with nothing to report."""
        for rule in (rules.FREESTYLE, rules.RENJU):
            for result in play(config(rule=rule, match_ms=10000, increment_ms=100),
                               specs(), openings=[[(7, 7), (8, 8)]]):
                with self.subTest(rule=rule, game=result.index):
                    self.assertIn(result.reason, (match.FIVE, match.FORBIDDEN, "draw"))
                    self.assertEqual(result.findings, [])

    def test_rectangular_board(self):
        """RECTSTART boards play out."""
        for result in play(config(width=12, height=8, draw_after=96), specs()):
            self.assertIn(result.reason, (match.FIVE, "draw"))

    def test_faults_lose(self):
        """Each engine fault loses the game with the matching reason."""
        cases = (("crash", match.CRASH), ("space", match.BAD_REPLY),
                 ("illegal", match.ILLEGAL), ("slow", match.TIME))
        for fault, reason in cases:
            faulty = ["--fault", fault, "--fault-at", "2", "--slow-ms", "700"]
            for result in play(config(turn_ms=100, tolerance_ms=200), specs(faulty)):
                with self.subTest(fault=fault, game=result.index):
                    self.assertEqual((result.loser, result.reason), (0, reason))

    def test_time_factor(self):
        """An engine's time factor scales its clock: a 700 ms reply is in
        time on a full 1 s turn and late on a quarter of it."""
        slow = ["--fault", "slow", "--fault-at", "2", "--slow-ms", "700"]
        for factor in (1.0, 0.25):
            engine_specs = specs(slow)
            engine_specs[0].time_factor = factor
            for result in play(config(turn_ms=1000, tolerance_ms=200), engine_specs):
                with self.subTest(factor=factor, game=result.index):
                    late = (result.loser, result.reason) == (0, match.TIME)
                    self.assertEqual(late, factor < 1)
        engine_specs = specs()
        engine_specs[1].time_factor = 0.125
        game = match.Game(config(match_ms=8000), engine_specs, 0, [], black=0)
        self.assertEqual(game.time_left, [8000, 1000])

    def test_findings_do_not_lose(self):
        """stderr output and ignoring END are findings, not losses."""
        for fault, kind in (("stderr", "stderr"), ("hang-end", "killed")):
            faulty = ["--fault", fault, "--fault-at", "1"]
            for result in play(config(), specs(faulty)):
                with self.subTest(fault=fault, game=result.index):
                    self.assertIn(result.reason, (match.FIVE, "draw"))
                    self.assertIn(kind, [k for engine, k, _ in result.findings if engine == 0])

    def test_main_reports(self):
        """main() prints a RESULT line, and fails only for harness errors."""
        engine = " ".join(RANDOM_ENGINE)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = match.main(["--engine1", engine, "--engine2", engine, "--games", "2",
                               "--quiet"])
        self.assertEqual(code, 0)
        self.assertRegex(out.getvalue().splitlines()[-1], r"^RESULT games=2 w=\d+ l=\d+ d=\d+ ")
        self.assertRegex(out.getvalue(), r"engine1 \S+ moves [1-9]\d*, slowest reply \d+ ms")
        with contextlib.redirect_stderr(io.StringIO()):
            code = match.main(["--engine1", "/nonexistent/pbrain-x", "--engine2", engine])
        self.assertEqual(code, match.HARNESS_FAILURE)


if __name__ == "__main__":
    unittest.main()
