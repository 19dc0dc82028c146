#!/usr/bin/env python3
"""Tune the engine's search parameters by SPSA, as Fishtest does.

Each iteration plays one game pair (an opening, colours swapped) between the
engine with every parameter nudged up or down at random and the engine with
the opposite nudges, and moves the parameters towards the side that scored
better.  Games are played by the match referee, scripts/match.py.  Example,
from the repository root:

    python3 scripts/spsa.py --engine target/release/pbrain-wuzi \\
        --params scripts/spsa-search.txt \\
        --openings scripts/openings/freestyle-15-balanced.txt \\
        --tc 3+0.03 --iterations 2000 --concurrency 2 --log spsa.jsonl

Parameters file (--params): one parameter a line,
    NAME, START, MIN, MAX, C_END, R_END
with blank lines and ``#`` comments ignored.  A parameter is an integer
unless START, MIN or MAX is written with a decimal point (or an exponent):
``futility_margin, 90, 40, 200, 8, 0.002`` is an integer parameter,
``lmr_divisor, 1.8, 1.0, 3.0, 0.1, 0.002`` a float one.  The engine is given
``--param NAME=VALUE`` for each, integers rounded; the tuned values (theta)
stay floats.  C_END is the size of the last perturbation and R_END the last
learning rate, as in Fishtest: about a twentieth of the range and 0.002.

Schedule (N = --iterations, Fishtest's defaults alpha 0.602, gamma 0.101,
A = 0.1 N; --alpha-exp, --gamma and --A override them):
    c = C_END N^gamma,  a = R_END C_END^2 (A + N)^alpha
    c_k = c / k^gamma,  a_k = a / (A + k)^alpha          (k = 1 .. N)
so that c_N = C_END and a_N / c_N^2 = R_END.  Iteration k draws delta = +-1
for each parameter, plays theta+ = theta + c_k delta against
theta- = theta - c_k delta (each clamped to [MIN, MAX]) and sets
    theta += a_k / c_k * result * delta      (then clamped to [MIN, MAX])
where result is the points of theta+ minus those of theta- (-2 .. 2).
With --opponent CMD, theta+ and theta- each play a pair against CMD from the
same opening instead, and result is again points(theta+) - points(theta-).

--concurrency P plays P iterations at once: the P pairs of a batch are all
played at the same theta, each with its own k, c_k, a_k and delta, and their
updates are applied one after the other, in order of k, once the batch is
done (P = 1 is plain SPSA).  The two games of a pair are played one after
the other, so P game pairs means P games at once.

--seed fixes the openings (a shuffle of the file, taken in order and
cycled) and the deltas (drawn afresh for each k from the seed), so that a
resumed run makes the same draws as one never stopped.

--log FILE gets one JSON line per iteration, appended: k, c_k, a_k, delta,
theta_plus and theta_minus (as sent to the engine), result, theta (after
the update) and events: the time losses, crashes and illegal or malformed
replies of the pair, also printed as warnings on stderr.  --resume continues
from the last line of the log (its k and theta); give it the same options.

At the end the final theta is printed as NAME=VALUE lines, followed by the
engine arguments to check the result with match.py's --engine1-args.
"""

import argparse
import json
import math
import random
import re
import shlex
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import match

ALPHA = 0.602
GAMMA = 0.101
A_FRACTION = 0.1
DEFAULT_TC = "2+0.02"
NAME_RE = re.compile(r"[a-z][a-z0-9_]*")
INTEGER_RE = re.compile(r"[+-]?\d+")
COLUMNS = "NAME, START, MIN, MAX, C_END, R_END"
FAULTS = (match.TIME, match.CRASH, match.ILLEGAL, match.BAD_REPLY)
PLUS, MINUS = "theta+", "theta-"


class SpsaError(Exception):
    """The tuning run cannot start or go on (bad parameters, log or options)."""


# --- parameters -----------------------------------------------------------

@dataclass(frozen=True)
class Param:
    """One tuned parameter, as a line of the parameters file gives it."""
    name: str
    start: float
    low: float
    high: float
    c_end: float
    r_end: float
    integer: bool

    def clamp(self, value):
        """``value`` limited to [MIN, MAX]."""
        return min(max(value, self.low), self.high)

    def engine_value(self, value):
        """What the engine is given for ``value``: clamped, then rounded to
        an int for an integer parameter, else to 6 significant digits."""
        value = self.clamp(value)
        return round(value) if self.integer else float(f"{value:.6g}")


