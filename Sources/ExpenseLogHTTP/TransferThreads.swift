// Linux only: the threads the libcurl transport blocks on (CurlSession); macOS uses URLSession.
#if os(Linux)
import Foundation
import Synchronization

/// Threads for blocking transfers: one more whenever every thread is busy, and each kept, idle, for the next transfer.
///
/// A thread started for every request cost a large import four hundred thread starts and exits; a Dispatch queue
/// reuses threads but, on Linux, adds one only about once a second when all are blocked, which turned twelve
/// concurrent month requests into four rounds. Never the cooperative pool's threads: a transfer blocks.
final class TransferThreads: Sendable {
    /// The threads of this process.
    static let shared = TransferThreads()

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        /// Threads waiting for a job, or about to: each is woken once, by one `ready.signal()`.
        var idle = 0
        /// Threads started so far.
        var started = 0
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)

    /// How many threads were started, and how many are idle now.
    var threads: (started: Int, idle: Int) { state.withLock { ($0.started, $0.idle) } }

    /// Runs `job` on an idle thread, or on a new one when none is idle.
    func run(_ job: @escaping @Sendable () -> Void) {
        let wakes = state.withLock { state in
            state.jobs.append(job)
            guard state.idle > 0 else {
                state.started += 1
                return false
            }
            state.idle -= 1
            return true
        }
        if wakes {
            ready.signal()
        } else {
            let thread = Thread { [self] in work() }
            thread.stackSize = 512 << 10
            thread.start()
        }
    }

    /// A thread's life: the jobs waiting, then a wait for the next.
    private func work() {
        while true {
            let job = state.withLock { state -> (@Sendable () -> Void)? in
                if !state.jobs.isEmpty { return state.jobs.removeFirst() }
                state.idle += 1
                return nil
            }
            if let job {
                job()
            } else {
                ready.wait()
            }
        }
    }
}
#endif
