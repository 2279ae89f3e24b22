#!/usr/bin/env python3
"""The portability check: what would break the build or the tests on macOS, found on Linux by reading the code.

    python3 Tests/Portability/portability.py [--root DIR]    # check every .swift file under Sources/ and Tests/
    python3 Tests/Portability/portability.py --self-test     # check the rules against their own examples

No Mac builds this project on every change, so what differs between glibc and Darwin is written down here, once, and
every Swift file under Sources/ and Tests/ (and the Python helpers under Tests/, where the tests read ru_maxrss and
the devices) is read against it. Each offence is printed as `FILE:LINE: what, and how to fix it`; the exit status is
1 when there is one, 0 when there is none, 2 when the check itself cannot run. Standard library only.

Three kinds of offence:

1. A glibc-only symbol (or path, or unit) used where Darwin compiles or runs it: the table RULES below, each with
   why it differs and Darwin's way. A use is fine inside a branch Darwin does not compile (`#if canImport(Glibc)`,
   `#if os(Linux)`, the `#else` of `#if canImport(Darwin)`, ...): every `#if` is evaluated as a Mac would, so
   `#if canImport(Darwin) A #else B #endif` counts B as Linux's. What a test needs at run time (`/dev/full`,
   `/proc/`, `unshare`) is also fine in a test disabled at run time with `.enabled(if:)` or `.disabled(if:)`, as
   issue 29 asks (never compiled out), and in the helpers of a file whose tests are so disabled.
2. `POSIX_SPAWN_CLOEXEC_DEFAULT` where Darwin compiles it, in a file that never calls
   `posix_spawn_file_actions_addinherit_np` there: Darwin then closes every descriptor no file action names,
   including the stdin, stdout and stderr a child was meant to inherit.
3. A `#if canImport(Glibc)` or `#if os(Linux)` block with no Darwin branch beside it (`#elseif canImport(Darwin)`,
   `#else`, or an adjacent `#if canImport(Darwin)` block) whose body is code or `import Glibc`: Darwin would be
   left without it. Imports Darwin has no use for (FoundationNetworking, FoundationXML, CCurl) are fine alone, and
   code Darwin truly does not need is marked `// Linux only: <reason>` on the `#if` line or the line above.
"""

import argparse
import io
import os
import re
import sys
import tokenize
from dataclasses import dataclass, field

# ---------------------------------------------------------------------------------------------------------------------
# The table. `kind` says where the pattern is looked for: "code" (Swift or Python with comments and string literals
# blanked), "string" (inside string literals only: paths). `allowed` says where a use is fine:
#   "linux"    only in a branch Darwin does not compile;
#   "platform" also in any branch on the platform, or in a function (Python: a function, else the module) that
#              tests the platform, since the unit has to be chosen by platform, not hidden from Darwin;
#   "runtime"  also in a test disabled at run time (.enabled(if:)/.disabled(if:)), or a helper in a file whose tests
#              are; in Python, under an `if` on sys.platform.
# `needs` (optional) is a pattern the file must contain for the rule to apply. `bad` and `good` are the self-test's
# examples: `bad` must give exactly this rule, `good` nothing at all.
# ---------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    name: str
    pattern: str
    why: str
    darwin: str
    bad: str
    good: str
    kind: str = "code"
    allowed: str = "linux"
    languages: tuple = ("swift",)
    needs: str = ""
    path: str = "Sources/Example.swift"


SPAWN_FIX = ("declare it `posix_spawn_file_actions_t?` (nil) on Darwin, a struct value elsewhere, e.g. "
             "`#if canImport(Darwin) var actions: posix_spawn_file_actions_t? = nil #else var actions = "
             "posix_spawn_file_actions_t() #endif`, and pass `&actions` to posix_spawn_file_actions_init")