def parse_params(text, source):
    """The Params of a parameters file's text; errors name ``source``:line."""
    params = []
    for number, line in enumerate(text.splitlines(), 1):
        content = line.split("#", 1)[0].strip()
        if content:
            params.append(parse_param_line(content, f"{source}:{number}"))
    names = [param.name for param in params]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise SpsaError(f"{source}: parameter(s) given more than once: {', '.join(repeated)}")
    if not params:
        raise SpsaError(f"{source}: no parameters")
    return params


def parse_param_line(content, where):
    """The Param of one line ``NAME, START, MIN, MAX, C_END, R_END``."""
    fields = [text.strip() for text in content.split(",")]
    if len(fields) != 6:
        raise SpsaError(f"{where}: want {COLUMNS}, got {len(fields)} field(s)")
    name, *numbers = fields
    if not NAME_RE.fullmatch(name):
        raise SpsaError(f"{where}: bad parameter name {name!r}, want snake_case")
    try:
        values = [float(text) for text in numbers]
    except ValueError:
        raise SpsaError(f"{where}: START, MIN, MAX, C_END and R_END must be numbers, "
                        f"got {content!r}") from None
    if not all(math.isfinite(value) for value in values):
        raise SpsaError(f"{where}: numbers must be finite, got {content!r}")
    start, low, high, c_end, r_end = values
    if not low <= start <= high:
        raise SpsaError(f"{where}: want MIN <= START <= MAX, got START {start:g}, "
                        f"MIN {low:g}, MAX {high:g}")
    if not (c_end > 0 and r_end > 0):
        raise SpsaError(f"{where}: C_END and R_END must be above 0, got {c_end:g} and {r_end:g}")
    integer = all(INTEGER_RE.fullmatch(text) for text in numbers[:3])
    return Param(name, start, low, high, c_end, r_end, integer)


def load_params(path):
    """The Params of a parameters file."""
    return parse_params(Path(path).read_text(encoding="utf-8-sig"), path)


def param_args(values):
    """Engine arguments ``--param NAME=VALUE ...`` for {name: value}."""
    args = []
    for name, value in values.items():
        args += ["--param", f"{name}={value}"]
    return args


# --- the algorithm --------------------------------------------------------

@dataclass(frozen=True)
class Schedule:
    """Fishtest's SPSA gain sequences over a horizon of ``iterations``."""
    iterations: int
    alpha: float = ALPHA
    gamma: float = GAMMA
    big_a: float = None  # Fishtest's A; None means A_FRACTION * iterations

    @property
    def stability(self):
        """A, the offset that damps the first learning rates."""
        return A_FRACTION * self.iterations if self.big_a is None else self.big_a

    def gains(self, param, k):
        """(c_k, a_k) of ``param`` at iteration ``k`` (1-based)."""
        n, big_a = self.iterations, self.stability
        c = param.c_end * n ** self.gamma
        a = param.r_end * param.c_end ** 2 * (big_a + n) ** self.alpha
        return c / k ** self.gamma, a / (big_a + k) ** self.alpha


@dataclass
class Iteration:
    """What iteration k plays: gains, perturbation and the engines' values."""
    k: int
    c_k: dict
    a_k: dict
    delta: dict
    plus: dict
    minus: dict
    opening: list


@dataclass
class PairOutcome:
    """The result of an iteration's games: points(theta+) - points(theta-),
    in -2 .. 2, and the faults (time, crash, illegal or bad reply) seen."""
    result: float
    events: list = field(default_factory=list)


def draw_delta(params, seed, k):
    """+-1 per parameter, the same for the same seed and k."""
    rng = random.Random(f"spsa delta {seed} {k}")
    return {param.name: rng.choice((-1, 1)) for param in params}


def plan_iteration(params, schedule, theta, k, seed, openings):
    """The Iteration k played at ``theta``."""
    gains = {param.name: schedule.gains(param, k) for param in params}
    delta = draw_delta(params, seed, k)
    plus, minus = {}, {}
    for param in params:
        shift = gains[param.name][0] * delta[param.name]
        plus[param.name] = param.engine_value(theta[param.name] + shift)
        minus[param.name] = param.engine_value(theta[param.name] - shift)
    return Iteration(k=k, c_k={name: c for name, (c, _) in gains.items()},
                     a_k={name: a for name, (_, a) in gains.items()}, delta=delta,
                     plus=plus, minus=minus, opening=openings[(k - 1) % len(openings)])


def update(params, theta, iteration, result):
    """theta after an iteration that scored ``result`` for theta+."""
    return {param.name: param.clamp(theta[param.name]
                                    + iteration.a_k[param.name] / iteration.c_k[param.name]
                                    * result * iteration.delta[param.name])
            for param in params}


