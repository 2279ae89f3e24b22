#!/usr/bin/env python3
"""The layering of the library, checked from the sources: each target imports only the targets Package.swift declares
for it, and a layer depends only on layers below it (listed before it in `libraryLayers`).

SwiftPM lets a target import any module already built (a dependency's dependency, or a sibling built earlier), and its
own `--explicit-target-dependency-import-check` did not catch such an import here (Swift 6.3 on Linux), so this reads
the `import` lines itself. It also keeps the storage and server-client layers out of the whole command line
(`Sources/ExpenseLogCLI/`): a command parses, calls the ledger and hands its outcome to a renderer.

Usage: layers.py [--root PACKAGE_ROOT] [--targets-only] | --self-test  (--targets-only: leave the command line's imports out)
Exit status: 0 when every rule holds, 1 when one does not (each offence named by file and line), 2 when Package.swift
cannot be read as expected.
"""
import os
import re
import sys

# The storage and server-client layers, which the command line must not import: it reaches them through the ledger.
LOWER_LAYERS_KEPT_FROM_COMMANDS = ("ExpenseLogStore", "ExpenseLogClient")


def read_package(text):
    """The layer names in order and each target's declared dependencies, from Package.swift's text."""
    order = re.search(r"let libraryLayers = \[(.*?)\]", text, re.S)
    if not order:
        raise ValueError("Package.swift has no `let libraryLayers = [...]`")
    layers = re.findall(r'"(\w+)"', order.group(1))
    declared = {}
    for name, deps in re.findall(r'layer\("(\w+)", \[(.*?)\](?:, strict: \w+)?\)', text, re.S):
        declared[name] = set(re.findall(r'"(\w+)"', deps))
    missing = [name for name in layers if name not in declared]
    if missing:
        raise ValueError("Package.swift declares no layer(...) for " + ", ".join(missing))
    return layers, declared


def imports(path):
    """(line number, module) for each `import` of the file."""
    found = []
    with open(path, encoding="utf-8") as source:
        for number, line in enumerate(source, 1):
            match = re.match(r"\s*(?:@testable\s+|@_implementationOnly\s+)?import\s+(?:\w+\s+)?(\w+)", line)
            if match:
                found.append((number, match.group(1)))
    return found


def swift_files(folder):
    for directory, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def offences(root, text, commands=True):
    layers, declared = read_package(text)
    found = []
    for index, layer in enumerate(layers):
        for dependency in sorted(declared[layer]):
            if dependency in layers and layers.index(dependency) >= index:
                found.append(f"Package.swift: {layer} depends on {dependency}, which is not below it in libraryLayers")
        for path in swift_files(os.path.join(root, "Sources", layer)):
            for number, module in imports(path):
                if module.startswith("ExpenseLog") and module not in declared[layer]:
                    found.append(f"{os.path.relpath(path, root)}:{number}: {layer} imports {module}, "
                                 "which Package.swift does not declare for it")
    folder = os.path.join(root, "Sources", "ExpenseLogCLI")
    for path in swift_files(folder) if commands else ():
        for number, module in imports(path):
            if module in LOWER_LAYERS_KEPT_FROM_COMMANDS:
                found.append(f"{os.path.relpath(path, root)}:{number}: the command line imports {module}; "
                             "reach it through the ledger in ExpenseLogUseCases")
    return found


SAMPLE = '''let libraryLayers = ["A", "B"]
layer("A", []),
layer("B", ["A"]),
'''


def self_test():
    import tempfile
    failures = []
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "Sources", "A"))
        os.makedirs(os.path.join(root, "Sources", "B"))
        os.makedirs(os.path.join(root, "Sources", "ExpenseLogCLI", "Commands"))
        def write(relative, body):
            with open(os.path.join(root, relative), "w", encoding="utf-8") as out:
                out.write(body)
        package = SAMPLE.replace('"A", "B"', '"ExpenseLogA", "ExpenseLogB"').replace('layer("A"', 'layer("ExpenseLogA"') \
            .replace('layer("B", ["A"])', 'layer("ExpenseLogB", ["ExpenseLogA"])')
        os.rename(os.path.join(root, "Sources", "A"), os.path.join(root, "Sources", "ExpenseLogA"))
        os.rename(os.path.join(root, "Sources", "B"), os.path.join(root, "Sources", "ExpenseLogB"))
        write("Sources/ExpenseLogB/Fine.swift", "import ExpenseLogA\nimport Foundation\n")
        if offences(root, package):
            failures.append("a layer importing the one below it was refused")
        write("Sources/ExpenseLogA/Up.swift", "import Foundation\nimport ExpenseLogB\n")
        found = offences(root, package)
        if not any("ExpenseLogA/Up.swift:2: ExpenseLogA imports ExpenseLogB" in line for line in found):
            failures.append(f"an upward import was not caught: {found}")
        cycle = package.replace('layer("ExpenseLogA", [])', 'layer("ExpenseLogA", ["ExpenseLogB"])')
        if not any("ExpenseLogA depends on ExpenseLogB" in line for line in offences(root, cycle)):
            failures.append("a dependency on a higher layer in Package.swift was not caught")
        os.remove(os.path.join(root, "Sources", "ExpenseLogA", "Up.swift"))
        write("Sources/ExpenseLogCLI/Commands/Sync.swift", "@testable import ExpenseLogStore\n")
        if not any("Commands/Sync.swift:1: the command line imports ExpenseLogStore" in line
                   for line in offences(root, package)):
            failures.append("a command file importing the storage layer was not caught")
        try:
            read_package("layer(\"A\", [])")
            failures.append("a Package.swift without libraryLayers was accepted")
        except ValueError:
            pass
    for failure in failures:
        print("self-test: " + failure, file=sys.stderr)
    if not failures:
        print("layers.py: 5 rules, each found as expected")
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = argv[argv.index("--root") + 1] if "--root" in argv else os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    try:
        with open(os.path.join(root, "Package.swift"), encoding="utf-8") as package:
            found = offences(root, package.read(), commands="--targets-only" not in argv)
    except (OSError, ValueError) as error:
        print(f"layers.py: {error}", file=sys.stderr)
        return 2
    for line in found:
        print(line, file=sys.stderr)
    if found:
        print(f"layers.py: {len(found)} import(s) break the layering (ARCHITECTURE.md says which layer may import which)",
              file=sys.stderr)
        return 1
    print("layers.py: every target imports only what Package.swift declares for it")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