RULES = [
    Rule("spawn-file-actions-value", r"\bposix_spawn_file_actions_t\s*\(\s*\)",
         "glibc's posix_spawn_file_actions_t is a struct; Darwin's spawn.h declares it `typedef void *`, which Swift "
         "imports as an optional raw pointer with no initializer",
         SPAWN_FIX,
         bad="var actions = posix_spawn_file_actions_t()\n",
         good="#if canImport(Darwin)\nvar actions: posix_spawn_file_actions_t? = nil\n#else\n"
              "var actions = posix_spawn_file_actions_t()\n#endif\n"),
    Rule("spawnattr-value", r"\bposix_spawnattr_t\s*\(\s*\)",
         "glibc's posix_spawnattr_t is a struct; Darwin's is `typedef void *` (spawn.h), with no initializer",
         "`var attributes: posix_spawnattr_t? = nil` on Darwin, filled by posix_spawnattr_init(&attributes)",
         bad="var attributes = posix_spawnattr_t()\n",
         good="#if canImport(Glibc)\nvar attributes = posix_spawnattr_t()\n#elseif canImport(Darwin)\n"
              "var attributes: posix_spawnattr_t? = nil\n#endif\n"),
    Rule("spawn-pointer-type", r"\bUnsafeMutablePointer\s*<\s*posix_spawn(?:_file_actions|attr)_t\s*>",
         "Darwin's functions take `UnsafeMutablePointer<posix_spawn_file_actions_t?>` (a pointer to the optional "
         "opaque pointer), so a pointer to the bare type does not type-check there",
         "alias the pointee by platform (`posix_spawn_file_actions_t?` on Darwin) and use "
         "`UnsafeMutablePointer<ThatAlias>`",
         bad="typealias Actions = UnsafeMutablePointer<posix_spawn_file_actions_t>\n",
         good="#if canImport(Darwin)\ntypealias Pointee = posix_spawn_file_actions_t?\n#else\n"
              "typealias Pointee = posix_spawn_file_actions_t\n#endif\ntypealias Actions = UnsafeMutablePointer<Pointee>\n"),
    Rule("errno-location", r"\b__errno_location\b",
         "__errno_location is glibc's; Darwin's errno is `__error()`",
         "read Swift's `errno`, which both C libraries' overlays provide",
         bad="let code = __errno_location().pointee\n", good="let code = errno\n"),
    Rule("epoll", r"\bepoll_\w+|\bselect\.epoll\b",
         "epoll is Linux's", "kqueue (kevent) or DispatchSource; in Python, selectors.DefaultSelector",
         bad="let queue = epoll_create1(0)\n", good="let queue = kqueue()\n"),
    Rule("eventfd", r"\beventfd\b",
         "eventfd is Linux's", "a pipe, or kqueue's EVFILT_USER",
         bad="let wake = eventfd(0, 0)\n", good="var ends: [Int32] = [-1, -1]\n_ = pipe(&ends)\n"),
    Rule("inotify", r"\binotify_\w+",
         "inotify is Linux's", "DispatchSource.makeFileSystemObjectSource, kqueue's EVFILT_VNODE or FSEvents",
         bad="let watch = inotify_init1(0)\n",
         good="let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: fd, eventMask: .write)\n"),
    Rule("proc-filesystem", r"(?<![\w./-])/proc/",
         "Darwin has no /proc", "sysctl, proc_pidinfo (libproc.h) or /dev/fd; in a test, disable it there with "
         "`.enabled(if: FileManager.default.fileExists(atPath: \"/proc/self\"), \"<reason>\")`",
         bad='let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")\n',
         good='let fds = try FileManager.default.contentsOfDirectory(atPath: "/dev/fd")\n',
         kind="string", allowed="runtime", languages=("swift", "python")),
    Rule("dev-full", r"(?<![\w./-])/dev/full\b",
         "/dev/full (a device that is always full, ENOSPC) is Linux's; macOS has none",
         "disable the test there: `@Test(.enabled(if: FileManager.default.fileExists(atPath: \"/dev/full\"), "
         "\"needs /dev/full, which macOS does not have\"))`",
         bad='@Suite struct FullTests {\n    @Test func full() throws {\n'
             '        let fd = open("/dev/full", O_WRONLY)\n    }\n}\n',
         good='@Suite struct FullTests {\n    static let full = FileManager.default.fileExists(atPath: "/dev/full")\n'
              '    @Test(.enabled(if: full, "needs /dev/full, which macOS does not have")) func full() throws {\n'
              '        let fd = open("/dev/full", O_WRONLY)\n    }\n}\n',
         kind="string", allowed="runtime", languages=("swift", "python"), path="Tests/ExampleTests.swift"),
    Rule("unshare", r"\bbin/unshare\b",
         "unshare(1) and mount namespaces are Linux's", "disable the test on a Mac with `.enabled(if:)` and a reason",
         bad='@Test func readOnly() async throws {\n    let tool = URL(fileURLWithPath: "/usr/bin/unshare")\n}\n',
         good='@Test(.enabled(if: hasNamespaces, "needs Linux\'s unshare")) func readOnly() async throws {\n'
              '    let tool = URL(fileURLWithPath: "/usr/bin/unshare")\n}\n',
         kind="string", allowed="runtime", path="Tests/ExampleTests.swift"),
    Rule("script-c-option", r"^-(?=[a-z]*c)(?=[a-z]*[qe])[a-z]{2,}$",
         "util-linux's script(1) takes the command with -c (as in `-qec`); BSD's (macOS) takes it after the file and "
         "has no -c",
         "run the command on a pseudo-terminal with Python's pty (Tests/ReferenceServer/pty_run.py)",
         bad='let script = URL(fileURLWithPath: "/usr/bin/script")\nlet arguments = ["-qec", command, "/dev/null"]\n',
         good='let helper = "Tests/ReferenceServer/pty_run.py"\nlet arguments = ["python3", helper, command]\n',
         kind="string", needs=r"bin/script\b", path="Tests/ExampleTests.swift"),
    Rule("o-direct", r"\bO_DIRECT\b",
         "O_DIRECT is Linux's", "fcntl(fd, F_NOCACHE, 1) after open",
         bad="let fd = open(path, O_RDONLY | O_DIRECT)\n",
         good="let fd = open(path, O_RDONLY)\n_ = fcntl(fd, F_NOCACHE, 1)\n", languages=("swift", "python")),
    Rule("sock-cloexec", r"\bSOCK_CLOEXEC\b",
         "socket(2) takes no SOCK_CLOEXEC flag on Darwin", "fcntl(fd, F_SETFD, FD_CLOEXEC) after socket(2)",
         bad="let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)\n",
         good="#if canImport(Glibc)\nlet fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)\n"
              "#else\nlet fd = socket(AF_INET, SOCK_STREAM, 0)\n_ = fcntl(fd, F_SETFD, FD_CLOEXEC)\n#endif\n",
         languages=("swift", "python")),
    Rule("msg-nosignal", r"\bMSG_NOSIGNAL\b",
         "send(2) takes no MSG_NOSIGNAL on Darwin", "setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, ...) once per socket",
         bad="let sent = send(fd, bytes, count, Int32(MSG_NOSIGNAL))\n",
         good="var one: Int32 = 1\n_ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))\n",
         languages=("swift", "python")),
    Rule("stat-timespec", r"\bst_[acm]tim\b",
         "glibc's struct stat names its times st_atim, st_mtim, st_ctim",
         "Darwin's are st_atimespec, st_mtimespec, st_ctimespec (sys/stat.h)",
         bad="let seconds = info.st_mtim.tv_sec\n",
         good="#if canImport(Darwin)\nlet seconds = info.st_mtimespec.tv_sec\n#else\nlet seconds = info.st_mtim.tv_sec\n#endif\n"),
    Rule("ru-maxrss-unit", r"\bru_maxrss\b",
         "getrusage's ru_maxrss is in KiB on Linux and in bytes on Darwin",
         "choose the unit by platform where it is read (`#if canImport(Darwin)` / `sys.platform == \"darwin\"`)",
         bad="let kib = Int(usage.ru_maxrss)\n",
         good="func kib(_ usage: rusage) -> Int {\n    #if canImport(Darwin)\n    let unit = 1024\n    #else\n"
              "    let unit = 1\n    #endif\n    return Int(usage.ru_maxrss) / unit\n}\n",
         allowed="platform", languages=("swift", "python")),
    Rule("glibc-qualified", r"\bGlibc\.",
         "the Glibc module does not exist on Darwin", "`Darwin.` in a `#elseif canImport(Darwin)` branch",
         bad="let written = Glibc.write(fd, buffer, count)\n",
         good="#if canImport(Glibc)\nlet written = Glibc.write(fd, buffer, count)\n#else\n"
              "let written = Darwin.write(fd, buffer, count)\n#endif\n"),
    Rule("dev-t-unsigned", r"\bUInt(?:64|32)?\s*\(\s*(?!truncatingIfNeeded\s*:|bitPattern\s*:|clamping\s*:)[^()\n]*?\bst_r?dev\b"
         r"(?:\s*\))?",
         "dev_t is UInt64 on Linux but Int32 on Darwin (sys/_types/_dev_t.h), where a negative device number traps "
         "in an unsigned conversion",
         "`UInt64(truncatingIfNeeded: info.st_dev)` (or `bitPattern:`), which keeps every bit on both",
         bad="let device = UInt64(info.st_dev)\n", good="let device = UInt64(truncatingIfNeeded: info.st_dev)\n"),
    # Linux-only calls the issue does not name, listed so that a new use is caught before a Mac sees it.
    Rule("linux-only-call", r"\b(?:pipe2|accept4|dup3|memfd_create|timerfd_\w+|signalfd|prctl|gettid|"
                            r"sched_getaffinity|get_nprocs|posix_fadvise|malloc_usable_size|mallinfo2?|"
                            r"secure_getenv|sendfile64|getrandom)\s*\(|\b(?:O_TMPFILE|CLOCK_BOOTTIME)\b",
         "a glibc or Linux system call Darwin's libc does not declare",
         "Darwin's equivalent: pipe + fcntl(FD_CLOEXEC) for pipe2/dup3, accept + fcntl for accept4, getentropy for "
         "getrandom, malloc_size for malloc_usable_size, pthread_threadid_np for gettid, sysctl for the rest",
         bad="var ends: [Int32] = [-1, -1]\n_ = pipe2(&ends, O_CLOEXEC)\n",
         good="var ends: [Int32] = [-1, -1]\n_ = pipe(&ends)\n"),
]

