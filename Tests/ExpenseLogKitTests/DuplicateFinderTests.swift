import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogUseCases
import Testing

/// A purchase on a day of January 2024, a coffee unless told otherwise.
private func purchase(_ id: String, day dayOfMonth: Int = 22, name: String = "コーヒー", price: Int = 178) throws -> Item {
    Item(id: id, date: try day(2024, 1, dayOfMonth), name: name, price: price, category: 0, categorySub: 1)
}

@Suite("Finding input items already on the server or in the outbox by id")
struct DuplicateFinderTests {
    @Test("an item whose id is known is that item, whatever its content; another id is not known")
    func sameID() throws {
        let known = KnownItem(item: try purchase("A", day: 1, name: "紅茶", price: 200), place: .server)
        let finder = DuplicateFinder(known: [known])
        #expect(finder.item(withID: "A") == known)
        #expect(finder.knows(id: "A") && !finder.knows(id: "B"))
    }

    @Test("an id on the server and still in the outbox (a lost answer) counts once, as the server's")
    func serverAndOutboxOnce() throws {
        let sent = try purchase("lost")
        let finder = DuplicateFinder(known: [
            KnownItem(item: sent, place: .outbox), KnownItem(item: sent, place: .server),
        ])
        #expect(finder.known == [KnownItem(item: sent, place: .server)])
        #expect(finder.item(withID: "lost")?.place == .server)
    }

    @Test("ids are compared as the sheet shows them: 00123 is the 123 the sheet hands back")
    func sheetKeys() throws {
        let finder = DuplicateFinder(known: [KnownItem(item: try purchase("123"), place: .server)])
        #expect(finder.knows(id: "00123"))
    }

    @Test("the known items an input id names are left out of what statement rows may match")
    func unclaimed() throws {
        let a = KnownItem(item: try purchase("A"), place: .server),
            b = KnownItem(item: try purchase("B"), place: .outbox)
        let finder = DuplicateFinder(known: [a, b])
        #expect(finder.unclaimed(by: ["A"]) == [b])
        #expect(finder.unclaimed(by: []) == [a, b])
        #expect(DuplicateFinder(known: []).isEmpty)
    }
}

@Suite("Short ids")
struct ShortIDTests {
    @Test("each id's shortest unique prefix, four characters at least, case ignored")
    func shortest() {
        let ids = ["AFE41234", "afe45678", "B0000000", "AFE4"]
        #expect(
            EditTargets.shortIDs(ids) == ["AFE41234": "AFE41", "afe45678": "afe45", "B0000000": "B000", "AFE4": "AFE4"])
    }
}
