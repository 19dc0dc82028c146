"""Referee rules for Gomoku variants as Gomocup defines them.

The rule is Gomocup's ``INFO rule`` bitmask:

* 0 freestyle: five or more in a row wins.
* 1 standard: exactly five wins, six or more does not.
* 4 renju: black wins with exactly five and loses by playing a forbidden
  move (overline, double four, double three); an exact five wins even if
  the same move also makes a double four or three.  White wins with five
  or more and is never restricted.
* 8 caro: five or more wins, except an exact five blocked at both ends by
  opponent stones (the board edge is not a block); an overline always wins.
* 9 caro exactly five: an exact five not blocked at both ends by the
  opponent wins; an overline does not.

Bit 2 (continuous game) does not change who wins a single game and is
ignored.  Coordinates are ``x`` (column) and ``y`` (row), 0-based.
"""

EMPTY, BLACK, WHITE = 0, 1, 2

FREESTYLE, STANDARD, RENJU, CARO, CARO_EXACT = 0, 1, 4, 8, 9
EXACT_BIT, RENJU_BIT, CARO_BIT = 1, 4, 8

OVERLINE, DOUBLE_FOUR, DOUBLE_THREE = "overline", "double-four", "double-three"

WIN, FOUL, NONE = "win", "foul", "none"

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))

MIN_SIZE, MAX_SIZE = 5, 22

# A stone that completes a five with the new stone lies at most 4 cells
# away from it along the line.
REACH = 4


def opponent(color):
    """Return the other colour."""
    return WHITE if color == BLACK else BLACK


class Board:
    """A rectangular board of ``width`` x ``height`` cells."""

    def __init__(self, width, height=None):
        height = width if height is None else height
        for size in (width, height):
            if not MIN_SIZE <= size <= MAX_SIZE:
                raise ValueError(f"board size {size} outside {MIN_SIZE}..{MAX_SIZE}")
        self.width = width
        self.height = height
        self.cells = [EMPTY] * (width * height)
        self.stones = 0

    def inside(self, x, y):
        """True when (x, y) is on the board."""
        return 0 <= x < self.width and 0 <= y < self.height

    def get(self, x, y):
        """The cell at (x, y), or None off the board."""
        if not self.inside(x, y):
            return None
        return self.cells[y * self.width + x]

    def is_empty(self, x, y):
        """True when (x, y) is on the board and empty."""
        return self.get(x, y) == EMPTY

    def is_full(self):
        """True when no empty cell is left."""
        return self.stones == self.width * self.height

    def place(self, x, y, color):
        """Put a stone of ``color`` on the empty cell (x, y)."""
        if not self.is_empty(x, y):
            raise ValueError(f"cannot place at {x},{y}: off board or occupied")
        self.cells[y * self.width + x] = color
        self.stones += 1

    def remove(self, x, y):
        """Take the stone at (x, y) off the board."""
        if self.get(x, y) in (None, EMPTY):
            raise ValueError(f"no stone to remove at {x},{y}")
        self.cells[y * self.width + x] = EMPTY
        self.stones -= 1

    @classmethod
    def from_moves(cls, width, height, moves):
        """Build a board from moves in play order, black first.

        ``moves`` holds (x, y) pairs or None for a pass (that side placed
        no stone).
        """
        board = cls(width, height)
        color = BLACK
        for move in moves:
            if move is not None:
                board.place(move[0], move[1], color)
            color = opponent(color)
        return board


def _scan(board, x, y, dx, dy, color):
    """Count stones of ``color`` from (x, y) exclusive along (dx, dy).

    Returns the count and the cell value just past them (None = edge).
    """
    count = 0
    x, y = x + dx, y + dy
    while board.get(x, y) == color:
        count += 1
        x, y = x + dx, y + dy
    return count, board.get(x, y)


def _line(board, x, y, dx, dy):
    """The run through the stone at (x, y) along (dx, dy).

    Returns (length, end cell before, end cell after).
    """
    color = board.get(x, y)
    ahead, end_ahead = _scan(board, x, y, dx, dy, color)
    behind, end_behind = _scan(board, x, y, -dx, -dy, color)
    return 1 + ahead + behind, end_behind, end_ahead


def _run_length(board, x, y, dx, dy):
    """Length of the run through the stone at (x, y) along (dx, dy)."""
    return _line(board, x, y, dx, dy)[0]


