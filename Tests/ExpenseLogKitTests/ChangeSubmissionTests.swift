import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import ExpenseLogUseCases
import Foundation
import Testing

/// `edit` and `delete` as a use case, in-process over a fake server: a change is queued and the cache shows it made,
/// then the queue goes out in order when the server can be asked and no other run holds the sync lock.
@Suite struct ChangeSubmissionTests {
    static func item(_ id: String, price: Int = 178) throws -> Item {
        Item(
            id: id, date: try #require(Day(year: 2024, month: 1, day: 5)), name: "コーヒー", price: price, category: 0,
            categorySub: 1)
    }

    /// A submission over the pending writes, a cache holding A and B (from a server known to be the bundled script), and
    /// `session`, in a fresh folder.
    func withSubmission(_ session: FakeSession, _ body: (ChangeSubmission, URL) async throws -> Void) async throws {
        try await withTemporaryDirectory { root in
            let repository = LocalRepository(directory: root.appendingPathComponent("cache"))
            try await repository.replaceMonth(
                try #require(YearMonth(year: 2024, month: 1)), with: [try Self.item("A"), try Self.item("B")],
                fetchedAt: Date())
            try await repository.saveServerInfo(
                ServerInfo(app: "expense-log", version: 2, actions: ["info", "delete", "update"]))
            let client = ExpenseLogAPIClient(
                session: session, baseURL: URL(string: "https://example.com/exec")!,
                retryPolicy: RetryPolicy(maxRetries: 0), sleep: { _ in })
            let sync = JournalSending(
                client: client, repository: repository,
                journal: Journal(directory: root.appendingPathComponent("journal")),
                policy: ResendPolicy(configured: .appsScript, isDefault: true), verifyAnswers: true)
            try await body(ChangeSubmission(sync: sync), root)
        }
    }

    /// Submits `change` with a fresh record of what the server saves.
    func submit(
        _ submission: ChangeSubmission, _ change: QueuedEdit.Change, reachable: Bool
    ) async throws -> SubmittedEdit {
        var saved = try SavedItems()
        return try await submission.submit(change, reachable: reachable, saved: &saved)
    }

    @Test func anUnreachableServerLeavesTheChangeQueuedAndTheCacheShowingItMade() async throws {
        try await withSubmission(.unmocked) { submission, _ in
            let submitted = try await submit(submission, .delete([try Self.item("A")]), reachable: false)
            guard case .waiting(let own) = submitted else { Issue.record("\(submitted)"); return }
            #expect(try submission.sync.journal.listing().changes.map(\.file) == [own.file])
            #expect(try await submission.sync.repository.cachedMonths().flatMap(\.items).map(\.id) == ["B"])
        }
    }