# The structural rules: not a pattern but the shape of the #if blocks or of the file. Their examples are in CASES.
CLOEXEC_RULE = "cloexec-default-without-addinherit"
BRANCH_RULE = "glibc-block-without-darwin-branch"
STRUCTURAL = {
    CLOEXEC_RULE: ("POSIX_SPAWN_CLOEXEC_DEFAULT makes Darwin close every descriptor no file action names, so a "
                   "child loses the stdin, stdout or stderr it was meant to inherit",
                   "call posix_spawn_file_actions_addinherit_np(&actions, fd) for each stream the child keeps"),
    BRANCH_RULE: ("a Mac compiles nothing in its place",
                  "add `#elseif canImport(Darwin)` (or `#else`) with Darwin's way; if Darwin truly needs nothing "
                  "here, say why with `// Linux only: <reason>` on the `#if` line or the line above"),
}
# What the branch rule says of a block holding only `import Glibc` (or Musl).
IMPORT_FIX = ("Darwin then gets the C library only through Foundation's re-export, unnamed. Fix: pair it, "
              "`#if canImport(Glibc)` / `import Glibc` / `#elseif canImport(Darwin)` / `import Darwin` / `#endif`, "
              "as the other files do")

# How a Mac evaluates the conditions of #if: True, False, or None (not decided by the platform).
DARWIN_MODULES = {"Darwin", "Foundation", "Dispatch", "ObjectiveC", "CoreFoundation", "Security", "SystemConfiguration",
                  "CFNetwork", "os", "Network", "XCTest", "Testing", "Synchronization", "_Concurrency"}
NOT_DARWIN_MODULES = {"Glibc", "Musl", "Bionic", "Android", "WASILibc", "WinSDK", "ucrt", "CRT",
                      "FoundationNetworking", "FoundationXML", "CCurl"}  # CCurl: Package.swift links it only on Linux
DARWIN_OS = {"macOS", "OSX"}
OTHER_OS = {"Linux", "Android", "Windows", "FreeBSD", "OpenBSD", "WASI", "Cygwin", "PS4", "Haiku", "iOS", "tvOS",
            "watchOS", "visionOS"}
LINUX_ATOMS = re.compile(r"\bcanImport\(\s*(?:Glibc|Musl)\s*\)|\bos\(\s*Linux\s*\)")
PLATFORM_ATOMS = re.compile(r"\b(?:canImport\(\s*(?:Glibc|Musl|Darwin)\s*\)|os\(\s*\w+\s*\))")
# Imports that Darwin has no use for: what they hold is in Darwin's Foundation, or only Linux's transport uses it.
IMPORTS_DARWIN_DOES_NOT_NEED = {"FoundationNetworking", "FoundationXML", "CCurl"}
LINUX_ONLY_MARKER = re.compile(r"//\s*Linux only:\s*\S")
TRAIT = re.compile(r"\.(?:enabled|disabled)\s*\(\s*if\s*:")
TEST_ATTRIBUTE = re.compile(r"@(?:Test|Suite)\b")
PY_PLATFORM_TEST = re.compile(r"\bsys\.platform\b|\bplatform\.system\s*\(|\bos\.uname\s*\(|[\"'][Dd]arwin[\"']")


@dataclass
class Offence:
    path: str
    line: int
    rule: str
    message: str

    def __str__(self):
        return f"{self.path}:{self.line}: {self.message}"


# ---------------------------------------------------------------------------------------------------------------------
# Swift: comments and strings.
# ---------------------------------------------------------------------------------------------------------------------

