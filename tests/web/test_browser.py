#!/usr/bin/env python3
"""The browser board in a real browser: headless Chromium driven by Selenium
plays `pbrain-wuzi gui` as a person would, by clicks.

It starts the server on a free port, then: plays a full game against the
engine (taking the hints) to the result, takes it back and forth (undo,
redo), analyses (live depth, the line as numbered ghost stones, the N best),
solves a VCF, plays renju and checks black's forbidden mark, edits a
position, exports and imports records (move string, .psq, link), lets the
engine open with swap2 and two engines play, and looks at the page on a
phone-sized window. Screenshots go to target/web-screenshots/.

Needs chromium and chromium-driver (Debian) and selenium (PyPI); the engine
must be built (cargo build --release). Every wait has a deadline and the
whole run is killed after DEADLINE seconds.

Usage: python3 tests/web/test_browser.py [Board.test_NAME …]
(WUZI_GUI_ENGINE=path runs another build of the engine.)
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENGINE = os.path.join(ROOT, "target", "release", "pbrain-wuzi")
SHOTS = os.path.join(ROOT, "target", "web-screenshots")
CHROMEDRIVER = "/usr/bin/chromedriver"
# The whole run, and any one wait.
DEADLINE = 300
WAIT = int(os.environ.get("WUZI_WAIT", "60"))
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def square(name):
    """h8 -> (7, 7)."""
    return LETTERS.index(name[0]), int(name[1:]) - 1


class Board(unittest.TestCase):
    server = None
    driver = None
    url = None

    @classmethod
    def setUpClass(cls):
        engine = os.environ.get("WUZI_GUI_ENGINE", ENGINE)
        cls.server = subprocess.Popen(
            [engine, "gui", "--port", "0", "--threads", "1", "--hash", "16"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = []
        reader = threading.Thread(target=lambda: line.append(cls.server.stdout.readline()), daemon=True)
        reader.start()
        reader.join(WAIT)
        found = re.search(r"http://127\.0\.0\.1:\d+/", line[0] if line else "")
        if not found:
            cls.server.kill()
            raise RuntimeError(f"the server printed no address: {line}")
        cls.url = found.group(0)
        os.makedirs(SHOTS, exist_ok=True)
        cls.profile = tempfile.mkdtemp(prefix="wuzi-chromium-")
        options = webdriver.ChromeOptions()
        for arg in [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={cls.profile}",
            "--window-size=1280,900",
        ]:
            options.add_argument(arg)
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        cls.driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
        cls.driver.set_page_load_timeout(WAIT)
        cls.driver.set_script_timeout(WAIT)

    @classmethod
    def tearDownClass(cls):
        if cls.driver:
            cls.driver.quit()
        if cls.server:
            cls.server.kill()
            cls.server.wait(10)
            # The server survived everything: nothing on its stderr.
            errors = cls.server.stderr.read()
            if errors.strip():
                print("server stderr:", errors, file=sys.stderr)
        shutil.rmtree(cls.profile, ignore_errors=True)

    # ---- helpers ---------------------------------------------------------

    def wait(self, condition, what, timeout=WAIT):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda d: condition())
        except Exception:
            self.shot("failed.png")
            raise AssertionError(f"waiting for {what}; status: {self.status()!r}") from None

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def finds(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def click(self, element_id):
        button = self.find("#" + element_id)
        self.assertTrue(button.is_enabled(), f"{element_id} is disabled")
        # Through script: the headless window may not show the whole panel.
        self.driver.execute_script("arguments[0].click()", button)

    def stones(self):
        return len(self.finds("circle.stone"))

    def status(self):
        return self.find("#status").text

    def idle(self):
        return self.driver.execute_script("return !S.pending")

    def open_page(self, url=None):
        self.driver.get(url or self.url)
        self.wait(lambda: self.find("#connection").text == "connected", "the event stream")
        self.wait(lambda: self.driver.execute_script("return S.state !== null"), "the first position")

    def play(self, name):
        x, y = square(name)
        count = self.stones()
        self.click_cell(x, y)
        self.wait(lambda: self.stones() > count, f"the stone on {name} (status: {self.status()!r})")

    def click_cell(self, x, y):
        # Found and clicked in one go: the board is redrawn after every change.
        self.driver.execute_script(
            "document.querySelector(arguments[0]).dispatchEvent(new MouseEvent('click', {bubbles: true}))",
            f'rect.cell[data-x="{x}"][data-y="{y}"]',
        )

    def new_game(self, size=15, rule="freestyle", black="human", white="engine", strength="0", seconds="0.2", opening=""):
        size_input = self.find("#size")
        size_input.clear()
        size_input.send_keys(str(size))
        Select(self.find("#rule")).select_by_value(rule)
        Select(self.find("#black")).select_by_value(black)
        Select(self.find("#white")).select_by_value(white)
        Select(self.find("#strength")).select_by_value(strength)
        Select(self.find("#swap2")).select_by_value(opening)
        time_input = self.find("#time")
        time_input.clear()
        time_input.send_keys(seconds)
        self.click("new")
        empty = "S.stones.length === 0 && S.state && S.state.count === 0"
        if opening == "engine":
            # The engine may have laid its three stones before the first poll.
            empty += " || document.getElementById('swap2-panel').offsetParent !== null"
        self.wait(lambda: self.driver.execute_script(f"return {empty}"), "a new game")

    def set_record(self, text):
        """Opens the record panel and types `text` into it."""
        self.driver.execute_script("document.getElementById('records').open = true")
        box = self.find("#record")
        box.clear()
        box.send_keys(text)

    def shot(self, name):
        self.driver.execute_script("window.scrollTo(0, 0)")
        path = os.path.join(SHOTS, name)
        self.driver.save_screenshot(path)
        return path

    # ---- the tests, in order ---------------------------------------------

    def test_1_full_game_against_the_engine(self):
        self.open_page()
        self.shot("01-start.png")
        self.new_game(strength="0", seconds="0.2")
        # The person (black) takes the hint every move; the beginner engine
        # (white) answers; full strength wins in a few dozen moves.
        for _ in range(60):
            if "wins" in self.status() or "Draw" in self.status():
                break
            self.wait(self.idle, "the engine's move")
            if "wins" in self.status():
                break
            self.click("hint")
            self.wait(lambda: self.idle() and "Hint:" in self.status(), "a hint")
            self.assertTrue(self.finds("#hint-mark"), "the hint is marked on the board")
            hint = re.search(r"Hint: ([a-z]\d+)", self.status()).group(1)
            count = self.stones()
            self.play(hint)
            self.wait(lambda: self.stones() > count + 1 or "wins" in self.status(), "the engine's reply")
        self.assertRegex(self.status(), r"^Black wins: five( [a-o]\d+){5}\.")
        self.assertTrue(self.finds("#five-line"), "the five is drawn as a line")
        self.assertIn("over", self.find("#status").get_attribute("class"))
        self.assertGreaterEqual(self.stones(), 9)
        self.shot("02-game-over.png")
        # Undo takes the winning move back; redo replays it.
        count = self.stones()
        self.click("undo")
        self.wait(lambda: self.stones() == count - 1, "the undo")
        self.assertNotIn("wins", self.status())
        self.assertFalse(self.finds("#five-line"))
        self.click("redo")
        self.wait(lambda: self.stones() == count and "Black wins:" in self.status(), "the redo")
        # Undo again, twice: the engine's reply goes with the person's move.
        self.click("undo")
        self.wait(lambda: self.stones() == count - 1, "the undo")
        self.click("undo")
        self.wait(lambda: self.stones() == count - 3, "the undo of a move and its reply")
        self.assertIn("Black to move", self.status())

    def test_2_analysis_and_solve(self):
        self.open_page()
        self.new_game(black="human", white="human")
        for name in ["h8", "i9", "h9", "h10", "i8"]:
            self.play(name)
        Select(self.find("#nbest")).select_by_value("3")
        self.click("analyse")
        self.wait(lambda: self.find("#a-depth").text.isdigit() and int(self.find("#a-depth").text) >= 4, "depth 4")
        self.assertTrue(self.find("#stop").is_enabled())
        self.assertGreater(len(self.finds("circle.ghost")), 0, "the line as ghost stones")
        self.assertEqual(len(self.finds("rect.candidate")), 3, "three best moves marked")
        self.assertRegex(self.find("#a-nps").text, r"^[\d,]+ \([\d,]+ nodes\)$")
        self.assertRegex(self.find("#a-pv").text, r"^[a-o]\d+( [a-o]\d+)+$")
        self.shot("03-analysis.png")
        depth = int(self.find("#a-depth").text)
        self.click("stop")
        self.wait(lambda: not self.find("#stop").is_enabled(), "the search to stop")
        time.sleep(0.5)
        self.assertLessEqual(int(self.find("#a-depth").text), depth + 1, "no more depths after stop")
        # A position won by fours: solve shows the line.
        self.set_record("h8a1i8a2j8a3")
        self.click("import")
        self.wait(lambda: self.stones() == 6, "the imported position")
        self.click("solve")
        self.wait(lambda: "wins by VCF" in self.status(), "the VCF")
        self.assertGreaterEqual(len(self.finds("circle.ghost")), 3)

    def test_3_renju_forbidden_points(self):
        self.open_page()
        self.new_game(rule="renju", black="human", white="human")
        for name in ["g8", "a1", "i8", "a3", "h7", "a5", "h9"]:
            self.play(name)
        self.assertFalse(self.finds("g.forbidden-mark"), "no mark while white is to move")
        self.play("a7")
        self.wait(lambda: self.finds('g.forbidden-mark[data-x="7"][data-y="7"]'), "the mark on h8")
        self.click_cell(7, 7)
        self.wait(lambda: "forbidden for black" in self.status(), "the refusal")
        self.assertEqual(self.stones(), 8)
        self.shot("04-renju.png")
        # Records: the move string, the .psq, and a link that reopens it.
        self.click("export-moves")
        self.wait(lambda: self.find("#record").get_attribute("value") == "g8a1i8a3h7a5h9a7", "the move string")
        self.click("export-psq")
        self.wait(lambda: self.find("#record").get_attribute("value").startswith("Piskvorky 15x15, 0:0, 0\n7,8,"), "the .psq")
        psq = self.find("#record").get_attribute("value")
        self.assertTrue(psq.rstrip().endswith("-1"))
        self.click("link")
        self.wait(lambda: "#" in self.find("#record").get_attribute("value"), "the link")
        link = self.find("#record").get_attribute("value")
        self.assertIn("rule=renju", link)
        self.driver.get("about:blank")
        self.open_page(link)
        self.wait(lambda: self.stones() == 8, "the linked position")
        self.assertTrue(self.finds('g.forbidden-mark[data-x="7"][data-y="7"]'))
        # The .psq back in: the same eight stones on a fresh board.
        self.new_game(rule="renju", black="human", white="human")
        self.set_record(psq)
        self.click("import")
        self.wait(lambda: self.stones() == 8, "the imported .psq")
        self.assertTrue(self.finds('g.forbidden-mark[data-x="7"][data-y="7"]'))
        # A bad record gets a clear error.
        self.set_record("h8 zz")
        self.click("import")
        self.wait(lambda: "bad move" in self.status(), "the import error")
        self.assertIn("error", self.find("#status").get_attribute("class"))

    def test_4_editing_swap2_and_engines(self):
        self.open_page()
        self.new_game(black="human", white="human")
        self.driver.execute_script("document.getElementById('edit').open = true")
        self.click("edit-toggle")
        self.find("input[name=edit-color][value=w]").click()
        self.click_cell(7, 7)
        self.wait(lambda: self.finds('circle.stone[data-color="w"]'), "a white stone")
        self.click_cell(8, 7)
        self.wait(lambda: len(self.finds('circle.stone[data-color="w"]')) == 2, "a second white stone")
        Select(self.find("#edit-side")).select_by_value("white")
        self.click("edit-toggle")
        self.wait(lambda: "White to move" in self.status(), "white to move")
        # Swap2, the engine opening: three stones, then the person takes black.
        self.new_game(opening="engine", seconds="0.3")
        self.wait(lambda: self.stones() == 3 and self.idle(), "the engine's three stones")
        self.assertTrue(self.find("#swap2-panel").is_displayed())
        self.shot("05-swap2.png")
        self.click("swap-black")
        self.wait(lambda: self.stones() == 4 and self.idle(), "the engine's move as white")
        self.assertEqual(self.driver.execute_script("return S.players.white"), "engine")
        # Two engines play on their own. Players apply at once, so the game
        # starts empty between two people and then both sides become engines
        # (a new engine game could fill its first squares before a poll).
        self.new_game(black="human", white="human", seconds="0.1")
        Select(self.find("#black")).select_by_value("engine")
        Select(self.find("#white")).select_by_value("engine")
        self.wait(lambda: self.stones() >= 6, "six engine moves")
        self.click("new")

    def test_5_phone_sized_window(self):
        self.driver.set_window_size(400, 800)
        try:
            self.open_page()
            self.new_game(black="human", white="engine", strength="30", seconds="0.2")
            self.play("h8")
            self.wait(lambda: self.stones() == 2 and self.idle(), "the reply")
            board = self.find("#board").rect
            width = self.driver.execute_script("return document.documentElement.clientWidth")
            self.assertLessEqual(board["x"] + board["width"], width + 1, "the board fits the width")
            self.assertGreater(board["width"], 300, "the board uses the width")
            self.assertFalse(
                self.driver.execute_script("return document.documentElement.scrollWidth > document.documentElement.clientWidth"),
                "no sideways scrolling",
            )
            self.shot("06-phone.png")
        finally:
            self.driver.set_window_size(1280, 900)


def main():
    # Whatever hangs, the run ends, and takes its processes along.
    def give_up(*_):
        print(f"test_browser: over {DEADLINE} s, giving up", file=sys.stderr)
        for process in [Board.server, getattr(getattr(Board.driver, "service", None), "process", None)]:
            if process:
                process.kill()
        os._exit(3)

    signal.signal(signal.SIGALRM, give_up)
    signal.alarm(DEADLINE)
    program = unittest.main(argv=[sys.argv[0], "-v"] + sys.argv[1:], exit=False)
    sys.exit(0 if program.result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
