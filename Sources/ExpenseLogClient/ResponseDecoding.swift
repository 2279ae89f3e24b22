import ExpenseLogFormats
import ExpenseLogHTTP
import Foundation

extension ExpenseLogAPIClient {
    /// Checks the status and reads the JSON array of items as a Sheet-backed server gives it, telling a script's error
    /// page and other HTML pages from broken JSON; `secrets` are hidden in the quoted start of the body.
    static func decodeAnswer(
        _ response: HTTPResponse, rows: SheetRows, hiding secrets: [String] = [],
        sent: OutboxBatch? = nil
    ) throws -> SheetAnswer {
        guard (200...299).contains(response.status) else {
            throw APIError.httpStatus(
                url: response.url, status: response.status, snippet: APIError.snippet(response.body, hiding: secrets))
        }
        try pageFailure(response, hiding: secrets)
        try refusal(response, hiding: secrets)
        // An answer that is the body POSTed is its items, checked on the bytes with nothing decoded, unless the general
        // reading would have read them otherwise (the same test as the fast path's below).
        if let sent, EchoedItems.match(response.body, sent: sent.body),
            sent.items.allSatisfy({ !$0.id.isEmpty && !$0.name.isEmpty && !SheetRows.mayBeInstant($0.name) })
        {
            return SheetAnswer(items: sent.items)
        }
        // Plainly typed answers (every value of the expected type) take the fast path; anything a Sheet retyped takes the other.
        if let items = WireItems.items(Array(response.body)),
            items.allSatisfy({ !$0.id.isEmpty && !$0.name.isEmpty && !SheetRows.mayBeInstant($0.name) })
        {
            return SheetAnswer(items: items)
        }
        if let answer = rows.read(response.body) { return answer }
        throw APIError.invalidResponse(
            url: response.url, status: response.status,
            reason: "the body is not a JSON array of items; "
                + "try again, and if it persists check the web app's deployment and logs",
            snippet: APIError.snippet(response.body, hiding: secrets))
    }
}

extension ExpenseLogAPIClient {
    /// The register action's answer (`{"saved","existing"}`), with the same checks as any answer.
    static func decodeRegisterAnswer(
        _ response: HTTPResponse, rows: SheetRows, hiding secrets: [String] = []
    ) throws -> SheetAnswer {
        guard (200...299).contains(response.status) else {
            throw APIError.httpStatus(
                url: response.url, status: response.status, snippet: APIError.snippet(response.body, hiding: secrets))
        }
        try pageFailure(response, hiding: secrets)
        try refusal(response, hiding: secrets)
        if let answer = rows.read(registerAnswer: response.body) { return answer }
        throw APIError.invalidResponse(
            url: response.url, status: response.status,
            reason: "the body is not the register action's {\"saved\", \"existing\"}; "
                + "try again, and if it persists check the web app's deployment and logs",
            snippet: APIError.snippet(response.body, hiding: secrets))
    }

    /// Throws what an HTML page in place of JSON means, on every call alike: Apps Script's error page with the script's
    /// message (a stopped execution, of unknown fate, as `scriptStopped`), or another page (a sign-in, a wrong URL).
    static func pageFailure(_ response: HTTPResponse, hiding secrets: [String]) throws {
        guard JSONParser.firstSignificantByte(of: response.body) == UInt8(ascii: "<") else { return }
        let reason: String
        if let message = AppsScriptPage.errorMessage(response.body) {
            let shown = secrets.filter { !$0.isEmpty }.reduce(message) { $0.replacingOccurrences(of: $1, with: "***") }
            if AppsScriptPage.isStopped(shown) { throw APIError.scriptStopped(url: response.url, message: shown) }
            reason =
                "the web app's script failed: \(shown) (the script's executions in the Apps Script editor show more; "
                + "fix the script or the sheet it names, then try again)"
        } else {
            reason =
                "the body is an HTML page, not JSON (is the URL the web app's /exec URL, deployed for your account?)"
        }
        throw APIError.invalidResponse(
            url: response.url, status: response.status, reason: reason,
            snippet: APIError.snippet(response.body, hiding: secrets))
    }

    /// Throws the bundled script's refusal, `{"error": {"kind": "unauthorized", "message": "…"}}`, when the answer is one.
    static func refusal(_ response: HTTPResponse, hiding secrets: [String]) throws {
        guard JSONParser.firstSignificantByte(of: response.body) == UInt8(ascii: "{"),
            case .object(let members, _)? = try? JSONParser.parse(Array(response.body)),
            case .object(let error, _)? = members[member: "error"],
            case .string(let kind, _)? = error[member: "kind"]
        else { return }
        let message: String
        if case .string(let text, _)? = error[member: "message"] { message = text } else { message = kind }
        throw APIError.scriptRefused(url: response.url, kind: kind, message: message).redacting(secrets)
    }
}

/// The page Apps Script serves (with status 200) when the script throws: its monospace `<div>` holds the message.
enum AppsScriptPage {
    /// The first line of the script's error message, unescaped, or nil when the page is not a script error page.
    static func errorMessage(_ body: Data) -> String? {
        let page = String(decoding: body.prefix(65_536), as: UTF8.self)
        guard page.contains("Google Apps Script"), let style = page.range(of: "font-family:monospace"),
            let open = page[style.upperBound...].firstIndex(of: ">")
        else { return nil }
        let rest = page[page.index(after: open)...]
        let inner = rest[..<(rest.range(of: "</div>")?.lowerBound ?? rest.endIndex)]
        let lines = unescape(String(inner).replacingOccurrences(of: "<br>", with: "\n"))
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.first { !$0.isEmpty }
    }

    /// Whether Apps Script ended the execution itself (its time limit, its own services failing) rather than the script
    /// throwing: what the script wrote before stays, and sending the request again is the way on.
    static func isStopped(_ message: String) -> Bool {
        let text = message.lowercased()
        // Apps Script words its pages in the owner's language: English and Japanese, the language of this tool's users.
        return [
            "exceeded maximum execution time", "service unavailable", "server error occurred",
            "service invoked too many times",
            "please wait a bit and try again", "最大実行時間", "サーバー エラー", "サーバーエラー",
        ].contains { text.contains($0) }
    }

    /// HTML's character references (`&quot;`, `&#39;`, `&#x27;`…); tags are dropped.
    static func unescape(_ html: String) -> String {
        var out = "", index = html.startIndex
        let named = ["quot": "\"", "amp": "&", "lt": "<", "gt": ">", "apos": "'", "nbsp": " "]
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let close = html[index...].firstIndex(of: ">") {
                index = html.index(after: close)
                continue
            }
            if character == "&", let semicolon = html[index...].prefix(10).firstIndex(of: ";") {
                let name = html[html.index(after: index)..<semicolon]
                var scalar: Unicode.Scalar?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if name.hasPrefix("#") {
                    scalar = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init)
                }
                if let replacement = scalar.map({ String(Character($0)) }) ?? named[String(name)] {
                    out += replacement
                    index = html.index(after: semicolon)
                    continue
                }
            }
            out.append(character)
            index = html.index(after: index)
        }
        return out
    }
}
