"""Checks spsa.py: the parameters file, the gain schedule, the update (with
the games replaced by a function), clamping and rounding, resuming, and one
short run against random_engine.py.

Run from the repository root:
    python3 -m unittest discover -s scripts -p 'test_*.py'
"""

import contextlib
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path

import match
import spsa

SCRIPTS = Path(__file__).resolve().parent
OPENINGS = SCRIPTS / "openings" / "freestyle-15.txt"
RANDOM_ENGINE = f"{sys.executable} {SCRIPTS / 'random_engine.py'}"


def sign(value):
    """-1, 0 or 1."""
    return (value > 0) - (value < 0)


def towards(targets):
    """A pair function whose result favours, for each parameter, the side
    nearer its target: +1 per parameter when theta+ is nearer, else -1."""
    def play_pair(plus, minus, opening):
        result = 0
        for name, target in targets.items():
            below = (plus[name] + minus[name]) / 2 < target
            result += sign(plus[name] - minus[name]) * (1 if below else -1)
        return spsa.PairOutcome(result)
    return play_pair


def quietly(function, *args):
    """function(*args) with stdout and stderr captured; (value, stdout)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        value = function(*args)
    return value, out.getvalue()


class ParamsFile(unittest.TestCase):
    """The parameters file."""

    def test_ints_floats_comments(self):
        """Comments and blank lines are skipped; a decimal point in START,
        MIN or MAX makes a float parameter."""
        params = spsa.parse_params("# a comment\n\n"
                                   "futility_margin, 90, 40, 200, 8, 0.002  # integer\n"
                                   " lmr_divisor,1.8,1.0,3.0,0.1,0.002\n"
                                   "mixed, 2, 1, 6.0, 1, 0.002\n", "p.txt")
        self.assertEqual(params[0], spsa.Param("futility_margin", 90, 40, 200, 8, 0.002, True))
        self.assertEqual(params[1], spsa.Param("lmr_divisor", 1.8, 1.0, 3.0, 0.1, 0.002, False))
        self.assertFalse(params[2].integer)

    def test_errors_name_the_line(self):
        """Bad lines are refused with the file and line number."""
        good = "a, 5, 0, 10, 1, 0.002\n"
        cases = {"b, 5, 10, 0, 1, 0.002": "MIN <= START <= MAX",
                 "b, 11, 0, 10, 1, 0.002": "MIN <= START <= MAX",
                 "b, 5, 0, 10, 1": "got 5 field",
                 "b, 5, 0, 10, 1, 0.002, 3": "got 7 field",
                 "b, 5, 0, 10, 0, 0.002": "C_END and R_END",
                 "b, 5, 0, 10, 1, -0.1": "C_END and R_END",
                 "b, five, 0, 10, 1, 0.002": "must be numbers",
                 "b, nan, 0, 10, 1, 0.002": "finite",
                 "Bad-Name, 5, 0, 10, 1, 0.002": "snake_case"}
        for line, message in cases.items():
            with self.subTest(line=line), self.assertRaises(spsa.SpsaError) as caught:
                spsa.parse_params(good + "\n" + line + "\n", "p.txt")
            self.assertIn("p.txt:3:", str(caught.exception))
            self.assertIn(message, str(caught.exception))
        for text, message in ((good + good, "more than once"), ("# none\n", "no parameters")):
            with self.subTest(text=text), self.assertRaisesRegex(spsa.SpsaError, message):
                spsa.parse_params(text, "p.txt")

    def test_example_file(self):
        """scripts/spsa-search.txt parses, with the integer parameters marked."""
        params = spsa.load_params(SCRIPTS / "spsa-search.txt")
        integers = {param.name for param in params if param.integer}
        self.assertEqual(len(params), 7)
        self.assertEqual(integers, {"futility_margin", "aspiration_window", "singular_margin"})
        self.assertTrue(all(param.c_end >= 1 for param in params if param.integer))

    def test_eval_files(self):
        """scripts/spsa-eval.txt, spsa-eval-renju.txt and
        spsa-eval-standard.txt parse: twelve integer numbers of a formula
        each, the same numbers with renju's and standard's prefixes."""
        freestyle = spsa.load_params(SCRIPTS / "spsa-eval.txt")
        renju = spsa.load_params(SCRIPTS / "spsa-eval-renju.txt")
        standard = spsa.load_params(SCRIPTS / "spsa-eval-standard.txt")
        for params in (freestyle, renju, standard):
            self.assertEqual(len(params), 12)
            self.assertTrue(all(param.integer and param.c_end >= 1 for param in params))
        self.assertEqual([f"renju_{param.name}" for param in freestyle],
                         [param.name for param in renju])
        self.assertEqual([f"standard_{param.name}" for param in freestyle],
                         [param.name for param in standard])

    def test_example_names_are_parameters(self):
        """Every name in the example files is a field of the engine's Params:
        declared as `name: type =`, or among the names before a colon in the
        formula's list (`freestyle_name, renju_name, standard_name:`)."""
        source = (SCRIPTS.parent / "src" / "search" / "params.rs").read_text()
        for name in ("spsa-search.txt", "spsa-eval.txt", "spsa-eval-renju.txt",
                     "spsa-eval-standard.txt"):
            for param in spsa.load_params(SCRIPTS / name):
                with self.subTest(file=name, param=param.name):
                    self.assertRegex(source, rf"\n\s*(?:{param.name}: \w+ =|"
                                             rf"(?:\w+, )*{param.name}(?:, \w+)*:)")