def log_entry(iteration, outcome, theta):
    """The log's JSON object for a finished iteration."""
    return {"k": iteration.k, "c_k": iteration.c_k, "a_k": iteration.a_k,
            "delta": iteration.delta, "theta_plus": iteration.plus,
            "theta_minus": iteration.minus, "result": outcome.result, "theta": theta,
            "events": outcome.events}


def tune(params, schedule, theta, first_k, play_pair, openings, seed, concurrency, record):
    """Run iterations ``first_k`` .. N in batches of ``concurrency`` pairs and
    return the final theta.  ``play_pair(plus, minus, opening)`` plays one
    iteration's games ({name: value} as given to the engine) and returns a
    PairOutcome; ``record(entry)`` gets each iteration's log entry, in order
    of k, after its update."""
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        k = first_k
        while k <= schedule.iterations:
            last = min(k + concurrency - 1, schedule.iterations)
            batch = [plan_iteration(params, schedule, theta, j, seed, openings)
                     for j in range(k, last + 1)]
            outcomes = list(pool.map(lambda it: play_pair(it.plus, it.minus, it.opening), batch))
            for iteration, outcome in zip(batch, outcomes):
                theta = update(params, theta, iteration, outcome.result)
                record(log_entry(iteration, outcome, theta))
            k = last + 1
    return theta


# --- games ----------------------------------------------------------------

def play_two_games(config, specs, opening):
    """One pair (``opening`` with each engine black once), played in turn."""
    return match.run_games(config, specs, match.schedule(2, [opening]), 1, lambda result: None)


def faults(games, specs):
    """Descriptions of the games lost by time, crash, illegal or bad reply."""
    return [f"{specs[game.loser].name} lost to {specs[game.winner].name} by {game.reason}"
            + (f" ({game.detail})" if game.detail else "")
            for game in games if game.loser is not None and game.reason in FAULTS]


@dataclass
class Referee:
    """The real pair function: plays an iteration's games with match.py,
    theta+ against theta- or, given an opponent, each of them against it."""
    config: match.Config
    engine: match.EngineSpec
    opponent: match.EngineSpec = None
    play_games: Callable = play_two_games

    def __call__(self, plus, minus, opening):
        """The PairOutcome of theta+ (``plus``) and theta- (``minus``).
        A crash of either stops the run (SpsaError): an engine that refuses
        its parameters, or breaks with them, would teach SPSA nothing but
        the crash."""
        plus_spec = match.EngineSpec(self.engine.argv + param_args(plus), PLUS)
        minus_spec = match.EngineSpec(self.engine.argv + param_args(minus), MINUS)
        if self.opponent is None:
            specs = [plus_spec, minus_spec]
            games = self.play_games(self.config, specs, opening)
            stop_on_crash(games, specs)
            points = sum(match.engine1_points(games))
            return PairOutcome(points - (len(games) - points), faults(games, specs))
        result, events = 0.0, []
        for sign, spec in ((1, plus_spec), (-1, minus_spec)):
            specs = [spec, self.opponent]
            games = self.play_games(self.config, specs, opening)
            stop_on_crash(games, specs[:1])
            result += sign * sum(match.engine1_points(games))
            events += faults(games, specs)
        return PairOutcome(result, events)


def stop_on_crash(games, tuned):
    """Raises SpsaError if one of the ``tuned`` engines (the first specs of
    the games) lost a game by crashing."""
    for game in games:
        if game.reason == match.CRASH and game.loser is not None and game.loser < len(tuned):
            spec = tuned[game.loser]
            raise SpsaError(f"{spec.name} crashed ({game.detail or 'no detail'}): "
                            f"{shlex.join(spec.argv)}")


# --- the run --------------------------------------------------------------

def referee_args(args):
    """match.py's parsed options for these games (its defaults elsewhere)."""
    return match.parse_args(["--engine1", args.engine, "--engine2", args.opponent or args.engine,
                             "--size", str(args.size), "--rule", str(args.rule),
                             "--tc", args.tc])


def resume_point(path, params):
    """(k, theta) of the log's last line."""
    try:
        lines = [line for line in Path(path).read_text(encoding="utf-8").splitlines()
                 if line.strip()]
    except FileNotFoundError:
        raise SpsaError(f"{path}: no log to resume from") from None
    if not lines:
        raise SpsaError(f"{path}: the log is empty, nothing to resume")
    try:
        entry = json.loads(lines[-1])
        k, theta = int(entry["k"]), {name: float(v) for name, v in entry["theta"].items()}
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        raise SpsaError(f"{path}: last line is not an iteration record ({err!r})") from None
    if set(theta) != {param.name for param in params}:
        raise SpsaError(f"{path}: the log tunes {', '.join(sorted(theta))}, "
                        "not the parameters of --params")
    return k, {param.name: param.clamp(theta[param.name]) for param in params}


