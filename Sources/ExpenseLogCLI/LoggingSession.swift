import ExpenseLogKit
import Foundation

/// `--verbose`: logs each request's method, URL, status, size and time on stderr, never headers or bodies.
struct LoggingSession: Session {
    let wrapped: any Session
    let log: any TextSink

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let clock = ContinuousClock()
        let start = clock.now
        let target = "\(request.method) \(APIError.redacted(request.url))"
        do {
            let response = try await wrapped.send(request)
            let redirected = response.url == request.url ? "" : " via \(APIError.redacted(response.url))"
            log.write("> \(target) -> \(response.status), \(request.body?.count ?? 0) bytes sent, "
                      + "\(response.body.count) bytes received in \(Self.milliseconds(clock.now - start)) ms\(redirected)\n")
            return response
        } catch {
            log.write("> \(target) -> failed after \(Self.milliseconds(clock.now - start)) ms\n")
            throw error
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