class Schedule(unittest.TestCase):
    """The gain sequences c_k and a_k."""

    PARAM = spsa.Param("x", 50, 0, 100, 4, 0.002, False)

    def test_formulas(self):
        """c_k = C_END N^0.101 / k^0.101, a_k = R_END C_END^2 (A+N)^0.602 /
        (A+k)^0.602 with A = 0.1 N, ending at C_END and R_END C_END^2."""
        n = 1000
        schedule = spsa.Schedule(n)
        self.assertEqual(schedule.stability, 100)
        for k in (1, 37, 500, n):
            c_k, a_k = schedule.gains(self.PARAM, k)
            with self.subTest(k=k):
                self.assertAlmostEqual(c_k, 4 * n ** 0.101 / k ** 0.101)
                self.assertAlmostEqual(a_k, 0.002 * 16 * 1100 ** 0.602 / (100 + k) ** 0.602)
        c_n, a_n = schedule.gains(self.PARAM, n)
        self.assertAlmostEqual(c_n, 4)
        self.assertAlmostEqual(a_n / c_n ** 2, 0.002)
        self.assertGreater(schedule.gains(self.PARAM, 1)[0], 4 * 1.9)

    def test_overrides(self):
        """alpha, gamma and A can be given."""
        schedule = spsa.Schedule(100, alpha=1.0, gamma=0.5, big_a=0)
        c_k, a_k = schedule.gains(self.PARAM, 4)
        self.assertAlmostEqual(c_k, 4 * 10 / 2)
        self.assertAlmostEqual(a_k, 0.002 * 16 * 100 / 4)
        args = spsa.parse_args(["--engine", "e", "--params", "p", "--openings", "o",
                                "--iterations", "10", "--alpha-exp", "0.7", "--gamma", "0.2",
                                "--A", "3"])
        self.assertEqual((args.alpha_exp, args.gamma, args.A), (0.7, 0.2, 3.0))


