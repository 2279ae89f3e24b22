import ExpenseLogFormats
import Foundation
import Testing

/// Fixing items as a person remembers them, through the binary against the bundled script under the host: by name in
/// the months given, every match at once, and by the short id `fetch --ids` shows.
@Suite struct CLIFindAndFixTests {
    static let items = """
        date,name,price,category
        20240105,AMAZON.CO.JP,1200,0
        20240209,Amazon マーケットプレイス,3400,0
        20240210,ラーメン,980,0
        20240301,amazon,500,0
        """

    /// The named items' prices and categories as the server has them, by name.
    static func onServer(_ env: [String: String], _ month: String) async throws -> [String: (price: Int, category: Int)]
    {
        let fetched = try await CLI.run(["fetch", month, "--refresh", "--format", "json"], environment: env)
        return Dictionary(try ItemCodec.items(Data(fetched.stdout.utf8)).map { ($0.name, ($0.price, $0.category)) }) {
            first, _ in first
        }
    }

    @Test func everyMatchIsChangedByNameAndOneByItsShortID() async throws {
        try await withRegistered(Self.items) { _, env in
            let all = try await CLI.run(
                ["edit", "ａｍａｚｏｎ", "--all", "-c", "娯楽費", "--from", "2024-01", "--to", "2024-02", "--yes"],
                environment: env)
            #expect(all.status == 0, "\(all.stderr)")
            #expect(try await Self.onServer(env, "2024-01")["AMAZON.CO.JP"]?.category == 1)
            let february = try await Self.onServer(env, "2024-02")
            #expect(february["Amazon マーケットプレイス"]?.category == 1 && february["ラーメン"]?.category == 0, "\(february)")
            #expect(try await Self.onServer(env, "2024-03")["amazon"]?.category == 0, "March was not searched")

            let listed = try await CLI.run(["fetch", "2024-02", "--ids"], environment: env)
            let row = try #require(
                listed.stdout.split(separator: "\n").first { $0.contains("ラーメン") }, "\(listed.stdout)")
            let short = String(try #require(row.split(separator: " ").first))
            #expect(short.count >= 4 && short.count < 36, "\(row)")
            let byID = try await CLI.run(["edit", short.lowercased(), "--price", "1,080"], environment: env)
            #expect(byID.status == 0, "an id never asks: \(byID.stderr)")
            #expect(try await Self.onServer(env, "2024-02")["ラーメン"]?.price == 1_080)

            let deleted = try await CLI.run(["delete", "ラーメン", "--from", "2024-02", "--yes"], environment: env)
            #expect(
                deleted.status == 0 && deleted.stderr.contains("Deleted: 2024-02-10 ラーメン ¥1,080"), "\(deleted.stderr)")
            #expect(try await Self.onServer(env, "2024-02")["ラーメン"] == nil)
        }
    }
}
