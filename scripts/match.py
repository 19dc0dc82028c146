#!/usr/bin/env python3
"""Play two pbrain (Gomocup protocol) engines against each other.

Behaves like the Gomocup managers (GomocupJudge, c-gomoku-cli): each game
launches both engines fresh, sends START/RECTSTART and the INFO settings,
then BEGIN (empty board, black to move) or BOARD ... DONE for an engine's
first move and TURN x,y afterwards.  The referee (gomoku_rules.py) judges
fives and renju fouls; time, illegal or malformed replies and crashes lose.

Engines are command lines, e.g. --engine1 "python3 scripts/random_engine.py".
--time-factor2 F gives engine2 F times the time control on its own clock
(timeout_turn, timeout_match, increment and time_left, and judged by it):
time odds, so that a much stronger engine can be met near 50 %, where a
match resolves the smallest differences.
--nodes1 N / --nodes2 N send that engine ``INFO max_node N`` (an extension
that Yixin-Board and c-gomoku-cli send, and Wuzi and Rapfi read), so that
with a clock too long to bind both engines search as many nodes a move: a
match at equal nodes.

The final line is machine-readable:
    RESULT games=.. w=.. l=.. d=.. score=.. elo=.. ci=LO,HI time_losses=..
    illegal=.. forbidden=.. crashes=.. bad_replies=.. findings=.. e2_...
w/l/d, score and Elo are engine1's; the loss counters without a prefix are
engine1's, those with the e2_ prefix engine2's.  The exit code is 0 whatever
the engines do, and non-zero only when the harness itself fails.

With --sprt ELO0,ELO1 the match is a sequential probability ratio test of
"engine1 is ELO1 stronger" against "ELO0 stronger" (logistic Elo): after
each finished pair of games (one opening, colours swapped) the
log-likelihood ratio of the pentanomial pair scores is updated, and the
match stops once it leaves the bounds (after at least 8 pairs) set by --alpha and --beta (--games is
then the most it plays).  The RESULT line gains ``llr=.. sprt=H1|H0|none``.
"""

import argparse
import math
import queue
import random
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import gomoku_rules as rules

MOVE_RE = re.compile(r"\d+,\d+")
CHAT_PREFIXES = ("MESSAGE ", "DEBUG ")
START_GRACE_MS = 5000
END_WAIT_S = 1.0
READER_JOIN_S = 1.0
RENJU_DRAW_AFTER = 200
ELO_CLAMP = 0.001
Z95 = 1.96
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
PENTANOMIAL_PRIOR = 1e-3
SPRT_MIN_PAIRS = 8
HARNESS_FAILURE = 2
CRLF_FINDING = ("crlf", "lines end in CR LF")

TIME, ILLEGAL, BAD_REPLY, CRASH, FORBIDDEN, FIVE = (
    "time", "illegal-move", "bad-reply", "crash", "forbidden", "five")
RESULT_COUNTERS = (("time_losses", TIME), ("illegal", ILLEGAL), ("forbidden", FORBIDDEN),
                   ("crashes", CRASH), ("bad_replies", BAD_REPLY))


class HarnessError(Exception):
    """The match cannot be run (bad configuration, engine not startable)."""


class EngineGone(Exception):
    """The engine closed its output or its input pipe broke."""


class ReplyTimeout(Exception):
    """No reply arrived before the deadline."""


class Loss(Exception):
    """The engine to move lost the game."""

    def __init__(self, reason, detail=""):
        super().__init__(reason, detail)
        self.reason = reason
        self.detail = detail


@dataclass
class EngineSpec:
    """How to launch one engine, and its share of the time control."""
    argv: list
    name: str
    time_factor: float = 1.0
    max_node: int = 0

    def clock_ms(self, ms):
        """A time of the time control (turn, game, increment) on this
        engine's clock."""
        return round(ms * self.time_factor)


@dataclass
class Config:
    """Game settings shared by every game of the match."""
    width: int
    height: int
    rule: int
    turn_ms: int
    match_ms: int
    increment_ms: int
    tolerance_ms: int
    max_memory: int
    draw_after: int


