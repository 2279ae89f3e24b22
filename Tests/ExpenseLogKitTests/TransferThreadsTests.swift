import Foundation
import Synchronization
import Testing

@testable import ExpenseLogHTTP

// Linux only: TransferThreads carries libcurl's transfers, which macOS does not use (URLSession does its own).
#if os(Linux)
/// A transfer that finds every thread busy gets a new one at once; a thread that is done waits for the next transfer.
@Suite struct TransferThreadsTests {
    /// Runs `count` jobs that block until released; returns once all have started.
    static func blocked(_ count: Int, on pool: TransferThreads, release: DispatchSemaphore) {
        let started = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            pool.run {
                started.signal(); release.wait(); return {}
            }
        }
        for _ in 0..<count { started.wait() }
    }

    @Test func twelveBlockedTransfersRunAtOnceAndTheirThreadsAreReused() async throws {
        let pool = TransferThreads(), release = DispatchSemaphore(value: 0)
        Self.blocked(12, on: pool, release: release)
        #expect(pool.threads.started == 12, "each transfer that found every thread busy started one")
        for _ in 0..<12 { release.signal() }
        // The threads go idle once their jobs return (waited for, up to ten seconds).
        for _ in 0..<1_000 where pool.threads.idle < 12 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(pool.threads.idle == 12)
        Self.blocked(12, on: pool, release: release)
        #expect(pool.threads.started == 12, "the idle threads took the next twelve")
        for _ in 0..<12 { release.signal() }
    }

    @Test func transfersOneAfterAnotherRunOnOneThread() {
        let pool = TransferThreads(), done = DispatchSemaphore(value: 0)
        let threads = Mutex<[UInt]>([])
        for _ in 0..<5 {
            pool.run {
                threads.withLock { $0.append(UInt(pthread_self())) }
                // Handed over as a transfer's outcome is: once the thread is counted idle again.
                return { done.signal() }
            }
            done.wait()
        }
        let seen = threads.withLock { $0 }
        #expect(seen.count == 5)
        #expect(Set(seen).count == 1, "the most recently idle thread is woken first")
        #expect(pool.threads.started == 1)
    }
}
#endif
