"""A tiny pbrain engine that plays random moves, for testing match.py.

It plays a random empty cell next to a stone (the centre on an empty
board) and knows no rules, so as renju black it sometimes plays a
forbidden move.  Options (for exercising the referee):

    --seed N           random seed
    --fault KIND       misbehave on its move number --fault-at (1-based):
                       crash (exit), space (reply "x,y "), illegal (play on an
                       occupied cell), slow (sleep --slow-ms first),
                       stderr (also write a line to stderr), hang-end
                       (ignore END, so the manager must kill it)
    --fault-at N       move number that misbehaves (default 1)
    --slow-ms MS       how long `slow` sleeps (default 3000)
    --param NAME=VALUE ignored, accepted like pbrain-wuzi's (for spsa.py)
"""

import argparse
import random
import sys
import time

OWN, OPPONENT = 1, 2

ABOUT = 'name="random", version="1.0", author="wuzi scripts", country="-"'

HANG_SECONDS = 60

FAULTS = ("crash", "space", "illegal", "slow", "stderr", "hang-end")


class RandomEngine:
    """Game state and command handling of the random engine."""

    def __init__(self, rng, fault, fault_at, slow_ms):
        self.rng = rng
        self.fault = fault
        self.fault_at = fault_at
        self.slow_ms = slow_ms
        self.width = self.height = 0
        self.cells = {}
        self.moves_made = 0
        self.board_lines = None

    def reply(self, text):
        """Write one line to the manager."""
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def new_game(self, width, height):
        """Start an empty game of the given size, or answer ERROR."""
        if not (5 <= width <= 22 and 5 <= height <= 22):
            self.reply("ERROR unsupported size")
            return
        self.width, self.height = width, height
        self.cells = {}
        self.reply("OK")

    def parse_point(self, text):
        """Parse the leading ``x,y`` of ``text`` into an on-board point, or None."""
        try:
            x, y = (int(v) for v in text.split(",")[:2])
        except ValueError:
            return None
        if 0 <= x < self.width and 0 <= y < self.height:
            return x, y
        return None

    def candidates(self):
        """Empty cells next to a stone, or the centre on an empty board."""
        if not self.cells:
            return [(self.width // 2, self.height // 2)]
        near = {(x + dx, y + dy)
                for x, y in self.cells
                for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        found = sorted(p for p in near
                       if p not in self.cells
                       and 0 <= p[0] < self.width and 0 <= p[1] < self.height)
        return found or [(x, y) for x in range(self.width) for y in range(self.height)
                         if (x, y) not in self.cells]

    def move(self):
        """Choose, play and print a move, with the configured fault if due."""
        self.moves_made += 1
        fault = self.fault if self.moves_made == self.fault_at else None
        if fault == "crash":
            sys.exit(3)
        if fault == "slow":
            time.sleep(self.slow_ms / 1000)
        if fault == "stderr":
            sys.stderr.write("random engine: a line on stderr\n")
            sys.stderr.flush()
        if fault == "illegal" and self.cells:
            x, y = next(iter(self.cells))
            self.reply(f"{x},{y}")
            return
        x, y = self.rng.choice(self.candidates())
        self.cells[(x, y)] = OWN
        self.reply(f"{x},{y} " if fault == "space" else f"{x},{y}")

    def board_line(self, line):
        """Handle one line inside BOARD ... DONE."""
        if line.upper() == "DONE":
            self.cells = self.board_lines
            self.board_lines = None
            self.move()
            return
        parts = line.split(",")
        point = self.parse_point(line)
        if point is None or len(parts) != 3 or parts[2].strip() not in ("1", "2", "3"):
            self.reply("ERROR bad board line")
            return
        if point in self.board_lines:
            self.reply("ERROR duplicate board line")
            return
        self.board_lines[point] = OWN if parts[2].strip() == "1" else OPPONENT

    def command(self, line):
        """Handle one command line; returns False when the engine should exit."""
        if self.board_lines is not None:
            self.board_line(line)
            return True
        word, _, rest = line.partition(" ")
        word = word.upper()
        if word == "END":
            if self.fault == "hang-end":
                time.sleep(HANG_SECONDS)
            return False
        if word == "START":
            sizes = rest.split()
            if sizes and sizes[0].isdigit():
                self.new_game(int(sizes[0]), int(sizes[0]))
            else:
                self.reply("ERROR bad size")
        elif word == "RECTSTART":
            dims = rest.replace(" ", "").split(",")
            if len(dims) == 2 and all(d.isdigit() for d in dims):
                self.new_game(int(dims[0]), int(dims[1]))
            else:
                self.reply("ERROR bad size")
        elif not self.width and word in ("BEGIN", "TURN", "BOARD", "RESTART"):
            self.reply("ERROR no START yet")
        elif word == "RESTART":
            self.new_game(self.width, self.height)
        elif word == "BEGIN":
            self.move()
        elif word == "TURN":
            point = self.parse_point(rest.strip())
            if point is None or point in self.cells:
                self.reply("ERROR bad move")
            else:
                self.cells[point] = OPPONENT
                self.move()
        elif word == "BOARD":
            self.board_lines = {}
        elif word == "ABOUT":
            self.reply(ABOUT)
        elif word != "INFO":
            self.reply(f"UNKNOWN {line}")
        return True


def main():
    """Read commands from stdin until END or EOF."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--fault", choices=FAULTS)
    parser.add_argument("--fault-at", type=int, default=1)
    parser.add_argument("--slow-ms", type=int, default=3000)
    parser.add_argument("--param", action="append", metavar="NAME=VALUE")
    args = parser.parse_args()
    engine = RandomEngine(random.Random(args.seed), args.fault, args.fault_at, args.slow_ms)
    for raw in sys.stdin:
        line = raw.strip()
        if line and not engine.command(line):
            break


if __name__ == "__main__":
    main()