@dataclass
class GameResult:
    """What happened in one game; engines are 0 (engine1) and 1 (engine2)."""
    index: int
    black: int
    opening: list
    moves: list = field(default_factory=list)
    winner: int = None
    reason: str = "draw"
    detail: str = ""
    findings: list = field(default_factory=list)
    thinking_ms: list = field(default_factory=lambda: [0, 0])
    replies: list = field(default_factory=lambda: [0, 0])
    slowest_ms: list = field(default_factory=lambda: [0, 0])

    @property
    def loser(self):
        """The losing engine, or None for a draw."""
        return None if self.winner is None else 1 - self.winner


class EngineProcess:
    """A running engine with its stdout and stderr read by threads."""

    def __init__(self, spec):
        try:
            self.proc = subprocess.Popen(spec.argv, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError as err:
            raise HarnessError(f"cannot start {spec.argv}: {err}") from err
        self.lines = queue.Queue()
        self.eof = False
        self.stderr_lines = []
        self.findings = []
        self.stdout_thread = self._spawn(self._read_stdout)
        self.stderr_thread = self._spawn(self._read_stderr)

    @staticmethod
    def _spawn(target):
        """Start a daemon thread."""
        thread = threading.Thread(target=target, daemon=True)
        thread.start()
        return thread

    def _read_stdout(self):
        """Queue stdout lines; None marks the end of output."""
        for raw in iter(self.proc.stdout.readline, b""):
            self.lines.put(raw.decode("utf-8", "replace"))
        self.lines.put(None)

    def _read_stderr(self):
        """Collect stderr lines (reported as findings, never a loss)."""
        for raw in iter(self.proc.stderr.readline, b""):
            self.stderr_lines.append(raw.decode("utf-8", "replace").rstrip("\r\n"))

    def send(self, line):
        """Write one command line."""
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except OSError as err:
            raise EngineGone(f"cannot write to engine: {err}") from err

    def read(self, deadline):
        """The next output line, waiting until ``deadline`` (monotonic)."""
        if self.eof:
            raise EngineGone("engine output closed")
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise ReplyTimeout() from None
        if line is None:
            self.eof = True
            raise EngineGone("engine output closed")
        line = line.rstrip("\n")
        if line.endswith("\r"):
            if CRLF_FINDING not in self.findings:
                self.findings.append(CRLF_FINDING)
            line = line[:-1]
        return line

    def read_reply(self, deadline):
        """The next line that is not MESSAGE/DEBUG chat."""
        while True:
            line = self.read(deadline)
            if not line.startswith(CHAT_PREFIXES):
                return line

    def drain_stray(self):
        """Record lines nobody asked for (chat lines excepted)."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.lines.put(None)
                return
            line = line.rstrip("\r\n")
            if not line.startswith(CHAT_PREFIXES):
                self.findings.append(("stray", f"unrequested line {line!r}"))

    def close(self):
        """Send END, wait up to END_WAIT_S, then kill if still running."""
        try:
            self.send("END")
        except EngineGone:
            pass
        try:
            self.proc.wait(timeout=END_WAIT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            self.findings.append(("killed", f"still running {END_WAIT_S:g} s after END"))
        self.stdout_thread.join(READER_JOIN_S)
        self.stderr_thread.join(READER_JOIN_S)
        if self.stderr_lines:
            self.findings.append(("stderr", f"{len(self.stderr_lines)} line(s), first "
                                            f"{self.stderr_lines[0]!r}"))
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        # A pipe still held open elsewhere keeps its reader blocked: leave it.
        for pipe, reader in ((self.proc.stdout, self.stdout_thread),
                             (self.proc.stderr, self.stderr_thread)):
            if not reader.is_alive():
                pipe.close()


class Game:
    """One game between the two engines."""

    def __init__(self, config, specs, index, opening, black):
        self.config = config
        self.specs = specs
        self.result = GameResult(index=index, black=black, opening=list(opening))
        self.board = rules.Board(config.width, config.height)
        self.history = []
        for x, y in opening:
            self._put(x, y)
        self.time_left = [spec.clock_ms(config.match_ms) for spec in specs]
        self.has_moved = [False, False]

    def _put(self, x, y):
        """Place the next stone in play order."""
        self.board.place(x, y, self._color_to_move())
        self.history.append((x, y))

    def _color_to_move(self):
        """Black moves when an even number of stones has been played."""
        return rules.BLACK if len(self.history) % 2 == 0 else rules.WHITE

    def _engine_of(self, color):
        """The engine (0 or 1) that plays ``color``."""
        return self.result.black if color == rules.BLACK else 1 - self.result.black

    def run(self):
        """Play the game and return its GameResult."""
        engines = []
        try:
            for spec in self.specs:
                engines.append(EngineProcess(spec))
            self._play(engines)
        finally:
            for number, engine in enumerate(engines):
                if not (self.result.loser == number and self.result.reason == TIME):
                    engine.drain_stray()
                engine.close()
                self.result.findings += [(number, kind, text) for kind, text in engine.findings]
        return self.result

    def _play(self, engines):
        """Start both engines and alternate moves until the game ends."""
        mover = None
        try:
            for mover in (0, 1):
                self._start(engines[mover], mover)
            while not self._drawn():
                color = self._color_to_move()
                mover = self._engine_of(color)
                x, y = self._request_move(engines[mover], mover)
                verdict = rules.outcome(self.board, x, y, color, self.config.rule)
                if verdict == rules.FOUL:
                    raise Loss(FORBIDDEN, f"forbidden move {x},{y}")
                self._put(x, y)
                self.result.moves.append((x, y))
                if verdict == rules.WIN:
                    self.result.winner, self.result.reason = mover, FIVE
                    return
        except Loss as loss:
            self.result.winner = 1 - mover
            self.result.reason, self.result.detail = loss.reason, loss.detail

    def _drawn(self):
        """Whether the stone limit or a full board ends the game."""
        return len(self.history) >= self.config.draw_after or self.board.is_full()

    def _start(self, engine, number):
        """Send START/RECTSTART, demand exactly OK, then the INFO settings
        of engine ``number`` (``_settings``)."""
        cfg = self.config
        if cfg.width == cfg.height:
            command = f"START {cfg.width}"
        else:
            command = f"RECTSTART {cfg.width},{cfg.height}"
        deadline = time.monotonic() + (cfg.tolerance_ms + START_GRACE_MS) / 1000
        reply = self._exchange(engine, [command], deadline, "OK")
        if reply != "OK":
            raise Loss(BAD_REPLY, f"{command} answered {reply!r}")
        self._send(engine, self._settings(number))

    def _settings(self, number):
        """The INFO lines engine ``number`` gets after START: the times on
        its clock, and its node limit if it has one."""
        cfg = self.config
        spec = self.specs[number]
        lines = [f"INFO timeout_turn {spec.clock_ms(cfg.turn_ms)}",
                 f"INFO timeout_match {spec.clock_ms(cfg.match_ms)}",
                 f"INFO max_memory {cfg.max_memory}",
                 f"INFO rule {cfg.rule}",
                 "INFO game_type 1"]
        if spec.max_node:
            lines.append(f"INFO max_node {spec.max_node}")
        return lines

    @staticmethod
    def _send(engine, lines):
        """Send lines; a broken pipe is a crash."""
        try:
            for line in lines:
                engine.send(line)
        except EngineGone as err:
            raise Loss(CRASH, str(err)) from None

    def _exchange(self, engine, lines, deadline, wanted):
        """Send lines and return the reply, mapping failures to losses."""
        engine.drain_stray()
        self._send(engine, lines)
        try:
            return engine.read_reply(deadline)
        except ReplyTimeout:
            raise Loss(TIME, f"no {wanted} in time") from None
        except EngineGone as err:
            raise Loss(CRASH, str(err)) from None

    def _move_commands(self, mover):
        """BEGIN, BOARD ... DONE or TURN for the engine about to move."""
        if self.has_moved[mover]:
            x, y = self.history[-1]
            return [f"TURN {x},{y}"]
        self.has_moved[mover] = True
        if not self.history:
            return ["BEGIN"]
        own = self._color_to_move()
        lines = ["BOARD"]
        for number, (x, y) in enumerate(self.history):
            color = rules.BLACK if number % 2 == 0 else rules.WHITE
            lines.append(f"{x},{y},{1 if color == own else 2}")
        return lines + ["DONE"]

    def _request_move(self, engine, mover):
        """Ask the engine for its move; return it or raise Loss."""
        cfg = self.config
        spec = self.specs[mover]
        budget, lines = spec.clock_ms(cfg.turn_ms), []
        if cfg.match_ms:
            budget = min(budget, self.time_left[mover])
            lines.append(f"INFO time_left {self.time_left[mover]}")
        lines += self._move_commands(mover)
        allowed_ms = budget + cfg.tolerance_ms
        started = time.monotonic()
        reply = self._exchange(engine, lines, started + allowed_ms / 1000, "move")
        elapsed_ms = int((time.monotonic() - started) * 1000)
        self.result.thinking_ms[mover] += elapsed_ms
        self.result.replies[mover] += 1
        self.result.slowest_ms[mover] = max(self.result.slowest_ms[mover], elapsed_ms)
        if cfg.match_ms:
            self.time_left[mover] += spec.clock_ms(cfg.increment_ms) - elapsed_ms
        if elapsed_ms > allowed_ms:
            raise Loss(TIME, f"move after {elapsed_ms} ms, allowed {allowed_ms} ms")
        if not MOVE_RE.fullmatch(reply):
            raise Loss(BAD_REPLY, f"reply {reply!r} is not a move")
        x, y = (int(v) for v in reply.split(","))
        if not self.board.is_empty(x, y):
            raise Loss(ILLEGAL, f"move {x},{y} is off the board or occupied")
        return x, y


# --- openings -------------------------------------------------------------

def parse_offsets(line):
    """Parse an offset-format line ``dx,dy, dx,dy, ...`` into pairs."""
    tokens = [t for t in re.split(r"[,\s]+", line.strip()) if t]
    if len(tokens) % 2:
        raise ValueError("odd number of coordinates")
    values = [int(t) for t in tokens]
    return list(zip(values[0::2], values[1::2]))


def read_openings(path):
    """Offset openings of a file: a list of (line number, offsets)."""
    openings = []
    text = Path(path).read_text(encoding="utf-8-sig")
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            openings.append((number, parse_offsets(line)))
        except ValueError as err:
            raise HarnessError(f"{path}:{number}: bad opening ({err})") from None
    return openings


def place_opening(offsets, width, height):
    """Board points of an opening, or None when it falls off the board or
    repeats a point."""
    points = [(dx + width // 2, dy + height // 2) for dx, dy in offsets]
    on_board = all(0 <= x < width and 0 <= y < height for x, y in points)
    if not on_board or len(set(points)) != len(points):
        return None
    return points


def load_openings(path, width, height, warn):
    """The usable openings of a file, warning about those skipped."""
    usable = []
    for number, offsets in read_openings(path):
        points = place_opening(offsets, width, height)
        if points is None:
            warn(f"warning: {path}:{number}: opening skipped, it does not fit "
                 f"a {width}x{height} board")
        else:
            usable.append(points)
    if not usable:
        raise HarnessError(f"{path}: no opening fits a {width}x{height} board")
    return usable


def schedule(games, openings):
    """(index, opening, black engine) per game: each opening twice, colours
    swapped, cycling through the openings."""
    plan = []
    for index in range(games):
        opening = openings[(index // 2) % len(openings)] if openings else []
        plan.append((index, opening, index % 2))
    return plan


# --- statistics -----------------------------------------------------------

def elo(score):
    """Logistic Elo difference for a score fraction (clamped away from 0/1)."""
    score = min(max(score, ELO_CLAMP), 1 - ELO_CLAMP)
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0 turns -0.0 into 0.0


def elo_interval(points):
    """Elo and its 95% interval from per-game scores (1, 0.5 or 0)."""
    count = len(points)
    mean = sum(points) / count
    stdev = math.sqrt(sum((p - mean) ** 2 for p in points) / count)
    half = Z95 * stdev / math.sqrt(count)
    return elo(mean), elo(mean - half), elo(mean + half)


def expected_score(rating):
    """The score fraction a logistic Elo difference predicts."""
    return 1 / (1 + 10 ** (-rating / 400))


def pair_scores(results):
    """Engine1's mean score in each finished pair (games 2k and 2k+1 share an
    opening with colours swapped)."""
    by_index = {r.index: r for r in results}
    points = {r.index: p for r, p in zip(results, engine1_points(results))}
    return [(points[i] + points[i + 1]) / 2
            for i in sorted(by_index) if i % 2 == 0 and i + 1 in by_index]


def sprt_llr(pairs, elo0, elo1):
    """Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) for
    pentanomial pair scores, by the normal approximation of the generalised
    SPRT (as Fishtest uses); every outcome gets a tiny prior count so that a
    one-sided sample still has a variance."""
    counts = [PENTANOMIAL_PRIOR + sum(1 for p in pairs if p == s) for s in PAIR_SCORES]
    total = sum(counts)
    mean = sum(c * s for c, s in zip(counts, PAIR_SCORES)) / total
    variance = sum(c * (s - mean) ** 2 for c, s in zip(counts, PAIR_SCORES)) / total
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return len(pairs) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def sprt_bounds(alpha, beta):
    """(lower, upper) LLR bounds: below accepts H0, above accepts H1."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass
