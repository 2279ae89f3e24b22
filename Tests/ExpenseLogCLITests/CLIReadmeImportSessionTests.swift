import ExpenseLogModel
import Foundation
import Testing

/// The README's worked import session (in its reference, docs/import-profiles.md), run from that page itself against the
/// reference server: `profile init` on a card statement, the edited profile, the import, a re-import, and next month's
/// overlapping statement.
@Suite struct CLIReadmeImportSessionTests {
    @Test func theREADMEsProfileInitEditImportReimportSessionDoesWhatItSays() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let readme = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("docs/import-profiles.md"), encoding: .utf8)
        func fence(_ label: String) throws -> String { try CLIImportTests.fence(after: label, in: readme) }
        // The statements are written by Python's codec, as a card company's site would hand them over.
        try Samples.encoded(try fence("card-2026-11.csv"), as: "utf-8").write(
            to: home.url.appendingPathComponent("card-2026-11.csv"))
        try Samples.encoded(try fence("card-2026-12.csv"), as: "utf-8").write(
            to: home.url.appendingPathComponent("card-2026-12.csv"))
        try await withServer(["--sheet"]) { server in
            let env = Samples.environment(home: home, server: server)
            func run(_ arguments: [String]) async throws -> CLIResult {
                try await CLI.run(arguments, environment: env, in: home.url)
            }

            let initialized = try await run(["profile", "init", "card-2026-11.csv", "-o", "card.json"])
            #expect(initialized.status == 0, "\(initialized.stderr)")
            let written = try String(contentsOf: home.url.appendingPathComponent("card.json"), encoding: .utf8)
            #expect(written == (try fence("expense-log profile init card-2026-11.csv -o card.json")))
            #expect(initialized.stderr.contains("guessed columns.date: 'ご利用日'"))
            #expect(initialized.stderr.contains("With it, card-2026-11.csv reads as 5 items."))

            try (try fence("card.json")).write(
                to: home.url.appendingPathComponent("card.json"), atomically: true, encoding: .utf8)
            let imported = try await run(["import", "--profile", "card.json", "card-2026-11.csv"])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout == (try fence("expense-log import --profile card.json card-2026-11.csv")))
            #expect(imported.stderr.contains("Rows: 5 added."))
            let stored = try await server.items()
            #expect(stored.count == 5 && Set(stored.map(\.id)).count == 5, "both coffees, each with its own id")

            let again = try await run(["import", "--profile", "card.json", "card-2026-11.csv"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.contains("Nothing to send: every valid row is already there."))

            let next = try await run(["import", "--profile", "card.json", "--explain", "card-2026-12.csv"])
            #expect(next.status == 0, "\(next.stderr)")
            for line in try fence("expense-log import --profile card.json --explain card-2026-12.csv").split(
                separator: "\n")
            {
                #expect(next.stderr.contains(line), "\(next.stderr)")
            }
            #expect(try await server.items().count == 6)
        }
    }
}
