// swift-tools-version:6.0
// Another package that uses expense-log's library, by path, as a package would from a URL: SwiftPM builds a
// dependency only when its manifest has no unsafe flags, so this package building is the proof (.ci/run builds it).
import PackageDescription

let package = Package(
    name: "KitConsumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "expense-log", path: "../..")],
    targets: [
        .executableTarget(name: "KitConsumer", dependencies: [.product(name: "ExpenseLogKit", package: "expense-log")]),
    ],
    swiftLanguageModes: [.v6]
)