class Sprt:
    """A sequential test of engine1's Elo: elo1 (H1) against elo0 (H0)."""
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def llr(self, results):
        """The log-likelihood ratio over the finished pairs of ``results``."""
        return sprt_llr(pair_scores(results), self.elo0, self.elo1)

    def verdict(self, results):
        """``H1`` or ``H0`` once the ratio left its bounds, else ``None``;
        never before SPRT_MIN_PAIRS pairs, as the sample variance of a few
        one-sided pairs is near zero and would end the test at once."""
        if len(pair_scores(results)) < SPRT_MIN_PAIRS:
            return None
        lower, upper = sprt_bounds(self.alpha, self.beta)
        llr = self.llr(results)
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None


def engine1_points(results):
    """Engine1's score in each game."""
    return [0.5 if r.winner is None else float(r.winner == 0) for r in results]


def loss_counts(results):
    """Counter of loss reasons for each engine."""
    counts = [Counter(), Counter()]
    for result in results:
        if result.loser is not None:
            counts[result.loser][result.reason] += 1
    return counts


def finding_counts(results):
    """Counter of finding kinds and a few samples for each engine."""
    counts, samples = [Counter(), Counter()], [[], []]
    for result in results:
        for engine, kind, text in result.findings:
            counts[engine][kind] += 1
            if len(samples[engine]) < 5:
                samples[engine].append(f"game {result.index + 1}: {kind}: {text}")
    return counts, samples


