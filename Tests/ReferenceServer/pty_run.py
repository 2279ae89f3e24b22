#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal, as a person at a terminal would, answering its questions.

    PTY_SCRIPT='[["Date", ""], ["Price", "980"]]' python3 pty_run.py COMMAND [ARG...]

Each pair is (text to wait for, line to type once it has appeared; Enter follows it unless it ends with a control
key, Ctrl-C or Ctrl-D, that ends the line itself); the command's whole output (stdout and stderr
share the terminal) is then read to its end and printed on stdout, and this exits with the command's status. A
question that does not come within 20 s fails the run (exit 124), printing what was seen.
"""
import json
import os
import pty
import select
import sys
import time


def main():
    script = json.loads(os.environ.get("PTY_SCRIPT", "[]"))
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(sys.argv[1], sys.argv[1:])
    seen = b""

    def read_some(deadline):
        nonlocal seen
        ready, _, _ = select.select([fd], [], [], max(0, deadline - time.time()))
        if not ready:
            return False
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            return None
        if not chunk:
            return None
        seen += chunk
        return True

    position = 0
    for expected, answer in script:
        deadline = time.time() + 20
        while expected.encode() not in seen[position:]:
            if time.time() > deadline or read_some(deadline) is None:
                sys.stdout.write(seen.decode("utf-8", "replace"))
                sys.stdout.write(f"\n[pty_run: never saw {expected!r}]\n")
                os.kill(pid, 9)
                sys.exit(124)
        position = seen.index(expected.encode(), position) + len(expected)
        os.write(fd, answer.encode() + (b"" if answer[-1:] in ("\x03", "\x04") else b"\r"))
    deadline = time.time() + 20
    while time.time() < deadline and read_some(deadline) is not None:
        pass
    done, status = os.waitpid(pid, os.WNOHANG)
    while done == 0 and time.time() < deadline + 5:  # the terminal closes a moment before the process is gone
        time.sleep(0.01)
        done, status = os.waitpid(pid, os.WNOHANG)
    if done == 0:  # still running after its last question was answered: stuck
        os.kill(pid, 9)
        sys.stdout.write(seen.decode("utf-8", "replace"))
        sys.stdout.write("\n[pty_run: the command did not end]\n")
        sys.exit(124)
    sys.stdout.write(seen.decode("utf-8", "replace"))
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