def mask_swift(text):
    """The text with comments and the contents of string literals blanked (interpolations `\\(...)` stay code), as
    long and with the same line breaks, and the string literals' contents line by line: {line: [segment, ...]}, a
    segment ending at a line break or an interpolation."""
    n = len(text)
    code = list(text)
    literals = {}
    segment = []  # (index, character) of the literal being read

    def flush():
        if segment:
            line = text.count("\n", 0, segment[0][0])
            literals.setdefault(line, []).append("".join(c for _, c in segment))
            segment.clear()

    def blank(start, end):
        for k in range(start, end):
            if code[k] != "\n":
                code[k] = " "

    opening = re.compile(r'(#*)("""|")')
    plain_code, plain_string = re.compile(r'[^/#"()]+'), re.compile(r'[^\\"\n]+')
    stack = []  # ["string", hashes, multiline] or ["interpolation", depth]
    i = 0
    while i < n:
        top = stack[-1] if stack else None
        if top is None or top[0] == "interpolation":
            run = plain_code.match(text, i)
            if run:
                i = run.end()
                continue
            if text.startswith("//", i):
                end = text.find("\n", i)
                end = n if end < 0 else end
                blank(i, end)
                i = end
                continue
            if text.startswith("/*", i):
                depth, j = 0, i
                while j < n:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                        if depth == 0:
                            break
                    else:
                        j += 1
                blank(i, j)
                i = j
                continue
            match = opening.match(text, i) if text[i] in '#"' else None
            if match:
                stack.append(["string", len(match.group(1)), match.group(2) == '"""'])
                i = match.end()
                continue
            if top is not None:
                if text[i] == "(":
                    top[1] += 1
                elif text[i] == ")":
                    top[1] -= 1
                    if top[1] == 0:
                        stack.pop()
            i += 1
            continue
        _, hashes, multiline = top
        run = plain_string.match(text, i)
        if run:
            segment.extend(zip(range(i, run.end()), text[i:run.end()]))
            code[i:run.end()] = " " * (run.end() - i)
            i = run.end()
            continue
        close = ('"""' if multiline else '"') + "#" * hashes
        if text.startswith(close, i):
            flush()
            stack.pop()
            i += len(close)
            continue
        escape = "\\" + "#" * hashes
        if text.startswith(escape, i):
            j = i + len(escape)
            if j < n and text[j] == "(":
                flush()
                stack.append(["interpolation", 1])
                i = j + 1
                continue
            for k in range(i, min(j + 1, n)):
                if text[k] != "\n":
                    segment.append((k, text[k]))
                    code[k] = " "
            i = j + 1
            continue
        if text[i] == "\n":
            flush()
            if not multiline:
                stack.pop()  # an unterminated literal: the compiler would stop here too
        else:
            segment.append((i, text[i]))
            code[i] = " "
        i += 1
    flush()
    return "".join(code), literals


# ---------------------------------------------------------------------------------------------------------------------
# Swift: #if conditions as a Mac sees them.
# ---------------------------------------------------------------------------------------------------------------------

def _and(a, b):
    if a is False or b is False:
        return False
    return True if a is True and b is True else None


def _or(a, b):
    if a is True or b is True:
        return True
    return False if a is False and b is False else None


def _not(a):
    return None if a is None else not a


def on_darwin(condition):
    """True, False or None: whether a Mac compiles a branch with this #if condition."""
    tokens = re.findall(r"&&|\|\||!|\(|\)|[A-Za-z_][\w.]*\s*\([^()]*\)|[A-Za-z_]\w*", condition)
    position = 0

    def peek():
        return tokens[position] if position < len(tokens) else None

    def take():
        nonlocal position
        position += 1
        return tokens[position - 1]

    def atom(token):
        match = re.fullmatch(r"(\w+)\s*\(\s*([^()]*?)\s*\)", token)
        if not match:
            return {"true": True, "false": False}.get(token)
        name, argument = match.groups()
        if name == "canImport":
            module = argument.split(",")[0].strip()
            return True if module in DARWIN_MODULES else False if module in NOT_DARWIN_MODULES else None
        if name == "os":
            return True if argument in DARWIN_OS else False if argument in OTHER_OS else None
        if name == "_runtime":
            return argument == "_ObjC"
        if name == "targetEnvironment":
            return False if argument in ("simulator", "macCatalyst") else None
        return None

    def unary():
        token = take() if peek() is not None else None
        if token == "!":
            return _not(unary())
        if token == "(":
            value = disjunction()
            if peek() == ")":
                take()
            return value
        return atom(token) if token is not None else None

    def conjunction():
        value = unary()
        while peek() == "&&":
            take()
            value = _and(value, unary())
        return value

    def disjunction():
        value = conjunction()
        while peek() == "||":
            take()
            value = _or(value, conjunction())
        return value

    return disjunction()


@dataclass
class Branch:
    keyword: str        # if, elseif, else
    condition: str
    line: int           # the directive's line (0-based)
    end: int = -1       # the next directive of the chain (exclusive)
    darwin: object = None   # whether a Mac compiles it, given the branches before it


@dataclass
class Chain:
    branches: list = field(default_factory=list)
    end: int = -1       # the #endif line


def directives(code_lines):
    """The #if chains of a file, and for each line the branches it lies in (outermost first)."""
    chains, open_chains, enclosing = [], [], []
    for number, line in enumerate(code_lines):
        match = re.match(r"\s*#(if|elseif|else|endif)\b(.*)", line)
        enclosing.append([chain.branches[-1] for chain in open_chains])
        if not match:
            continue
        keyword, condition = match.group(1), match.group(2).strip()
        if keyword == "if":
            chain = Chain([Branch("if", condition, number)])
            chains.append(chain)
            open_chains.append(chain)
        elif not open_chains:
            continue  # an unbalanced directive: the compiler reports it
        elif keyword in ("elseif", "else"):
            chain = open_chains[-1]
            chain.branches[-1].end = number
            chain.branches.append(Branch(keyword, condition if keyword == "elseif" else "true", number))
        else:
            chain = open_chains.pop()
            chain.branches[-1].end = number
            chain.end = number
        enclosing[-1] = []  # a directive line is in no branch of its own chain; it holds no code either
    for chain in chains:
        if chain.end < 0:
            chain.end = len(code_lines)
            chain.branches[-1].end = len(code_lines)
        earlier = True  # none of the branches before this one was taken
        for branch in chain.branches:
            branch.darwin = _and(earlier, on_darwin(branch.condition))
            earlier = _and(earlier, _not(on_darwin(branch.condition)))
    return chains, enclosing


