import ExpenseLogModel
import ExpenseLogStore
import Foundation
import TestSupport
import Testing

/// Test data and the environment of a user with an empty home.
enum Samples {
    static func item(
        _ id: String, _ date: String, _ name: String, _ price: Int, category: Int = 0, sub: Int? = 1
    ) -> Item {
        Item(id: id, date: Day(parsing: date)!, name: name, price: price, category: category, categorySub: sub)
    }

    /// Three January and one February item.
    static let seed: [Item] = [
        item("A1", "20240105", "コーヒー", 178),
        item("A2", "20240115", "ラーメン", 1500, sub: 0),
        item("A3", "20240131", "映画", 1800, category: 1, sub: nil),
        item("B1", "20240201", "紅茶", 200),
    ]

    /// A CSV of `count` valid rows dated in March 2024.
    static func csv(rows count: Int, prefix: String = "C") -> String {
        var text = "id,date,name,price,category,categorySub\n"
        for n in 1...count {
            text += "\(prefix)\(n),202403\(String(format: "%02d", n % 28 + 1)),\(prefix) item \(n),\(n * 10),0,1\n"
        }
        return text
    }

    /// The variables of a user whose home (and so config, cache, state) is a fresh folder.
    static func environment(home: TemporaryDirectory, _ extra: [String: String] = [:]) -> [String: String] {
        ["HOME": home.url.path, "EXPENSE_LOG_HOME": home.url.appendingPathComponent("expense-log").path]
            .merging(extra) { _, new in new }
    }

    /// A base URL on loopback where every connection is refused for the whole test run.
    static func refusedBaseURL() throws -> String {
        "http://127.0.0.1:\(try closedPort())/exec"
    }

    /// A development-environment user pointed at a port where nothing listens.
    static func offlineEnvironment(home: TemporaryDirectory) throws -> [String: String] {
        environment(home: home, ["EXPENSE_LOG_ENV": "development", "EXPENSE_LOG_BASE_URL": try refusedBaseURL()])
    }

    /// The cache folder of the server an environment points at (the cache is kept per server).
    static func cacheFolder(home: TemporaryDirectory, _ env: [String: String]) throws -> URL {
        let base = try #require(env["EXPENSE_LOG_BASE_URL"].flatMap(URL.init(string:)))
        return home.url.appendingPathComponent("expense-log/cache/development/\(CacheFolder.name(for: base))")
    }

    /// A development-environment user pointed at a server.
    static func environment(
        home: TemporaryDirectory, server: ReferenceServer, _ extra: [String: String] = [:]
    ) -> [String: String] {
        environment(
            home: home,
            ["EXPENSE_LOG_ENV": "development", "EXPENSE_LOG_BASE_URL": server.base].merging(extra) { _, new in new })
    }
}

extension Samples {
    /// Text encoded as CP932 by Python's codec, so the encoder is not the decoder under test.
    static func shiftJIS(_ text: String) throws -> Data {
        try encoded(text, as: "cp932")
    }

    /// Text encoded by Python's codec of that name (`cp932`, `utf-8`, `utf-8-sig`).
    static func encoded(_ text: String, as codec: String) throws -> Data {
        let process = try ChildProcess(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode('utf-8').encode(sys.argv[1]))",
                codec,
            ],
            stdin: .pipe, stdout: .pipe)
        process.input?.write(Data(text.utf8))
        try process.input?.close()
        let data = process.output?.readDataToEndOfFile() ?? Data()
        guard process.waitBlocking() == 0 else { throw TestFailure("python3 could not encode the text as \(codec)") }
        return data
    }
}
