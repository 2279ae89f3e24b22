"""The benchmark's table: ratios against the goals, on the console and in bench/results.md."""

import datetime
import os
import platform
import subprocess
from dataclasses import dataclass

METRICS = {"wall": 0, "cpu": 1, "rss": 2, "private": 3}
MARKER = "<!-- run -->"   # starts each run in results.md; the newest comes first
KEEP_RUNS = 10


@dataclass
class Row:
    scenario: object
    ours: tuple    # median wall s, median CPU s, median peak RSS KiB, median peak private memory KiB (0: not sampled)
    theirs: tuple
    rounds: int    # the measured runs per side behind the medians
    pairs: tuple = None  # the median of the rounds' ratios ours / theirs, per metric

    def ratio(self, metric):
        """The median of the rounds' ratios (the ratio of the medians for rows written before pairs were kept)."""
        i = METRICS[metric]
        if self.pairs is not None:
            return self.pairs[i]
        return self.ours[i] / self.theirs[i] if self.theirs[i] else float("inf")

    def value(self, goal):
        """What a goal's limit applies to: a ratio ours / theirs, ours' CPU / ours' wall ("cpu-share"), or
        ours' wall / the fewest round trips the protocol allows ("wall-min", against goal.minimum seconds)."""
        if goal.metric == "cpu-share":
            return cpu_share(self.ours)
        if goal.metric == "wall-min":
            return self.ours[0] / goal.minimum
        if goal.metric == "cpu-each":
            return self.ours[1] / goal.minimum
        return self.ratio(goal.metric)

    @property
    def met(self):
        return all(self.value(goal) <= goal.limit for goal in self.scenario.goals)

    def verdict(self, goal):
        value, met = self.value(goal), "met" if self.value(goal) <= goal.limit else "**not met**"
        if goal.metric == "cpu-share":
            return f"CPU / wall {value:.1%} ≤ {goal.limit:.0%} {met} (theirs {cpu_share(self.theirs):.1%})"
        if goal.metric == "wall-min":
            return f"wall / fewest round trips ({goal.basis} = {seconds(goal.minimum)}) {value:.2f} ≤ {goal.limit:g} {met}"
        if goal.metric == "cpu-each":
            return f"CPU {goal.basis} {value * 1000:.2f} ms ≤ {goal.limit * 1000:g} ms {met}"
        return f"{goal.metric} {value:.2f} ≤ {goal.limit:g} {met}"

    def verdicts(self):
        return ", ".join(self.verdict(goal) for goal in self.scenario.goals)


def cpu_share(side):
    """A side's CPU time over its wall time: how busy the client is while the server thinks."""
    return side[1] / side[0] if side[0] else float("inf")


def seconds(value):
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def mebibytes(kib):
    return f"{kib / 1024:.1f} MiB" if kib else "—"


def ratio_text(row, metric):
    value = row.ratio(metric)
    return "—" if value != value or value == float("inf") or (metric == "private" and not row.ours[3]) else f"{value:.2f}"


def console_line(row):
    o, t = row.ours, row.theirs
    return (f"  ours {seconds(o[0])} wall, {seconds(o[1])} CPU, {mebibytes(o[2])} RSS, {mebibytes(o[3])} private; "
            f"theirs {seconds(t[0])} wall, {seconds(t[1])} CPU, {mebibytes(t[2])} RSS, {mebibytes(t[3])} private; {row.verdicts()}")


def markdown_table(rows):
    lines = ["| scenario | ours | theirs | rounds | wall ours / theirs | CPU ours / theirs | peak RSS ours / theirs "
             "| peak private ours / theirs | goal |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for row in rows:
        o, t = row.ours, row.theirs
        # The medians of each side, then the ratio: the median of the rounds' ratios, which the quotient of the
        # medians need not equal (hence no "=").
        sign = ";" if row.pairs is not None else " ="
        ours, theirs = (label.replace("|", "\\|") for label in row.scenario.labels)  # a pipeline's | would split the cell
        lines.append(f"| {row.scenario.name} | {ours} | {theirs} | {row.rounds} "
                     f"| {seconds(o[0])} / {seconds(t[0])}{sign} **{row.ratio('wall'):.2f}** "
                     f"| {seconds(o[1])} / {seconds(t[1])}{sign} **{row.ratio('cpu'):.2f}** "
                     f"| {mebibytes(o[2])} / {mebibytes(t[2])}{sign} **{row.ratio('rss'):.2f}** "
                     f"| {mebibytes(o[3])} / {mebibytes(t[3])}{sign} **{ratio_text(row, 'private')}** "
                     f"| {row.verdicts()} |")
    return "\n".join(lines)


def machine():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), model)
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def commit():
    def git(*args):
        try:
            return subprocess.run(["git", *args], capture_output=True, text=True).stdout.strip()
        except OSError:  # no git (a tarball, a bare container): the results still get written
            return ""
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + (" with uncommitted changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def write(path, rows, scheme="http"):
    """Puts this run first in results.md and keeps the KEEP_RUNS - 1 runs before it below."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    over = "over https (the reference server's TLS, a test CA)" if scheme == "https" else "over http"
    run = (f"{MARKER}\n## {now}, commit {commit()}, {over}\n\n"
           f"{machine()}. Medians of the rounds shown, per side, after a warm-up; a ratio is the median of the "
           f"rounds' ratios (each round runs both sides, alternating which goes first); CPU is user + system time "
           f"of the client processes; RSS is the peak resident set of the largest of them, private its peak private memory "
           f"(Private_Dirty + Swap of /proc/PID/smaps_rollup, sampled every 2 ms: what it wrote, not the clean pages of "
           f"its binary and libraries; — when the run ended before a sample).\n\n"
           f"{markdown_table(rows)}\n")
    earlier = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            earlier = f.read().split(MARKER)[1:KEEP_RUNS]
    header = ("# Benchmark results\n\nWritten by `make bench` (bench/bench.py); the newest run first. "
              "Ours is expense-log, theirs the tool a user would otherwise use.\n\n")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(header + "\n".join([run, *(MARKER + e.rstrip("\n") + "\n" for e in earlier)]))
    os.replace(path + ".tmp", path)