class Update(unittest.TestCase):
    """The SPSA step with the games replaced by a function."""

    def test_moves_towards_the_optimum(self):
        """From 20, a float parameter climbs to 60 and an integer one to 35,
        while a third, always better larger, runs into its MAX and stays."""
        params = spsa.parse_params("x, 20.0, 0.0, 100.0, 4, 0.05\n"
                                   "y, 20, 0, 100, 4, 0.05\n"
                                   "z, 20, 0, 50, 4, 0.05\n", "p.txt")
        entries = []
        theta = spsa.tune(params, spsa.Schedule(300), {p.name: p.start for p in params}, 1,
                          towards({"x": 60, "y": 35, "z": 1000}), [[]], seed=7,
                          concurrency=1, record=entries.append)
        self.assertEqual([entry["k"] for entry in entries], list(range(1, 301)))
        self.assertLess(abs(theta["x"] - 60), 2)
        self.assertLess(abs(theta["y"] - 35), 2)
        self.assertEqual(theta["z"], 50)
        for entry in entries:
            for param in params:
                for key in ("theta", "theta_plus", "theta_minus"):
                    self.assertTrue(param.low <= entry[key][param.name] <= param.high)

    def test_step(self):
        """One update is theta + a_k / c_k * result * delta."""
        params = spsa.parse_params("x, 20.0, 0.0, 100.0, 4, 0.05\n", "p.txt")
        iteration = spsa.plan_iteration(params, spsa.Schedule(100), {"x": 20.0}, 1, 3, [[]])
        step = iteration.a_k["x"] / iteration.c_k["x"] * iteration.delta["x"]
        self.assertAlmostEqual(spsa.update(params, {"x": 20.0}, iteration, -1.5)["x"],
                               20 - 1.5 * step)

    def test_batches_share_theta(self):
        """With concurrency 3 the first three pairs are all played at the
        start, each with its own k, c_k and delta, and applied in order."""
        params = spsa.parse_params("x, 20.0, 0.0, 100.0, 4, 0.05\n", "p.txt")
        schedule = spsa.Schedule(5)
        entries = []
        spsa.tune(params, schedule, {"x": 20.0}, 1, towards({"x": 60}), [[]], seed=1,
                  concurrency=3, record=entries.append)
        self.assertEqual([entry["k"] for entry in entries], [1, 2, 3, 4, 5])
        for entry in entries[:3]:
            expected = spsa.plan_iteration(params, schedule, {"x": 20.0}, entry["k"], 1, [[]])
            self.assertEqual(entry["theta_plus"], expected.plus)
            self.assertEqual(entry["c_k"], expected.c_k)
        after_batch = entries[2]["theta"]
        fourth = spsa.plan_iteration(params, schedule, after_batch, 4, 1, [[]])
        self.assertEqual(entries[3]["theta_minus"], fourth.minus)
        theta = {"x": 20.0}
        for entry in entries[:3]:
            iteration = spsa.plan_iteration(params, schedule, {"x": 20.0}, entry["k"], 1, [[]])
            theta = spsa.update(params, theta, iteration, entry["result"])
        self.assertEqual(theta, after_batch)


class EngineValues(unittest.TestCase):
    """What the engine is given."""

    PARAMS = spsa.parse_params("futility_margin, 90, 40, 200, 8, 0.002\n"
                               "lmr_divisor, 1.8, 1.0, 3.0, 0.1, 0.002\n", "p.txt")

    def test_clamp_and_round(self):
        """Perturbed values are clamped to [MIN, MAX]; integers are rounded."""
        margin, divisor = self.PARAMS
        self.assertEqual(margin.engine_value(93.6), 94)
        self.assertIsInstance(margin.engine_value(93.6), int)
        self.assertEqual(margin.engine_value(250.2), 200)
        self.assertEqual(margin.engine_value(12), 40)
        self.assertEqual(divisor.engine_value(0.5), 1.0)
        self.assertEqual(divisor.engine_value(1.23456789), 1.23457)

    def test_perturbation(self):
        """theta +- c_k delta, clamped, then rounded for integers."""
        schedule = spsa.Schedule(100)
        theta = {"futility_margin": 198.6, "lmr_divisor": 1.0}
        iteration = spsa.plan_iteration(self.PARAMS, schedule, theta, 1, 5, [[(7, 7)]])
        for param in self.PARAMS:
            shift = iteration.c_k[param.name] * iteration.delta[param.name]
            up = param.engine_value(theta[param.name] + shift)
            down = param.engine_value(theta[param.name] - shift)
            self.assertEqual((iteration.plus[param.name], iteration.minus[param.name]), (up, down))
            self.assertIn(param.high if param.integer else param.low, (up, down))
        self.assertEqual(iteration.opening, [(7, 7)])
        self.assertEqual({iteration.plus["futility_margin"], iteration.minus["futility_margin"]},
                         {200, round(198.6 - iteration.c_k["futility_margin"])})

    def test_engine_arguments(self):
        """--param NAME=VALUE per parameter, in the final report too."""
        self.assertEqual(spsa.param_args({"futility_margin": 94, "lmr_divisor": 1.75}),
                         ["--param", "futility_margin=94", "--param", "lmr_divisor=1.75"])
        lines = spsa.final_lines(self.PARAMS, {"futility_margin": 93.6, "lmr_divisor": 1.75}, 9)
        self.assertEqual(lines[1:3], ["futility_margin=93.6", "lmr_divisor=1.75"])
        self.assertEqual(lines[-1], "verify with match.py: --engine1-args "
                                    "'--param futility_margin=94 --param lmr_divisor=1.75'")


