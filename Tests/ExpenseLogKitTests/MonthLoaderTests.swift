import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import ExpenseLogUseCases
import Foundation
import Testing

/// Counts the requests being answered at once, and the most there ever were.
///
/// With `holdUntil: n`, requests wait until n have been in flight at once (or 10 s have passed), so a loader able to
/// reach its limit is always seen to, however late a busy machine runs its tasks: a fixed delay cannot promise that.
actor InFlight {
    private var now = 0
    private(set) var most = 0
    private(set) var started: [String] = []
    private let holdUntil: Int
    private var held: [CheckedContinuation<Void, Never>] = []
    private var deadline: Task<Void, Never>?
    private var open = false

    init(holdUntil: Int = 0) {
        self.holdUntil = holdUntil
    }

    func enter(_ url: URL) async {
        now += 1
        most = max(most, now)
        started.append(url.query ?? "")
        guard !open, most < holdUntil else { return release() }
        // A loader that never reaches the limit must fail the test's expectation, not hang it.
        if deadline == nil {
            deadline = Task {
                try? await Task.sleep(for: .seconds(10)); self.release()
            }
        }
        await withCheckedContinuation { held.append($0) }
    }

    func leave() { now -= 1 }

    /// Lets every held request go, and every later one through.
    private func release() {
        open = true
        deadline?.cancel()
        let waiting = held
        held = []
        for request in waiting { request.resume() }
    }
}

/// A fake server holding `items`, answering each GET with its month's items after `extraDelay` for that month.
func monthServer(
    _ items: [Item], inFlight: InFlight = InFlight(),
    extraDelay: @escaping @Sendable (Int) -> Duration = { _ in .zero }
) -> FakeSession {
    FakeSession { request in
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let year = query.first { $0.name == "year" }?.value.flatMap { Int($0) } ?? 0
        let month = query.first { $0.name == "month" }?.value.flatMap { Int($0) } ?? 0
        await inFlight.enter(request.url)
        try? await Task.sleep(for: extraDelay(month))
        await inFlight.leave()
        let body = ItemJSON.array(items.filter { $0.date.year == year && $0.date.month == month })
        return HTTPResponse(
            status: 200, headers: ["content-type": "application/json"], body: Data(body.utf8), url: request.url)
    }
}

