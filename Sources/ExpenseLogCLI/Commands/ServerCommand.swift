import ExpenseLogFixtures
import ExpenseLogFormats
import ExpenseLogUseCases
import Foundation

/// `server script`: the web app's Apps Script, to paste into a new Apps Script project and deploy (`server check` tests it).
enum ServerCommand: CommandGroup {
    static var subcommands: [any Command.Type] { [Script.self, ServerCheck.self] }

    static let about = CommandAbout(
        name: "server",
        abstract: "The web app to deploy in Google Apps Script (see docs/server.md).")

    /// `server script`.
    struct Script: ParsableCommand {
        @Opt(
            "output", short: "o", "dir", .path,
            help: "Write Code.gs and appsscript.json into this folder (a clasp project's), "
                + "instead of printing Code.gs.")
        var output: String?

        static let about = CommandAbout(
            name: "script", abstract: "Print Code.gs, the whole web app: paste it into a new Apps Script project.",
            discussion: """
                The script keeps one spreadsheet per year (家計簿_yyyy) with a sheet per month, answers the \
                original app's protocol unchanged, registers each id once, and adds deletes and updates, \
                which a client finds with GET ?action=info. Its first comment says how it works.

                With --output DIR it writes the script and its manifest (appsscript.json: time zone Asia/Tokyo, \
                V8, exception logging, the web app's access, and the two OAuth scopes it needs) into DIR, made if \
                missing, for clasp: `clasp push`, then `clasp deploy -i DEPLOYMENT_ID` updates the deployment in \
                place (its URL stays). A folder clasp cloned holds the script as Code.js: that file is replaced; \
                a project whose .clasp.json names a rootDir gets the files there.

                EXAMPLES:
                  expense-log server script > Code.gs
                  expense-log server script | pbcopy
                  expense-log server script -o my-webapp && cd my-webapp && clasp push
                """)

        func run(_ context: Context) async throws -> ExitCode {
            let script = try BundledScript.read(FixtureBundle.serverScript)
            guard let output else {
                context.io.stdout.write(String(decoding: script, as: UTF8.self))
                return .success
            }
            let manifest = try BundledScript.read(FixtureBundle.serverManifest)
            let written = try ServerScriptFolder.write(script: script, manifest: manifest, into: output)
            let paths = written.files.map(\.path)
            let first =
                written.isClaspProject
                ? ""
                : context.say(
                    "there is no clasp project there yet: `clasp clone SCRIPT_ID` or `clasp create --type webapp` in it first "
                        + "(then run this again), then ",
                    ja: "まだ clasp のプロジェクトではありません。先にそこで `clasp clone スクリプトID` "
                        + "か `clasp create --type webapp` (そしてもう一度これを実行)、続けて ")
            context.note(
                context.say(
                    "Wrote \(paths.joined(separator: " and ")). With clasp, in that folder: \(first)`clasp push`, then "
                        + "`clasp deploy -i DEPLOYMENT_ID` (the URL stays), and `expense-log server check`.",
                    ja: "\(paths.joined(separator: " と ")) に書きました。clasp ではそのフォルダーで \(first)`clasp push`、"
                        + "続けて `clasp deploy -i デプロイID` (URL は変わりません)、そして `expense-log server check`。"))
            return .success
        }
    }
}
