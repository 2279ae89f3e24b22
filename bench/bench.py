#!/usr/bin/env python3
"""`make bench`: expense-log against the tools a user would otherwise use, side by side in one run.

    python3 bench/bench.py --binary .build/release/expense-log [--rounds 5] [--only NAME] [--quick]

Each scenario runs both sides alternately (which goes first swaps every round) after one warm-up
run each, and reports the median wall time and the median CPU time (user + system) of the client
processes, from wait4(2), and the median peak RSS and peak private memory (the pages a process has written that
no other shares, sampled from /proc/PID/smaps_rollup on Linux), from a second run under GNU time (see `measure`).
With --https every server answers over TLS (the tests' certificates, trusted through SSL_CERT_FILE and
CURL_CA_BUNDLE by both sides), as Google's front end does; only the scenarios that reach a server run. A pipeline runs under `sh -c`, whose wait4 counts every process of the pipeline: CPU is
their sum, RSS the largest one.
The slow-server scenarios (idle-*: the client's CPU while it waits; trips-*: its wall time against the fewest
round trips) each start a reference server of their own that waits like Apps Script (server.py --latency).
The table goes to stdout and, with the date, CPU and commit, to bench/results.md.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

import results
import scenarios
import workload


# GNU time, the stopwatch for peak RSS (`-f %M -o FILE`): /usr/bin/time on Linux; macOS's /usr/bin/time is BSD's,
# without -f or -o, so there it is Homebrew's gnu-time, installed as `gtime`.
DARWIN = sys.platform == "darwin"
GNU_TIME = "gtime" if DARWIN else "/usr/bin/time"


def run(argv, env, cwd):
    """Runs a command to completion and returns its wait4(2) usage; a failure stops the benchmark."""
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            stderr.seek(0)
            tail = stderr.read().decode("utf-8", "replace")[-2000:]
            raise SystemExit(f"bench: {' '.join(argv)} exited {process.returncode}:\n{tail}")
    return usage


def children(pid):
    """A process's descendants, from /proc (Linux)."""
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        try:
            with open(f"/proc/{current}/task/{current}/children") as f:
                kids = [int(word) for word in f.read().split()]
        except OSError:
            continue
        found += kids
        queue += kids
    return found


def private_kib(pid):
    """A process's private memory, in KiB, from smaps_rollup: the pages it has written that no other process shares
    (Private_Dirty: its heap, stacks and written data) and its swapped-out pages. Clean pages of its binary and
    libraries are left out: the kernel drops and re-reads them as it needs, and whether they count as "private"
    depends only on whether another process maps the same file (the reference server is a Python process, sharing
    Python's). 0 when the process is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            return sum(int(line.split()[1]) for line in f if line.startswith(("Private_Dirty:", "Swap:")))
    except (OSError, ValueError, IndexError):
        return 0


def run_sampled(argv, env, cwd):
    """Runs a command (under GNU time) while sampling the private memory of each process below it every 2 ms: the
    largest single process's peak, in KiB (0 off Linux, or when it ended before the first sample)."""
    peak = 0
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=stderr)
        while process.poll() is None:
            if sys.platform.startswith("linux"):
                peak = max([peak, *(private_kib(pid) for pid in children(process.pid))])
            time.sleep(0.002)
        if process.returncode != 0:
            stderr.seek(0)
            raise SystemExit(f"bench: {' '.join(argv)} exited {process.returncode}:\n{stderr.read().decode('utf-8', 'replace')[-2000:]}")
    return peak


def measure(command, cwd, before):
    """(wall seconds, CPU seconds, peak RSS in KiB, peak private memory in KiB) of a command, from two runs.

    Wall and CPU come from a run of its own. Peak RSS comes from a second run under GNU time:
    a child forked by this Python process starts with Python's own peak in its ru_maxrss, while one
    forked by time starts with time's, about 1 MiB; time's fork and exec would add ~1.5 ms to the first.
    GNU time prints ru_maxrss as the kernel counts it: KiB on Linux, bytes on macOS.
    """
    before()
    start = time.perf_counter()
    usage = run(command.argv, command.env, cwd)
    wall = time.perf_counter() - start
    before()
    with tempfile.NamedTemporaryFile("r") as out:
        private = run_sampled([shutil.which(GNU_TIME) or GNU_TIME, "-f", "%M", "-o", out.name, *command.argv], command.env, cwd)
        rss = int(out.read().split()[-1])
        rss = rss // 1024 if DARWIN else rss
    return wall, usage.ru_utime + usage.ru_stime, rss, private


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def run_scenario(scenario, rounds, cwd):
    """Warm-up, then `rounds` alternating runs per side: the medians of each side, and (under "pairs") the median of
    each round's ratio ours / theirs, per metric: the two runs of a round are next to each other in time, so a
    machine that is busier for a while weighs on both sides of the same ratio."""
    sides = {"ours": scenario.ours, "theirs": scenario.theirs}
    samples = {name: [] for name in sides}
    for name, command in sides.items():
        scenario.before(name)
        run(command.argv, command.env, cwd)
    for round_number in range(rounds):
        order = ("ours", "theirs") if round_number % 2 == 0 else ("theirs", "ours")
        for name in order:
            samples[name].append(measure(sides[name], cwd, lambda: scenario.before(name)))
        print(f"  round {round_number + 1}/{rounds}", end="\r", file=sys.stderr, flush=True)
    print(" " * 20, end="\r", file=sys.stderr)
    medians = {name: tuple(median(column) for column in zip(*runs)) for name, runs in samples.items()}
    medians["pairs"] = tuple(median([o[i] / t[i] if t[i] else float("inf") for o, t in zip(samples["ours"], samples["theirs"])])
                             for i in range(4))
    return medians


