import Foundation
import Testing

/// A state folder that cannot be written: exit 74 naming the path, and nothing half-written left behind.
@Suite struct CLIDiskFailureTests {
    /// Runs the binary with `mount` applied to the state folder first, in a private mount namespace, then lists what the
    /// outbox holds (on stderr, after `LEFT:`), since the mount is gone once the namespace ends.
    func runWithStateMount(
        _ mount: String, state: URL, _ arguments: [String], environment: [String: String]
    ) async throws -> CLIResult {
        let script = """
            state="$1"; shift; bin="$1"; shift
            \(mount) || exit 99
            "$bin" "$@"; status=$?
            printf 'LEFT:' >&2; ls -A "$state/journal" 2>/dev/null | tr '\\n' ' ' >&2
            exit $status
            """
        // -r maps the user to root in a new user namespace, where mounting is allowed even for an unprivileged user.
        return try await CLI.run(
            ["-rm", "sh", "-c", script, "sh", state.path, try CLI.binary().path] + arguments,
            environment: environment, binary: URL(fileURLWithPath: "/usr/bin/unshare"))
    }

    func offlineUser(_ home: TemporaryDirectory) throws -> (env: [String: String], state: URL) {
        let state = home.url.appendingPathComponent("expense-log/state/development")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        return (try Samples.offlineEnvironment(home: home), state)
    }

    /// Linux's `unshare` and `mount --bind`/tmpfs, which make a folder read-only or full for one process even as root.
    static let mounts = FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")

    @Test(.enabled(if: mounts, "needs Linux's unshare and mount (a private mount namespace); macOS has neither"))
    func aReadOnlyStateFolderExits74NamingThePath() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let (env, state) = try offlineUser(home)
        let file = try home.write("two.csv", Samples.csv(rows: 2))
        // chmod cannot stop root, and tests often run as root: a read-only bind mount stops everyone.
        let result = try await runWithStateMount(
            "mount --bind -o ro \"$state\" \"$state\"", state: state,
            ["register", file, "--retries", "0"], environment: env)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("could not write \(state.path)/journal"))
        #expect(result.stderr.lowercased().contains("read only") || result.stderr.lowercased().contains("read-only"))
        #expect(result.stderr.contains("Nothing was sent: the outbox must be writable"))
        #expect(result.stderr.hasSuffix("LEFT:"), "nothing written")
        #expect(try await CLI.run(["pending", "--format", "json"], environment: env).stdout == "[]\n")
    }

    @Test(.enabled(if: mounts, "needs Linux's unshare and mount (a private mount namespace); macOS has neither"))
    func aFullDiskExits74AndLeavesNoTemporaryFile() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let (env, state) = try offlineUser(home)
        let file = try home.write("many.csv", Samples.csv(rows: 2000))
        // 64 KiB of tmpfs: the folder fits, the 2,000-item entry does not.
        let result = try await runWithStateMount(
            "mount -t tmpfs -o size=64k tmpfs \"$state\"", state: state,
            ["register", file, "--retries", "0"], environment: env)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("could not write \(state.path)/journal/"))
        #expect(result.stderr.contains("no space left on device (ENOSPC)"))
        #expect(result.stderr.contains("Nothing was sent"))
        #expect(result.stderr.hasSuffix("LEFT:"), "the temporary file was removed")
    }

    @Test func aStateFolderThatIsAFileExits74AndPendingAndSyncSaySo() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let (env, state) = try offlineUser(home)
        try FileManager.default.removeItem(at: state)
        try Data("not a folder".utf8).write(to: state)
        let file = try home.write("one.csv", Samples.csv(rows: 1))
        let result = try await CLI.run(["register", file, "--retries", "0"], environment: env)
        #expect(result.status == 74)
        #expect(result.stderr.contains("\(state.path)/journal"))
        for command in ["pending", "sync"] {
            // An outbox that cannot be listed must never pass for an empty one.
            let listed = try await CLI.run([command], environment: env)
            #expect(listed.status == 74, "\(command): \(listed.stderr)")
            #expect(listed.stderr.contains("\(state.path)/journal"))
        }
        #expect(try Data(contentsOf: state) == Data("not a folder".utf8), "the file in the way is untouched")
    }
}
