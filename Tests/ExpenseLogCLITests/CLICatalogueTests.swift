import Foundation
import Testing

/// The category catalogue: the app's by default, replaced by the config file's `categories`, named per locale.
@Suite struct CLICatalogueTests {
    @Test func whatCategoriesPrintsAsJSONCanBeTheConfigFilesCatalogue() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let standard = try await CLI.run(["categories", "--format", "json"], environment: env)
        #expect(standard.status == 0)
        let renamed = standard.stdout.replacingOccurrences(of: "\"Drink\"", with: "\"Beverages\"")
            .replacingOccurrences(of: "\"飲料\"", with: "\"飲み物\"")
        try FileManager.default.createDirectory(
            at: home.url.appendingPathComponent("expense-log/config"), withIntermediateDirectories: true)
        try home.write("expense-log/config/config.json", "{\"categories\": \(renamed)}")

        let configured = try await CLI.run(["categories", "--format", "json"], environment: env)
        #expect(configured.status == 0, "\(configured.stderr)")
        #expect(configured.stdout == renamed, "the same shape reads back")
        let show = try await CLI.run(["config", "show"], environment: env)
        #expect(show.stdout.contains("categories") && show.stdout.contains("2 categories, 7 subs"))

        // Tables name categories from the configured catalogue, in Japanese under a Japanese locale.
        let english = try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env)
        #expect(english.stdout.contains("Beverages") && !english.stdout.contains("Drink"))
        let japanese = try await CLI.run(
            ["fetch", "--year", "2024", "--month", "1"], environment: env.merging(["LANG": "ja_JP.UTF-8"]) { $1 })
        #expect(japanese.stdout.contains("飲み物") && japanese.stdout.contains("食費") && japanese.stdout.contains("合計"))
    }

    @Test func aBrokenCatalogueIsAConfigurationError() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let config = try home.write("config.json", "{\"categories\": [{\"id\": 0, \"ja\": \"食費\"}]}")
        let result = try await CLI.run(
            ["categories", "--config", config], environment: Samples.environment(home: home))
        #expect(result.status == 78)
        #expect(result.stderr.contains(config) && result.stderr.contains("categories[0].en must be a non-empty name"))
    }
}
