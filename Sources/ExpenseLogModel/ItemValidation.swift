import Foundation

extension ItemDraft {
    /// The app's longest allowed name, in characters.
    public static let maxNameLength = 30

    /// What is wrong with a trimmed, non-empty name: too long, or holding a control character (an escape sequence),
    /// which would act on the terminal that prints it; nil when nothing is. Line breaks and tabs, which a sheet's cell
    /// can hold, are allowed (a table shows them as `�`).
    static func nameProblem(_ name: String) -> String? {
        if let problem = lengthProblem(name) { return problem }
        // Only a byte below 0x20, 0x7F or a C1 control's lead byte (0xC2) can start a control character.
        guard name.withUTF8Bytes({ $0.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 } }) else { return nil }
        if let control = name.unicodeScalars.first(where: { $0.isControl && !["\n", "\r", "\t"].contains($0) }) {
            return
                "holds the control character U+\(String(format: "%04X", control.value)), which a terminal would act on; "
                + "remove it"
        }
        return nil
    }

    /// `nameProblem`'s words in Japanese.
    static func nameProblemJapanese(_ name: String) -> String? {
        if name.utf8.count > maxNameLength, name.unicodeScalars.count > maxNameLength, name.count > maxNameLength {
            return "\(name.count)文字あります。\(maxNameLength)文字までです"
        }
        if let control = name.unicodeScalars.first(where: { $0.isControl && !["\n", "\r", "\t"].contains($0) }) {
            return "端末が反応する制御文字 U+\(String(format: "%04X", control.value)) を含んでいます。取り除いてください"
        }
        return nil
    }

    /// Why a trimmed name is too long, or nil.
    static func lengthProblem(_ name: String) -> String? {
        // No more scalars than the limit means no more characters either: counting characters is the slow part.
        guard name.utf8.count > maxNameLength, name.unicodeScalars.count > maxNameLength else { return nil }
        return name.count > maxNameLength
            ? "is \(name.count) characters long; at most \(maxNameLength) are allowed" : nil
    }

    /// The item when every field is valid, else every problem found (not just the first). A category (and a
    /// sub-category) is a number the catalogue has, or a name it knows (`食費`, `food`, `食費/飲料`).
    public func validated(
        makeID: () -> String = RandomID.make, catalogue: CategoryCatalogue = .standard
    )
        -> (item: Item?, problems: [ValidationProblem])
    {
        var problems: [ValidationProblem] = []
        func fail(_ field: String, _ message: String, _ japanese: String? = nil) {
            problems.append(ValidationProblem(location: location, field: field, message: message, japanese: japanese))
        }

        var itemID = ""
        switch id {
        case let value where value.isAbsent: itemID = makeID()
        case .text(let text): itemID = text.trimmingSpaces()
        case .integer(let number): itemID = String(number)
        default: fail("id", "must be a string, got \(id.shown)", "文字列にしてください (\(id.japaneseShown)でした)")
        }

        var day: Day?
        switch date {
        case let value where value.isAbsent:
            fail("date", "is missing (expected yyyyMMdd, e.g. 20240122)", "ありません (yyyyMMdd、例 20240122)")
        case .text(let text):
            day = Day(written: text)
            if day == nil {
                fail("date", DateText.problem(text.trimmingSpaces()), DateText.japaneseProblem(text.trimmingSpaces()))
            }
        case .integer(let number):
            day = Day(parsing: String(number))
            if day == nil {
                fail("date", "\(number) is not a real day (expected yyyyMMdd)", "\(number)は実在する日ではありません (yyyyMMdd)")
            }
        default:
            fail(
                "date", "must be a yyyyMMdd string, got \(date.shown)",
                "yyyyMMdd の文字列にしてください (\(date.japaneseShown)でした)")
        }

        var itemName = ""
        switch name {
        case let value where value.isAbsent: fail("name", "is empty (give what was bought)", "空です (買ったものを入力してください)")
        case .text(let text):
            itemName = text.trimmingSpaces()
            if let problem = Self.nameProblem(itemName) { fail("name", problem, Self.nameProblemJapanese(itemName)) }
        default: fail("name", "must be a string, got \(name.shown)", "文字列にしてください (\(name.japaneseShown)でした)")
        }

        let itemPrice = integer(price, field: "price", required: true, fail: fail, parse: PriceText.parse)
        if itemPrice == 0 {
            fail("price", "must not be 0 (use a negative price for a refund)", "0 にはできません (返金はマイナスの金額で)")
        }
        let (itemCategory, itemSub) = categories(catalogue, fail: fail)

        guard problems.isEmpty, let day, let itemPrice, let itemCategory else { return (nil, problems) }
        return (
            Item(
                id: itemID, date: day, name: itemName, price: itemPrice,
                category: itemCategory, categorySub: itemSub, payer: payer, personal: personal, shared: shared), []
        )
    }

    /// The category and sub-category by number or name, each one the catalogue has.
    private func categories(_ catalogue: CategoryCatalogue, fail: (String, String, String?) -> Void) -> (Int?, Int?) {
        let hint = " (`expense-log categories` lists them)", japaneseHint = " (`expense-log categories` で一覧できます)"
        var number: Int?, sub: Int?
        if case .text(let text) = category, !category.isAbsent, WholeNumber.parse(text) == nil {
            do {
                (number, sub) = try catalogue.resolve(text)
            } catch {
                fail("category", error.message + hint, error.japanese + japaneseHint)
                return (nil, nil)
            }
        } else {
            number = integer(category, field: "category", required: true, fail: fail)
            if let given = number, !catalogue.has(given) {
                // The catalogue says what it lacks and what it has, in the words a name it lacks gets.
                do { _ = try catalogue.resolve(String(given)) } catch {
                    fail("category", error.message + hint, error.japanese + japaneseHint)
                }
                return (nil, nil)
            }
        }
        guard let number, !categorySub.isAbsent else { return (number, sub) }
        if case .text(let text) = categorySub, WholeNumber.parse(text) == nil {
            do {
                return (number, try catalogue.resolveSub(text, in: number))
            } catch {
                fail("categorySub", error.message + hint, error.japanese + japaneseHint)
                return (number, nil)
            }
        }
        guard let given = integer(categorySub, field: "categorySub", required: false, fail: fail) else {
            return (number, nil)
        }
        guard catalogue.has(number, sub: given) else {
            do { _ = try catalogue.resolveSub(String(given), in: number) } catch {
                fail("categorySub", error.message + hint, error.japanese + japaneseHint)
            }
            return (number, nil)
        }
        return (number, given)
    }

    private func integer(
        _ value: RawValue, field: String, required: Bool, fail: (String, String, String?) -> Void,
        parse: ((String) -> Int?)? = nil
    ) -> Int? {
        switch value {
        case let value where value.isAbsent:
            if required { fail(field, "is missing (expected a whole number)", "ありません (整数)") }
            return nil
        case .integer(let number): return number
        case .text(let text):
            let number: Int? = if let parse { parse(text.trimmingSpaces()) } else { WholeNumber.parse(text) }
            if let number { return number }
            fail(
                field,
                "\(value.shown) is not a whole number"
                    + (field == "price" ? " of yen (1500, 1,500, ¥1,500 and 1,500円 are read)" : ""),
                "\(value.japaneseShown)は整数"
                    + (field == "price" ? "の円ではありません (1500、1,500、¥1,500、1,500円 が読めます)" : "ではありません"))
            return nil
        default:
            fail(field, "must be a whole number, got \(value.shown)", "整数にしてください (\(value.japaneseShown)でした)")
            return nil
        }
    }
}

