// macOS only: on Linux the live transport is libcurl (CurlSession), and FoundationNetworking is not linked at all.
#if !os(Linux)
import Foundation
import Synchronization

/// The URLSession delegate of `URLSessionSession`: it stops URLSession from following redirects (the session
/// follows them itself), and gathers each task's answer with a cap on its size, so an endless answer is cut off
/// at the cap instead of filling memory.
final class TaskCollector: NSObject, URLSessionDataDelegate, Sendable {
    /// How a task ended.
    enum Outcome: Sendable {
        case answered(HTTPURLResponse, Data)
        case failed(any Error)
        case tooLarge(limit: Int)
        case timedOut
    }

    private struct Pending {
        var limit: Int
        var response: HTTPURLResponse?
        var body = Data()
        var finish: CheckedContinuation<Outcome, Never>?
    }

    /// The tasks in flight, by identifier: delegate calls arrive on URLSession's queue, not in any task of ours.
    private let pending = Mutex<[Int: Pending]>([:])

    /// Runs a task and returns how it ended; the task is cancelled at the deadline, or once its body passes `limit`.
    ///
    /// FoundationNetworking queues every piece libcurl reads for the delegate with no back-pressure, so a fast endless
    /// answer can pile up in that queue before `didReceive` sees the limit passed: the curl transport, which checks as
    /// each piece arrives, is the one that bounds memory strictly. (`countOfBytesReceived` would be counted before
    /// that queue, but reading it waits on URLSession's own queue, which spins while a transfer runs.)
    func run(_ task: URLSessionDataTask, limit: Int, deadline: Duration) async -> Outcome {
        let end =
            DispatchTime.now()
            + .nanoseconds(
                Int(deadline.components.seconds) * 1_000_000_000
                    + Int(deadline.components.attoseconds / 1_000_000_000))
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending.withLock { $0[task.taskIdentifier] = Pending(limit: limit, finish: continuation) }
                task.resume()
                watch(task, until: end)
            }
        } onCancel: {
            finish(task.taskIdentifier, .failed(CancellationError()), cancelling: task)
        }
    }

    /// Ends the task at its deadline, on Dispatch's threads: a timer on Swift's cooperative pool could be held up by
    /// whatever else the process runs there.
    private func watch(_ task: URLSessionDataTask, until end: DispatchTime) {
        DispatchQueue.global().asyncAfter(deadline: end) { [self] in
            finish(task.taskIdentifier, .timedOut, cancelling: task)
        }
    }

    /// Ends a task once: the first of completion, timeout and overflow wins.
    private func finish(_ identifier: Int, _ outcome: Outcome, cancelling task: URLSessionTask? = nil) {
        let continuation = pending.withLock { $0.removeValue(forKey: identifier)?.finish }
        guard let continuation else { return }
        task?.cancel()
        continuation.resume(returning: outcome)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        pending.withLock { $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let identifier = dataTask.taskIdentifier
        let over = pending.withLock { tasks -> Int? in
            // Appended in place, never through a copy of the entry: a copy would copy the body with every piece.
            guard let limit = tasks[identifier]?.limit, let count = tasks[identifier]?.body.count else { return nil }
            guard count + data.count <= limit else { return limit }
            tasks[identifier]?.body.append(data)
            return nil
        }
        if let over { finish(dataTask.taskIdentifier, .tooLarge(limit: over), cancelling: dataTask) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let entry = pending.withLock { $0[task.taskIdentifier] }
        guard let entry else { return }
        if let error {
            finish(task.taskIdentifier, .failed(error))
        } else if let response = entry.response {
            finish(task.taskIdentifier, .answered(response, entry.body))
        } else {
            finish(task.taskIdentifier, .failed(URLError(.badServerResponse)))
        }
    }
}
#endif
