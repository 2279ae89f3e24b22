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

    /// A job: it does its blocking work and returns how to hand over the outcome, which runs once the thread is
    /// counted idle again, so that whoever gets the outcome and asks again at once finds this thread waiting.
    typealias Job = @Sendable () -> @Sendable () -> Void

    private struct State {
        var jobs: [Job] = []
        /// The idle threads' wake-up calls, the most recently idle last: it is woken first, so one request after
        /// another runs on one thread (each thread's allocations go to an arena of its own, which keeps what it freed).
        var idle: [DispatchSemaphore] = []
        /// Threads started so far.
        var started = 0
    }

    private let state = Mutex(State())

    /// How many threads were started, and how many are idle now.
    var threads: (started: Int, idle: Int) { state.withLock { ($0.started, $0.idle.count) } }

    /// Runs `job` on the most recently idle thread, or on a new one when none is idle.
    func run(_ job: @escaping Job) {
        let idle = state.withLock { state -> DispatchSemaphore? in
            state.jobs.append(job)
            if let idle = state.idle.popLast() { return idle }
            state.started += 1
            return nil
        }
        if let idle {
            idle.signal()
        } else {
            let thread = Thread { [self] in work() }
            thread.stackSize = 512 << 10
            thread.start()
        }
    }

    /// A thread's life: a job, then the next one waiting or a wait for one (if another thread took the job it was
    /// woken for, it waits again).
    private func work() {
        // A write to a connection the server closed must fail (EPIPE), not end the process: OpenSSL writes with write(2),
        // and a program using the library may not ignore SIGPIPE as the command does. Blocked, the signal a write on
        // this thread raises stays pending on it.
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipe, nil)
        let wake = DispatchSemaphore(value: 0)
        func next() -> Job? {
            state.withLock { state in
                if !state.jobs.isEmpty { return state.jobs.removeFirst() }
                state.idle.append(wake)
                return nil
            }
        }
        var job = next()
        while true {
            guard let current = job else {
                wake.wait()
                job = next()
                continue
            }
            let handOver = current()
            job = next()
            handOver()
        }
    }
}
#endif