extension Array where Element == ItemDraft {
    /// Validates every draft and also flags an `id` given twice; items (with where each was read) keep input order.
    public func validatedAll(
        makeID: @escaping () -> String = RandomID.make, catalogue: CategoryCatalogue = .standard
    )
        -> (items: [Item], locations: [SourceLocation], problems: [ValidationProblem])
    {
        var validator = ItemValidator(makeID: makeID, catalogue: catalogue)
        validator.items.reserveCapacity(count)
        forEach { validator.add($0) }
        return (validator.items, validator.locations, validator.problems)
    }
}

/// Validates drafts one at a time as they are read, so no input is held as drafts, and flags an `id` given twice.
public struct ItemValidator {
    /// The valid items, in input order.
    public fileprivate(set) var items: [Item] = []
    /// Where each item was read.
    public private(set) var locations: [SourceLocation] = []
    /// Every problem of the invalid drafts, and each repeated id.
    public private(set) var problems: [ValidationProblem] = []
    private var firstSeen: [String: SourceLocation] = [:]
    /// The ids the input gave, in order, so a rollback can forget them.
    private var givenIDs: [String] = []
    private let makeID: () -> String
    private let catalogue: CategoryCatalogue
    /// Whether a draft without an id gets a `DerivedID` (else `makeID`'s).
    private let derivesIDs: Bool
    /// The contents the current input has had once, those it has had more often (with their count), and the input
    /// they count in. A content is kept as its 64-bit hash (`Hasher`, this process's seed): a large import keeps about
    /// 8 bytes a row, not its text; two of 100,000 different rows share a hash with a chance of about 1 in 4 billion.
    private var seenOnce = FingerprintSet()
    private var seenMore: [Int: Int] = [:]
    private var currentInput: String?
    /// The most rows of each content an earlier input of the run had, and which input: a row past them is new.
    private var earlier: [Int: (count: Int, input: String)] = [:]

