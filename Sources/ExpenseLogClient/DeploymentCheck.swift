import ExpenseLogFormats
import Foundation

extension ExpenseLogAPIClient {
    /// How long the self-test may take: it writes and reads the longest batch and deletes a batch, at Google's pace.
    public static let checkTimeout = 120.0

    /// `POST {"action":"check"}`: the deployment's self-test, run by the bundled script on Google.
    public func selfCheck() async throws -> DeploymentReport {
        let (members, raw, url) = try await post("{\"action\":\"check\"}", timeout: Self.checkTimeout)
        guard let report = DeploymentReport(members) else {
            throw APIError.invalidResponse(
                url: url, status: 200, reason: "the answer to a check is not the script's report",
                snippet: APIError.snippet(raw, hiding: secrets))
        }
        return report
    }
}