    @Test func aReachableServerIsSentTheWholeQueueInOrder() async throws {
        let log = RequestLog()
        let session = FakeSession { request in
            let body = try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any]
            let answer: String
            if body?["action"] as? String == "delete" {
                answer = #"{"deleted":["A"],"missing":[]}"#
            } else {
                answer = #"{"id":"B","date":"20240105","name":"コーヒー","price":200,"category":0,"categorySub":1}"#
            }
            return HTTPResponse(status: 200, body: Data(answer.utf8), url: request.url)
        }.recording(into: log)
        try await withSubmission(session) { submission, _ in
            _ = try await submit(submission, .delete([try Self.item("A")]), reachable: false)
            let submitted = try await submit(
                submission,
                .update(
                    item: try Self.item("B"), changed: try Self.item("B", price: 200),
                    fields: [.price]), reachable: true)
            guard case let .sent(_, result) = submitted, case let .sent(outcome, blocker, behind) = result.edits else {
                Issue.record("\(submitted)")
                return
            }
            #expect(result.items == nil, "no item waited: no month is read")
            #expect(behind == 0)
            #expect(blocker == nil && outcome.stop == nil && outcome.delivered.count == 2)
            let actions = await log.requests.compactMap { request in
                ((try? JSONSerialization.jsonObject(with: request.body ?? Data())) as? [String: Any])?["action"]
                    as? String
            }
            #expect(actions == ["delete", "update"], "the older change first")
            #expect(try submission.sync.journal.listing().changes.isEmpty)
        }
    }

    @Test func anEditOfAnItemWaitingToBeRegisteredIsSentAfterIt() async throws {
        let log = RequestLog()
        let waiting = Item(
            id: "W", date: try #require(Day(year: 2024, month: 2, day: 3)), name: "たこ焼き", price: 600, category: 0,
            categorySub: nil)
        let changed = Item(id: "W", date: waiting.date, name: "たこ焼き", price: 650, category: 0, categorySub: nil)
        let session = FakeSession { request in
            if request.method == "GET" { return HTTPResponse(status: 200, body: Data("[]".utf8), url: request.url) }
            let body = try JSONSerialization.jsonObject(with: request.body ?? Data())
            if body is [Any] { return HTTPResponse(status: 200, body: request.body ?? Data(), url: request.url) }
            return HTTPResponse(status: 200, body: Data(ItemJSON.object(changed).utf8), url: request.url)
        }.recording(into: log)
        try await withSubmission(session) { submission, _ in
            try submission.sync.journal.append([OutboxBatch(key: "K1", items: [waiting])])
            let targets = EditTargets(
                repository: submission.sync.repository, queued: [], journal: submission.sync.journal)
            let found = try await targets.matches(["W"]).matches
            guard case .one(let item, named: false) = found.first else { Issue.record("\(found)"); return }
            #expect(item == waiting, "an item waiting in the outbox is found")
            let submitted = try await submit(
                submission, .update(item: waiting, changed: changed, fields: [.price]), reachable: true)
            guard case let .sent(_, result) = submitted, case let .sent(outcome, _, behind) = result.edits else {
                Issue.record("\(submitted)")
                return
            }
            #expect(result.items?.sent == 1 && behind == 0 && outcome.delivered.count == 1)
            let kinds = await log.requests.map { request -> String in
                guard request.method == "POST" else { return "GET" }
                let body = try? JSONSerialization.jsonObject(with: request.body ?? Data())
                return body is [Any] ? "register" : ((body as? [String: Any])?["action"] as? String ?? "?")
            }
            #expect(kinds == ["GET", "register", "update"], "the month is read, the item registered, then edited")
            #expect(try submission.sync.journal.listing().isEmpty)
        }
    }

    @Test func anEditWaitsBehindItsItemWhileTheItemCannotBeSent() async throws {
        let waiting = Item(
            id: "W", date: try #require(Day(year: 2024, month: 2, day: 3)), name: "たこ焼き", price: 600, category: 0,
            categorySub: nil)
        let session = FakeSession { request in
            if request.method == "GET" { return HTTPResponse(status: 200, body: Data("[]".utf8), url: request.url) }
            throw APIError.network(url: request.url, reason: .timedOut)
        }
        try await withSubmission(session) { submission, _ in
            try submission.sync.journal.append([OutboxBatch(key: "K1", items: [waiting])])
            let changed = Item(id: "W", date: waiting.date, name: "たこ焼き", price: 650, category: 0, categorySub: nil)
            let submitted = try await submit(
                submission, .update(item: waiting, changed: changed, fields: [.price]), reachable: true)
            guard case let .sent(_, result) = submitted, case .stoppedWithItems(1) = result.edits else {
                Issue.record("\(submitted)")
                return
            }
            let writes = try submission.sync.journal.listing().entries
            #expect(
                writes.map { if case .items = $0 { "items" } else { "edit" } } == ["items", "edit"],
                "both wait, in their order")
        }
    }

    @Test func changesAreReadyUpToTheFirstThatTouchesAnItemStillWaitingBeforeThem() async throws {
        try await withTemporaryDirectory { root in
            let journal = Journal(directory: root.appendingPathComponent("journal"))
            let (a, w, b) = (try Self.item("A"), try Self.item("W"), try Self.item("B"))
            // The item is journaled first with a clock an hour ahead, the changes after it with the clock set back: the
            // sequence keeps the order they were made in.
            let entry = try journal.append(
                [OutboxBatch(key: "K1", items: [w])], now: Date().addingTimeInterval(3600))
            let first = try journal.append(.delete([a]), now: Date(timeIntervalSince1970: 0))
            let second = try journal.append(
                .update(item: w, changed: try Self.item("W", price: 200), fields: [.price]),
                now: Date(timeIntervalSince1970: 0))
            let third = try journal.append(.delete([b]), now: Date(timeIntervalSince1970: 0))
            let listed = try journal.listing()
            #expect(listed.entries.map(\.file) == [entry.file, first.file, second.file, third.file])
            let (ready, behind) = try journal.ready(listed.changes, among: listed.itemEntries)
            #expect(ready.map(\.file) == [first.file] && behind == 2, "B's deletion does not overtake W's change")
            #expect(
                try journal.ready([first, third], among: listed.itemEntries).behind == 0,
                "changes of other items do not wait")
            // Rows a sync holds back from an entry wait in its place: W's change still waits behind them.
            let (held, lock) = try #require(try journal.hold(entry))
            try journal.append([OutboxBatch(key: "K2", items: [w])], inPlaceOf: held)
            try journal.markSent("K1", in: held)
            let after = try journal.listing()
            #expect(after.itemEntries.count == 1 && after.itemEntries[0].file != entry.file)
            #expect(try journal.ready(after.changes, among: after.itemEntries).ready.map(\.file) == [first.file])
            // An entry named after the change (queued by an earlier version, by a clock set back) still holds W: the
            // change waits behind it wherever it stands.
            lock.release()
            let late = try journal.append([OutboxBatch(key: "K3", items: [w])])
            let (held2, lock2) = try #require(try journal.hold(after.itemEntries[0]))
            try journal.markSent("K2", in: held2)
            lock2.release()
            let withLate = try journal.listing()
            #expect(withLate.itemEntries.map(\.file) == [late.file])
            #expect(try journal.ready(withLate.changes, among: withLate.itemEntries).ready.map(\.file) == [first.file])
            // A file that cannot be read may hold any item or change: what was made after it waits.
            try Data("{".utf8).write(to: second.file)
            #expect(try journal.listing().sendableChanges.map(\.file) == [first.file])
            #expect(try journal.listing().blocker?.contains(second.file.path) == true)
        }
    }

    @Test func anotherRunHoldingTheSyncLockLeavesTheChangeForIt() async throws {
        try await withSubmission(.unmocked) { submission, _ in
            let held: SubmittedEdit? = try await FileLock.withLockIfFree(submission.sync.journal.lock) {
                // Another open of the lock file is another holder to flock, as another process is.
                try await submit(submission, .delete([try Self.item("A")]), reachable: true)
            }
            guard case .busy? = held else { Issue.record("\(String(describing: held))"); return }
            #expect(try submission.sync.journal.listing().changes.count == 1)
        }
    }
}