    /// What one draft is.
    public enum Checked {
        /// Valid; `madeID` says whether its id was made here from its content.
        case valid(Item, madeID: Bool)
        /// Valid, but its made id is that of a row of an earlier input of the run (two overlapping statements).
        case repeated(Item, earlierInput: String)
        /// Invalid; its problems are kept.
        case invalid
    }

    /// How far validation got, to go back to when an input is refused whole after some of its drafts were added.
    public struct Mark: Sendable {
        fileprivate let items: Int
        fileprivate let problems: Int
        fileprivate let ids: Int
    }

    /// A validator that reads categories from `catalogue` and gives a CSV row without an id a `DerivedID` when
    /// `derivesIDs`, and other drafts without one an id from `makeID`.
    public init(
        makeID: @escaping () -> String = RandomID.make, catalogue: CategoryCatalogue = .standard,
        derivesIDs: Bool = false
    ) {
        self.makeID = makeID
        self.catalogue = catalogue
        self.derivesIDs = derivesIDs
    }

    /// The id the last draft validated would have had before accounts counted (`DerivedID.content(date:name:price:)`),
    /// when its made id includes an account: an item imported by an earlier version has it.
    public private(set) var legacyID: String?

    /// The ids the input gave (not the ones made here).
    public var inputIDs: some Collection<String> { firstSeen.keys }

    /// Validates one draft: a valid item is kept, else its problems are.
    public mutating func add(_ draft: ItemDraft) {
        guard let item = check(draft) else { return }
        items.append(item)
        locations.append(draft.location)
    }

    /// Validates one draft and returns its item without keeping it (the caller does; an id the input gave is
    /// remembered, to flag a repeat); else keeps its problems.
    public mutating func check(_ draft: ItemDraft) -> Item? {
        switch validate(draft) {
        case .valid(let item, _), .repeated(let item, _): return item
        case .invalid: return nil
        }
    }