def report(results, specs, sprt=None):
    """Lines of the final report, ending with the RESULT line."""
    points = engine1_points(results)
    wins = points.count(1.0)
    losses = points.count(0.0)
    draws = len(points) - wins - losses
    score = sum(points) / len(points)
    rating, low, high = elo_interval(points)
    losses_by = loss_counts(results)
    findings, samples = finding_counts(results)
    colour_wins = Counter("draw" if r.winner is None else
                          ("black" if r.winner == r.black else "white") for r in results)
    lines = [
        f"games {len(results)}: {specs[0].name} vs {specs[1].name}",
        f"engine1 {specs[0].name}: W {wins} L {losses} D {draws}, score {100 * score:.1f}%",
        f"Elo difference {rating:+.1f} (95% interval {low:+.1f} .. {high:+.1f})",
        f"black wins {colour_wins['black']}, white wins {colour_wins['white']}, "
        f"draws {colour_wins['draw']}",
    ]
    for number in (0, 1):
        name = f"engine{number + 1} {specs[number].name}"
        replies = sum(r.replies[number] for r in results)
        slowest = max(r.slowest_ms[number] for r in results)
        factor = specs[number].time_factor
        odds = f", on {factor:g} times the time control" if factor != 1 else ""
        lines.append(f"{name} moves {replies}, slowest reply {slowest} ms{odds}")
        lines.append(f"{name} losses by reason: {format_counter(losses_by[number])}")
        lines.append(f"{name} findings: {format_counter(findings[number])}")
        lines += [f"  {sample}" for sample in samples[number]]
    fields = [f"games={len(results)}", f"w={wins}", f"l={losses}", f"d={draws}",
              f"score={score:.4f}", f"elo={rating:.1f}", f"ci={low:.1f},{high:.1f}"]
    for prefix, number in (("", 0), ("e2_", 1)):
        fields += [f"{prefix}{key}={losses_by[number][reason]}" for key, reason in RESULT_COUNTERS]
        fields.append(f"{prefix}findings={sum(findings[number].values())}")
    if sprt:
        llr = sprt.llr(results)
        lower, upper = sprt_bounds(sprt.alpha, sprt.beta)
        verdict = sprt.verdict(results) or "none"
        lines.append(f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} "
                     f"beta={sprt.beta:g}: LLR {llr:.2f} (bounds {lower:.2f} .. {upper:.2f}), "
                     f"pairs {len(pair_scores(results))}: "
                     + {"H1": "H1 accepted", "H0": "H0 accepted"}.get(verdict, "inconclusive"))
        fields += [f"llr={llr:.2f}", f"sprt={verdict}"]
    lines.append("RESULT " + " ".join(fields))
    return lines


