// swift-tools-version:6.0
// Another package that uses expense-log's library, by path (.ci/run builds and runs it): the library's products and
// public API are usable from outside. (SwiftPM lets a local path's unsafe flags through; .ci/run checks the manifest.)
import PackageDescription

let package = Package(
    name: "KitConsumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "expense-log", path: "../..")],
    targets: [
        .executableTarget(name: "KitConsumer", dependencies: [.product(name: "ExpenseLogKit", package: "expense-log")])
    ],
    swiftLanguageModes: [.v6]
)
