import Foundation
import Testing

@testable import ExpenseLogClient
@testable import ExpenseLogFormats
@testable import ExpenseLogModel
@testable import ExpenseLogStore

/// Journal entries read a line at a time: every layout expense-log has written, where each batch's body lies, and what
/// happens when an entry changes or goes while it is read.
@Suite struct ItemEntryFileTests {
    /// An entry exactly as every version so far writes it: a header line, a key line per batch, its item lines, `]}`
    /// (`]},` before another batch), and `]}` to close.
    static let written = """
        {"queuedAt":1705900000.5,"batches":[
        {"key":"AAAA-1","items":[
          {"id":"A1","date":"20240105","name":"コーヒー","price":178,"category":0,"categorySub":1},
          {"id":"A2","date":"20240215","name":"ラーメン \\"大\\"","price":1500,"category":0,"categorySub":null}
        ]},
        {"key":"BBBB-2","items":[]},
        {"key":"CCCC-3","items":[
          {"id":"C1","date":"20240301","name":"本","price":900,"category":1,"categorySub":2}
        ]}
        ]}

        """

    @Test(arguments: ["\n", "\r\n"])
    func readsTheWrittenLayout(lineEnd: String) async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let file = root.appendingPathComponent("00000000000000000001-1-OLD.json")
            try writeText(Self.written.replacingOccurrences(of: "\n", with: lineEnd), to: file)
            let (entries, problems) = try outbox.entries()
            #expect(problems.isEmpty, "\(problems)")
            let entry = try #require(entries.first)
            #expect(entry.queuedAt == Date(timeIntervalSince1970: 1_705_900_000.5))
            #expect(entry.batches.map(\.key) == ["AAAA-1", "BBBB-2", "CCCC-3"])
            #expect(entry.batches.map(\.count) == [2, 0, 1])
            #expect(entry.months.map(\.description) == ["2024-01", "2024-02", "2024-03"])
            let batches = try entry.loaded(outbox)
            #expect(batches.map { $0.items.map(\.id) } == [["A1", "A2"], [], ["C1"]])
            #expect(batches[0].items[1].name == "ラーメン \"大\"")
            // Each body is the exact bytes of its JSON array in the file: what a POST sends.
            let text = try String(contentsOf: file, encoding: .utf8)
            for (queued, batch) in zip(entry.batches, batches) {
                #expect(String(decoding: batch.body, as: UTF8.self).hasPrefix("["))
                #expect(String(decoding: batch.body, as: UTF8.self).hasSuffix("]"))
                #expect(text.utf8.count >= Int(queued.body.upperBound))
            }
        }
    }

    /// An entry edited by hand into items `register` would refuse is named at the item's line and left in place: sync
    /// must not send what register never would.
    @Test(arguments: [
        (#""price":1500"#, #""price":0"#, "line 4: the batch AAAA-1: item 2 (id A2): price: must not be 0"),
        (#""id":"A2""#, #""id":"A1""#, "line 4: the batch AAAA-1: item 2: the id A1 is given twice"),
        (
            #""name":"本""#, #""name":"\#(String(repeating: "本", count: 31))""#,
            "line 8: the batch CCCC-3: item 1 (id C1): name: is 31 characters long"
        ),
    ])
    func anItemRegisterWouldRefuseMakesTheEntryUnreadable(
        original: String, edited: String, problem: String
    ) async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let file = root.appendingPathComponent("00000000000000000001-1-EDIT.json")
            try writeText(Self.written.replacingOccurrences(of: original, with: edited), to: file)
            let (entries, problems) = try outbox.entries()
            #expect(entries.isEmpty)
            #expect(problems.first?.contains(problem) == true, "\(problems)")
        }
    }

    @Test func aBatchAcrossTheReadChunksKeepsItsExactBytes() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            // 12,000 items: a body of about 1.2 MiB, read in chunks of 1 MiB, between two small batches.
            let big = OutboxBatch(key: "BIG-1", items: try numberedItems(12_000))
            let small = try twoBatches()
            let entry = try outbox.append([small[0], big, small[1]])
            let listed = try #require(try outbox.listing().itemEntries.first)
            #expect(listed.batches == entry.batches, "the ranges read back are the ranges written")
            #expect(try outbox.body(of: listed.batches[1], in: listed) == big.body)
            #expect(try listed.loaded(outbox) == [small[0], big, small[1]])
        }
    }

    @Test func anEntryGoneSinceItWasListedIsSkippedByReaders() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let entry = try outbox.append(try twoBatches())
            let listed = try #require(try outbox.listing().itemEntries.first)
            for key in entry.batches.map(\.key) { try outbox.markSent(key, in: entry) }  // a sync finished it meanwhile
            var seen = 0
            #expect(try outbox.forEachBatch(of: listed) { _ in seen += 1 } == false)
            #expect(seen == 0)
            #expect(try outbox.hold(listed) == nil)
        }
    }

    @Test func anEntryReplacedSinceItWasListedIsNotHeld() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let entry = try outbox.append(try twoBatches())
            let listed = try #require(try outbox.listing().itemEntries.first)
            // Fixed by hand: the same batches with another item, so every byte range after it moved.
            let edited = try String(contentsOf: entry.file, encoding: .utf8).replacingOccurrences(
                of: "item 0", with: "item zero")
            try writeText(edited, to: entry.file)
            #expect(try outbox.hold(listed) == nil, "its byte ranges belong to the file it replaced")
            let relisted = try #require(try outbox.listing().itemEntries.first)
            let (held, lock) = try #require(try outbox.hold(relisted))
            defer { lock.release() }
            #expect(try held.loaded(outbox).first?.items.first?.name == "item zero")
        }
    }

    @Test func anEntryEditedWhileItIsSentStopsTheRunWithoutReadingStaleRanges() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let entry = try outbox.append(try twoBatches())
            let listed = try #require(try outbox.listing().itemEntries.first)
            let (held, lock) = try #require(try outbox.hold(listed))
            defer { lock.release() }
            // Edited to the same length: the byte ranges would still fit, but they belong to the file as it was.
            let edited = try String(contentsOf: entry.file, encoding: .utf8).replacingOccurrences(
                of: "item 1", with: "ITEM 1")
            try writeText(edited, to: entry.file)
            let error = try #require(throws: StoreError.self) { try outbox.batch(held.batches[0], of: held) }
            #expect(error.description.contains("changed while this run was using it"))
            #expect(error.description.contains("run `expense-log sync` again"))
        }
    }

    @Test func tidyRemovesAFinishedEntryWithoutReadingItsItems() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let finished = try outbox.append(try twoBatches())
            let pending = try outbox.append(try twoBatches())
            // A crash between the sent log's last line and the removal leaves a finished entry behind.
            for key in finished.batches.map(\.key) { try outbox.appendLine(key, to: sentLog(of: finished.file)) }
            try outbox.appendLine(pending.batches[0].key, to: sentLog(of: pending.file))
            outbox.tidy()
            #expect(!FileManager.default.fileExists(atPath: finished.file.path))
            #expect(FileManager.default.fileExists(atPath: pending.file.path))
            #expect(try outbox.listing().itemEntries.map(\.batches) == [[pending.batches[1]]])
        }
    }

    @Test func aKeyThatCannotBeWrittenPlainlyIsRefused() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            #expect(throws: StoreError.self) {
                try outbox.append([OutboxBatch(key: "A\"B", items: try numberedItems(1))])
            }
            let entries = try outbox.listing().itemEntries
            #expect(entries.isEmpty, "nothing half-written")
        }
    }
}

/// Where a POST's body ends: at the item count, or at the body size, escapes included.
@Suite struct BatchLimitTests {
    @Test func sizesAddUpToTheEncodedBody() throws {
        let items =
            try numberedItems(5) + [
                Item(
                    id: "Q", date: try day(2024, 1, 1), name: "\"\"\"\\\n", price: -1, category: 12,
                    categorySub: nil)
            ]
        #expect(items.map(BatchLimit.size(of:)).reduce(2, +) == ItemJSON.arrayBytes(items).count)
    }

    @Test func aBatchEndsAtItsBytesWhateverItsCount() throws {
        let quoted = try (0..<1_000).map { index in
            Item(
                id: "ID-\(index)", date: try day(2024, 1, 1), name: String(repeating: "\"", count: 30), price: 1,
                category: 0,
                categorySub: nil)
        }
        let spool = try ItemSpool()
        for item in quoted { try spool.append(item, tag: 0) }
        let perItem = BatchLimit.size(of: quoted[0])
        let limit = BatchLimit(items: 10_000, bytes: perItem * 300)
        #expect(try limit.batchCount(spool) == 4, "300 items a batch by bytes: 1,000 items make four")
        #expect(try BatchLimit(items: 400).batchCount(spool) == 3)
    }
}
