import Foundation

/// What the bundled script's self-test (`POST {"action":"check"}`) found on Google: each hazard, and the actions' times.
public struct DeploymentReport: Sendable, Equatable {
    /// One thing checked.
    public struct Step: Sendable, Equatable {
        /// What should hold (`a name 0120 stays 0120`).
        public let what: String
        /// Whether it held.
        public let held: Bool
        /// What was seen instead, or a figure.
        public let detail: String
        /// Whether it is about the log's own spreadsheets (one in the trash), which the owner fixes in Drive, not in the script.
        public let aboutBooks: Bool

        /// A step the client adds to the script's (its version against the bundled one).
        public init(what: String, held: Bool, detail: String, aboutBooks: Bool = false) {
            (self.what, self.held, self.detail, self.aboutBooks) = (what, held, detail, aboutBooks)
        }
    }

    /// One action, timed.
    public struct Timing: Sendable, Equatable {
        /// `register`, `fetch`, `update` or `delete`.
        public let action: String
        /// How many items it handled.
        public let items: Int
        /// How long it took on Google.
        public let seconds: Double
    }

    /// The script's version.
    public let version: Int
    /// The temporary spreadsheet's name.
    public let spreadsheet: String
    /// Every step, in the order tried.
    public private(set) var steps: [Step]
    /// The actions' times.
    public let timings: [Timing]
    /// What one Sheets call took, on average, in seconds (nil when the check stopped before it measured).
    public let callSeconds: Double?
    /// Why the check stopped before its end, if it did.
    public let error: String?
    /// Whether the temporary spreadsheet went to the trash.
    public let removed: Bool
    /// Why it could not, if it could not.
    public let removalError: String?
    /// The whole check's time on Google.
    public let seconds: Double?
    /// How many spreadsheets of earlier checks, which Apps Script ended before they could clean up, it moved to the trash.
    public let leftovers: Int

    /// Adds a step the client checked itself.
    public mutating func append(_ step: Step) {
        steps.append(step)
    }

    /// Whether everything held and the check ran to its end.
    public var passed: Bool { error == nil && !steps.isEmpty && steps.allSatisfy(\.held) }

    /// A report read from the script's answer, or nil when it is not one.
    public init?(_ members: [(key: String, value: JSONValue)]) {
        guard case .object(let check, _)? = members[member: "check"],
            case .array(let steps, _)? = check[member: "steps"]
        else { return nil }
        func text(_ members: [(key: String, value: JSONValue)], _ key: String) -> String? {
            if case .string(let value, _)? = members[member: key] { value } else { nil }
        }
        func number(_ members: [(key: String, value: JSONValue)], _ key: String) -> Double? {
            if case .number(let value, _)? = members[member: key] { Double(value) } else { nil }
        }
        func flag(_ members: [(key: String, value: JSONValue)], _ key: String) -> Bool {
            if case .bool(let value, _)? = members[member: key] { value } else { false }
        }
        var read: [Step] = []
        for case .object(let step, _) in steps {
            guard let what = text(step, "what") else { return nil }
            read.append(
                Step(
                    what: what, held: flag(step, "ok"), detail: text(step, "detail") ?? "",
                    aboutBooks: text(step, "about") == "books"))
        }
        var timings: [Timing] = []
        if case .array(let list, _)? = check[member: "timings"] {
            for case .object(let timing, _) in list {
                guard let action = text(timing, "action"), let seconds = number(timing, "seconds") else { continue }
                timings.append(Timing(action: action, items: Int(number(timing, "items") ?? 0), seconds: seconds))
            }
        }
        version = Int(number(check, "version") ?? 0)
        spreadsheet = text(check, "spreadsheet") ?? "expense-log check"
        self.steps = read
        self.timings = timings
        callSeconds = number(check, "callSeconds")
        error = text(check, "error")
        removed = flag(check, "removed")
        removalError = text(check, "removedError")
        seconds = number(check, "seconds")
        leftovers = Int(number(check, "leftovers") ?? 0)
    }
}