/// The twelve months of 2024.
func months2024() throws -> [YearMonth] {
    try (1...12).map { try #require(YearMonth(year: 2024, month: $0)) }
}

@Suite("Loading months from the cache and the server")
struct MonthLoaderTests {
    static let fetchedAt = Date(timeIntervalSince1970: 1_705_900_000)

    @Test("a year is fetched a few months at a time, never more than the limit in flight", arguments: [1, 3, 5])
    func boundedConcurrency(limit: Int) async throws {
        try await withTemporaryDirectory { folder in
            let inFlight = InFlight(holdUntil: limit)
            let session = monthServer([], inFlight: inFlight)
            let loader = MonthLoader(
                client: try client(session), repository: LocalRepository(directory: folder), maxConcurrent: limit)
            let loaded = await loader.load(try months2024(), policy: .preferCache)
            #expect(loaded.map(\.source) == Array(repeating: .server, count: 12))
            #expect(await inFlight.started.count == 12)
            // No answer comes before `limit` requests are in flight, so the loader does reach its limit; it never passes it.
            #expect(await inFlight.most == limit)
        }
    }

    @Test("by default a year's twelve months and the month on each side (a statement's window) are asked for at once")
    func defaultLimit() async throws {
        try await withTemporaryDirectory { folder in
            let inFlight = InFlight(holdUntil: 14)
            let loader = MonthLoader(
                client: try client(monthServer([], inFlight: inFlight)),
                repository: LocalRepository(directory: folder))
            let around =
                [try #require(YearMonth(year: 2023, month: 12))] + (try months2024()) + [
                    try #require(YearMonth(year: 2025, month: 1))
                ]
            _ = await loader.load(around, policy: .preferCache)
            #expect(loader.maxConcurrent == 14)
            #expect(await inFlight.most == 14)
        }
    }

    @Test("results come in the order asked, whatever order the answers arrive in")
    func order() async throws {
        try await withTemporaryDirectory { folder in
            let items = try (1...6).map {
                Item(id: "\($0)", date: try day(2024, $0, 1), name: "m\($0)", price: $0, category: 0, categorySub: nil)
            }
            let session = monthServer(items, extraDelay: { .milliseconds(10 * (7 - $0)) })
            let months = Array(try months2024().prefix(6))
            let loaded = await MonthLoader(client: try client(session), repository: LocalRepository(directory: folder))
                .load(months, policy: .preferCache)
            #expect(loaded.map(\.month) == months)
            #expect(loaded.map { $0.items.map(\.id) } == (1...6).map { ["\($0)"] })
        }
    }

    @Test("preferCache: whole cached months are read, partial and missing ones fetched and cached as fetch does")
    func preferCache() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, february) = try cacheSamples()
            let repository = LocalRepository(directory: folder)
            try await repository.replaceMonth(try month("2024-01"), with: [a], fetchedAt: Self.fetchedAt)
            try await repository.add([february])  // registered from here: February is cached, but not whole
            let march = Item(id: "M", date: try day(2024, 3, 3), name: "本", price: 900, category: 1, categorySub: 2)
            let inFlight = InFlight()
            // The server also answers an item dated in another month, as the dummy fixtures do.
            let session = FakeSession { request in
                let answer = try await monthServer([a, b, february, march], inFlight: inFlight).send(request)
                guard request.url.query == "year=2024&month=3" else { return answer }
                return HTTPResponse(status: 200, body: Data(ItemJSON.array([march, a]).utf8), url: request.url)
            }
            let loaded = await MonthLoader(client: try client(session), repository: repository)
                .load([try month("2024-01"), try month("2024-02"), try month("2024-03")], policy: .preferCache)
            #expect(
                await inFlight.started.sorted() == ["year=2024&month=2", "year=2024&month=3"], "January is cached whole"
            )
            #expect(
                loaded[0]
                    == LoadedMonth(
                        month: try month("2024-01"), items: [a],
                        source: .cache(fetchedAt: Self.fetchedAt, complete: true)))
            #expect(loaded[1] == LoadedMonth(month: try month("2024-02"), items: [february], source: .server))
            #expect(
                loaded[2] == LoadedMonth(month: try month("2024-03"), items: [march], source: .server, outside: [a]))
            let cachedMarch = try #require(try await LocalRepository(directory: folder).month(try month("2024-03")))
            #expect(cachedMarch.isComplete && cachedMarch.items == [march])
            #expect(try await LocalRepository(directory: folder).month(try month("2024-02"))?.isComplete == true)
        }
    }

    @Test("a transient failure falls back to any cached copy, even a partial one; with none the month is missing")
    func transientFallback() async throws {
        try await withTemporaryDirectory { folder in
            let (_, _, february) = try cacheSamples()
            let repository = LocalRepository(directory: folder)
            try await repository.add([february])
            let refused = APIError.network(url: try url("https://example.com/exec"), reason: .refused)
            let loaded = await MonthLoader(client: try client(.failing(refused)), repository: repository)
                .load([try month("2024-02"), try month("2024-03")], policy: .preferCache)
            #expect(
                loaded[0]
                    == LoadedMonth(
                        month: try month("2024-02"), items: [february], source: .cache(fetchedAt: nil, complete: false),
                        fallback: .api(refused)))
            #expect(loaded[1].source == .missing(.api(refused)) && loaded[1].items.isEmpty)
            #expect(loaded[1].missing?.isTransient == true)
        }
    }

    @Test("a 401 is never hidden behind the cache")
    func permanentFailure() async throws {
        try await withTemporaryDirectory { folder in
            let (_, _, february) = try cacheSamples()
            let repository = LocalRepository(directory: folder)
            try await repository.add([february])
            let loaded = await MonthLoader(client: try client(.json("{}", status: 401)), repository: repository)
                .load([try month("2024-02")], policy: .preferCache)
            guard case .missing(.api(.httpStatus(_, 401, _))) = loaded[0].source else {
                Issue.record("expected a missing month with the 401, got \(loaded[0].source)")
                return
            }
            #expect(loaded[0].missing?.isTransient == false)
        }
    }

    @Test("refresh fetches months cached whole, and a failure never falls back")
    func refresh() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, _) = try cacheSamples()
            let repository = LocalRepository(directory: folder)
            try await repository.replaceMonth(try month("2024-01"), with: [a], fetchedAt: Self.fetchedAt)
            let inFlight = InFlight()
            let fresh = await MonthLoader(
                client: try client(monthServer([a, b], inFlight: inFlight)), repository: repository
            )
            .load([try month("2024-01")], policy: .refresh)
            #expect(await inFlight.started == ["year=2024&month=1"])
            #expect(fresh[0] == LoadedMonth(month: try month("2024-01"), items: [a, b], source: .server))

            let refused = APIError.network(url: try url("https://example.com/exec"), reason: .refused)
            let down = await MonthLoader(client: try client(.failing(refused)), repository: repository)
                .load([try month("2024-01")], policy: .refresh)
            #expect(down[0].source == .missing(.api(refused)))
        }
    }

    @Test("offline reads the cache only: nothing is sent, a month not cached is missing")
    func offline() async throws {
        try await withTemporaryDirectory { folder in
            let (a, _, _) = try cacheSamples()
            let repository = LocalRepository(directory: folder)
            try await repository.replaceMonth(try month("2024-01"), with: [a], fetchedAt: Self.fetchedAt)
            let inFlight = InFlight()
            let months = [try month("2024-01"), try month("2024-02")]
            let expected = [
                LoadedMonth(month: months[0], items: [a], source: .cache(fetchedAt: Self.fetchedAt, complete: true)),
                LoadedMonth(month: months[1], items: [], source: .missing(.notCached(months[1]))),
            ]
            #expect(
                await MonthLoader(client: try client(monthServer([a], inFlight: inFlight)), repository: repository)
                    .load(months, policy: .offline) == expected)
            #expect(await inFlight.started.isEmpty)
            // Without a client every policy reads the cache only.
            #expect(
                await MonthLoader(client: nil, repository: repository).load(months, policy: .preferCache) == expected)
        }
    }

    @Test("a cache that cannot be written still gives the server's items, with the write failure")
    func unwritableCache() async throws {
        try await withTemporaryDirectory { folder in
            let (a, _, _) = try cacheSamples()
            let cache = folder.appendingPathComponent("cache")
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            try makeUnwritable(cache)
            defer { restoreWritable(cache) }
            let loaded = await MonthLoader(
                client: try client(monthServer([a])), repository: LocalRepository(directory: cache)
            )
            .load([try month("2024-01")], policy: .preferCache)
            #expect(loaded[0].source == .server && loaded[0].items == [a])
            #expect(loaded[0].cacheFailure != nil)
        }
    }
}