class RefereeScoring(unittest.TestCase):
    """The real pair function's scoring, with made-up games."""

    CONFIG = match.Config(width=15, height=15, rule=0, turn_ms=1000, match_ms=0,
                          increment_ms=0, tolerance_ms=1000, max_memory=0, draw_after=225)

    def referee(self, outcomes, opponent=None):
        """A Referee whose game pairs end as ``outcomes`` say, in turn:
        (winner of game 0, winner of game 1, reason); it records the specs."""
        played = []

        def play_games(config, specs, opening):
            first, second, reason = outcomes[len(played)]
            played.append(specs)
            return [match.GameResult(index=i, black=i, opening=opening, winner=winner,
                                     reason=reason if winner is not None else "draw")
                    for i, winner in enumerate((first, second))]
        engine = match.EngineSpec(["pbrain-wuzi", "--x"], "pbrain-wuzi")
        return spsa.Referee(self.CONFIG, engine, opponent, play_games), played

    def test_self_play(self):
        """theta+ is engine1: two wins are +2, a win and a draw +1, and a
        time loss is reported."""
        referee, played = self.referee([(0, 0, match.FIVE), (0, None, match.FIVE),
                                        (1, None, match.TIME)])
        self.assertEqual(referee({"a": 3}, {"a": 1}, []).result, 2)
        self.assertEqual(played[0][0].argv, ["pbrain-wuzi", "--x", "--param", "a=3"])
        self.assertEqual(played[0][1].argv, ["pbrain-wuzi", "--x", "--param", "a=1"])
        self.assertEqual(referee({"a": 3}, {"a": 1}, []).result, 1)
        outcome = referee({"a": 3}, {"a": 1}, [])
        self.assertEqual(outcome.result, -1)
        self.assertEqual(outcome.events, ["theta+ lost to theta- by time"])

    def test_opponent(self):
        """Against an opponent: points(theta+) - points(theta-) over two pairs."""
        opponent = match.EngineSpec(["other"], "other")
        referee, played = self.referee([(0, 0, match.FIVE), (None, 1, match.TIME)], opponent)
        outcome = referee({"a": 3}, {"a": 1}, [])
        self.assertEqual(outcome.result, 2 - 0.5)
        self.assertEqual(outcome.events, ["theta- lost to other by time"])
        self.assertEqual([[spec.name for spec in specs] for specs in played],
                         [["theta+", "other"], ["theta-", "other"]])


    def test_a_crash_stops_the_run(self):
        """A tuned engine that crashes stops the run; the opponent's crash
        is only reported."""
        referee, _ = self.referee([(0, 0, match.CRASH)])
        with self.assertRaisesRegex(spsa.SpsaError, "theta- crashed"):
            referee({"a": 3}, {"a": 1}, [])
        opponent = match.EngineSpec(["other"], "other")
        referee, _ = self.referee([(0, 0, match.CRASH), (1, 1, match.FIVE)], opponent)
        outcome = referee({"a": 3}, {"a": 1}, [])
        self.assertEqual(outcome.events, ["other lost to theta+ by crash",
                                          "other lost to theta+ by crash"])