def ensure_tools():
    """curl, jq and GNU time (the other side and the stopwatch), and libcurl's headers (a static build links libcurl):
    installed from Debian's packages when missing, or with Homebrew on a Mac (jq, gnu-time; curl is the system's)."""
    if DARWIN:
        formulae = {"curl": "curl", "jq": "jq", GNU_TIME: "gnu-time"}
        missing = [formula for tool, formula in formulae.items() if shutil.which(tool) is None]
        if missing and shutil.which("brew"):
            print(f"bench: installing {', '.join(missing)} with Homebrew", file=sys.stderr)
            subprocess.run(["brew", "install", *missing], check=True)
        elif missing:
            raise SystemExit(f"bench: {', '.join(missing)} not found; install them (brew install {' '.join(missing)}) "
                             "and run again")
        return
    packages = {"curl": "curl", "jq": "jq", "/usr/bin/time": "time"}
    missing = [package for tool, package in packages.items() if shutil.which(tool) is None]
    if not glob.glob("/usr/lib/*/libcurl.so") + glob.glob("/usr/lib/libcurl.so") and sys.platform.startswith("linux"):
        missing.append("libcurl4-openssl-dev")
    if not missing:
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print(f"bench: installing {', '.join(missing)}", file=sys.stderr)
        subprocess.run(["apt-get", "update", "-qq"], check=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True)
    else:
        raise SystemExit(f"bench: {', '.join(missing)} not found; install them (apt-get install {' '.join(missing)}) and run again")


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(scenarios.ROOT, ".build", "release", "expense-log"),
                        help="the expense-log to measure (a release build)")
    parser.add_argument("--rounds", type=positive, default=5, help="measured runs per side and scenario (default 5)")
    parser.add_argument("--only", action="append", choices=[*scenarios.NAMES, *scenarios.GROUPS], metavar="NAME",
                        help="run only this scenario (repeatable): " + ", ".join(scenarios.NAMES) + "; or a group: "
                             + "idle (the idle-* four), trips (the trips-* four), slow (all eight)")
    parser.add_argument("--quick", action="store_true",
                        help="small data and 1 round, to check the harness; results.md is not written")
    parser.add_argument("--results", default=os.path.join(scenarios.ROOT, "bench", "results.md"))
    parser.add_argument("--keep", action="store_true", help="keep the generated data and print where it is")
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is not met")
    parser.add_argument("--install-tools", action="store_true", help="install what the benchmark needs, then exit")
    parser.add_argument("--https", action="store_true",
                        help="every server over TLS (the tests' CA trusted by both sides); only scenarios that reach one")
    args = parser.parse_args()
    if args.install_tools:
        ensure_tools()
        return 0
    if not os.access(args.binary, os.X_OK):
        raise SystemExit(f"bench: no expense-log at {args.binary}; build it with `swift build -c release` (make bench does)")
    ensure_tools()

    rounds = 1 if args.quick else args.rounds
    workload.HTTPS = args.https
    work = tempfile.mkdtemp(prefix="expense-log-bench.")
    rows = []
    try:
        with scenarios.Workbench(args.binary, work, quick=args.quick) as bench:
            for scenario in bench.scenarios(args.only, networked_only=args.https):
                print(f"{scenario.name}: preparing", file=sys.stderr)
                scenario.prepare()
                used = rounds if scenario.rounds is None else min(rounds, scenario.rounds)
                medians = run_scenario(scenario, used, cwd=scenarios.ROOT)
                rows.append(results.Row(scenario, medians["ours"], medians["theirs"], used, medians["pairs"]))
                print(results.console_line(rows[-1]), file=sys.stderr)
    finally:
        if args.keep:
            print(f"bench: data kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)

    print(results.markdown_table(rows))
    if not args.quick:
        results.write(args.results, rows, "https" if args.https else "http")
        print(f"\nWritten to {os.path.relpath(args.results)}.", file=sys.stderr)
    return 1 if args.check and not all(row.met for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
