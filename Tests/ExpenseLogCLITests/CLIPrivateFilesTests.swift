import Foundation
import TestSupport
import Testing

/// Issue 46: what the tool keeps (the cache, the queue, the decisions, the rules) is readable by its owner alone, on a
/// machine with other accounts, whatever the umask; an older home is tightened once; a folder another account owns is
/// refused. Every command runs as the binary under a shell's umask, as cron or a terminal would start it.
@Suite(.serialized) struct CLIPrivateFilesTests {
    /// Runs the binary with `umask` set first, as `sh -c 'umask 000; expense-log …'` would.
    static func run(_ arguments: [String], umask: String, _ env: [String: String]) async throws -> CLIResult {
        try await CLI.start(
            ["-c", "umask \(umask); exec \"$0\" \"$@\"", try CLI.binary().path] + arguments, environment: env,
            binary: URL(fileURLWithPath: "/bin/sh")
        ).wait()
    }

    /// Every file and folder under `root` that someone other than its owner may read, write or enter, with its mode.
    static func open(under root: URL) -> [String] {
        var found: [String] = []
        var info = stat()
        if stat(root.path, &info) == 0, info.st_mode & 0o077 != 0 {
            found.append(String(format: "%o %@", info.st_mode & 0o777, root.path))
        }
        let walk = FileManager.default.enumerator(atPath: root.path)
        while let name = walk?.nextObject() as? String {
            let path = root.appendingPathComponent(name).path
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFLNK else { continue }
            if info.st_mode & 0o077 != 0 { found.append(String(format: "%o %@", info.st_mode & 0o777, name)) }
        }
        return found
    }

