#!/usr/bin/env python3
"""Writes the link order of a release binary on Linux: the functions everyday runs use, start-up's first.

    python3 bench/link_order.py .build/release/expense-log bench/link-order.txt

Each run goes under valgrind's callgrind, which names every function that ran (not a sample of them); the names are
written in the order of the runs below, each once. Package.swift hands the file to lld (--symbol-ordering-file), which
places those functions together at the start of the binary's code: a run then touches a few megabytes of the binary's
pages instead of most of its 20, which is memory (peak RSS) and start-up time. `make link-order` runs this; a stale
file only costs locality, since names it lacks are placed after the others.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from workload import ROOT, ReferenceServer, write_import_csv  # noqa: E402

FUNCTION = re.compile(r"^(c?fn)=\((\d+)\)(?: (.*))?$")
OBJECT = re.compile(r"^(c?ob)=\((\d+)\)(?: (.*))?$")


def functions_run(profile, binary):
    """The functions of `binary` that ran, from a callgrind profile, in the order the profile lists them."""
    names, functions, objects, current = [], {}, {}, None
    with open(profile, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if match := OBJECT.match(line):
                kind, number, name = match.groups()
                if name:
                    objects[number] = name
                if kind == "ob":
                    current = objects.get(number)
            elif match := FUNCTION.match(line):
                kind, number, name = match.groups()
                if name:
                    functions[number] = name.split("'")[0]  # callgrind marks a recursion level as name'2
                if kind == "fn" and current and os.path.realpath(current) == binary and number in functions:
                    names.append(functions[number])
    return names


def main():
    built, output = os.path.realpath(sys.argv[1]), sys.argv[2]
    work = tempfile.mkdtemp(prefix="link-order-")
    server = ReferenceServer()
    try:
        # Profiled without its debug information, which valgrind 3.19 refuses as "possibly corrupted" for some builds
        # (and then writes an empty profile); the symbol table, all the order needs, stays.
        binary = os.path.join(work, "expense-log")
        subprocess.run(["objcopy", "--strip-debug", built, binary], check=True)
        rows = os.path.join(work, "rows.csv")
        write_import_csv(rows, 2_000, 2031)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": work,
               "EXPENSE_LOG_HOME": os.path.join(work, "home"), "EXPENSE_LOG_ENV": "development",
               "EXPENSE_LOG_BASE_URL": server.url}
        runs = [["--version"], ["--help"], ["--env", "dummy", "fetch", "--year", "2024", "--month", "1"],
                ["register", "--batch-size", "500", rows], ["fetch", "--year", "2031", "--month", "3"],
                ["summary", "--year", "2031", "--offline"], ["pending"], ["sync"]]
        order, seen = [], set()
        for number, arguments in enumerate(runs):
            profile = os.path.join(work, f"callgrind.{number}")
            subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}",
                            binary, *arguments], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            if not os.path.exists(profile):
                sys.exit(f"link_order: valgrind wrote no profile for `expense-log {' '.join(arguments)}`; is valgrind installed?")
            names = functions_run(profile, binary)
            if not names:
                sys.exit(f"link_order: the profile of `expense-log {' '.join(arguments)}` names no function of the binary; "
                         f"run valgrind --tool=callgrind on it by hand to see why")
            for name in names:
                if name not in seen:
                    seen.add(name)
                    order.append(name)
        with open(output, "w") as f:
            f.write("\n".join(order) + "\n")
        print(f"link_order: {len(order):,} functions from {len(runs)} runs → {os.path.relpath(output, ROOT)}")
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
