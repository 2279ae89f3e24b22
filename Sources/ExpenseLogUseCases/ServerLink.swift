import ExpenseLogClient
import Foundation

/// The ledger's way to the server as a command holds it: made once a command (`Ledger.link`) and handed to each intent
/// that talks to the server, so that the command never names the client it wraps.
public struct ServerLink: Sendable {
    /// The client every request goes through.
    let client: ExpenseLogAPIClient

    /// The web app's URL (the fixtures' folder for dummy).
    public var baseURL: URL { client.baseURL }
}
