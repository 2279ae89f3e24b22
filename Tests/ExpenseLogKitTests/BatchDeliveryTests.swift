import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import ExpenseLogUseCases
import Foundation
import Testing

/// The state folders of a test: the release environment's outbox and the `rejected/` folder next to it.
func releasePaths(_ root: URL) -> (outbox: Journal, rejected: URL) {
    let paths = Paths(
        configDirectory: root.appendingPathComponent("config"), cacheRoot: root.appendingPathComponent("cache"),
        stateRoot: root.appendingPathComponent("state"))
    return (
        Journal(directory: paths.journalDirectory(.release)),
        paths.stateDirectory(.release).appendingPathComponent("rejected", isDirectory: true)
    )
}

/// The release outbox under `root` with one queued entry of `count` numbered items in batches of `size`.
func queuedEntry(_ count: Int, size: Int, in root: URL) throws -> (outbox: Journal, entry: ItemEntry) {
    let outbox = releasePaths(root).outbox
    return (outbox, try outbox.append(OutboxBatch.split(try numberedItems(count), size: size)))
}

extension ExpenseLogAPIClient {
    /// Delivers through this client into an outbox: the tests' shorthand for `BatchSending`.
    func deliver(
        _ batch: OutboxBatch, of entry: ItemEntry, sending items: [Item]? = nil, outbox: Journal,
        verifyAnswer: Bool
    ) async throws -> BatchOutcome {
        try await BatchSending(client: self, journal: outbox).deliver(
            batch, of: entry, sending: items, verifyAnswer: verifyAnswer)
    }
}

extension ItemEntry {
    /// Its batches with their items, read back from its file.
    func loaded(_ outbox: Journal) throws -> [OutboxBatch] {
        try batches.map { try outbox.batch($0, of: self) }
    }
}

/// The batches still queued, entry by entry.
func queuedBatches(_ outbox: Journal) throws -> [[OutboxBatch]] {
    try outbox.listing().itemEntries.map { try $0.loaded(outbox) }
}

/// A 200 answer listing these items, as the server does for what it saved.
func savedAnswer(_ items: [Item]) -> ScriptedAnswer {
    .status(200, body: ItemJSON.array(items))
}

extension BatchOutcome {
    /// The server's items when delivered, else nil.
    var delivered: [Item]? {
        if case .delivered(let items, _) = self { items } else { nil }
    }

    /// The error and whether the batch may have been saved when failed, else nil.
    var failed: (error: APIError, mayHaveBeenSaved: Bool)? {
        if case let .failed(error, mayHaveBeenSaved) = self { (error, mayHaveBeenSaved) } else { nil }
    }

    /// The error and the file the batch was moved to when rejected, else nil.
    var rejected: (error: APIError, file: URL)? {
        if case let .rejected(error, file) = self { (error, file) } else { nil }
    }
}

@Suite("Delivering an outbox batch: its outcome is recorded in the outbox")
struct BatchDeliveryTests {
    static let endpoint = URL(string: "https://example.com/exec")!

