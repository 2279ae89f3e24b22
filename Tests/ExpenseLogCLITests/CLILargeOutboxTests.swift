import ExpenseLogClient
import ExpenseLogModel
import ExpenseLogStore
import Foundation
import Testing

/// An outbox of a large offline import is read a batch at a time: `pending` and `sync` stay flat in memory (measured by
/// the kernel from outside the process), however many items wait.
@Suite struct CLILargeOutboxTests {
    static let itemCount = 120_000

    /// Two entries of `count` items in all, over the twelve months of 2024, queued as `register` queues them.
    static func queueLargeOutbox(in home: TemporaryDirectory, count: Int = itemCount) throws {
        let outbox = Journal(directory: home.url.appendingPathComponent("expense-log/state/development/journal"))
        for part in 0..<2 {
            let items = (0..<count / 2).map { n in
                Samples.item(
                    "L\(part)-\(n)", "2024\(String(format: "%02d", n % 12 + 1))\(String(format: "%02d", n % 28 + 1))",
                    "ラーメン \(n)", n % 5000 + 1)
            }
            try outbox.append(OutboxBatch.split(items, size: 500))
        }
    }

    /// One outbox, queued once, read by both: `pending` lists every item, and an offline `sync` reads every entry before it
    /// finds it cannot send.
    @Test func pendingAndSyncReadALargeOutboxInFlatMemory() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try Self.queueLargeOutbox(in: home)
        let offline = try Samples.offlineEnvironment(home: home)
        let (result, peak) = try await CLI.runMeasured(["pending", "--format", "ndjson"], environment: offline)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == Self.itemCount)
        #expect(
            lines.first?.contains("\"id\":\"L0-0\"") == true
                && lines.last?.contains("\"id\":\"L1-\(Self.itemCount / 2 - 1)\"") == true)
        #expect(
            result.stderr.contains("\(PriceText.format(Self.itemCount)) items in 240 batches wait")
                || result.stderr.contains("\(Self.itemCount) items in 240 batches wait"), "\(result.stderr)")
        #expect(peak < 80, "pending: peak RSS \(peak) MiB")

        let (sync, syncPeak) = try await CLI.runMeasured(["sync", "--retries", "0"], environment: offline)
        #expect(sync.status == 75, "\(sync.stderr)")
        #expect(sync.stderr.contains("Nothing was sent: 2024-01 must be read from the server first"), "\(sync.stderr)")
        #expect(sync.stderr.contains("\(Self.itemCount) items remain in the outbox"), "\(sync.stderr)")
        #expect(syncPeak < 80, "sync: peak RSS \(syncPeak) MiB")
    }

    /// The whole send path: every month read, every batch read back, sent, confirmed and kept to print and cache.
    @Test func syncSendsALargeOutboxInFlatMemory() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let count = 60_000
        try Self.queueLargeOutbox(in: home, count: count)
        try await withServer { server in
            let (result, peak) = try await CLI.runMeasured(
                ["sync", "--format", "ndjson"], environment: Samples.environment(home: home, server: server))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").count == count)
            #expect(result.stderr.contains("Sent \(count) items in 120 requests"), "\(result.stderr)")
            #expect(try await server.items().count == count)
            #expect(peak < 80, "peak RSS \(peak) MiB")
        }
    }
}
