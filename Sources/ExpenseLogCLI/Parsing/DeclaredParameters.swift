/// An option, flag or argument declared as a command's stored property; the command's declaration (`CommandSpec`) is
/// read from its properties, and their values from the invocation being decoded.
protocol DeclaredParameter {
    /// The option's declaration, or nil for an argument.
    var optionSpec: OptionSpec? { get }
    /// The argument's declaration, or nil for an option.
    var argumentSpec: ArgumentSpec? { get }
}

extension Invocation {
    /// The invocation a command's properties are read from while it is made (`ParsableCommand.run`); nil while only its
    /// declaration is read, when each property holds its default.
    @TaskLocal static var decoding: Invocation?
}

/// An option with a value as a command's property: `@Opt("month", "month", .integer(1...12), help: …) var month: Int?`.
@propertyWrapper struct Opt<Value: Sendable>: DeclaredParameter {
    /// The option's typed key (shared ones, such as `CommonOptions.format`, are declared once and used by several).
    let key: Option<Value>
    /// The value given, or the declared default; nil when neither.
    let wrappedValue: Value?
    var optionSpec: OptionSpec? { key.spec }
    var argumentSpec: ArgumentSpec? { nil }

    /// The property of a key.
    init(_ key: Option<Value>) {
        self.key = key
        wrappedValue = Invocation.decoding?[key]
    }
}

extension Opt where Value == String {
    /// An option whose value is its text.
    init(_ name: String, short: Character? = nil, _ valueName: String, _ kind: ValueKind = .text, help: String) {
        self.init(Option(name, short: short, valueName, kind, help: help))
    }
}

extension Opt where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of an enumeration's cases.
    init(
        choice name: String, short: Character? = nil, _ valueName: String, default defaultValue: Value? = nil,
        help: String
    ) {
        self.init(Option(choice: name, short: short, valueName, default: defaultValue, help: help))
    }
}

/// A flag as a command's property: `@Flg("offline", help: …) var offline: Bool`.
@propertyWrapper struct Flg: DeclaredParameter {
    /// The flag's key.
    let key: Flag
    /// Whether it was given.
    let wrappedValue: Bool
    var optionSpec: OptionSpec? { key.spec }
    var argumentSpec: ArgumentSpec? { nil }

    /// The property of a key.
    init(_ key: Flag) {
        self.key = key
        wrappedValue = Invocation.decoding?[key] ?? false
    }

    /// A flag declared here.
    init(_ name: String, short: Character? = nil, help: String) {
        self.init(Flag(name, short: short, help: help))
    }
}

/// A positional argument as a command's property: `@Arg(variadic: "file", help: …) var files: [String]`.
@propertyWrapper struct Arg<Value: Sendable>: DeclaredParameter {
    /// The argument's key.
    let key: Argument<Value>
    /// Its value (what a missing one decodes to while only the declaration is read).
    let wrappedValue: Value
    var optionSpec: OptionSpec? { nil }
    var argumentSpec: ArgumentSpec? { key.spec }

    /// The property of a key.
    init(_ key: Argument<Value>) {
        self.key = key
        wrappedValue = Invocation.decoding.map { $0[key] } ?? key.value(of: [])
    }
}

extension Arg where Value == String {
    /// One argument the command cannot run without.
    init(_ name: String, kind: ValueKind = .text, help: String) { self.init(Argument(name, kind: kind, help: help)) }
}

extension Arg where Value == String? {
    /// One argument that may be left out.
    init(optional name: String, kind: ValueKind = .text, help: String) {
        self.init(Argument(optional: name, kind: kind, help: help))
    }
}

extension Arg where Value == [String] {
    /// The last argument, repeated.
    init(variadic name: String, kind: ValueKind = .text, optional: Bool = false, help: String) {
        self.init(Argument(variadic: name, kind: kind, optional: optional, help: help))
    }
}

/// What a command says of itself besides its options and arguments, which are its stored properties.
struct CommandAbout: Sendable {
    let name: String
    var aliases: [String] = []
    let abstract: String
    var discussion = ""
    var runsAlone = false
}
