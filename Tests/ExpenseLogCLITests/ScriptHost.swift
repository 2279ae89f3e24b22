import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Resources/server/Code.gs`, unmodified, run by Node.js behind `Tests/ServerScript/host.js`, which imitates Apps Script's
/// services and HTTP (a 302 to an echo URL, 200 text/html for an exception) on a free loopback port: simultaneous
/// executions under a real script lock, a count and a latency per call, the time limit, Drive's trash, Sheets' cells.
final class ScriptHost: Sendable {
    let process: ChildProcess
    let port: Int

    private init(process: ChildProcess, port: Int) {
        (self.process, self.port) = (process, port)
    }

    /// The web app's `/exec` URL.
    var base: String { "http://127.0.0.1:\(port)/exec" }

    /// Starts a host (`--key SECRET` sets the script property that requires a key) and waits for its port.
    static func start(_ options: [String] = []) async throws -> ScriptHost {
        options.isEmpty ? try await spare() : try await launch(options)
    }

    /// The host started ahead for the next test that asks for a plain one, and another started for the one after: Node's
    /// start-up (about 70 ms of CPU) overlaps the test before instead of adding to it. The last spare exits with the
    /// test process, which closes its stdin.
    private static let nextSpare = Mutex<Task<ScriptHost, any Error>?>(nil)

    private static func spare() async throws -> ScriptHost {
        let taken = nextSpare.withLock { next in
            let taken = next ?? Task { try await launch([]) }
            next = Task { try await launch([]) }
            return taken
        }
        return try await taken.value
    }

    private static func launch(_ options: [String]) async throws -> ScriptHost {
        let host = CLI.packageRoot.appendingPathComponent("Tests/ServerScript/host.js").path
        let process = try ChildProcess(
            "/usr/bin/env", ["node", host, "--port", "0"] + options, stdin: .pipe, stdout: .pipe)
        // The first line is read on a thread of its own: a blocking read must not hold a thread of the cooperative pool.
        let port: Int = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                var line = Data()
                while !line.contains(0x0A), let chunk = process.output?.availableData, !chunk.isEmpty {
                    line.append(chunk)
                }
                let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) {
                    continuation.resume(returning: port)
                } else {
                    continuation.resume(
                        throwing: TestFailure(
                            "the script host did not start (is node installed? make test installs it): \(text)"))
                }
            }
        }
        return ScriptHost(process: process, port: port)
    }

    /// Ends the host: it exits when its stdin closes.
    func stop() {
        try? process.input?.close()
    }

    /// Every spreadsheet's sheets and cells, as the host holds them.
    func state() async throws -> [[String: Any]] {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/_control/state")!)
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
    }

    /// The rows of a month's sheet (the header first) as the sheet holds them, in the live book of that name if there is one.
    func rows(book: String, sheet: String) async throws -> [[Any]] {
        let named = try await state().filter { $0["name"] as? String == book }
        let found = named.first { $0["trashed"] as? Bool != true && $0["deleted"] as? Bool != true } ?? named.first
        let sheets = found?["sheets"] as? [[String: Any]] ?? []
        return sheets.first { $0["name"] as? String == sheet }?["cells"] as? [[Any]] ?? []
    }

    /// Types a value into a cell as a person would (Sheets retypes it unless the column is plain text).
    func type(book: String, sheet: String, row: Int, column: Int, _ value: String) async throws {
        try await control(
            "type",
            JSONSerialization.data(withJSONObject: [
                "book": book, "sheet": sheet, "row": row, "column": column, "value": value,
            ]))
    }

    /// The variables of a user (home in `home`) whose development environment is this web app.
    func environment(home: TemporaryDirectory) -> [String: String] {
        Samples.environment(home: home, ["EXPENSE_LOG_ENV": "development", "EXPENSE_LOG_BASE_URL": base])
    }

    /// Sets a column's number format (`General`: as the original app's sheets have it).
    func format(book: String, sheet: String, column: Int, _ format: String) async throws {
        try await control(
            "format",
            JSONSerialization.data(withJSONObject: ["book": book, "sheet": sheet, "column": column, "format": format]))
    }

    /// Takes the web app down (every connection dropped unanswered, nothing run) or brings it back.
    func setDown(_ down: Bool) async throws {
        try await control("down", Data((down ? "1" : "0").utf8))
    }

    /// Drops the answers of `count` POSTs once the script has run them, after answering `after` POSTs.
    func loseAnswers(_ count: Int, after: Int = 0) async throws {
        try await control("lose", Data("\(count)@\(after)".utf8))
    }

    /// Moves the live spreadsheet of that name to Drive's trash.
    func trash(book: String) async throws {
        try await control("trash", JSONSerialization.data(withJSONObject: ["book": book]))
    }

    /// Deletes the spreadsheet of that name for good (the live one, else the one in the trash), as Drive does 30 days after trashing.
    func deleteFile(book: String) async throws {
        try await control("delete-file", JSONSerialization.data(withJSONObject: ["book": book]))
    }

    /// Takes the spreadsheet of that name out of Drive's trash.
    func restore(book: String) async throws {
        try await control("restore", JSONSerialization.data(withJSONObject: ["book": book]))
    }

    /// Sets what each call to Sheets, Drive or the other services costs: virtual (added to the clock) or `real` (slept).
    func setLatency(ms: Int, real: Bool) async throws {
        try await control("latency", JSONSerialization.data(withJSONObject: ["ms": ms, "real": real] as [String: Any]))
    }

    /// Sets an execution's time limit (Apps Script's is 360,000 ms), for the executions running and to come.
    func setTimeLimit(ms: Int) async throws {
        try await control("time-limit", Data("\(ms)".utf8))
    }

    /// The executions finished so far, in the order they finished: handler, action, sheets, drive, other, elapsedMs, outcome, message.
    func executions() async throws -> [[String: Any]] {
        let (data, _) = try await URLSession.shared.data(
            from: URL(string: "http://127.0.0.1:\(port)/_control/executions")!)
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
    }

    /// Forgets the executions finished so far.
    func clearExecutions() async throws {
        try await control("executions", Data("clear".utf8))
    }

    /// Makes the next call of a method of that name (`getFormulas`…) throw `message`, as a failing Google service does
    /// (worded in the owner's language); `lose` makes a failing `flush` lose the writes Sheets had not applied yet.
    func failNext(_ method: String, message: String, lose: Bool = false) async throws {
        try await control(
            "fail",
            JSONSerialization.data(
                withJSONObject: ["method": method, "message": message, "lose": lose] as [String: Any]))
    }

    /// What a person does to a sheet's rows in Sheets' row menu.
    enum RowEdit: String { case deleteRows, insertRows }

    /// A person deletes or inserts `count` rows at `row`: now, or right after the next call of the method `after` by any
    /// execution (so that the edit lands between two calls of the script, the same way every run).
    func hand(_ edit: RowEdit, book: String, sheet: String, row: Int, count: Int = 1, after: String? = nil) async throws
    {
        var body: [String: Any] = ["book": book, "sheet": sheet, "op": edit.rawValue, "row": row, "count": count]
        if let after { body["after"] = after }
        try await control("hand", JSONSerialization.data(withJSONObject: body))
    }

    /// The owner makes a spreadsheet of that name in Drive.
    func createBook(_ name: String) async throws {
        try await control("create", JSONSerialization.data(withJSONObject: ["book": name]))
    }

    /// Freezes a sheet's top rows, as View › Freeze does.
    func freeze(book: String, sheet: String, rows: Int) async throws {
        try await control(
            "freeze",
            JSONSerialization.data(withJSONObject: ["book": book, "sheet": sheet, "rows": rows] as [String: Any]))
    }

    private func control(_ name: String, _ body: Data) async throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/_control/\(name)")!)
        request.httpMethod = "POST"
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        // A control that names no spreadsheet or sheet says so, rather than leave the test to wonder.
        if let status = (response as? HTTPURLResponse)?.statusCode, status >= 400 {
            throw TestFailure(
                "the script host refused /_control/\(name) (\(status)): \(String(decoding: data, as: UTF8.self))")
        }
    }

    /// How many POSTs reached the script.
    func posts() async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/_control/calls")!)
        return (try JSONSerialization.jsonObject(with: data) as? [String: Int])?["POST"] ?? 0
    }

    /// A raw request to `/exec`, its redirect followed as a browser would (a POST's answer is fetched with GET).
    func call(_ query: String = "", post body: String? = nil) async throws -> String {
        var request = URLRequest(url: URL(string: base + query)!)
        if let body {
            request.httpMethod = "POST"
            request.httpBody = Data(body.utf8)
        }
        let (data, _) = try await URLSession.shared.data(for: request)
        return String(decoding: data, as: UTF8.self)
    }
}

/// Runs a body with a fresh script host, stopped afterwards.
func withScriptHost<T>(_ options: [String] = [], _ body: (ScriptHost) async throws -> T) async throws -> T {
    let host = try await ScriptHost.start(options)
    defer { host.stop() }
    return try await body(host)
}

/// A fresh home and script host with the rows of `csv` registered through the binary, as most tests of the script start:
/// the body gets the host and the environment of a user whose development environment is its web app.
func withRegistered(
    _ csv: String, options: [String] = [], _ body: (ScriptHost, [String: String]) async throws -> Void
) async throws {
    let home = try TemporaryDirectory()
    defer { home.remove() }
    let file = try home.write("registered.csv", csv)
    try await withScriptHost(options) { host in
        let env = host.environment(home: home)
        let registered = try await CLI.run(["register", file], environment: env)
        #expect(registered.status == 0, "\(registered.stderr)")
        try await body(host, env)
    }
}
