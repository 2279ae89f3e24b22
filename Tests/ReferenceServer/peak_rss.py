#!/usr/bin/env python3
"""Runs a command and reports its peak resident memory and CPU time, read by the kernel (wait4's rusage), not by timing.

    python3 peak_rss.py OUT_FILE COMMAND [ARG...]

Passes stdin, stdout and stderr through, exits with the command's status, and writes to OUT_FILE the peak in KiB and
the CPU seconds (user + system), separated by a space.
"""
import os
import sys



def kib(maxrss, platform=sys.platform):
    """ru_maxrss in KiB: getrusage(2) counts it in KiB on Linux and in bytes on macOS."""
    return maxrss // 1024 if platform == "darwin" else maxrss


if __name__ == "__main__":
    out, command = sys.argv[1], sys.argv[2:]
    pid = os.fork()
    if pid == 0:
        os.execvp(command[0], command)
    _, status, usage = os.wait4(pid, 0)
    with open(out, "w") as f:
        f.write(f"{kib(usage.ru_maxrss)} {usage.ru_utime + usage.ru_stime:.6f}")
    sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
