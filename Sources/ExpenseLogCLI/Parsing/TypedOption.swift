import ExpenseLogModel

/// A flag declared once: a command's property (`@Flg(…) var offline: Bool`), or a global option the context reads back
/// through this value (`invocation[Global.quiet]`); a misspelt name does not compile.
public struct Flag: Sendable {
    /// The declaration the parser, help and completions read.
    public let spec: OptionSpec

    /// A flag that takes no value.
    public init(_ name: String, short: Character? = nil, help: String) {
        spec = .flag(name, short: short, help: help)
    }
}

/// An option with a value, declared once with the type its text becomes (the parser has already checked the text).
public struct Option<Value: Sendable>: Sendable {
    /// The declaration the parser, help and completions read.
    public let spec: OptionSpec
    private let decode: @Sendable (String) -> Value?

    /// An option whose checked text `decode` turns into its value.
    public init(_ spec: OptionSpec, decode: @escaping @Sendable (String) -> Value?) {
        (self.spec, self.decode) = (spec, decode)
    }

    /// The value of the option in a checked text.
    func value(of text: String) -> Value? { decode(text) }
}

extension Option where Value == String {
    /// An option whose value is its text (text, a path).
    public init(_ name: String, short: Character? = nil, _ valueName: String, _ kind: ValueKind = .text, help: String) {
        self.init(.value(name, short: short, valueName, kind, help: help)) { $0 }
    }
}

extension Option where Value == Int {
    /// A whole number within a range (or a four-digit year, with `kind: .year`).
    public init(
        _ name: String, _ valueName: String, _ kind: ValueKind, required: Bool = false,
        default defaultValue: Int? = nil,
        help: String
    ) {
        self.init(.value(name, valueName, kind, required: required, default: defaultValue.map(String.init), help: help))
        { Int($0) }
    }
}

extension Option where Value == Double {
    /// Positive seconds.
    public init(seconds name: String, help: String) {
        self.init(.value(name, "seconds", .seconds, help: help)) { Double($0) }
    }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of an enumeration's cases, by its raw value.
    public init(
        choice name: String, short: Character? = nil, _ valueName: String, default defaultValue: Value? = nil,
        help: String
    ) {
        self.init(
            .value(
                name, short: short, valueName, .choice(Value.allCases.map(\.rawValue)), default: defaultValue?.rawValue,
                help: help)
        ) {
            Value(rawValue: $0)
        }
    }
}

/// A positional argument declared once, a command's property (`@Arg(…) var id: String`) with the type it
/// becomes: the text of one, or every text of a variadic one.
public struct Argument<Value: Sendable>: Sendable {
    /// The declaration the parser, help and completions read.
    public let spec: ArgumentSpec
    private let decode: @Sendable ([String]) -> Value

    /// An argument whose texts (one, or all of a variadic one; none when left out) `decode` turns into its value.
    public init(_ spec: ArgumentSpec, decode: @escaping @Sendable ([String]) -> Value) {
        (self.spec, self.decode) = (spec, decode)
    }

    /// The value of the argument in its texts.
    func value(of texts: [String]) -> Value { decode(texts) }
}

extension Argument where Value == String {
    /// One argument the command cannot run without (the parser refuses a command line that lacks it).
    public init(_ name: String, kind: ValueKind = .text, help: String) {
        self.init(ArgumentSpec(name, kind: kind, help: help)) { $0.first ?? "" }
    }
}

extension Argument where Value == String? {
    /// One argument that may be left out.
    public init(optional name: String, kind: ValueKind = .text, help: String) {
        self.init(ArgumentSpec(name, kind: kind, optional: true, help: help)) { $0.first }
    }
}

extension Argument where Value == [String] {
    /// The last argument, repeated (every text from its place on).
    public init(variadic name: String, kind: ValueKind = .text, optional: Bool = false, help: String) {
        self.init(ArgumentSpec(name, kind: kind, variadic: true, optional: optional, help: help)) { $0 }
    }
}

extension Invocation {
    /// Whether the flag was given.
    public subscript(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }

    /// Whether the option was given on the command line (its default, if any, not counted).
    public func isGiven<Value>(_ option: Option<Value>) -> Bool { given.contains(option.spec.name) }

    /// The option's value, or its declared default; nil when neither.
    public subscript<Value>(_ option: Option<Value>) -> Value? { values[option.spec.name].flatMap(option.value(of:)) }

    /// The argument's value, from its place among the command's declared arguments.
    public subscript<Value>(_ argument: Argument<Value>) -> Value {
        let place = argumentNames.firstIndex(of: argument.spec.name)
        assert(
            place != nil || argumentNames.isEmpty,
            "\(argument.spec.name) is not an argument of \(path.joined(separator: " "))")
        guard let place, place < arguments.count else { return argument.value(of: []) }
        return argument.value(of: argument.spec.isVariadic ? Array(arguments[place...]) : [arguments[place]])
    }
}