def format_counter(counter):
    """``key=n key=n`` or ``none``."""
    return " ".join(f"{k}={v}" for k, v in sorted(counter.items())) or "none"


# --- game records and progress --------------------------------------------

def result_text(result):
    """PGN-like result: 1-0 (black won), 0-1 or 1/2-1/2."""
    if result.winner is None:
        return "1/2-1/2"
    return "1-0" if result.winner == result.black else "0-1"


def format_points(points):
    """Points as ``x,y x,y ...``."""
    return " ".join(f"{x},{y}" for x, y in points)


def record_line(result, specs):
    """One TAB-separated game record line."""
    black, white = specs[result.black].name, specs[1 - result.black].name
    fields = [f"game={result.index + 1}", f"black={black}", f"white={white}",
              f"opening={format_points(result.opening)}",
              f"moves={format_points(result.moves)}",
              f"result={result_text(result)}", f"reason={result.reason}",
              f"black_ms={result.thinking_ms[result.black]}",
              f"white_ms={result.thinking_ms[1 - result.black]}"]
    if result.detail:
        fields.append(f"detail={result.detail}")
    return "\t".join(fields)


def progress_line(result, specs, total):
    """A one-line summary of a finished game."""
    black, white = specs[result.black].name, specs[1 - result.black].name
    stones = len(result.opening) + len(result.moves)
    text = (f"game {result.index + 1}/{total}: {black} (black) vs {white} (white): "
            f"{result_text(result)} {result.reason} after {stones} stones")
    return f"{text} ({result.detail})" if result.detail else text


