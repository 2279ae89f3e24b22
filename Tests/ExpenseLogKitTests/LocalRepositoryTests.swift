import ExpenseLogModel
import ExpenseLogStore
import Foundation
import Testing

/// Two January items and a February one.
func cacheSamples() throws -> (a: Item, b: Item, february: Item) {
    (
        Item(id: "A", date: try day(2024, 1, 22), name: "コーヒー", price: 178, category: 0, categorySub: 1),
        Item(id: "B", date: try day(2024, 1, 10), name: "紅茶", price: 200, category: 0, categorySub: nil),
        Item(id: "F", date: try day(2024, 2, 10), name: "本", price: 1500, category: 1, categorySub: 2)
    )
}

/// A month that must exist.
func month(_ text: String) throws -> YearMonth {
    try #require(YearMonth(parsing: text))
}

/// Names of leftover temporary files in a folder (none is expected after any write).
func temporaryFiles(in directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".tmp") }
}

/// Makes nothing writable at `directory`: read-only for a normal user; root ignores permissions (checked by
/// actually writing), so for root the folder is replaced by a regular file and nothing can be created under it.
func makeUnwritable(_ directory: URL) throws {
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
    let probe = directory.appendingPathComponent("probe")
    guard FileManager.default.createFile(atPath: probe.path, contents: Data()) else { return }
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
    try FileManager.default.removeItem(at: directory)
    try Data("a file, not a folder".utf8).write(to: directory)
}

/// Undoes `makeUnwritable` far enough for the temporary folder to be removed.
func restoreWritable(_ directory: URL) {
    try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
}

@Suite("The local repository (per-month cache)")
struct LocalRepositoryTests {
    static let fetchedAt = Date(timeIntervalSince1970: 1_705_900_000.25)

