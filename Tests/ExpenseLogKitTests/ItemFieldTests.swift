import ExpenseLogModel
import Testing

/// Tables indexed by field (an import's column positions) rely on each field's ordinal being its place in allCases.
@Suite struct ItemFieldTests {
    @Test func eachFieldsOrdinalIsItsPlaceInAllCases() {
        #expect(ItemField.allCases.map(\.ordinal) == Array(ItemField.allCases.indices))
    }
}