# --- command line ---------------------------------------------------------

def engine_name(argv):
    """A short name: the program, or the script it runs for interpreters."""
    program = Path(argv[0]).name
    if re.fullmatch(r"(python[\d.]*|pypy[\d.]*|sh|bash|node)", program) and len(argv) > 1:
        return Path(argv[1]).stem
    return program


def engine_specs(args):
    """The two EngineSpecs, with distinct names."""
    argvs = []
    for command, extra in ((args.engine1, args.engine1_args), (args.engine2, args.engine2_args)):
        argv = shlex.split(command) + shlex.split(extra)
        if not argv:
            raise HarnessError("empty engine command")
        if shutil.which(argv[0]) is None:
            raise HarnessError(f"engine program not found: {argv[0]}")
        argvs.append(argv)
    names = [given or engine_name(argv) for given, argv in zip((args.name1, args.name2), argvs)]
    if names[0] == names[1]:
        names = [f"{names[0]}#1", f"{names[1]}#2"]
    factors = (args.time_factor1, args.time_factor2)
    nodes = (args.nodes1, args.nodes2)
    return [EngineSpec(argv, name, factor, max_node)
            for argv, name, factor, max_node in zip(argvs, names, factors, nodes)]


def parse_tc(text):
    """``G+I`` (seconds per game + increment seconds) -> (game ms, increment ms)."""
    match = re.fullmatch(r"(\d+(?:\.\d*)?)(?:\+(\d+(?:\.\d*)?))?", text)
    if not match:
        raise argparse.ArgumentTypeError(f"bad time control {text!r}, want G+I")
    return round(float(match.group(1)) * 1000), round(float(match.group(2) or 0) * 1000)