    @Test(arguments: ["022", "000"])
    func everyFileAndFolderTheToolMakesIsItsOwnersAloneAfterEveryCommandThatWrites(umask: String) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let data = home.url.appendingPathComponent("expense-log")
        let csv = try home.write(
            "paid.csv", "date,name,price,category\n20240105,パン,250,0\n20240106,牛乳,198,0\n20240107,本,1500,1\n")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            func step(_ arguments: [String], _ status: Int32 = 0) async throws {
                let result = try await Self.run(arguments, umask: umask, env)
                #expect(result.status == status, "\(arguments): \(result.stderr)")
                #expect(
                    Self.open(under: data).isEmpty,
                    "after \(arguments.joined(separator: " ")) under umask \(umask): \(Self.open(under: data))")
            }
            try await step(["fetch", "2024-01"])
            try await step(["add", "ラーメン", "980", "--category", "food", "--date", "2024-01-15"])
            try await step(["register", csv])
            try await step(["edit", "ラーメン", "--price", "1000", "--yes", "--from", "2024-01", "--to", "2024-01"])
            // A statement row deleted is remembered as skipped: the import decisions.
            try await step(["delete", "牛乳", "--yes", "--from", "2024-01", "--to", "2024-01"])
            try await step(["rule", "add", "本", "transfer"])
            try await host.setDown(true)
            try await step(["add", "お茶", "150", "--category", "food", "--date", "2024-01-16"], 75)
            try await host.setDown(false)
            try await step(["sync"])
            // The decisions and the rules were written (and checked above with everything else).
            for kept in ["state/development/import-decisions.json", "state/development/shop-rules.json"] {
                #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent(kept).path), "\(kept)")
            }
        }
    }

    @Test func anImportStoppedMidWayLeavesNothingOthersCanRead() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("long.csv", Samples.csv(rows: 600, prefix: "K"))
        try await withServer { server in
            try await server.addFaults("[{\"kind\": \"hold\", \"seconds\": 30, \"method\": \"POST\"}]")
            let env = Samples.environment(home: home, server: server)
            let run = try CLI.start(
                ["-c", "umask 000; exec \"$0\" \"$@\"", try CLI.binary().path, "register", file, "--batch-size", "50"],
                environment: env, binary: URL(fileURLWithPath: "/bin/sh"))
            try await CLIInterruptTests.untilAPOSTArrives(server)
            run.kill()
            try await server.release()
            _ = try await run.wait()
            let data = home.url.appendingPathComponent("expense-log")
            #expect(
                FileManager.default.fileExists(atPath: data.appendingPathComponent("state/development/journal").path))
            #expect(Self.open(under: data).isEmpty, "\(Self.open(under: data))")
        }
    }

    @Test func anOlderHomeIsTightenedOnceWithOneNote() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let data = home.url.appendingPathComponent("expense-log")
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        #expect(try await Self.run(["fetch", "2024-01"], umask: "022", env).status == 0)
        #expect(
            try await Self.run(["add", "本", "900", "--category", "娯楽費", "--date", "2024-01-20"], umask: "022", env)
                .status == 0)
        // A config file written by hand (it may hold the web app's key in its URL).
        let config = data.appendingPathComponent("config/config.json")
        try FileManager.default.createDirectory(
            at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"language": "en"}"#.utf8).write(to: config)
        // As earlier versions left them under umask 022: folders 0755, files 0644.
        var made = 0
        for root in ["config", "cache", "state"] {
            let walk = FileManager.default.enumerator(atPath: data.appendingPathComponent(root).path)
            while let name = walk?.nextObject() as? String {
                let path = data.appendingPathComponent(root).appendingPathComponent(name).path
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
                chmod(path, isFolder.boolValue ? 0o755 : 0o644)
                made += 1
            }
            chmod(data.appendingPathComponent(root).path, 0o755)
            made += 1
        }
        let month = data.appendingPathComponent("cache/dummy/2024-01.json")
        let fixture = try String(contentsOf: month, encoding: .utf8)
        let first = try await Self.run(["fetch", "2024-01", "--offline"], umask: "022", env)
        #expect(first.status == 0, "\(first.stderr)")
        let notes = first.stderr.split(separator: "\n").filter { $0.contains("readable by you alone") }
        #expect(
            notes.count == 1 && notes[0].contains("Made \(made) files and folders")
                && notes[0].contains(data.appendingPathComponent("cache").path),
            "\(first.stderr)")
        #expect(
            ["config", "cache", "state"].allSatisfy { Self.open(under: data.appendingPathComponent($0)).isEmpty },
            "\(Self.open(under: data))")
        #expect(try String(contentsOf: month, encoding: .utf8) == fixture, "the data is kept as it was")
        let again = try await Self.run(["fetch", "2024-01", "--offline"], umask: "022", env)
        #expect(again.status == 0 && !again.stderr.contains("readable by you alone"), "once: \(again.stderr)")
    }

    @Test func aFolderAnotherAccountOwnsIsRefusedAndLeftAsItIs() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let data = home.url.appendingPathComponent("expense-log")
        let cache = data.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        if geteuid() == 0 {
            // Run as root (a container): the folder is made another account's.
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            chmod(cache.path, 0o755)
            #expect(chown(cache.path, 65_534, 65_534) == 0)
        } else {
            // Run as a user: a folder root owns stands in for another account's.
            try FileManager.default.createSymbolicLink(
                at: cache, withDestinationURL: URL(fileURLWithPath: "/usr/share"))
        }
        var before = stat()
        _ = stat(cache.path, &before)
        let refused = try await Self.run(
            ["fetch", "2024-01"], umask: "022", Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"]))
        #expect(refused.status == 78, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(cache.path) && refused.stderr.contains("belongs to another account")
                && refused.stderr.contains("EXPENSE_LOG_HOME"), "\(refused.stderr)")
        var after = stat()
        _ = stat(cache.path, &after)
        #expect(after.st_mode == before.st_mode && after.st_uid == before.st_uid, "left as it was")
    }

    @Test func aFileAnotherAccountOwnsInsideTheCacheIsRefusedBeforeAnyModeChanges() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let data = home.url.appendingPathComponent("expense-log")
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        #expect(try await Self.run(["fetch", "2024-01"], umask: "022", env).status == 0)
        let folder = data.appendingPathComponent("cache/dummy"), month = folder.appendingPathComponent("2024-01.json")
        for path in [data.appendingPathComponent("cache"), folder] { chmod(path.path, 0o755) }
        chmod(month.path, 0o644)
        // A file another account put there (or a run under sudo left): root here stands in for that account when the
        // tests run as a user, and an unprivileged uid when they run as root.
        let other: uid_t = geteuid() == 0 ? 65_534 : 0
        if geteuid() == 0 {
            #expect(chown(month.path, other, other) == 0)
        } else {
            try FileManager.default.removeItem(at: month)
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent("2024-02.json"),
                withDestinationURL: URL(fileURLWithPath: "/etc/hostname"))
        }
        let refused = try await Self.run(["fetch", "2024-01", "--offline"], umask: "022", env)
        if geteuid() == 0 {
            #expect(
                refused.status == 78 && refused.stderr.contains(month.path)
                    && refused.stderr.contains("belongs to another account"),
                "\(refused.stderr)")
            var info = stat()
            _ = stat(folder.path, &info)
            #expect(info.st_mode & 0o777 == 0o755, "nothing was changed before the refusal")
        } else {
            // A link is left as it is (its own mode means nothing); the folders are tightened.
            #expect(refused.status != 78, "\(refused.stderr)")
        }
    }

    @Test func aCacheFolderThatIsALinkIsTightenedWhereItLeads() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let data = home.url.appendingPathComponent("expense-log")
        let elsewhere = home.url.appendingPathComponent("other-disk/cache")
        try FileManager.default.createDirectory(
            at: elsewhere.appendingPathComponent("dummy"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: elsewhere.appendingPathComponent("dummy/note.json"))
        chmod(elsewhere.path, 0o755)
        chmod(elsewhere.appendingPathComponent("dummy").path, 0o755)
        chmod(elsewhere.appendingPathComponent("dummy/note.json").path, 0o644)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: data.appendingPathComponent("cache"), withDestinationURL: elsewhere)
        let fetched = try await Self.run(
            ["fetch", "2024-01"], umask: "022", Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"]))
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(Self.open(under: elsewhere).isEmpty, "\(Self.open(under: elsewhere))")
    }

    @Test func aHomeNamedThroughALinkAndDotDotIsMadeWhereTheKernelResolvesIt() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let deep = home.url.appendingPathComponent("deep/dir")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: home.url.appendingPathComponent("link"), withDestinationURL: deep)
        // link/.. is deep, not the folder the link is in.
        let env = Samples.environment(
            home: home, ["EXPENSE_LOG_ENV": "dummy", "EXPENSE_LOG_HOME": home.url.path + "/link/../el"])
        let fetched = try await Self.run(["fetch", "2024-01"], umask: "022", env)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(
            FileManager.default.fileExists(
                atPath: home.url.appendingPathComponent("deep/el/cache/dummy/2024-01.json").path))
        #expect(!FileManager.default.fileExists(atPath: home.url.appendingPathComponent("el").path))
    }
}
