import ExpenseLogFormats
import ExpenseLogModel
import Foundation

// Reads the bundled example month (the path given, or Resources/fetch.json) with the library and prints its total.
let path = CommandLine.arguments.dropFirst().first ?? "Resources/fetch.json"
let items = try ItemCodec.items(try Data(contentsOf: URL(fileURLWithPath: path)))
print("\(items.count) items, \(items.reduce(0) { $0 + $1.price }) yen")
