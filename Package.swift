// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "expense-log",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "expense-log", targets: ["expense-log"]),
        .library(name: "ExpenseLogKit", targets: ["ExpenseLogKit"]),
    ],
    targets: [
        // The dummy environment's answers, kept at the top level as the original app had them.
        .target(
            name: "ExpenseLogFixtures",
            path: "Resources",
            exclude: ["README.md"],
            resources: [.copy("fetch.json"), .copy("register.json")]
        ),
        .target(name: "ExpenseLogKit", dependencies: ["ExpenseLogFixtures"]),
        .target(name: "ExpenseLogCLI", dependencies: ["ExpenseLogKit", "ExpenseLogFixtures"]),
        .executableTarget(name: "expense-log", dependencies: ["ExpenseLogCLI"]),
        .testTarget(name: "ExpenseLogKitTests", dependencies: ["ExpenseLogKit", "ExpenseLogCLI"]),
        .testTarget(name: "ExpenseLogCLITests", dependencies: ["ExpenseLogKit", "ExpenseLogCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
