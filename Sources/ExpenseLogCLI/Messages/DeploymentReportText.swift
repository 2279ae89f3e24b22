import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// How `server check` shows the self-test's report: a checklist, the timings, and what to do when a check failed.
enum DeploymentReportText {
    /// The deployment's URL as it may be shown (its key hidden).
    static func shown(_ link: ServerLink) -> String {
        URLRedaction.redacted(link.baseURL)
    }

    /// What `server check` found, and its exit code: 69 when the check could not run (or finish), 1 when a check failed.
    static func render(
        _ outcome: DeploymentCheckOutcome, url: String, timeout: Double?, bundled: Int?, _ context: Context
    ) throws {
        switch outcome {
        case .unfinished(let error):
            context.io.stderr.write(
                context.errorLine(error)
                    + context.say(
                        "The check did not finish, so a temporary spreadsheet \"expense-log check …\" may "
                            + "remain in your Drive: the next check moves it to the trash (or delete it by hand). A check "
                            + "that does not finish in time means this deployment answers slowly; try again later, or with "
                            + "a longer --timeout.",
                        ja: "確認が終わらなかったため、一時スプレッドシート「expense-log check …」がドライブに残っているかもしれません。"
                            + "次の確認でゴミ箱に移します (手で削除しても構いません)。時間内に終わらないのはこのデプロイの応答が遅い"
                            + "ためです。あとで、または --timeout を長くして試してください。") + "\n")
            throw CommandExit(code: .unavailable)
        case .notBundled:
            context.io.stderr.write(
                context.say(
                    "Error: \(url) does not run expense-log's script (it answers no ?action=info as the bundled "
                        + "script does; the original app's script, say), and only that script can test itself. Deploy "
                        + "it: `expense-log server script` prints it, and docs/server.md walks through it.",
                    ja: "エラー: \(url) は expense-log のスクリプトを動かしていません (同梱のスクリプトのように ?action=info に"
                        + "答えません。元のアプリのスクリプトなど)。自己テストできるのはそのスクリプトだけです。公開してください: "
                        + "`expense-log server script` で表示し、手順は docs/server.md にあります。") + "\n")
            throw CommandExit(code: .unavailable)
        case .outdated(let info):
            context.io.stderr.write(
                context.say(
                    "Error: \(url) runs an older version of expense-log's script (version \(info.version); this "
                        + "expense-log bundles version \(bundled.map(String.init) ?? "?")), which has "
                        + "no self-test. Update it: paste the output of `expense-log server script` over Code.gs, then "
                        + "Deploy › Manage deployments › Edit › Version: New version (the URL stays the same), and run "
                        + "`expense-log server check` again.",
                    ja: "エラー: \(url) は自己テストのない古い expense-log のスクリプト (バージョン \(info.version)) を動かしています。"
                        + "`expense-log server script` の出力で Code.gs を置き換え、デプロイ › デプロイを管理 › 編集 › バージョン: "
                        + "新バージョン (URL は変わりません) としてから、もう一度 `expense-log server check` を実行してください。") + "\n")
            throw CommandExit(code: .unavailable)
        case let .checked(info, found):
            var report = found
            if let bundled { report.append(versionStep(info.version, bundled: bundled, context)) }
            render(report, timeout: timeout, context)
            guard report.passed else { throw CommandExit(code: .failure) }
        }
    }

    /// Whether the deployment runs the script this binary bundles: an older one lacks its fixes and is to be updated in
    /// place (the URL stays); a newer one is fine, and says this binary is the older.
    static func versionStep(_ running: Int, bundled: Int, _ context: Context) -> DeploymentReport.Step {
        let what = context.say(
            "the web app runs the script this expense-log bundles (version \(bundled)) or a newer one",
            ja: "ウェブアプリはこの expense-log 同梱のスクリプト (バージョン \(bundled)) 以降を動かしている")
        guard running < bundled else {
            if running > bundled {
                context.note(
                    context.say(
                        "The web app's script (version \(running)) is newer than the one this expense-log bundles "
                            + "(\(bundled)): update expense-log when you can.",
                        ja: "ウェブアプリのスクリプト (バージョン \(running)) はこの expense-log 同梱のもの (\(bundled)) より新しいです。"
                            + "expense-log を更新してください。"))
            }
            return DeploymentReport.Step(what: what, held: true, detail: "")
        }
        let detail = context.say(
            "it runs version \(running). Update it in place, so that the URL stays: `expense-log server script -o DIR` "
                + "then `clasp push` and `clasp deploy -i DEPLOYMENT_ID` in DIR, or paste `expense-log server script` over "
                + "Code.gs and Deploy › Manage deployments › Edit › Version: New version (docs/server.md)",
            ja: "バージョン \(running) です。URL を変えずに更新してください: `expense-log server script -o フォルダー` のあと"
                + "そのフォルダーで `clasp push` と `clasp deploy -i デプロイID`、または `expense-log server script` を Code.gs "
                + "に貼り付けてデプロイ › デプロイを管理 › 編集 › バージョン: 新バージョン (docs/server.md)")
        return DeploymentReport.Step(what: what, held: false, detail: detail)
    }

