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
            resources: [.copy("fetch.json"), .copy("register.json"), .copy("server")]
        ),
        // libcurl, which FoundationNetworking already links on Linux: the live transport there (see CurlSession).
        // Its headers come from libcurl4-openssl-dev, which the Makefile installs when missing.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        // Optimized in debug builds too: the tests run the binary over outboxes of 120,000 items, which took six times as
        // long unoptimized (the whole suite 49 s instead of 25 s). It makes the package unusable as another's dependency.
        .target(name: "ExpenseLogKit", dependencies: ["ExpenseLogFixtures", .target(name: "CCurl", condition: .when(platforms: [.linux]))],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "ExpenseLogCLI", dependencies: ["ExpenseLogKit", "ExpenseLogFixtures"]),
        .executableTarget(name: "expense-log", dependencies: ["ExpenseLogCLI"]),
        // Starts child processes for the tests without Foundation's Process (see ChildProcess.swift).
        .target(name: "TestSupport", path: "Tests/Support"),
        .testTarget(name: "ExpenseLogKitTests", dependencies: ["ExpenseLogKit", "ExpenseLogCLI", "TestSupport"]),
        .testTarget(name: "ExpenseLogCLITests", dependencies: ["ExpenseLogKit", "ExpenseLogCLI", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
