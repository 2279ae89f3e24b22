import ExpenseLogFixtures
import ExpenseLogFormats
import Foundation

/// `server script`: the web app's Apps Script, to paste into a new Apps Script project and deploy (`server check` tests it).
enum ServerCommand: CommandGroup {
    static var subcommands: [any Command.Type] { [Script.self, ServerCheck.self] }

    static let about = CommandAbout(
        name: "server",
        abstract: "The web app to deploy in Google Apps Script (see docs/server.md).")

    /// `server script`.
    struct Script: ParsableCommand {
        static let about = CommandAbout(
            name: "script", abstract: "Print Code.gs, the whole web app: paste it into a new Apps Script project.",
            discussion: """
                The script keeps one spreadsheet per year (家計簿_yyyy) with a sheet per month, answers the \
                original app's protocol unchanged, registers each id once, and adds deletes and updates, \
                which a client finds with GET ?action=info. Its first comment says how it works.

                EXAMPLES:
                  expense-log server script > Code.gs
                  expense-log server script | pbcopy
                """)

        func run(_ context: Context) async throws {
            guard let directory = FixtureBundle.directory() else {
                throw InputError(path: FixtureBundle.name + ".resources", reason: "the bundled resources are not next to the binary; "
                                 + "reinstall expense-log (make install)")
            }
            let path = directory.appendingPathComponent(FixtureBundle.serverScript).path
            context.io.stdout.write(String(decoding: try InputFile.read(path), as: UTF8.self))

        }
    }
}