    /// The checklist on stdout, then the timings and what became of the temporary spreadsheet.
    static func render(_ report: DeploymentReport, timeout: Double?, _ context: Context) {
        var out = ""
        for step in report.steps {
            out += "\(step.held ? "✓" : "✗") \(PrintableText.of(step.what))"
            out += step.detail.isEmpty || step.held ? "\n" : ": \(PrintableText.of(step.detail))\n"
        }
        if let error = report.error { out += "✗ the check stopped before its end: \(PrintableText.of(error))\n" }
        if !report.timings.isEmpty {
            // Below a few milliseconds a call's time is noise (an imitation, a cache), and so is a count made from it.
            let call = report.callSeconds.flatMap { $0 >= 0.005 ? $0 : nil }
            out +=
                "\nOn Google, at this deployment's pace"
                + (call.map { String(format: " (one Sheets call took %.0f ms)", $0 * 1000) } ?? "") + ":\n"
            for timing in report.timings {
                let calls = call.map { ", about \(Int((timing.seconds / $0).rounded())) calls' time" } ?? ""
                out += String(
                    format: "  %@ %d item%@: %.2f s%@\n", timing.action, timing.items, timing.items == 1 ? "" : "s",
                    timing.seconds, calls)
            }
        }
        context.io.stdout.write(out)
        let limit = timeout ?? ToolFacts.registerTimeout
        for timing in report.timings where timing.seconds > limit / 2 {
            let remedy =
                timing.action == "register"
                ? context.say(
                    "send smaller batches (register --batch-size) or give a longer --timeout",
                    ja: "バッチを小さくするか (register --batch-size)、--timeout を長くしてください")
                : context.say(
                    "give a longer --timeout (a deletion goes in batches of \(Ledger.deleteBatch) ids)",
                    ja: "--timeout を長くしてください (削除は\(Ledger.deleteBatch)件ずつ送ります)")
            let seconds = String(format: "%.1f", timing.seconds)
            context.warn(
                context.say(
                    "\(timing.action) of \(timing.items) items took \(seconds) s on Google, more than "
                        + "half the client's \(Int(limit)) s timeout: \(remedy)",
                    ja: "Google 上で \(timing.action) \(timing.items)件に\(seconds)秒かかり、クライアントのタイムアウト"
                        + "\(Int(limit))秒の半分を超えています: \(remedy)"))
        }
        if report.leftovers > 0 {
            context.note(
                context.say(
                    "\(report.leftovers) spreadsheet\(report.leftovers == 1 ? "" : "s") of an earlier check that did not finish "
                        + "went to the trash as well.",
                    ja: "終わらなかった以前の確認のスプレッドシート\(report.leftovers)個もゴミ箱に移しました。"))
        }
        if report.removed {
            context.note(
                context.say(
                    "The temporary spreadsheet \"\(report.spreadsheet)\" is in your Drive's trash (Drive empties it after 30 days).",
                    ja: "一時スプレッドシート「\(report.spreadsheet)」はドライブのゴミ箱にあります (30日後にドライブが空にします)。"))
        } else {
            context.warn(
                context.say(
                    "the temporary spreadsheet \"\(report.spreadsheet)\" could not be moved to the trash"
                        + (report.removalError.map { " (\($0))" } ?? "") + "; remove it from your Drive by hand",
                    ja: "一時スプレッドシート「\(report.spreadsheet)」をゴミ箱に移せませんでした"
                        + (report.removalError.map { " (\($0))" } ?? "") + "。ドライブから手で削除してください"))
        }
        let failed = report.steps.filter { !$0.held }.count
        if report.passed {
            context.note(
                context.say(
                    "All \(report.steps.count) checks held: this deployment keeps what the client writes as docs/server.md says.",
                    ja: "\(report.steps.count)項目すべて合格: このデプロイは docs/server.md のとおりクライアントの書いたものを保ちます。"))
        } else if report.error == nil, report.steps.allSatisfy({ $0.held || $0.aboutBooks }) {
            context.io.stderr.write(
                context.say(
                    "\(failed) of \(report.steps.count) checks did not hold: a year's spreadsheet of the log is not "
                        + "where the web app expects it. Do what each ✗ above says in your Drive, then run the check again.",
                    ja: "\(report.steps.count)項目中\(failed)項目が不合格: 年のスプレッドシートがウェブアプリの期待する場所にありません。"
                        + "上の ✗ のとおりドライブを直してから、もう一度確認してください。") + "\n")
        } else {
            let what =
                report.error == nil
                ? "\(failed) of \(report.steps.count) checks did not hold"
                : "The check stopped early (\(failed) of the \(report.steps.count) checks made did not hold)"
            context.io.stderr.write(
                context.say(
                    "\(what): this deployment may not keep what the client writes as docs/server.md says. If the "
                        + "check stopped on Google's services failing, run it again later; else make sure the deployment "
                        + "runs the script of this version (`expense-log server script`, then Deploy › Manage deployments "
                        + "› Edit › New version), run the check again, and if it still fails, report it with this output.",
                    ja: (report.error == nil
                        ? "\(report.steps.count)項目中\(failed)項目が不合格" : "確認が途中で止まりました (\(failed)項目が不合格)")
                        + ": このデプロイは docs/server.md のとおりにクライアントの書いたものを保たないかもしれません。Google の"
                        + "サービスの失敗で止まったならあとでもう一度、そうでなければこのバージョンのスクリプトを動かしているか確かめ "
                        + "(`expense-log server script`、デプロイ › デプロイを管理 › 編集 › 新バージョン)、もう一度確認し、"
                        + "それでも失敗するならこの出力を添えて報告してください。") + "\n")
        }
    }
}
