import ExpenseLogClient
import ExpenseLogHTTP
import ExpenseLogStore
import Foundation
import Testing

@Suite("Batches and the classification of failures")
struct DeliveryTests {
    @Test(
        "split keeps every item in order, in batches of at most size, the last one holding the rest",
        arguments: [
            (0, 3, [Int]()), (1, 3, [1]), (3, 3, [3]), (7, 3, [3, 3, 1]), (6, 2, [2, 2, 2]), (4, 1, [1, 1, 1, 1]),
        ])
    func split(count: Int, size: Int, sizes: [Int]) throws {
        let items = try numberedItems(count)
        let batches = OutboxBatch.split(items, size: size)
        #expect(batches.map(\.items.count) == sizes)
        #expect(batches.flatMap(\.items) == items)
    }

    @Test("split gives every batch its own key, an uppercase UUID")
    func splitKeys() throws {
        let batches = OutboxBatch.split(try numberedItems(10), size: 2)
        let keys = batches.map(\.key)
        #expect(Set(keys).count == 5)
        #expect(keys.allSatisfy { UUID(uuidString: $0) != nil && $0 == $0.uppercased() })
    }

    @Test("split never loops or drops items for a size below 1", arguments: [0, -3])
    func splitTinySize(size: Int) throws {
        let items = try numberedItems(3)
        let batches = OutboxBatch.split(items, size: size)
        #expect(batches.map(\.items.count) == [1, 1, 1])
        #expect(batches.flatMap(\.items) == items)
    }

    @Test("splitting the same items twice makes new keys (a new register is a new request)")
    func splitFreshKeys() throws {
        let items = try numberedItems(2)
        #expect(OutboxBatch.split(items, size: 2).first?.key != OutboxBatch.split(items, size: 2).first?.key)
    }

    @Test("a batch narrowed to fewer items carries exactly those items under a new key, an uppercase UUID")
    func narrowedItemsAndKey() throws {
        let batch = try oneBatch(3)
        let narrowed = batch.narrowed(to: [batch.items[0], batch.items[2]])
        #expect(narrowed.items == [batch.items[0], batch.items[2]])
        #expect(narrowed.key != batch.key)
        #expect(UUID(uuidString: narrowed.key) != nil && narrowed.key == narrowed.key.uppercased(), "\(narrowed.key)")
    }

    @Test("narrowing is deterministic: the same key and ids give the same key, even from another copy of the batch")
    func narrowedKeyRepeats() throws {
        let batch = try oneBatch(3)
        let copy = OutboxBatch(key: batch.key, items: batch.items)
        let subset = Array(batch.items.prefix(2))
        #expect(batch.narrowed(to: subset).key == batch.narrowed(to: subset).key)
        #expect(copy.narrowed(to: subset) == batch.narrowed(to: subset))
    }

    @Test("other ids, or another original key, give another narrowed key")
    func narrowedKeyDiffers() throws {
        let batch = try oneBatch(3)
        let keys = [
            batch.narrowed(to: [batch.items[0]]).key,
            batch.narrowed(to: [batch.items[1]]).key,
            batch.narrowed(to: [batch.items[0], batch.items[1]]).key,
            batch.narrowed(to: [batch.items[1], batch.items[2]]).key,
            OutboxBatch(key: UUID().uuidString, items: batch.items).narrowed(to: [batch.items[0]]).key,
        ]
        #expect(Set(keys).count == keys.count, "\(keys)")
        #expect(!keys.contains(batch.key))
    }

    @Test("narrowing to the items a batch already has changes nothing: same batch, same key")
    func narrowedUnchanged() throws {
        let batch = try oneBatch(3)
        #expect(batch.narrowed(to: batch.items) == batch)
    }

    static let base = URL(string: "https://example.com/exec")!

    @Test(
        "transient failures may pass by themselves: network failures other than TLS and redirects, 429 and 5xx",
        arguments: [
            (APIError.network(url: base, reason: .refused), true),
            (.network(url: base, reason: .timedOut), true),
            (.network(url: base, reason: .hostNotFound), true),
            (.network(url: base, reason: .offline), true),
            (.network(url: base, reason: .connectionLost), true),
            (.network(url: base, reason: .other("reset")), true),
            (.network(url: base, reason: .tls("expired")), false),
            (.network(url: base, reason: .redirect("loop")), false),
            (.httpStatus(url: base, status: 429, snippet: ""), true),
            (.httpStatus(url: base, status: 500, snippet: ""), true),
            (.httpStatus(url: base, status: 503, snippet: ""), true),
            (.httpStatus(url: base, status: 599, snippet: ""), true),
            (.httpStatus(url: base, status: 400, snippet: ""), false),
            (.httpStatus(url: base, status: 401, snippet: ""), false),
            (.httpStatus(url: base, status: 404, snippet: ""), false),
            (.httpStatus(url: base, status: 302, snippet: ""), false),
            (.invalidResponse(url: base, status: 200, reason: "HTML", snippet: ""), false),
            (.fixtureUnreadable(path: "/f", reason: "missing"), false),
            (.invalidMonth(year: 2024, month: 13), false),
        ])
    func transient(error: APIError, expected: Bool) {
        #expect(error.isTransient == expected)
    }

    @Test(
        "retryable failures are the contract's list: connection failures, timeouts, 429, 502, 503, 504",
        arguments: [
            (APIError.network(url: base, reason: .refused), true),
            (.network(url: base, reason: .timedOut), true),
            (.network(url: base, reason: .connectionLost), true),
            (.network(url: base, reason: .offline), true),
            (.network(url: base, reason: .tls("expired")), false),
            (.network(url: base, reason: .redirect("loop")), false),
            (.httpStatus(url: base, status: 429, snippet: ""), true),
            (.httpStatus(url: base, status: 502, snippet: ""), true),
            (.httpStatus(url: base, status: 503, snippet: ""), true),
            (.httpStatus(url: base, status: 504, snippet: ""), true),
            (.httpStatus(url: base, status: 500, snippet: ""), false),
            (.httpStatus(url: base, status: 501, snippet: ""), false),
            (.httpStatus(url: base, status: 408, snippet: ""), false),
            (.httpStatus(url: base, status: 404, snippet: ""), false),
            (.invalidResponse(url: base, status: 200, reason: "HTML", snippet: ""), false),
            (.invalidMonth(year: 2024, month: 0), false),
        ])
    func retryable(error: APIError, expected: Bool) {
        #expect(error.isRetryable == expected)
    }

    @Test("every retryable failure is also transient (a retry never helps what cannot pass by itself)")
    func retryableImpliesTransient() {
        let errors: [APIError] =
            [
                NetworkFailure.refused, .timedOut, .hostNotFound, .offline, .connectionLost,
                .tls("x"), .redirect("x"), .other("x"),
            ].map { .network(url: Self.base, reason: $0) }
            + (100...599).map { .httpStatus(url: Self.base, status: $0, snippet: "") }
        let violations = errors.filter { $0.isRetryable && !$0.isTransient }
        #expect(violations.isEmpty, "\(violations)")
    }
}