    /// As `check`, saying whether the id was made here and whether an earlier input had the same row.
    public mutating func validate(_ draft: ItemDraft) -> Checked {
        legacyID = nil
        // A CSV row's missing id is made from its content below: no random one to throw away first.
        let derived = derivesIDs && draft.isCSVRow && draft.id.isAbsent
        let (validItem, found) = draft.validated(makeID: derived ? { "" } : makeID, catalogue: catalogue)
        guard var item = validItem else {
            problems.append(contentsOf: found)
            return .invalid
        }
        guard draft.id.isAbsent else {
            // Only ids the input gave can repeat within it; made ones differ by their occurrence number.
            if let earlier = firstSeen[item.id] {
                problems.append(
                    ValidationProblem(
                        location: draft.location, field: "id",
                        message: "'\(item.id)' is already used by the item at \(earlier)",
                        japanese: "「\(item.id)」は \(earlier) の項目がすでに使っています"))
                return .invalid
            }
            firstSeen[item.id] = draft.location
            givenIDs.append(item.id)
            return .valid(item, madeID: false)
        }
        guard derivesIDs, draft.isCSVRow else { return .valid(item, madeID: false) }
        if currentInput != draft.location.file { beginInput(draft.location.file) }
        let readName = draft.readName?.trimmingSpaces() ?? item.name
        let content = DerivedID.content(account: draft.account, date: item.date, name: readName, price: item.price)
        var hasher = Hasher()
        content.withUnsafeBytes { hasher.combine(bytes: $0) }
        let key = hasher.finalize()
        let occurrence: Int
        if seenOnce.insert(UInt64(bitPattern: Int64(key))) {
            occurrence = 1
        } else {
            occurrence = (seenMore[key] ?? 1) + 1
            seenMore[key] = occurrence
        }
        item.id = DerivedID.make(content: content, occurrence: occurrence)
        // Within one input the account is the same for every row: the place among rows of one content is the same too.
        if let account = draft.account, !account.isEmpty {
            legacyID = DerivedID.make(
                content: DerivedID.content(date: item.date, name: readName, price: item.price), occurrence: occurrence)
        }
        if let seen = earlier[key], occurrence <= seen.count { return .repeated(item, earlierInput: seen.input) }
        return .valid(item, madeID: true)
    }

    /// Starts counting the rows of another input: those of the one before become rows an earlier input had. Called
    /// before each input's first row (a refused input, rolled back, counts for nothing).
    public mutating func beginInput(_ name: String) {
        if let previous = currentInput {
            let counts =
                seenOnce.elements.lazy.map { (Int(Int64(bitPattern: $0)), 1) }
                + seenMore.lazy.map { ($0.key, $0.value) }
            for (key, count) in counts where count > earlier[key]?.count ?? 0 { earlier[key] = (count, previous) }
        }
        (seenOnce, seenMore, currentInput) = (FingerprintSet(), [:], name)
    }

    /// Where validation is now.
    public var mark: Mark { Mark(items: items.count, problems: problems.count, ids: givenIDs.count) }

    /// Forgets what was added since `mark`, ids included.
    public mutating func rollBack(to mark: Mark) {
        // Only the current input is ever rolled back: its rows no longer count.
        (seenOnce, seenMore) = (FingerprintSet(), [:])
        for id in givenIDs[mark.ids...] { firstSeen[id] = nil }
        givenIDs.removeSubrange(mark.ids...)
        items.removeSubrange(mark.items...)
        locations.removeSubrange(mark.items...)
        problems.removeSubrange(mark.problems...)
    }
}

extension Item {
    /// Why `register` would refuse this item, as `field: message` (an outbox entry edited by hand), or nil. Only what
    /// every version refused: an entry an older version queued stays readable.
    public var refusal: String? {
        let trimmed = name.trimmingSpaces()
        if id.isEmpty { return "id: is empty" }
        if trimmed.isEmpty { return "name: is empty" }
        if let problem = ItemDraft.lengthProblem(trimmed) { return "name: \(problem)" }
        if price == 0 { return "price: must not be 0" }
        return nil
    }
}

extension Unicode.Scalar {
    /// C0 and C1 controls and DEL: what a terminal may act on instead of drawing.
    public var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