/// What `edit` and `delete` look up before anything is sent: the items, as the queue leaves the cache, and whether the
/// server takes the action.
@Suite struct EditTargetsTests {
    @Test func itemsAreFoundAsTheQueueLeavesTheCacheAndTheFirstMissingIdIsNamed() async throws {
        try await withTemporaryDirectory { root in
            let repository = LocalRepository(directory: root.appendingPathComponent("cache"))
            let (a, b) = (try ChangeSubmissionTests.item("00123"), try ChangeSubmissionTests.item("B"))
            try await repository.replaceMonth(
                try #require(YearMonth(year: 2024, month: 1)), with: [a, b], fetchedAt: Date())
            let queue = Journal(directory: root.appendingPathComponent("journal"))
            try queue.append(.delete([b]))
            let targets = EditTargets(repository: repository, queued: try queue.listing().changes)
            let found = try await targets.matches(["123"]).matches
            guard case .one(let item, named: false) = found.first else { Issue.record("\(found)"); return }
            #expect(item.id == "00123", "an id as the sheet shows it")
            let gone = try await targets.matches(["00123", "B"]).matches
            guard gone.count == 2, case .one(let kept, _) = gone[0], case .none = gone[1] else {
                Issue.record("\(gone)"); return
            }
            #expect(kept.id == "00123", "a queued deletion hides B")
        }
    }

    @Test func theServersActionsAreAskedOnceAndRememberedAndAnOutageIsNoAnswer() async throws {
        try await withTemporaryDirectory { root in
            let repository = LocalRepository(directory: root.appendingPathComponent("cache"))
            func client(_ session: FakeSession) -> ExpenseLogAPIClient {
                ExpenseLogAPIClient(
                    session: session, baseURL: URL(string: "https://example.com/exec")!,
                    retryPolicy: RetryPolicy(maxRetries: 0), sleep: { _ in })
            }
            let down = try await EditTargets.availability(
                of: "delete",
                client(
                    .failing(
                        .network(
                            url: URL(string: "https://example.com/exec")!,
                            reason: .refused))), repository)
            guard case .unknown = down else { Issue.record("\(down)"); return }
            let original = try await EditTargets.availability(of: "delete", client(.json("[]")), repository)
            guard case .absent = original else { Issue.record("\(original)"); return }
            let bundled = try await EditTargets.availability(
                of: "delete", client(.json(#"{"app":"expense-log","version":2,"actions":["info","delete","update"]}"#)),
                repository)
            guard case .offered = bundled else { Issue.record("\(bundled)"); return }
            let remembered = try await EditTargets.availability(of: "update", client(.unmocked), repository)
            guard case .offered = remembered else { Issue.record("\(remembered)"); return }
        }
    }
}