def darwin_skips(branches):
    """Whether a Mac compiles none of a line's enclosing branches' code: some branch is False there."""
    return any(branch.darwin is False for branch in branches)


# ---------------------------------------------------------------------------------------------------------------------
# Swift: scopes (braces), for the test traits and the function that reads a unit.
# ---------------------------------------------------------------------------------------------------------------------

@dataclass
class Scope:
    header_start: int   # the first line of the declaration (its attributes)
    open_line: int
    close_line: int
    header: str


def scopes(code_lines):
    """Every brace pair, with the declaration in front of it: the line that opens it, and the lines above that belong
    to it (attributes such as a multi-line `@Test(...)`, continued parameter lists)."""
    def balance(text):
        return sum(text.count(c) for c in "([") - sum(text.count(c) for c in ")]")

    found, stack = [], []
    for number, line in enumerate(code_lines):
        for column, character in enumerate(line):
            if character == "{":
                stack.append((number, column))
            elif character == "}" and stack:
                opened, at = stack.pop()
                start = opened
                while start > 0:
                    previous = code_lines[start - 1].strip()
                    if not previous or previous.startswith("#") or previous.endswith(("{", "}", ";")):
                        break
                    below = balance(" ".join(code_lines[start:opened]) + code_lines[opened][:at])
                    if below < 0 or balance(previous) < 0 or previous.startswith("@") or previous.endswith((",", "(", "[")):
                        start -= 1
                    else:
                        break
                header = " ".join(code_lines[start:opened]) + " " + code_lines[opened][:at]
                found.append(Scope(start, opened, number, header))
    return found


def enclosing_scopes(all_scopes, number):
    return [scope for scope in all_scopes if scope.header_start <= number <= scope.close_line]


def runtime_guarded(all_scopes, number, file_code):
    """Whether a line is in a test disabled at run time, or in a helper of a file whose tests are."""
    around = enclosing_scopes(all_scopes, number)
    if any(TRAIT.search(scope.header) and TEST_ATTRIBUTE.search(scope.header) for scope in around):
        return True
    in_test = any(re.search(r"@Test\b", scope.header) for scope in around)
    return not in_test and bool(TRAIT.search(file_code))


def platform_scoped(all_scopes, number, code_lines):
    """Whether the function (or, lacking one, the innermost scope) around a line tests the platform with #if."""
    around = sorted(enclosing_scopes(all_scopes, number), key=lambda scope: scope.open_line, reverse=True)
    functions = [scope for scope in around if re.search(r"\b(?:func|init|subscript|var|let)\b", scope.header)]
    chosen = functions[0] if functions else around[0] if around else None
    if chosen is None:
        return False
    body = code_lines[chosen.open_line:chosen.close_line + 1]
    return any(re.match(r"\s*#(?:if|elseif)\b", line) and PLATFORM_ATOMS.search(line) for line in body)


# ---------------------------------------------------------------------------------------------------------------------
# The checks.
# ---------------------------------------------------------------------------------------------------------------------

def describe(rule, found, language="swift"):
    if language == "python":
        where = {"linux": "outside an `if sys.platform` branch",
                 "platform": "without choosing its unit by platform (no `sys.platform` test in its function)",
                 "runtime": "where a Mac runs it (outside an `if sys.platform` branch)"}[rule.allowed]
    else:
        where = {"linux": "where a Mac compiles it (outside `#if canImport(Glibc)` / `#if os(Linux)`)",
                 "platform": "without choosing its unit by platform (no `#if` on the platform around it or in its "
                             "function)",
                 "runtime": "where a Mac compiles and runs it (not in a Linux-only branch, nor in a test disabled "
                            "with `.enabled(if:)`)"}[rule.allowed]
    return f"`{found}` {where} [{rule.name}]: {rule.why}. Darwin: {rule.darwin}."


