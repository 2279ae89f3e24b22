import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// What became of one outbox batch sent to the server.
public enum BatchOutcome: Sendable {
    /// The server confirmed every item; the batch left the outbox. The items as the server saved them.
    case delivered([Item], existing: [String])
    /// Not confirmed; the batch stays in the outbox. `mayHaveBeenSaved` when the server may have run it anyway.
    case failed(APIError, mayHaveBeenSaved: Bool)
    /// The server refused the batch's data (400 or 422 before running it); it was moved to `file` for fixing.
    case rejected(APIError, file: URL)
}

/// Sends outbox batches through a client and records each outcome in the outbox: the one path `register` and `sync`
/// share. The client only sends and decodes; what a send means for the outbox is decided here.
public struct BatchSending: Sendable {
    /// The client that sends.
    public let client: ExpenseLogAPIClient
    /// The outbox the batches belong to.
    public let journal: Journal

    /// A delivery through a client into an outbox.
    public init(client: ExpenseLogAPIClient, journal: Journal) {
        (self.client, self.journal) = (client, journal)
        registerAction = false
    }

    /// Whether batches go as the bundled script's register action (when the server offers it).
    public var registerAction: Bool
    /// Whether the server keeps who paid: else the items go as the app's six fields.
    public var keepsShare = false

    /// Sends a batch of an entry (or only `items` of it, those the server does not have yet) and records the outcome.
    ///
    /// The batch leaves the outbox only after the answer was read and, when `verifyAnswer`, names every item sent
    /// (a 200 that lists fewer items is not a confirmation). The dummy environment's canned answers are not verified.
    public func deliver(
        _ batch: OutboxBatch, of entry: ItemEntry, sending items: [Item]? = nil,
        verifyAnswer: Bool
    ) async throws -> BatchOutcome {
        let baseURL = client.baseURL
        let sent = items.map { batch.narrowed(to: $0) } ?? batch
        let answer: SheetAnswer
        // Written before the POST: whatever happens next (a lost answer, kill -9), sync knows the server may be running it.
        try journal.markAttempt(batch.key, in: entry, at: Date())
        do {
            answer = try await client.send(sent, action: registerAction, keepsShare: keepsShare)
        } catch let failure as BatchFailure {
            // No POST left running: it never ran, or an answer came (a 200 that is no list, a failure after the redirect,
            // which Apps Script sends only once the script has finished), so there is nothing to wait for.
            if !failure.mayHaveBeenSaved || failure.error.scriptFinished(requestURL: baseURL) {
                try? journal.markAttempt(batch.key, in: entry, at: nil)
            }
            if case .httpStatus(_, let status, _) = failure.error, status == 400 || status == 422,
                !failure.mayHaveBeenSaved
            {
                return .rejected(failure.error, file: try journal.reject(sent, from: entry, key: batch.key))
            }
            return .failed(failure.error, mayHaveBeenSaved: failure.mayHaveBeenSaved)
        }
        if verifyAnswer {
            // By Sheet key: a server over a spreadsheet answers the id `00123` as 123, and it is still ours.
            let missing = Self.missing(sent.items, from: answer)
            if !missing.isEmpty {
                let shown = missing.prefix(5).joined(separator: ", ") + (missing.count > 5 ? ", …" : "")
                let error = APIError.invalidResponse(
                    url: baseURL, status: 200,
                    reason:
                        "its list of saved items lacks \(missing.count) of the \(sent.items.count) sent (\(shown)); "
                        + "they stay in the outbox, and sync checks the server for them before sending anything again",
                    snippet: "")
                // The answer came, so the script has finished: sync may check and re-send at once.
                try? journal.markAttempt(batch.key, in: entry, at: nil)
                return .failed(error, mayHaveBeenSaved: true)
            }
        }
        try journal.markSent(batch.key, in: entry, onServer: true)
        return .delivered(answer.items, existing: answer.existing)
    }
}

extension BatchSending {
    /// The ids of sent items the answer does not list (by Sheet key: a server over a spreadsheet answers the id `00123`
    /// as 123). A server answers in the order sent, as a rule, so the lists are first compared in order; a set of
    /// every key is made only when that fails (hashing every id of every batch was a fiftieth of an import).
    public static func missing(_ items: [Item], from answer: SheetAnswer) -> [String] {
        if answer.items.count == items.count,
            zip(items, answer.items).allSatisfy({ $0.id == $1.id || SheetText.key($0.id) == SheetText.key($1.id) })
        {
            return []
        }
        let returned = answer.idKeys
        return items.map(\.id).filter { !returned.contains(SheetText.key($0)) }
    }
}
