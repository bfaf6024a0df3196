# SPDX-License-Identifier: GPL-3.0-or-later
"""A minimal UCI driver for the bench scripts: start an engine, send lines, and read until a
line with a given prefix (uciok, readyok, bestmove), so that each search is answered before the
next is sent. Used by bench/go-latency.py, bench/search-depth.py and bench/puzzle-probe.py."""
import subprocess


class UciDriver:
    def __init__(self, binary):
        self.binary = binary
        try:
            self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         text=True, bufsize=1)
        except OSError as error:
            raise SystemExit(f"{binary}: {error}") from error
        self.send("uci")
        self.read_until("uciok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix):
        """The lines read up to and including the first that starts with prefix."""
        lines = []
        for line in self.proc.stdout:
            lines.append(line)
            if line.startswith(prefix):
                return lines
        raise SystemExit(f"{self.binary}: engine ended before '{prefix}'")

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=60)


def last_exact_iteration(lines):
    """The words of the last `info depth` line with a score and a PV that is not a bound (the
    last completed iteration's report), or None."""
    last = None
    for line in lines:
        words = line.split()
        if words[:2] == ["info", "depth"] and "score" in words and "pv" in words and \
                "lowerbound" not in words and "upperbound" not in words:
            last = words
    return last