    @Test("a saved batch is delivered with the server's items and leaves the outbox; the entry's other batch stays")
    func delivered() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(3, size: 2, in: root)
            let log = RequestLog()
            let outcome = try await client(FakeSession.echo.recording(into: log))
                .deliver(try entry.loaded(outbox)[0], of: entry, outbox: outbox, verifyAnswer: true)
            let first = try entry.loaded(outbox)[0]
            #expect(try #require(outcome.delivered) == first.items)
            #expect(try queuedBatches(outbox) == [[try entry.loaded(outbox)[1]]])
            #expect(await log.requests.map { $0.headers["Idempotency-Key"] } == [entry.batches[0].key])
        }
    }

    @Test("a batch refused before any connection fails as not saved and stays queued; nothing is rejected")
    func failedNotSaved() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(2, size: 2, in: root)
            let outcome = try await client(scripted([.fail(.refused)], log: RequestLog()))
                .deliver(try entry.loaded(outbox)[0], of: entry, outbox: outbox, verifyAnswer: true)
            let failed = try #require(outcome.failed)
            #expect(failed.error == .network(url: Self.endpoint, reason: .refused))
            #expect(!failed.mayHaveBeenSaved)
            #expect(try queuedBatches(outbox) == [try entry.loaded(outbox)])
            #expect(!FileManager.default.fileExists(atPath: releasePaths(root).rejected.path))
        }
    }

    /// Answers after which the script may have run: a 500, a timeout, and failures or refusals at a redirect's target.
    static func maybeSavedAnswers() throws -> [ScriptedAnswer] {
        let target = try redirectTarget()
        return [
            .status(500), .fail(.timedOut), .fail(.refused, at: target), .status(400, from: target),
            .status(422, from: target),
        ]
    }

    @Test(
        "a batch whose fate is unknown fails as maybe saved, is not rejected, and stays queued",
        arguments: try maybeSavedAnswers())
    func failedMaybeSaved(answer: ScriptedAnswer) async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(2, size: 2, in: root)
            let log = RequestLog()
            let outcome = try await client(scripted([answer, .echo], log: log), retries: 3)
                .deliver(try entry.loaded(outbox)[0], of: entry, outbox: outbox, verifyAnswer: true)
            #expect(try #require(outcome.failed).mayHaveBeenSaved)
            #expect(await log.requests.count == 1)
            #expect(try queuedBatches(outbox) == [try entry.loaded(outbox)])
            #expect(!FileManager.default.fileExists(atPath: releasePaths(root).rejected.path))
        }
    }

    @Test(
        "a 400 or 422 from the endpoint itself is rejected: the batch moves to rejected/ as a JSON array and leaves the outbox",
        arguments: [400, 422])
    func rejected(status: Int) async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(3, size: 2, in: root)
            let batch = try entry.loaded(outbox)[0]
            let outcome = try await client(scripted([.status(status, body: "bad date")], log: RequestLog()))
                .deliver(batch, of: entry, outbox: outbox, verifyAnswer: true)
            let rejected = try #require(outcome.rejected)
            #expect(rejected.error == .httpStatus(url: Self.endpoint, status: status, snippet: "bad date"))
            #expect(
                rejected.file.deletingLastPathComponent().standardizedFileURL.path
                    == releasePaths(root).rejected.standardizedFileURL.path)
            #expect(rejected.file.pathExtension == "json")
            let text = try String(contentsOf: rejected.file, encoding: .utf8)
            #expect(try ItemCodec.items(Data(text.utf8)) == batch.items)
            #expect(try readItems(text, format: .json) == batch.items, "register reads the file back once fixed")
            #expect(try queuedBatches(outbox) == [[try entry.loaded(outbox)[1]]])
        }
    }

    @Test(
        "other refusals by the endpoint are not rejected: the batch fails as not saved and stays queued",
        arguments: [401, 403, 404, 413])
    func otherClientErrors(status: Int) async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(2, size: 2, in: root)
            let outcome = try await client(scripted([.status(status)], log: RequestLog()))
                .deliver(try entry.loaded(outbox)[0], of: entry, outbox: outbox, verifyAnswer: true)
            #expect(try #require(outcome.failed).mayHaveBeenSaved == false)
            #expect(try queuedBatches(outbox) == [try entry.loaded(outbox)])
            #expect(!FileManager.default.fileExists(atPath: releasePaths(root).rejected.path))
        }
    }

    @Test("two refused batches of one entry go to two files, and the entry leaves the outbox")
    func twoRejected() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(3, size: 2, in: root)
            let api = try client(scripted([.status(400)], log: RequestLog()))
            var files: [URL] = []
            let batches = try entry.loaded(outbox)
            for batch in batches {
                let outcome = try await api.deliver(batch, of: entry, outbox: outbox, verifyAnswer: true)
                files.append(try #require(outcome.rejected).file)
            }
            #expect(Set(files.map(\.path)).count == 2)
            for (file, batch) in zip(files, batches) {
                #expect(try ItemCodec.items(Data(contentsOf: file)) == batch.items)
            }
            #expect(try queuedBatches(outbox).isEmpty)
            #expect(fileNames(in: outbox.directory).isEmpty)
        }
    }

    @Test(
        "with verifyAnswer a 200 that lacks an id sent fails as maybe saved, naming the id; the batch stays",
        arguments: [1, 0])
    func verifyLacking(kept: Int) async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(2, size: 2, in: root)
            let batch = try entry.loaded(outbox)[0]
            let outcome = try await client(scripted([savedAnswer(Array(batch.items.prefix(kept)))], log: RequestLog()))
                .deliver(batch, of: entry, outbox: outbox, verifyAnswer: true)
            let failed = try #require(outcome.failed)
            #expect(failed.mayHaveBeenSaved)
            guard case .invalidResponse(_, 200, _, _) = failed.error else {
                Issue.record("expected invalidResponse with status 200, got \(failed.error)")
                return
            }
            #expect(failed.error.description.contains(batch.items[1].id))
            #expect(try queuedBatches(outbox) == [try entry.loaded(outbox)])
        }
    }

    @Test("with verifyAnswer a 200 with as many items but another id is not a confirmation")
    func verifyWrongId() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(2, size: 2, in: root)
            let batch = try entry.loaded(outbox)[0]
            var other = batch.items[1]
            other.id = "SOMETHING-ELSE"
            let outcome = try await client(scripted([savedAnswer([batch.items[0], other])], log: RequestLog()))
                .deliver(batch, of: entry, outbox: outbox, verifyAnswer: true)
            #expect(try #require(outcome.failed).mayHaveBeenSaved)
            #expect(try queuedBatches(outbox) == [try entry.loaded(outbox)])
        }
    }

    @Test("without verifyAnswer a short 200 (a canned dummy answer) is taken as delivered")
    func noVerify() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(2, size: 2, in: root)
            let batch = try entry.loaded(outbox)[0]
            let short = Array(batch.items.prefix(1))
            let outcome = try await client(scripted([savedAnswer(short)], log: RequestLog()))
                .deliver(batch, of: entry, outbox: outbox, verifyAnswer: false)
            #expect(try #require(outcome.delivered) == short)
            #expect(try queuedBatches(outbox).isEmpty)
        }
    }

    @Test("with verifyAnswer an answer naming every id sent, in another order and with more items, is delivered")
    func verifyComplete() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(2, size: 2, in: root)
            let batch = try entry.loaded(outbox)[0]
            let answer: [Item] = Array(batch.items.reversed()) + [try numberedItems(5)[4]]
            let outcome = try await client(scripted([savedAnswer(answer)], log: RequestLog()))
                .deliver(batch, of: entry, outbox: outbox, verifyAnswer: true)
            #expect(try #require(outcome.delivered) == answer)
            #expect(try queuedBatches(outbox).isEmpty)
        }
    }
}