def parse_sprt(text):
    """``ELO0,ELO1`` -> (elo0, elo1) with elo0 < elo1."""
    match = re.fullmatch(r"\s*(-?\d+(?:\.\d*)?)\s*,\s*(-?\d+(?:\.\d*)?)\s*", text)
    if not match or float(match.group(1)) >= float(match.group(2)):
        raise argparse.ArgumentTypeError(f"bad SPRT bounds {text!r}, want ELO0,ELO1 with "
                                         "ELO0 < ELO1")
    return float(match.group(1)), float(match.group(2))


def parse_args(argv):
    """Parse the command line."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine1", required=True, help="engine command line")
    parser.add_argument("--engine2", required=True, help="engine command line (may be the same)")
    parser.add_argument("--engine1-args", default="", help="extra arguments for engine1")
    parser.add_argument("--engine2-args", default="", help="extra arguments for engine2")
    parser.add_argument("--name1", help="engine1's name in reports (default: from the command)")
    parser.add_argument("--name2", help="engine2's name in reports (default: from the command)")
    parser.add_argument("--size", type=int, default=15, help="board size (default 15)")
    parser.add_argument("--width", type=int, help="board width (overrides --size)")
    parser.add_argument("--height", type=int, help="board height (overrides --size)")
    parser.add_argument("--rule", type=int, default=0,
                        help="Gomocup rule bitmask: 0 freestyle, 1 standard, 4 renju, 8/9 caro")
    parser.add_argument("--openings", help="offset-format opening file")
    parser.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    parser.add_argument("--turn-ms", type=int, default=200, help="timeout_turn (default 200)")
    parser.add_argument("--match-ms", type=int, default=0, help="timeout_match, 0 = none")
    parser.add_argument("--increment-ms", type=int, default=0,
                        help="added to time_left after each move")
    parser.add_argument("--tc", type=parse_tc, metavar="G+I",
                        help="seconds per game + increment seconds; sets timeout_match, "
                             "the increment and timeout_turn = G (overrides the -ms options)")
    parser.add_argument("--time-factor1", type=float, default=1.0, metavar="F",
                        help="engine1 plays with F times the time control (its timeout_turn, "
                             "timeout_match, increment and time_left; default 1)")
    parser.add_argument("--time-factor2", type=float, default=1.0, metavar="F",
                        help="the same for engine2: e.g. 0.125 gives a stronger engine "
                             "an eighth of the clock, to measure against it near 50 %%")
    parser.add_argument("--nodes1", type=int, default=0, metavar="N",
                        help="send engine1 INFO max_node N: at most N nodes a move "
                             "(default 0, no limit)")
    parser.add_argument("--nodes2", type=int, default=0, metavar="N",
                        help="the same for engine2")
    parser.add_argument("--tolerance-ms", type=int, default=1000,
                        help="time allowed beyond the budget (default 1000)")
    parser.add_argument("--max-memory", type=int, default=367001600, help="bytes (Gomocup 350 MiB)")
    parser.add_argument("--concurrency", type=int, default=1, help="games run at once")
    parser.add_argument("--draw-after", type=int,
                        help="stones after which the game is drawn "
                             "(default 200 for renju, else a full board)")
    parser.add_argument("--seed", type=int, help="shuffle the openings with this seed")
    parser.add_argument("--log", "--pgn", dest="log", help="write one record line per game here")
    parser.add_argument("--quiet", action="store_true", help="no per-game lines")
    parser.add_argument("--sprt", type=parse_sprt, metavar="ELO0,ELO1",
                        help="stop as soon as a sequential probability ratio test accepts "
                             "engine1 being ELO1 (H1) or ELO0 (H0) Elo stronger; --games is "
                             "then the most games played")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="SPRT false-positive rate (default 0.05)")
    parser.add_argument("--beta", type=float, default=0.05,
                        help="SPRT false-negative rate (default 0.05)")
    args = parser.parse_args(argv)
    if not (0 < args.alpha < 0.5 and 0 < args.beta < 0.5):
        parser.error("--alpha and --beta must be between 0 and 0.5")
    if args.tc:
        args.match_ms, args.increment_ms = args.tc
        args.turn_ms = args.match_ms
    if args.games < 1 or args.concurrency < 1:
        parser.error("--games and --concurrency must be at least 1")
    if not (args.time_factor1 > 0 and args.time_factor2 > 0):
        parser.error("--time-factor1 and --time-factor2 must be above 0")
    if args.nodes1 < 0 or args.nodes2 < 0:
        parser.error("--nodes1 and --nodes2 must not be negative")
    return args


def make_config(args):
    """The Config of the match."""
    width = args.width or args.size
    height = args.height or args.size
    for size in (width, height):
        if not rules.MIN_SIZE <= size <= rules.MAX_SIZE:
            raise HarnessError(f"board size {size} outside {rules.MIN_SIZE}..{rules.MAX_SIZE}")
    draw_after = args.draw_after
    if draw_after is None:
        draw_after = RENJU_DRAW_AFTER if args.rule & rules.RENJU_BIT else width * height
    return Config(width=width, height=height, rule=args.rule, turn_ms=args.turn_ms,
                  match_ms=args.match_ms, increment_ms=args.increment_ms,
                  tolerance_ms=args.tolerance_ms, max_memory=args.max_memory,
                  draw_after=draw_after)


def warn(text):
    """Print a warning to stderr."""
    print(text, file=sys.stderr, flush=True)


def run_games(config, specs, plan, concurrency, on_result, stop_when=None):
    """Play the planned games on a thread pool; return results by index.
    ``stop_when(results)``, if given, is asked after each game: once true,
    games not yet started are dropped (those under way still finish)."""
    results = []
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        futures = [pool.submit(Game(config, specs, index, opening, black).run)
                   for index, opening, black in plan]
        try:
            for future in as_completed(futures):
                if future.cancelled():
                    continue
                result = future.result()
                results.append(result)
                on_result(result)
                if stop_when and stop_when(results):
                    for pending in futures:
                        pending.cancel()
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return sorted(results, key=lambda r: r.index)


def run_match(args):
    """Run the match described by parsed arguments; return the report lines."""
    config = make_config(args)
    specs = engine_specs(args)
    openings = []
    if args.openings:
        openings = load_openings(args.openings, config.width, config.height, warn)
        if args.seed is not None:
            random.Random(args.seed).shuffle(openings)
    plan = schedule(args.games, openings)
    log = open(args.log, "w", encoding="utf-8") if args.log else None
    lock = threading.Lock()

    def on_result(result):
        with lock:
            if not args.quiet:
                print(progress_line(result, specs, len(plan)), flush=True)
            if log:
                log.write(record_line(result, specs) + "\n")
                log.flush()

    sprt = Sprt(*args.sprt, alpha=args.alpha, beta=args.beta) if args.sprt else None
    stop_when = (lambda results: sprt.verdict(results) is not None) if sprt else None
    try:
        results = run_games(config, specs, plan, args.concurrency, on_result, stop_when)
    finally:
        if log:
            log.close()
    return report(results, specs, sprt)


def main(argv=None):
    """Entry point; returns the process exit code."""
    args = parse_args(argv)
    try:
        lines = run_match(args)
    except (HarnessError, OSError) as err:
        warn(f"match.py: {err}")
        return HARNESS_FAILURE
    print("\n".join(lines), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
