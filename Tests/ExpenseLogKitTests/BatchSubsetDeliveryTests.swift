import ExpenseLogFormats
import ExpenseLogHTTP
import Foundation
import Testing

/// The ids a POST carried.
func sentIds(_ request: HTTPRequest) throws -> [String] {
    try bodyObjects(request).compactMap { $0["id"] as? String }
}

@Suite("Delivering only some items of a batch (those the server does not have yet)")
struct BatchSubsetDeliveryTests {
    @Test("a subset is POSTed alone under the narrowed key, and the whole batch leaves the outbox")
    func subsetDelivered() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(3, size: 3, in: root)
            let batch = try entry.loaded(outbox)[0]
            let subset = [batch.items[0], batch.items[2]]
            let log = RequestLog()
            let outcome = try await client(FakeSession.echo.recording(into: log))
                .deliver(batch, of: entry, sending: subset, outbox: outbox, verifyAnswer: true)
            #expect(try #require(outcome.delivered) == subset)
            let requests = await log.requests
            #expect(try requests.map(sentIds) == [subset.map(\.id)])
            #expect(requests.first?.headers["Idempotency-Key"] == batch.narrowed(to: subset).key)
            #expect(requests.first?.headers["Idempotency-Key"] != batch.key)
            #expect(try queuedBatches(outbox).isEmpty)
            #expect(fileNames(in: outbox.directory).isEmpty)
        }
    }

    @Test("sending the batch's own items sends it under its own key")
    func fullSubsetKeepsKey() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(2, size: 2, in: root)
            let batch = try entry.loaded(outbox)[0]
            let log = RequestLog()
            _ = try await client(FakeSession.echo.recording(into: log))
                .deliver(batch, of: entry, sending: batch.items, outbox: outbox, verifyAnswer: true)
            #expect(await log.requests.map { $0.headers["Idempotency-Key"] } == [batch.key])
        }
    }

    @Test("a failed subset keeps the whole batch queued, and the re-send repeats the narrowed key")
    func subsetResendRepeatsKey() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(3, size: 3, in: root)
            let batch = try entry.loaded(outbox)[0]
            let subset = Array(batch.items.suffix(2))
            let log = RequestLog()
            let api = try client(scripted([.status(500), .echo], log: log))
            let first = try await api.deliver(batch, of: entry, sending: subset, outbox: outbox, verifyAnswer: true)
            #expect(try #require(first.failed).mayHaveBeenSaved)
            #expect(try queuedBatches(outbox) == [[batch]], "the original batch, every item and its own key")
            let second = try await api.deliver(batch, of: entry, sending: subset, outbox: outbox, verifyAnswer: true)
            #expect(try #require(second.delivered) == subset)
            let keys = await log.requests.map { $0.headers["Idempotency-Key"] }
            #expect(keys == [batch.narrowed(to: subset).key, batch.narrowed(to: subset).key])
            #expect(try queuedBatches(outbox).isEmpty)
        }
    }

    @Test("verifyAnswer checks the items sent, not the whole batch")
    func verifyChecksSubset() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(3, size: 3, in: root)
            let batch = try entry.loaded(outbox)[0]
            let subset = [batch.items[1]]
            let outcome = try await client(scripted([savedAnswer(subset)], log: RequestLog()))
                .deliver(batch, of: entry, sending: subset, outbox: outbox, verifyAnswer: true)
            #expect(try #require(outcome.delivered) == subset)
            #expect(try queuedBatches(outbox).isEmpty)
        }
    }

    @Test("a subset answered without one of its ids stays queued as the whole batch")
    func verifySubsetLacking() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(3, size: 3, in: root)
            let batch = try entry.loaded(outbox)[0]
            let subset = [batch.items[0], batch.items[1]]
            let outcome = try await client(scripted([savedAnswer([batch.items[0]])], log: RequestLog()))
                .deliver(batch, of: entry, sending: subset, outbox: outbox, verifyAnswer: true)
            let failed = try #require(outcome.failed)
            #expect(failed.mayHaveBeenSaved)
            #expect(failed.error.description.contains(batch.items[1].id))
            #expect(try queuedBatches(outbox) == [[batch]])
        }
    }

    @Test("a refused subset puts only the items sent into rejected/, and the batch leaves the outbox")
    func subsetRejected() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(5, size: 3, in: root)
            let batch = try entry.loaded(outbox)[0]
            let subset = [batch.items[2]]
            let outcome = try await client(scripted([.status(422)], log: RequestLog()))
                .deliver(batch, of: entry, sending: subset, outbox: outbox, verifyAnswer: true)
            let file = try #require(outcome.rejected).file
            #expect(try ItemCodec.items(Data(contentsOf: file)) == subset)
            #expect(try queuedBatches(outbox) == [[try entry.loaded(outbox)[1]]])
        }
    }
}