def check_swift(path, text):
    code, literals = mask_swift(text)
    raw_lines, code_lines = text.split("\n"), code.split("\n")
    chains, enclosing = directives(code_lines)
    all_scopes = scopes(code_lines)
    is_directive = [line.lstrip().startswith("#") for line in code_lines]
    offences = []

    for rule in RULES:
        if "swift" not in rule.languages or (rule.needs and not re.search(rule.needs, text)):
            continue
        pattern = re.compile(rule.pattern)
        for number, line in enumerate(code_lines):
            if is_directive[number]:
                continue
            if rule.kind == "string":
                hits = [pattern.search(piece) for piece in literals.get(number, [])]
                found = next((hit.group(0) for hit in hits if hit), None)
            else:
                match = pattern.search(line)
                found = match.group(0) if match else None
            if found is None or darwin_skips(enclosing[number]):
                continue
            if rule.allowed == "platform" and (any(PLATFORM_ATOMS.search(b.condition) for b in enclosing[number])
                                               or platform_scoped(all_scopes, number, code_lines)):
                continue
            if rule.allowed == "runtime" and runtime_guarded(all_scopes, number, code):
                continue
            offences.append(Offence(path, number + 1, rule.name, describe(rule, found)))

    # POSIX_SPAWN_CLOEXEC_DEFAULT with no addinherit where a Mac compiles it.
    def live(name):
        return [n for n, line in enumerate(code_lines) if re.search(r"\b" + name + r"\b", line)
                and not re.match(r"\s*#", line) and not darwin_skips(enclosing[n])]
    if not live("posix_spawn_file_actions_addinherit_np"):
        why, fix = STRUCTURAL[CLOEXEC_RULE]
        for number in live("POSIX_SPAWN_CLOEXEC_DEFAULT"):
            offences.append(Offence(path, number + 1, CLOEXEC_RULE,
                                    f"`POSIX_SPAWN_CLOEXEC_DEFAULT` with no `posix_spawn_file_actions_addinherit_np` "
                                    f"[{CLOEXEC_RULE}]: {why}. Darwin: {fix}."))

    # A Glibc or Linux block with no Darwin branch beside it.
    def darwin_branch(chain):
        return any(branch.darwin is True for branch in chain.branches)

    def neighbours(chain):
        before = [c for c in chains if c.end < chain.branches[0].line and c is not chain]
        after = [c for c in chains if c.branches[0].line > chain.end]
        result = []
        if before:
            last = max(before, key=lambda c: c.end)
            if all(not code_lines[k].strip() for k in range(last.end + 1, chain.branches[0].line)):
                result.append(last)
        if after:
            first = min(after, key=lambda c: c.branches[0].line)
            if all(not code_lines[k].strip() for k in range(chain.end + 1, first.branches[0].line)):
                result.append(first)
        return result

    for chain in chains:
        linux = [b for b in chain.branches if b.darwin is False and LINUX_ATOMS.search(b.condition)]
        if not linux or darwin_branch(chain) or any(darwin_branch(c) for c in neighbours(chain)):
            continue
        start = chain.branches[0].line
        if LINUX_ONLY_MARKER.search(raw_lines[start]) or (start > 0 and LINUX_ONLY_MARKER.search(raw_lines[start - 1])):
            continue
        for branch in linux:
            body = [line.strip() for line in code_lines[branch.line + 1:branch.end] if line.strip()]
            if not body:
                continue
            imports = [re.fullmatch(r"(?:@\w+\s+)*import\s+(?:\w+\s+)?([\w.]+)", line) for line in body]
            why, fix = STRUCTURAL[BRANCH_RULE]
            explanation = f"{why}. Fix: {fix}."
            if all(imports):
                modules = {m.group(1).split(".")[0] for m in imports}
                if modules <= IMPORTS_DARWIN_DOES_NOT_NEED:
                    continue
                what = "`" + "`, `".join(f"import {m}" for m in sorted(modules)) + "` alone"
                if modules & {"Glibc", "Musl"}:
                    explanation = IMPORT_FIX + "."
            else:
                what = "code"
            offences.append(Offence(path, branch.line + 1, BRANCH_RULE,
                                    f"`#{branch.keyword} {branch.condition}` holds {what} with no Darwin branch "
                                    f"beside it [{BRANCH_RULE}]: {explanation}"))
    return offences


# ---------------------------------------------------------------------------------------------------------------------
# Python helpers (Tests/**/*.py): ru_maxrss, the devices, the Linux-only socket and file flags.
# ---------------------------------------------------------------------------------------------------------------------

def python_lines(text):
    """The code line by line with comments and string contents blanked (an f-string stays code), the string
    literals' contents line by line ({line: [segment, ...]}, docstrings left out: they are prose), and the logical
    lines as (first line, last line, indentation, text)."""
    lines = text.split("\n")
    code = [list(line) for line in lines]
    literals, logical, statement = {}, [], []
    fstring = getattr(tokenize, "FSTRING_MIDDLE", None)  # Python 3.12 and later split f-strings into tokens
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        kind = token.type
        if kind in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER) and not statement:
            if kind == tokenize.COMMENT:
                row, col = token.start
                code[row - 1][col:] = " " * (len(code[row - 1]) - col)
            continue
        if kind == tokenize.NEWLINE:
            first, last = statement[0].start[0] - 1, token.end[0] - 1
            docstring = all(t.type in (tokenize.STRING, tokenize.NL) for t in statement)
            for t in statement:
                if t.type == tokenize.COMMENT:
                    row, col = t.start
                    code[row - 1][col:] = " " * (len(code[row - 1]) - col)
                plain = t.type == tokenize.STRING and not re.match(r"[rRbBuU]*[fF]", t.string)
                if not (plain or (fstring is not None and t.type == fstring)):
                    continue
                for r in range(t.start[0] - 1, t.end[0]):
                    begin = t.start[1] if r == t.start[0] - 1 else 0
                    end = t.end[1] if r == t.end[0] - 1 else len(lines[r])
                    if not docstring:
                        literals.setdefault(r, []).append(lines[r][begin:end])
                    code[r][begin:end] = " " * (end - begin)
            logical.append((first, last, statement[0].start[1], " ".join(lines[first:last + 1])))
            statement = []
            continue
        statement.append(token)
    return ["".join(line) for line in code], literals, logical


def python_platform_branch(logical, number):
    """Whether a line is under an if/elif on the platform (or its else), or tests the platform itself."""
    mine = next((entry for entry in logical if entry[0] <= number <= entry[1]), None)
    if mine is None:
        return False
    if PY_PLATFORM_TEST.search(mine[3]):
        return True
    index, indent = logical.index(mine), mine[2]
    for k in range(index - 1, -1, -1):
        first, _, level, text = logical[k]
        if level >= indent:
            continue
        indent = level
        header = text.strip()
        if re.match(r"(if|elif)\b", header) and PY_PLATFORM_TEST.search(header):
            return True
        if re.match(r"else\b", header):
            for j in range(k - 1, -1, -1):
                other = logical[j]
                if other[2] < level:
                    break
                if other[2] == level:
                    if re.match(r"(if|elif)\b", other[3].strip()) and PY_PLATFORM_TEST.search(other[3]):
                        return True
                    if not re.match(r"(elif|else)\b", other[3].strip()):
                        break
    return False


def python_function_tests_platform(logical, number, text):
    """Whether the function around a line (or the module, at top level) tests the platform."""
    mine = next((entry for entry in logical if entry[0] <= number <= entry[1]), None)
    if mine is None:
        return bool(PY_PLATFORM_TEST.search(text))
    index, indent = logical.index(mine), mine[2]
    for k in range(index - 1, -1, -1):
        if logical[k][2] < indent and re.match(r"(async\s+)?def\b", logical[k][3].strip()):
            body = [logical[k]]
            for entry in logical[k + 1:]:
                if entry[2] <= logical[k][2]:
                    break
                body.append(entry)
            return any(PY_PLATFORM_TEST.search(entry[3]) for entry in body)
        indent = min(indent, logical[k][2])
    return bool(PY_PLATFORM_TEST.search(text))