    @Test("a replaced month reads back from disk in a new repository with its items and fetch time")
    func replaceAndReread() async throws {
        try await withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("cache/release")
            let (a, b, _) = try cacheSamples()
            try await LocalRepository(directory: directory).replaceMonth(
                try month("2024-01"), with: [a, b], fetchedAt: Self.fetchedAt)
            let cached = try #require(try await LocalRepository(directory: directory).month(try month("2024-01")))
            #expect(cached.month == (try month("2024-01")))
            #expect(cached.items == [a, b])
            #expect(cached.fetchedAt == Self.fetchedAt)
            #expect(cached.isComplete)
            #expect(temporaryFiles(in: directory).isEmpty)
        }
    }

    @Test("the current time as fetch time reads back to well within a millisecond")
    func fetchTimeNow() async throws {
        try await withTemporaryDirectory { root in
            let now = Date()
            try await LocalRepository(directory: root).replaceMonth(try month("2024-01"), with: [], fetchedAt: now)
            let cached = try #require(try await LocalRepository(directory: root).month(try month("2024-01")))
            let fetchedAt = try #require(cached.fetchedAt)
            #expect(abs(fetchedAt.timeIntervalSince(now)) < 0.001)
        }
    }

    @Test("replacing a month drops what it held before")
    func replaceDropsOld() async throws {
        try await withTemporaryDirectory { root in
            let repository = LocalRepository(directory: root)
            let (a, b, _) = try cacheSamples()
            try await repository.replaceMonth(try month("2024-01"), with: [a, b], fetchedAt: Self.fetchedAt)
            try await repository.replaceMonth(
                try month("2024-01"), with: [b], fetchedAt: Self.fetchedAt.addingTimeInterval(60))
            let cached = try #require(try await LocalRepository(directory: root).month(try month("2024-01")))
            #expect(cached.items == [b])
            #expect(cached.fetchedAt == Self.fetchedAt.addingTimeInterval(60))
        }
    }

    @Test("an uncached month is nil")
    func uncached() async throws {
        try await withTemporaryDirectory { root throws in
            #expect(
                try await LocalRepository(directory: root.appendingPathComponent("none")).month(try month("2024-01"))
                    == nil)
        }
    }

    @Test("add replaces items with the same id, appends new ones, and creates an incomplete month when uncached")
    func addMerges() async throws {
        try await withTemporaryDirectory { root in
            let repository = LocalRepository(directory: root)
            let (a, b, february) = try cacheSamples()
            try await repository.replaceMonth(try month("2024-01"), with: [a, b], fetchedAt: Self.fetchedAt)
            var newA = a
            newA.price = 999
            let c = Item(id: "C", date: try day(2024, 1, 31), name: "c", price: 1, category: 0, categorySub: nil)
            try await repository.add([newA, february, c])

            for reader in [repository, LocalRepository(directory: root)] {
                let january = try #require(try await reader.month(try month("2024-01")))
                #expect(january.items == [b, newA, c])
                #expect(january.fetchedAt == Self.fetchedAt)
                let feb = try #require(try await reader.month(try month("2024-02")))
                #expect(feb.items == [february])
                #expect(!feb.isComplete)
                #expect(feb.fetchedAt == nil)
            }
            #expect(temporaryFiles(in: root).isEmpty)
        }
    }

    @Test(
        "months added from a spool at once (more than the 64 written side by side, over more than 64 years) get their items"
    )
    func addManyMonthsFromSpool() async throws {
        try await withTemporaryDirectory { root in
            let spool = try ItemSpool()
            var expected: [YearMonth: [String]] = [:]
            for index in 0..<(70 * 3) {
                // 70 months: 2020 to 2025, and two in 2100 (a second group of years).
                let year = index % 70 < 68 ? 2020 + index % 70 / 12 : 2100
                let day = try day(year, index % 70 % 12 + 1, index / 70 + 1)
                let item = Item(
                    id: "I\(index)", date: day, name: "item \(index)", price: index + 1, category: 0, categorySub: nil)
                try spool.append(item, tag: 0)
                expected[day.yearMonth, default: []].append(item.id)
            }
            let repository = LocalRepository(directory: root)
            try await repository.add(Set(expected.keys), from: try spool.reader())
            #expect(expected.count == 70)
            let reread = LocalRepository(directory: root)
            for (month, ids) in expected {
                #expect(try await reread.month(month)?.items.map(\.id) == ids, "\(month)")
            }
            #expect(temporaryFiles(in: root).isEmpty)
        }
    }

    @Test("adding a spool's months writes the same files as adding its items, and touches no other month")
    func addFromSpool() async throws {
        try await withTemporaryDirectory { root in
            let (a, b, february) = try cacheSamples()
            var newA = a
            newA.price = 999
            let c = Item(
                id: "C", date: try day(2024, 1, 31), name: "c \"quoted\"", price: 1, category: 0, categorySub: nil)
            let spool = try ItemSpool()
            for item in [newA, february, c] { try spool.append(item, tag: 0) }
            let (byItems, bySpool) = (
                LocalRepository(directory: root.appendingPathComponent("items")),
                LocalRepository(directory: root.appendingPathComponent("spool"))
            )
            for repository in [byItems, bySpool] {
                try await repository.replaceMonth(try month("2024-01"), with: [a, b], fetchedAt: Self.fetchedAt)
            }
            try await byItems.add([newA, february, c])
            try await bySpool.add([try month("2024-01")], from: try spool.reader())
            #expect(try await bySpool.month(try month("2024-02")) == nil, "only the month asked for is written")
            try await bySpool.add([try month("2024-02")], from: try spool.reader())
            // Both months in one call (one pass finds the replaced items of every month): the same files.
            let byBoth = LocalRepository(directory: root.appendingPathComponent("both"))
            try await byBoth.replaceMonth(try month("2024-01"), with: [a, b], fetchedAt: Self.fetchedAt)
            try await byBoth.add([try month("2024-01"), try month("2024-02")], from: try spool.reader())

            let reread = LocalRepository(directory: bySpool.directory)
            #expect(try await reread.month(try month("2024-01"))?.items == [b, newA, c])
            #expect(try await reread.month(try month("2024-01"))?.fetchedAt == Self.fetchedAt)
            for name in ["2024-01.json", "2024-02.json"] {
                let expected = try Data(contentsOf: byItems.directory.appendingPathComponent(name))
                #expect(try Data(contentsOf: bySpool.directory.appendingPathComponent(name)) == expected, "\(name)")
                #expect(
                    try Data(contentsOf: byBoth.directory.appendingPathComponent(name)) == expected,
                    "\(name), both at once")
            }
            #expect(temporaryFiles(in: bySpool.directory).isEmpty)
        }
    }

    @Test("cachedMonths lists every month on disk, oldest first; clear removes them and says how many")
    func listAndClear() async throws {
        try await withTemporaryDirectory { root in
            let (a, _, february) = try cacheSamples()
            let writer = LocalRepository(directory: root)
            try await writer.add([february])
            try await writer.replaceMonth(try month("2023-12"), with: [], fetchedAt: Self.fetchedAt)
            try await writer.add([a])

            let repository = LocalRepository(directory: root)
            #expect(try await repository.cachedMonths().map(\.month.description) == ["2023-12", "2024-01", "2024-02"])
            #expect(try await repository.cachedMonths().map(\.items.count) == [0, 1, 1])
            #expect(try await repository.clear() == 3)
            #expect(try await repository.cachedMonths().isEmpty)
            #expect(try await repository.month(try month("2024-01")) == nil)
            #expect(try await writer.clear() == 0)
            #expect(try await writer.month(try month("2024-02")) == nil)
        }
    }

    @Test("clear counts only month files, as cachedMonths lists them")
    func clearCountsMonths() async throws {
        try await withTemporaryDirectory { root in
            let repository = LocalRepository(directory: root)
            try await repository.add([try cacheSamples().a])
            try writeText("{}", to: root.appendingPathComponent("notes.json"))
            #expect(try await repository.cachedMonths().count == 1)
            #expect(try await repository.clear() == 1)
        }
    }

    @Test(
        "a corrupt month file is moved aside to .corrupt and reported once",
        arguments: [
            "{not json", #"{"month":"2024-02","fetchedAt":null,"items":[]}"#,
            #"{"month":"2024-01","items":[{"id":"A"}]}"#,
        ])
    func corruptFile(content: String) async throws {
        try await withTemporaryDirectory { root in
            let repository = LocalRepository(directory: root)
            let file = repository.file(for: try month("2024-01"))
            try writeText(content, to: file)

            #expect(try await repository.month(try month("2024-01")) == nil)
            let aside = root.appendingPathComponent("2024-01.json.corrupt")
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(try String(contentsOf: aside, encoding: .utf8) == content)
            let warnings = await repository.takeWarnings()
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains(file.path) == true)
            #expect(await repository.takeWarnings().isEmpty)
            #expect(try await repository.clear() == 0)
            #expect(!FileManager.default.fileExists(atPath: aside.path))
        }
    }

    @Test(
        "a failed write throws writeFailed and keeps the old items in memory",
        arguments: ["add", "add from a spool", "replace"])
    func failedWriteKeepsState(way: String) async throws {
        try await withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("cache")
            let repository = LocalRepository(directory: directory)
            let (a, b, _) = try cacheSamples()
            try await repository.replaceMonth(try month("2024-01"), with: [a], fetchedAt: Self.fetchedAt)
            try makeUnwritable(directory)
            defer { restoreWritable(directory) }

            let error = try await #require(throws: StoreError.self) {
                switch way {
                case "add": try await repository.add([b])
                case "add from a spool":
                    let spool = try ItemSpool()
                    try spool.append(b, tag: 0)
                    try await repository.add([try month("2024-01")], from: try spool.reader())
                default: try await repository.replaceMonth(try month("2024-01"), with: [b], fetchedAt: Date())
                }
            }
            guard case .writeFailed(let path, _) = error else {
                Issue.record("expected writeFailed, got \(error)")
                return
            }
            #expect(path.hasPrefix(directory.path))
            let cached = try #require(try await repository.month(try month("2024-01")))
            #expect(cached.items == [a])
            #expect(cached.fetchedAt == Self.fetchedAt)
            restoreWritable(directory)
            #expect(temporaryFiles(in: directory).isEmpty)
            #expect(temporaryFiles(in: root).isEmpty)
        }
    }

    @Test("a folder that cannot be created (its parent is a file) makes the first write fail with writeFailed")
    func folderCannotBeCreated() async throws {
        try await withTemporaryDirectory { root in
            let parent = root.appendingPathComponent("plain-file")
            try writeText("x", to: parent)
            let repository = LocalRepository(directory: parent.appendingPathComponent("cache"))
            let (a, _, _) = try cacheSamples()
            let error = try await #require(throws: StoreError.self) {
                try await repository.replaceMonth(try month("2024-01"), with: [a], fetchedAt: Self.fetchedAt)
            }
            guard case .writeFailed = error else {
                Issue.record("expected writeFailed, got \(error)")
                return
            }
            #expect(try await repository.month(try month("2024-01")) == nil)
            #expect(try await repository.cachedMonths().isEmpty)
        }
    }
}