def format_theta(theta):
    """``name=value ...`` with 6 significant digits."""
    return " ".join(f"{name}={value:.6g}" for name, value in theta.items())


def final_lines(params, theta, iterations):
    """The closing report: theta, then the engine arguments it gives."""
    values = {param.name: param.engine_value(theta[param.name]) for param in params}
    engine_args = shlex.join(param_args(values))
    return ([f"theta after {iterations} iterations:"]
            + [f"{name}={value:.6g}" for name, value in theta.items()]
            + [f"engine arguments: {engine_args}",
               f"verify with match.py: --engine1-args {shlex.quote(engine_args)}"])


def run(args, play_pair=None):
    """Tune as the parsed options say and return the closing report lines.
    ``play_pair`` replaces the real games (see tune); by default they are
    played with the engine (and the opponent) through match.py."""
    params = load_params(args.params)
    referee = referee_args(args)
    config = match.make_config(referee)
    openings = match.load_openings(args.openings, config.width, config.height, match.warn)
    random.Random(args.seed).shuffle(openings)
    if play_pair is None:
        engine, opponent = match.engine_specs(referee)
        play_pair = Referee(config, engine, opponent if args.opponent else None)
    schedule = Schedule(args.iterations, args.alpha_exp, args.gamma, args.A)
    done, theta = 0, {param.name: param.start for param in params}
    if args.resume:
        done, theta = resume_point(args.log, params)
        print(f"resuming after iteration {done}: {format_theta(theta)}", flush=True)
    with open(args.log, "a", encoding="utf-8") if args.log else nullcontext() as log:
        def record(entry):
            for event in entry["events"]:
                match.warn(f"warning: iteration {entry['k']}: {event}")
            if log:
                log.write(json.dumps(entry) + "\n")
                log.flush()
            print(f"iteration {entry['k']}/{schedule.iterations}: result {entry['result']:+g}, "
                  f"{format_theta(entry['theta'])}", flush=True)

        theta = tune(params, schedule, theta, done + 1, play_pair, openings, args.seed,
                     args.concurrency, record)
    return final_lines(params, theta, max(done, schedule.iterations))


def parse_args(argv):
    """Parse the command line."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True,
                        help="the engine command; it gets --param NAME=VALUE arguments")
    parser.add_argument("--opponent",
                        help="a fixed opponent's command: theta+ and theta- each play it, "
                             "instead of each other")
    parser.add_argument("--params", required=True, help="parameters file (see above)")
    parser.add_argument("--openings", required=True, help="offset-format opening file")
    parser.add_argument("--iterations", type=int, required=True,
                        help="game pairs to play, N, the horizon of the schedule")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="game pairs played at once (default 1)")
    parser.add_argument("--rule", type=int, default=0,
                        help="Gomocup rule bitmask: 0 freestyle, 1 standard, 4 renju, 8/9 caro")
    parser.add_argument("--size", type=int, default=15, help="board size (default 15)")
    parser.add_argument("--tc", default=DEFAULT_TC, metavar="G+I",
                        help=f"seconds per game + increment seconds (default {DEFAULT_TC})")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the opening order and the deltas (default 1)")
    parser.add_argument("--log", help="append one JSON line per iteration here")
    parser.add_argument("--resume", action="store_true",
                        help="continue from the last line of --log")
    parser.add_argument("--alpha-exp", type=float, default=ALPHA,
                        help=f"exponent of the a_k decay (default {ALPHA})")
    parser.add_argument("--gamma", type=float, default=GAMMA,
                        help=f"exponent of the c_k decay (default {GAMMA})")
    parser.add_argument("--A", type=float,
                        help="stability offset of a_k (default 0.1 * iterations)")
    args = parser.parse_args(argv)
    try:
        match.parse_tc(args.tc)
    except argparse.ArgumentTypeError as err:
        parser.error(str(err))
    if args.iterations < 1 or args.concurrency < 1:
        parser.error("--iterations and --concurrency must be at least 1")
    if args.resume and not args.log:
        parser.error("--resume needs --log")
    if args.A is not None and args.A < 0:
        parser.error("--A must not be negative")
    return args


def main(argv=None):
    """Entry point; returns the process exit code."""
    args = parse_args(argv)
    try:
        lines = run(args)
    except (SpsaError, match.HarnessError, OSError) as err:
        match.warn(f"spsa.py: {err}")
        return match.HARNESS_FAILURE
    print("\n".join(lines), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