def check_python(path, text):
    try:
        code_lines, literals, logical = python_lines(text)
    except (tokenize.TokenError, IndentationError, SyntaxError) as error:
        return [Offence(path, 1, "unreadable", f"could not be read as Python: {error}")]
    offences = []
    for rule in RULES:
        if "python" not in rule.languages or (rule.needs and not re.search(rule.needs, text)):
            continue
        pattern = re.compile(rule.pattern)
        for number, line in enumerate(code_lines):
            if rule.kind == "string":
                hits = [pattern.search(piece) for piece in literals.get(number, [])]
                match = next((hit for hit in hits if hit), None)
            else:
                match = pattern.search(line)
            if not match or python_platform_branch(logical, number):
                continue
            if rule.allowed == "platform" and python_function_tests_platform(logical, number, text):
                continue
            offences.append(Offence(path, number + 1, rule.name, describe(rule, match.group(0), "python")))
    return offences


# ---------------------------------------------------------------------------------------------------------------------
# The tree, and the self-test.
# ---------------------------------------------------------------------------------------------------------------------

def files(root):
    """Every .swift file under Sources/ and Tests/, and the Python helpers under Tests/ (not this checker)."""
    checker = os.path.join(root, "Tests", "Portability")  # this script, whose table names every symbol it looks for
    for top in ("Sources", "Tests"):
        for folder, subfolders, names in os.walk(os.path.join(root, top)):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            if os.path.abspath(folder) == os.path.abspath(checker):
                continue
            for name in sorted(names):
                if name.endswith(".swift") or (top == "Tests" and name.endswith(".py")):
                    yield os.path.join(folder, name)


def check_file(path, text):
    return check_swift(path, text) if path.endswith(".swift") else check_python(path, text)


def check_tree(root):
    offences, count = [], {"swift": 0, "py": 0}
    for path in files(root):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        count[path.rsplit(".", 1)[1]] += 1
        offences += sorted(check_file(os.path.relpath(path, root), text), key=lambda offence: offence.line)
    return offences, count