class Runs(unittest.TestCase):
    """Whole runs: the log, resuming, and one real run."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.params = Path(self.tmp.name) / "params.txt"
        self.params.write_text("x, 20.0, 0.0, 100.0, 4, 0.05\ny, 20, 0, 100, 4, 0.05\n")

    def args(self, log, *extra):
        """Parsed options of a 10-iteration run logging to ``log``."""
        return spsa.parse_args(["--engine", "unused", "--params", str(self.params),
                                "--openings", str(OPENINGS), "--iterations", "10",
                                "--seed", "4", "--log", str(log), *extra])

    @staticmethod
    def entries(log):
        """The log's JSON lines."""
        return [json.loads(line) for line in log.read_text().splitlines()]

    def test_resume(self):
        """A run stopped after 5 iterations resumes at 6 from the logged
        theta, and logs what an unstopped run logs (the same deltas, and
        the same openings in the same order)."""
        class Stop(Exception):
            """Stands for the run being stopped."""

        towards_x = towards({"x": 60})

        def games(plus, minus, opening):
            """Also scores the opening, so that the opening order counts."""
            return spsa.PairOutcome(towards_x(plus, minus, opening).result
                                    + (1 if opening[0][0] % 2 else -1))
        calls = []

        def stopping(plus, minus, opening):
            calls.append(opening)
            if len(calls) == 6:
                raise Stop()
            return games(plus, minus, opening)
        log = Path(self.tmp.name) / "stopped.jsonl"
        with self.assertRaises(Stop):
            quietly(spsa.run, self.args(log), stopping)
        self.assertEqual([entry["k"] for entry in self.entries(log)], [1, 2, 3, 4, 5])
        fifth = self.entries(log)[-1]["theta"]
        self.assertEqual(spsa.resume_point(log, spsa.load_params(self.params)), (5, fifth))

        lines, out = quietly(spsa.run, self.args(log, "--resume"), games)
        self.assertIn("resuming after iteration 5", out)
        self.assertEqual(lines[0], "theta after 10 iterations:")
        whole = Path(self.tmp.name) / "whole.jsonl"
        quietly(spsa.run, self.args(whole), games)
        self.assertEqual(self.entries(log), self.entries(whole))

    def test_resume_errors(self):
        """Resuming needs a log of the same parameters."""
        log = Path(self.tmp.name) / "missing.jsonl"
        with self.assertRaisesRegex(spsa.SpsaError, "no log"):
            spsa.run(self.args(log, "--resume"), towards({}))
        log.write_text(json.dumps({"k": 3, "theta": {"x": 1.0}}) + "\n")
        with self.assertRaisesRegex(spsa.SpsaError, "not the parameters"):
            spsa.run(self.args(log, "--resume"), towards({}))

    def test_random_engine(self):
        """Two iterations against random_engine.py (one batch of two pairs)
        log two records and end with the engine arguments."""
        log = Path(self.tmp.name) / "real.jsonl"
        code, out = quietly(spsa.main, ["--engine", RANDOM_ENGINE, "--params", str(self.params),
                                        "--openings", str(OPENINGS), "--iterations", "2",
                                        "--concurrency", "2", "--tc", "10+0.1",
                                        "--log", str(log)])
        self.assertEqual(code, 0)
        entries = self.entries(log)
        self.assertEqual([entry["k"] for entry in entries], [1, 2])
        for entry in entries:
            self.assertIn(entry["result"], (-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2))
            self.assertEqual(entry["events"], [])
            self.assertIsInstance(entry["theta_plus"]["y"], int)
        self.assertRegex(out.splitlines()[-1],
                         r"^verify with match.py: --engine1-args "
                         r"'--param x=[\d.]+ --param y=\d+'$")


if __name__ == "__main__":
    unittest.main()