def _run_wins(length, end_a, end_b, color, rule):
    """Whether a run of ``length`` with the given ends wins for ``color``."""
    if rule & RENJU_BIT:
        return length == 5 or (color == WHITE and length > 5)
    exact = bool(rule & EXACT_BIT)
    if rule & CARO_BIT:
        if length > 5:
            return not exact
        blocked = end_a == end_b == opponent(color)
        return length == 5 and not blocked
    return length == 5 or (length > 5 and not exact)


def is_win(board, x, y, rule):
    """Whether the stone already on (x, y) makes a winning line."""
    color = board.get(x, y)
    for dx, dy in DIRECTIONS:
        length, end_a, end_b = _line(board, x, y, dx, dy)
        if _run_wins(length, end_a, end_b, color, rule):
            return True
    return False


def _five_points(board, x, y, dx, dy):
    """Offsets along (dx, dy) of the empty cells that would give the black
    stone at (x, y) an exact five on that line."""
    points = []
    for k in range(-REACH, REACH + 1):
        px, py = x + k * dx, y + k * dy
        if k == 0 or not board.is_empty(px, py):
            continue
        board.place(px, py, BLACK)
        if _run_length(board, x, y, dx, dy) == 5:
            points.append(k)
        board.remove(px, py)
    return points


def _is_straight(points):
    """Whether five points are the two ends of one straight four ``.XXXX.``.

    Two fives five cells apart can only be the two ends of the same four
    stones; any other pair belongs to two different fours on the line.
    """
    return len(points) == 2 and points[1] - points[0] == 5


def _count_fours(board, x, y, dx, dy):
    """Number of fours the black stone at (x, y) takes part in along (dx, dy).

    A straight four counts once; two fours on one line (``X.XXX.X``,
    ``XX.XX.XX``, ``XXX.X.XXX``) count twice.
    """
    points = _five_points(board, x, y, dx, dy)
    return 1 if _is_straight(points) else len(points)


def _is_three(board, x, y, dx, dy):
    """Whether the black stone at (x, y) makes a real three along (dx, dy).

    A three is a line that one more black move turns into a straight four
    through (x, y), provided that move is not itself forbidden; the check is
    made with the candidate stone on the board, and recurses.
    """
    for k in range(-REACH, REACH + 1):
        px, py = x + k * dx, y + k * dy
        if k == 0 or not board.is_empty(px, py):
            continue
        board.place(px, py, BLACK)
        try:
            if (_is_straight(_five_points(board, x, y, dx, dy))
                    and _placed_foul(board, px, py) is None):
                return True
        finally:
            board.remove(px, py)
    return False


def _placed_foul(board, x, y):
    """Forbidden kind of the black stone already at (x, y), or None."""
    lengths = [_run_length(board, x, y, dx, dy) for dx, dy in DIRECTIONS]
    if 5 in lengths:
        return None
    if max(lengths) > 5:
        return OVERLINE
    fours = [_count_fours(board, x, y, dx, dy) for dx, dy in DIRECTIONS]
    if sum(fours) >= 2:
        return DOUBLE_FOUR
    threes = 0
    for (dx, dy), four in zip(DIRECTIONS, fours):
        if four == 0 and _is_three(board, x, y, dx, dy):
            threes += 1
            if threes == 2:
                return DOUBLE_THREE
    return None


def forbidden_kind(board, x, y):
    """Renju forbidden kind of a black move on the empty cell (x, y), or None."""
    board.place(x, y, BLACK)
    try:
        return _placed_foul(board, x, y)
    finally:
        board.remove(x, y)


def forbidden_points(board):
    """All renju forbidden points for black, as (x, y, kind) in row-major order."""
    points = []
    for y in range(board.height):
        for x in range(board.width):
            if board.is_empty(x, y):
                kind = forbidden_kind(board, x, y)
                if kind is not None:
                    points.append((x, y, kind))
    return points


def outcome(board, x, y, color, rule):
    """Outcome of ``color`` playing on the empty cell (x, y) under ``rule``.

    Returns ``'win'``, ``'foul'`` (renju black forbidden move) or ``'none'``.
    The board is left unchanged.
    """
    board.place(x, y, color)
    try:
        if is_win(board, x, y, rule):
            return WIN
        if rule & RENJU_BIT and color == BLACK and _placed_foul(board, x, y):
            return FOUL
        return NONE
    finally:
        board.remove(x, y)
