import ExpenseLogClient
import ExpenseLogModel
import ExpenseLogStore
import Foundation
import Testing

/// The names of the files in a folder, sorted; an absent folder has none.
func fileNames(in directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
}

/// The `.sent` log next to an entry file.
func sentLog(of entry: URL) -> URL {
    entry.deletingPathExtension().appendingPathExtension("sent")
}

/// Two batches of numbered items (2 and 1 items).
func twoBatches() throws -> [OutboxBatch] {
    OutboxBatch.split(try numberedItems(3), size: 2)
}

@Suite("The outbox: queued batches waiting for sync")
struct JournalTests {
    static let queuedAt = Date(timeIntervalSince1970: 1_705_900_000.5)

    @Test("enqueue writes one new entry file per call, creating the folder")
    func oneFilePerEnqueue() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root.appendingPathComponent("state/release/journal"))
            let first = try outbox.append(try twoBatches())
            let second = try outbox.append(try twoBatches())
            #expect(first.file != second.file)
            #expect(
                fileNames(in: outbox.directory)
                    == [first.file.lastPathComponent, second.file.lastPathComponent].sorted())
            #expect(fileNames(in: outbox.directory).allSatisfy { $0.hasSuffix(".json") })
        }
    }

    @Test("an entry reads back with its batches, keys, items and queue time")
    func readsBack() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let awkward = Item(
                id: "Q", date: try day(2024, 2, 29), name: "珈琲 \"濃いめ\" \\ 1/2", price: -300,
                category: 3, categorySub: nil)
            let batches = try twoBatches() + [OutboxBatch(key: UUID().uuidString, items: [awkward])]
            let queued = try outbox.append(batches, now: Self.queuedAt)
            let (entries, problems) = try Journal(directory: root).entries()
            #expect(problems.isEmpty)
            let entry = try #require(entries.first)
            #expect(entries.count == 1)
            #expect(entry.file.lastPathComponent == queued.file.lastPathComponent)
            #expect(try queued.loaded(outbox) == batches, "enqueue returns the entry it wrote")
            #expect(queued.file.deletingLastPathComponent().path == root.path)
            #expect(try entry.loaded(outbox) == batches)
            #expect(entry.itemCount == batches.flatMap(\.items).count)
            #expect(entry.months == Set(batches.flatMap(\.items).map(\.date.yearMonth)).sorted())
            #expect(abs(entry.queuedAt.timeIntervalSince(Self.queuedAt)) < 0.001)
        }
    }

    @Test("entries come in the order they were journaled, whatever the clock said each time")
    func oldestFirst() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let late = [OutboxBatch(key: "LATE", items: try numberedItems(1))]
            let early = [OutboxBatch(key: "EARLY", items: try numberedItems(1))]
            let earliest = [OutboxBatch(key: "EARLIEST", items: try numberedItems(1))]
            try outbox.append(late, now: Date(timeIntervalSince1970: 1_800_000_000))
            try outbox.append(early, now: Date(timeIntervalSince1970: 1_700_000_000))
            try outbox.append(earliest, now: Date(timeIntervalSince1970: 5))  // the clock set back
            #expect(try outbox.listing().itemEntries.map { $0.batches[0].key } == ["LATE", "EARLY", "EARLIEST"])
        }
    }

    @Test("an empty or absent outbox has no entries, no problems and nothing pending")
    func empty() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root.appendingPathComponent("never-created"))
            let (entries, problems) = try outbox.entries()
            #expect(entries.isEmpty)
            #expect(problems.isEmpty)
            #expect(try outbox.pendingCount() == 0)
        }
    }

    @Test("pendingCount counts the items of every batch of every entry")
    func pendingCount() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            try outbox.append(try twoBatches())  // 3 items
            try outbox.append(OutboxBatch.split(try numberedItems(5), size: 100))  // 5 items
            #expect(try outbox.pendingCount() == 8)
        }
    }

    @Test("markSent drops a confirmed batch from the entry and keeps the rest pending")
    func markOneOfTwo() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let batches = try twoBatches()
            let file = try outbox.append(batches).file
            let entry = try #require(try outbox.listing().itemEntries.first)
            try outbox.markSent(batches[0].key, in: entry)
            let after = try #require(try outbox.listing().itemEntries.first)
            #expect(try after.loaded(outbox) == [batches[1]])
            #expect(try outbox.pendingCount() == 1)
            #expect(FileManager.default.fileExists(atPath: file.path))
            #expect(FileManager.default.fileExists(atPath: sentLog(of: file).path))
        }
    }

    @Test("once every batch of an entry is confirmed both its files are removed")
    func markAll() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let batches = try twoBatches()
            let kept = try outbox.append([OutboxBatch(key: "OTHER", items: try numberedItems(1))]).file
            let file = try outbox.append(batches, now: Date(timeIntervalSince1970: 1)).file
            let entry = try #require(
                try outbox.listing().itemEntries.first { $0.file.lastPathComponent == file.lastPathComponent })
            try outbox.markSent(batches[1].key, in: entry)
            try outbox.markSent(batches[0].key, in: entry)
            #expect(fileNames(in: root) == [kept.lastPathComponent])
            #expect(try queuedBatches(outbox) == [[OutboxBatch(key: "OTHER", items: try numberedItems(1))]])
        }
    }

    @Test("the .sent log holds one line per confirmed key")
    func sentLogLines() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let batches = OutboxBatch.split(try numberedItems(3), size: 1)
            let file = try outbox.append(batches).file
            let entry = try #require(try outbox.listing().itemEntries.first)
            try outbox.markSent(batches[0].key, in: entry)
            try outbox.markSent(batches[2].key, in: entry)
            let log = try String(contentsOf: sentLog(of: file), encoding: .utf8)
            #expect(log == batches[0].key + "\n" + batches[2].key + "\n")
        }
    }

    @Test("a torn last line in the .sent log (no newline) does not count as confirmed")
    func tornLine() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let batches = OutboxBatch.split(try numberedItems(3), size: 1)
            let file = try outbox.append(batches).file
            try writeText(batches[0].key + "\n" + batches[1].key, to: sentLog(of: file))
            let entry = try #require(try outbox.listing().itemEntries.first)
            #expect(entry.batches.map(\.key) == [batches[1].key, batches[2].key])
            #expect(try outbox.pendingCount() == 2)
        }
    }

    @Test("a key confirmed after a torn line starts a line of its own and counts")
    func confirmAfterTornLine() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let batches = OutboxBatch.split(try numberedItems(3), size: 1)
            let file = try outbox.append(batches).file
            try writeText(batches[0].key + "\n" + String(batches[1].key.prefix(7)), to: sentLog(of: file))
            let entry = try #require(try outbox.listing().itemEntries.first)
            try outbox.markSent(batches[2].key, in: entry)
            #expect(try outbox.listing().itemEntries.first?.batches.map(\.key) == [batches[1].key])
        }
    }

    @Test("a key cut short by a crash confirms nothing")
    func cutKey() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let batches = try twoBatches()
            let file = try outbox.append(batches).file
            try writeText(String(batches[0].key.prefix(10)) + "\n", to: sentLog(of: file))
            #expect(try queuedBatches(outbox).first == batches)
        }
    }

    @Test(
        "an unreadable entry is reported, naming its file, skipped, and left in place",
        arguments: [
            "not json", "{\"queuedAt\":1,\"batches\":[{\"key\":\"K\",\"items\":[{\"id\":\"A\"}]}]}", "",
            // Cut short inside a batch, and a batch whose item lacks fields.
            "{\"queuedAt\":1,\"batches\":[\n{\"key\":\"K\",\"items\":[\n  {\"id\":\"A\",\"date\":\"20240101\",\"name\":\"x\",\"price\":1,\"category\":0}\n",
            "{\"queuedAt\":1,\"batches\":[\n{\"key\":\"K\",\"items\":[\n  {\"id\":\"A\"}\n]}\n]}\n",
        ])
    func unreadableEntry(content: String) async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let good = try outbox.append(try twoBatches()).file
            let bad = root.appendingPathComponent("00000000000000000001-1-BAD.json")
            try writeText(content, to: bad)
            let (entries, problems) = try outbox.entries()
            #expect(entries.map(\.file.lastPathComponent) == [good.lastPathComponent])
            #expect(problems.count == 1)
            #expect(problems.first?.contains(bad.path) == true)
            #expect(
                problems.first?.contains("it ends early") == (content.isEmpty || content.hasSuffix("0}\n")),
                "\(problems)")
            #expect(
                problems.first?.contains("line 3: the batch K: item 1: date: missing") == content.hasSuffix("]}\n]}\n"),
                "\(problems)")
            #expect(try outbox.pendingCount() == 3)
            outbox.tidy()
            #expect(
                FileManager.default.contents(atPath: bad.path) == Data(content.utf8), "never delete what cannot be read"
            )
        }
    }

    @Test("hidden files and files that are not .json are not entries")
    func ignoresOtherFiles() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            try writeText("not json", to: root.appendingPathComponent(".00000000000000000001-1-X.json"))
            try writeText("notes", to: root.appendingPathComponent("README.txt"))
            #expect(try outbox.listing().itemEntries.isEmpty)
            #expect(try outbox.entries().problems.isEmpty)
        }
    }

    @Test("tidy removes a fully confirmed entry a crash left behind, with its log")
    func tidyConfirmedEntry() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let batches = try twoBatches()
            let file = try outbox.append(batches).file
            try writeText(batches.map { $0.key + "\n" }.joined(), to: sentLog(of: file))  // crashed before unlinking
            #expect(try outbox.listing().itemEntries.isEmpty)
            outbox.tidy()
            #expect(fileNames(in: root).isEmpty)
        }
    }

    @Test("tidy removes a .sent log whose entry is gone and keeps a pending entry with its log")
    func tidyOrphanLog() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let batches = try twoBatches()
            let file = try outbox.append(batches).file
            let entry = try #require(try outbox.listing().itemEntries.first)
            try outbox.markSent(batches[0].key, in: entry)
            try writeText("GONE\n", to: root.appendingPathComponent("00000000000000000002-1-GONE.sent"))
            outbox.tidy()
            #expect(fileNames(in: root) == [file.lastPathComponent, sentLog(of: file).lastPathComponent].sorted())
            #expect(try queuedBatches(outbox).first == [batches[1]])
        }
    }

    @Test("tidy removes temporary files older than an hour and keeps younger ones")
    func tidyTemporaryFiles() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let now = Date()
            let old = root.appendingPathComponent(".entry.json.1.1.tmp")
            let young = root.appendingPathComponent(".entry.json.1.2.tmp")
            try writeText("{", to: old)
            try writeText("{", to: young)
            try FileManager.default.setAttributes(
                [.modificationDate: now.addingTimeInterval(-3_601)], ofItemAtPath: old.path)
            try FileManager.default.setAttributes(
                [.modificationDate: now.addingTimeInterval(-3_500)], ofItemAtPath: young.path)
            outbox.tidy(now: now)
            #expect(fileNames(in: root) == [young.lastPathComponent])
        }
    }

    @Test("the sync lock lives next to the outbox folder, shared by every sync of the environment")
    func syncLock() {
        let outbox = Journal(directory: URL(fileURLWithPath: "/state/release/journal"))
        #expect(outbox.lock.path == "/state/release/sync.lock")
    }
}
