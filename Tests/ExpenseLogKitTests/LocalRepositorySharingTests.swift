import ExpenseLogModel
import ExpenseLogStore
import Foundation
import Testing

/// One more January item, registered by "another process".
func otherProcessItem() throws -> Item {
    Item(id: "P2", date: try day(2024, 1, 5), name: "パン", price: 250, category: 0, categorySub: 2)
}

@Suite("The local repository shared by two processes")
struct LocalRepositorySharingTests {
    static let fetchedAt = Date(timeIntervalSince1970: 1_705_900_000)

    @Test("add keeps items another process added to the same month since this one read it")
    func addKeepsOthersItems() async throws {
        try await withTemporaryDirectory { root in
            let (a, b, _) = try cacheSamples()
            let mine = LocalRepository(directory: root)
            let other = LocalRepository(directory: root)
            // now in mine's memory
            try await mine.replaceMonth(try month("2024-01"), with: [a], fetchedAt: Self.fetchedAt)
            try await other.add([try otherProcessItem()])
            try await mine.add([b])
            let onDisk = try #require(try await LocalRepository(directory: root).month(try month("2024-01")))
            #expect(onDisk.items == [a, try otherProcessItem(), b])
            #expect(onDisk.fetchedAt == Self.fetchedAt, "the month stays complete")
        }
    }

    @Test("after add, this process reads the other process's items too")
    func memoryFollowsDisk() async throws {
        try await withTemporaryDirectory { root in
            let (a, b, _) = try cacheSamples()
            let mine = LocalRepository(directory: root)
            try await mine.replaceMonth(try month("2024-01"), with: [a], fetchedAt: Self.fetchedAt)
            try await LocalRepository(directory: root).add([try otherProcessItem()])
            try await mine.add([b])
            #expect(try await mine.month(try month("2024-01"))?.items.map(\.id) == ["A", "P2", "B"])
        }
    }

    @Test("add builds on a month another process replaced meanwhile, not on the stale copy in memory")
    func addAfterOthersReplace() async throws {
        try await withTemporaryDirectory { root in
            let (a, b, _) = try cacheSamples()
            let mine = LocalRepository(directory: root)
            try await mine.replaceMonth(try month("2024-01"), with: [a], fetchedAt: Self.fetchedAt)
            let refreshed = Self.fetchedAt.addingTimeInterval(3600)
            try await LocalRepository(directory: root).replaceMonth(
                try month("2024-01"), with: [try otherProcessItem()],
                fetchedAt: refreshed)
            try await mine.add([b])
            let onDisk = try #require(try await LocalRepository(directory: root).month(try month("2024-01")))
            #expect(onDisk.items == [try otherProcessItem(), b])
            #expect(onDisk.fetchedAt == refreshed)
        }
    }

    @Test("an item both processes registered with the same id is kept once, as the later add wrote it")
    func sameIDFromBoth() async throws {
        try await withTemporaryDirectory { root in
            let (a, _, _) = try cacheSamples()
            let mine = LocalRepository(directory: root)
            try await mine.replaceMonth(try month("2024-01"), with: [], fetchedAt: Self.fetchedAt)
            try await LocalRepository(directory: root).add([a])
            var corrected = a
            corrected.price = 200
            try await mine.add([corrected])
            let onDisk = try #require(try await LocalRepository(directory: root).month(try month("2024-01")))
            #expect(onDisk.items == [corrected])
        }
    }

    @Test("adds to different months by two repositories each land in their own month")
    func differentMonths() async throws {
        try await withTemporaryDirectory { root in
            let (a, _, february) = try cacheSamples()
            let mine = LocalRepository(directory: root)
            let other = LocalRepository(directory: root)
            try await mine.add([a])
            try await other.add([february])
            try await mine.add([try otherProcessItem()])
            let months = try await LocalRepository(directory: root).cachedMonths()
            #expect(months.map(\.month.description) == ["2024-01", "2024-02"])
            #expect(months.map { $0.items.map(\.id) } == [["A", "P2"], ["F"]])
            #expect(months.allSatisfy { !$0.isComplete })
        }
    }
}
