import ExpenseLogImport
import ExpenseLogModel
import Testing

/// A purchase on a day of January 2024, a coffee unless told otherwise.
private func purchase(_ id: String, day dayOfMonth: Int = 22, name: String = "コーヒー", price: Int = 178) throws -> Item {
    Item(id: id, date: try day(2024, 1, dayOfMonth), name: name, price: price, category: 0, categorySub: 1)
}

/// The verdicts for input items in order, against known items.
private func verdicts(_ items: [Item], known: [KnownItem]) -> [DuplicateVerdict] {
    DuplicateFinder(known: known).verdicts(for: items)
}

@Suite("Finding input items already on the server or in the outbox")
struct DuplicateFinderTests {
    @Test("the verdicts do not depend on the rows' order: an id match is settled before content matches")
    func idBeforeContent() throws {
        let known = [KnownItem(item: try purchase("a1"), place: .server)]
        let idless = try purchase("new-1"), twin = try purchase("a1")
        #expect(verdicts([idless, twin], known: known) == [.new, .sameID(known[0])])
        #expect(verdicts([twin, idless], known: known) == [.sameID(known[0]), .new])
    }

    @Test("an id on the server and still in the outbox (a lost answer) counts once, as the server's")
    func serverAndOutboxOnce() throws {
        let sent = try purchase("lost")
        let known = [KnownItem(item: sent, place: .outbox), KnownItem(item: sent, place: .server)]
        let three = [try purchase("x1"), try purchase("x2"), try purchase("x3")]
        #expect(verdicts(three, known: known) == [.likely(KnownItem(item: sent, place: .server)), .new, .new])
    }

    @Test("with nothing known every item is new")
    func nothingKnown() throws {
        #expect(verdicts([try purchase("A"), try purchase("B")], known: []) == [.new, .new])
    }

    @Test("an item whose id is known is a duplicate, whatever its content")
    func sameID() throws {
        let known = KnownItem(item: try purchase("A", day: 1, name: "紅茶", price: 200), place: .server)
        #expect(verdicts([try purchase("A")], known: [known]) == [.sameID(known)])
    }

    @Test("an item with a known date, price and name but another id is a likely duplicate")
    func likely() throws {
        let known = KnownItem(item: try purchase("SERVER-1"), place: .server)
        #expect(verdicts([try purchase("NEW-1")], known: [known]) == [.likely(known)])
    }

    @Test("an item differing in date, price or name is new", arguments: [
        (23, "コーヒー", 178), (22, "コーヒー", 180), (22, "紅茶", 178), (22, "コーヒー", -178), (22, "コーヒー大", 178),
    ])
    func differs(dayOfMonth: Int, name: String, price: Int) throws {
        let known = KnownItem(item: try purchase("SERVER-1"), place: .server)
        #expect(verdicts([try purchase("NEW-1", day: dayOfMonth, name: name, price: price)], known: [known]) == [.new])
    }

    @Test("two identical coffees imported when the server has one: one likely duplicate, one new")
    func eachKnownMatchesOnce() throws {
        let known = KnownItem(item: try purchase("SERVER-1"), place: .server)
        #expect(verdicts([try purchase("NEW-1"), try purchase("NEW-2")], known: [known]) == [.likely(known), .new])
    }

    @Test("identical known items each answer for one input item, in the order they were given")
    func severalKnown() throws {
        let onServer = KnownItem(item: try purchase("SERVER-1"), place: .server)
        let inOutbox = KnownItem(item: try purchase("OUTBOX-1"), place: .outbox)
        let found = verdicts([try purchase("N1"), try purchase("N2"), try purchase("N3")], known: [onServer, inOutbox])
        #expect(found == [.likely(onServer), .likely(inOutbox), .new])
    }

    @Test("a known item matched by id is not also a likely duplicate of an earlier row")
    func idAfterContentMatch() throws {
        let known = KnownItem(item: try purchase("A"), place: .server)
        #expect(verdicts([try purchase("B"), try purchase("A")], known: [known]) == [.new, .sameID(known)])
    }

    @Test("an id match uses up the known item, so an identical item after it is new")
    func idUsesContent() throws {
        let known = KnownItem(item: try purchase("A"), place: .server)
        #expect(verdicts([try purchase("A"), try purchase("B")], known: [known]) == [.sameID(known), .new])
    }

    @Test("names are compared without surrounding blanks", arguments: [(" コーヒー ", "コーヒー"), ("コーヒー", "コーヒー\u{20}\u{20}")])
    func trimmedNames(knownName: String, inputName: String) throws {
        let known = KnownItem(item: try purchase("SERVER-1", name: knownName), place: .server)
        #expect(verdicts([try purchase("NEW-1", name: inputName)], known: [known]) == [.likely(known)])
    }

    @Test("inner blanks and case still make names different")
    func innerDifferences() throws {
        let known = KnownItem(item: try purchase("SERVER-1", name: "Coffee Beans"), place: .server)
        let inputs = [try purchase("N1", name: "CoffeeBeans"), try purchase("N2", name: "coffee beans")]
        #expect(verdicts(inputs, known: [known]) == [.new, .new])
    }

    @Test("the verdict says whether the match is on the server or in the outbox")
    func placeKept() throws {
        let queued = KnownItem(item: try purchase("Q1"), place: .outbox)
        let sent = KnownItem(item: try purchase("S1", day: 5), place: .server)
        let found = verdicts([try purchase("Q1"), try purchase("N1", day: 5)], known: [queued, sent])
        #expect(found == [.sameID(queued), .likely(sent)])
        guard case .sameID(let first) = found[0], case .likely(let second) = found[1] else {
            Issue.record("unexpected verdicts \(found)")
            return
        }
        #expect(first.place == .outbox)
        #expect(second.place == .server)
    }

    @Test("of several known items with one id, the first given is the one matched")
    func firstIDWins() throws {
        let onServer = KnownItem(item: try purchase("A"), place: .server)
        let inOutbox = KnownItem(item: try purchase("A", day: 23), place: .outbox)
        #expect(verdicts([try purchase("A", day: 30)], known: [onServer, inOutbox]) == [.sameID(onServer)])
    }
}

@Suite("Likely duplicates across the widths of kana")
struct DuplicateWidthTests {
    @Test("a statement's half-width ﾄﾞﾄｰﾙ is a likely duplicate of the ドトール typed into the app")
    func halfWidthKana() throws {
        let typed = KnownItem(item: Item(id: "APP-1", date: try day(2024, 12, 1), name: "ドトール", price: 250, category: 0, categorySub: 1),
                              place: .server)
        let row = Item(id: "ROW-1", date: try day(2024, 12, 1), name: "ﾄﾞﾄｰﾙ", price: 250, category: 0, categorySub: 1)
        #expect(DuplicateFinder(known: [typed]).verdicts(for: [row]) == [.likely(typed)])
    }
}
