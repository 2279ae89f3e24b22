import ExpenseLogClient
import ExpenseLogHTTP
import ExpenseLogImport
import ExpenseLogStore
import Foundation
import Testing

/// A session answering from a closure, so the client can be tested without a network.
struct FakeSession: Session {
    /// What the fake "server" does with each request.
    let answer: @Sendable (HTTPRequest) async throws -> HTTPResponse

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await answer(request)
    }

    /// Answers every request with this body and status.
    static func json(_ body: String, status: Int = 200) -> FakeSession {
        FakeSession { request in
            HTTPResponse(
                status: status, headers: ["content-type": "application/json"], body: Data(body.utf8), url: request.url)
        }
    }

    /// Fails every request with this error, as a transport would.
    static func failing(_ error: APIError) -> FakeSession {
        FakeSession { _ in throw error }
    }

    /// Answers with one of the package's `Resources/NAME.json` fixture files.
    static func fixture(_ name: String) -> FakeSession {
        FakeSession { request in
            let body = try Data(contentsOf: resources.appendingPathComponent("\(name).json"))
            return HTTPResponse(
                status: 200, headers: ["content-type": "application/json"], body: body, url: request.url)
        }
    }

    /// Fails every request loudly: what a test gets when it forgot to fake the network, never a real server.
    static let unmocked = FakeSession { request in
        Issue.record("unmocked network call: \(request.method) \(request.url)")
        throw APIError.network(url: request.url, reason: .other("unmocked network call"))
    }

    /// Answers a POST with the items it carried, as the server does when it saves them all.
    static let echo = FakeSession { request in
        HTTPResponse(status: 200, body: request.body ?? Data("[]".utf8), url: request.url)
    }

    /// The same answers, each request recorded in `log` first.
    func recording(into log: RequestLog) -> FakeSession {
        let answer = self.answer
        return FakeSession { request in
            await log.record(request)
            return try await answer(request)
        }
    }

    /// The package's `Resources` folder, found from this file's path.
    static let resources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ExpenseLogKitTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the package
        .appendingPathComponent("Resources", isDirectory: true)
}

/// The requests a fake session received, in order.
actor RequestLog {
    private(set) var requests: [HTTPRequest] = []

    /// Records a request and returns how many have been recorded so far (1 for the first).
    @discardableResult
    func record(_ request: HTTPRequest) -> Int {
        requests.append(request)
        return requests.count
    }
}