# The structural rules' examples, and cases the branch evaluation must get right: (name, path, text, expected rules).
CASES = [
    ("cloexec without addinherit", "Tests/Support/Spawn.swift",
     "#if canImport(Darwin)\nposix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))\n#endif\n",
     {CLOEXEC_RULE}),
    ("cloexec with addinherit", "Tests/Support/Spawn.swift",
     "#if canImport(Darwin)\nposix_spawn_file_actions_addinherit_np(&actions, 1)\n"
     "posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))\n#endif\n", set()),
    ("import Glibc alone", "Sources/A.swift", "import Foundation\n#if canImport(Glibc)\nimport Glibc\n#endif\n",
     {BRANCH_RULE}),
    ("import Glibc paired", "Sources/A.swift",
     "#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n", set()),
    ("import Glibc paired by an adjacent block", "Sources/A.swift",
     "#if canImport(Glibc)\nimport Glibc\n#endif\n#if canImport(Darwin)\nimport Darwin\n#endif\n", set()),
    ("import FoundationNetworking alone", "Sources/A.swift",
     "#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n", set()),
    ("Linux code with no Darwin branch", "Sources/A.swift",
     "func f() {\n    #if os(Linux)\n    flush()\n    #endif\n}\n", {BRANCH_RULE}),
    ("Linux code with an #else", "Sources/A.swift",
     "func f() {\n    #if os(Linux)\n    flush()\n    #else\n    fullFlush()\n    #endif\n}\n", set()),
    ("Linux code marked Linux only", "Sources/A.swift",
     "func f() {\n    // Linux only: Darwin closes the rest with POSIX_SPAWN_CLOEXEC_DEFAULT\n    #if canImport(Glibc)\n"
     "    closeFrom(3)\n    #endif\n}\n", set()),
    ("a marker without a reason", "Sources/A.swift",
     "func f() {\n    #if canImport(Glibc) // Linux only:\n    closeFrom(3)\n    #endif\n}\n", {BRANCH_RULE}),
    ("a Linux-only test compiled out", "Tests/T.swift",
     "@Suite struct T {\n    #if os(Linux)\n    @Test func a() {}\n    #endif\n}\n", {BRANCH_RULE}),
    ("a glibc symbol in the #else of canImport(Darwin)", "Sources/A.swift",
     "#if canImport(Darwin)\nlet t = info.st_mtimespec\n#else\nlet t = info.st_mtim\n#endif\n", set()),
    ("a glibc symbol under !canImport(Darwin)", "Sources/A.swift",
     "#if !canImport(Darwin)\nlet t = info.st_mtim\n#else\nlet t = info.st_mtimespec\n#endif\n", set()),
    ("a glibc symbol in a branch a Mac takes", "Sources/A.swift",
     "#if canImport(Glibc) || os(macOS)\nlet t = info.st_mtim\n#else\nlet t = 0\n#endif\n", {"stat-timespec"}),
    ("a glibc symbol under an unrelated condition", "Sources/A.swift",
     "#if DEBUG\nlet t = info.st_mtim\n#endif\n", {"stat-timespec"}),
    ("a glibc symbol in a nested Linux branch", "Sources/A.swift",
     "#if DEBUG\n#if os(Linux)\nlet t = info.st_mtim\n#else\nlet t = info.st_mtimespec\n#endif\n#endif\n", set()),
    ("a glibc symbol in a comment", "Sources/A.swift",
     "// st_mtim is glibc's; /* UInt64(info.st_dev) */\nlet t = info.st_mtimespec\n", set()),
    ("a glibc symbol in a string", "Sources/A.swift", "let note = \"st_mtim and Glibc.write\"\n", set()),
    ("a glibc symbol in an interpolation", "Sources/A.swift",
     "let note = \"device \\(UInt64(info.st_dev)) here\"\n", {"dev-t-unsigned"}),
    ("a path in a comment", "Tests/T.swift", "// writes to /dev/full\nlet x = 1\n", set()),
    ("a path in a multi-line string", "Tests/T.swift",
     "@Test func a() {\n    let s = \"\"\"\n        cat /proc/self/status\n        \"\"\"\n}\n", {"proc-filesystem"}),
    ("the trait's own reason names the path", "Tests/T.swift",
     "@Suite struct T {\n    @Test(.enabled(if: full, \"needs /dev/full, which macOS lacks\"))\n    func a() {}\n}\n",
     set()),
    ("a helper in a file whose tests are disabled at run time", "Tests/T.swift",
     "@Suite struct T {\n    static let full = FileManager.default.fileExists(atPath: \"/dev/full\")\n"
     "    @Test(.enabled(if: full, \"needs /dev/full\")) func a() { run(\"/dev/full\") }\n}\n", set()),
    ("a test without a trait in a file that has one", "Tests/T.swift",
     "@Suite struct T {\n    @Test(.enabled(if: full, \"needs /dev/full\")) func a() { run(\"/dev/full\") }\n"
     "    @Test func b() { run(\"/dev/full\") }\n}\n", {"dev-full"}),
    ("a trait on a multi-line attribute", "Tests/T.swift",
     "@Suite struct T {\n    @Test(.enabled(if: full, \"needs /dev/full\"),\n          arguments: [[\"a\"],\n"
     "                      [\"b\"]])\n    func a(arguments: [String]) {\n        run(\"/dev/full\")\n    }\n}\n",
     set()),
    ("a multi-line attribute without a trait", "Tests/T.swift",
     "@Suite struct T {\n    @Test(.enabled(if: full, \"needs /dev/full\")) func a() { run(\"/dev/full\") }\n\n"
     "    @Test(arguments: [[\"a\"],\n                      [\"b\"]])\n    func b(arguments: [String]) {\n"
     "        run(\"/dev/full\")\n    }\n}\n", {"dev-full"}),
    ("ru_maxrss in a platform branch", "Tests/T.swift",
     "#if canImport(Darwin)\nlet kib = Int(usage.ru_maxrss) / 1024\n#else\nlet kib = Int(usage.ru_maxrss)\n#endif\n",
     set()),
    ("UInt64 of st_dev with bitPattern", "Sources/A.swift",
     "let device = UInt64(bitPattern: Int64(info.st_dev))\n", set()),
    ("ru_maxrss read raw in Python", "Tests/Helpers/peak.py",
     "import os\n_, status, usage = os.wait4(pid, 0)\nprint(usage.ru_maxrss)\n", {"ru-maxrss-unit"}),
    ("ru_maxrss in an f-string in Python", "Tests/Helpers/peak.py",
     "import os\n_, status, usage = os.wait4(pid, 0)\nprint(f\"{usage.ru_maxrss} KiB\")\n", {"ru-maxrss-unit"}),
    ("ru_maxrss by platform in Python", "Tests/Helpers/peak.py",
     "import os, sys\n\n\ndef kib(maxrss, platform=sys.platform):\n"
     "    return maxrss // 1024 if platform == \"darwin\" else maxrss\n\n\n"
     "_, status, usage = os.wait4(pid, 0)\nprint(kib(usage.ru_maxrss))\n", set()),
    ("ru_maxrss under an if on the platform in Python", "Tests/Helpers/peak.py",
     "import os, sys\n\n\ndef kib(usage):\n    if sys.platform == \"darwin\":\n"
     "        return usage.ru_maxrss // 1024\n    else:\n        return usage.ru_maxrss\n", set()),
    ("/dev/full in a Python comment", "Tests/Helpers/h.py", "# never /dev/full here\nx = 1\n", set()),
    ("/proc/ in a Python string", "Tests/Helpers/h.py", "import os\nfds = os.listdir(\"/proc/self/fd\")\n",
     {"proc-filesystem"}),
    ("/proc/ under an if on the platform in Python", "Tests/Helpers/h.py",
     "import os, sys\nif sys.platform.startswith(\"linux\"):\n    fds = os.listdir(\"/proc/self/fd\")\n"
     "else:\n    fds = os.listdir(\"/dev/fd\")\n", set()),
]


def self_test():
    failures, runs = [], 0

    def expect(name, path, text, expected):
        nonlocal runs
        runs += 1
        got = check_file(path, text)
        names = {offence.rule for offence in got}
        if names != set(expected):
            shown = "\n".join(f"      {offence}" for offence in got) or "      (no offence)"
            failures.append(f"  {name}: expected {sorted(expected) or 'no offence'}, got {sorted(names) or 'none'}\n"
                            f"    in {path}:\n" + "\n".join("      | " + l for l in text.rstrip("\n").split("\n"))
                            + "\n    found:\n" + shown)

    for rule in RULES:  # the table's examples are Swift; the Python ones are among CASES
        expect(f"{rule.name} (offending)", rule.path, rule.bad, {rule.name})
        expect(f"{rule.name} (fine)", rule.path, rule.good, set())
    for name, path, text, expected in CASES:
        expect(name, path, text, expected)
    if failures:
        print(f"portability self-test: {len(failures)} of {runs} examples went wrong:", file=sys.stdout)
        print("\n".join(failures))
        return 1
    print(f"portability self-test: {len(RULES) + len(STRUCTURAL)} rules, {runs} examples, each found as expected")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                        "..", "..")),
                        help="the package's folder (default: two above this script)")
    parser.add_argument("--self-test", action="store_true", help="check the rules against their own examples")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not os.path.isdir(os.path.join(args.root, "Sources")):
        print(f"portability: {args.root} has no Sources folder; pass the package's folder with --root", file=sys.stderr)
        return 2
    offences, count = check_tree(args.root)
    for offence in offences:
        print(offence)
    checked = f"{count['swift']} Swift files and {count['py']} Python helpers"
    if offences:
        print(f"portability: {len(offences)} offence(s) in {checked}; each line says why it breaks on macOS and "
              f"Darwin's way (the rules: Tests/Portability/portability.py)")
        return 1
    print(f"portability: {checked} checked, nothing that breaks on macOS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
