// swift-tools-version:6.0
import PackageDescription

/// The library's layers, lowest first.
let libraryLayers = ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogHTTP", "ExpenseLogClient", "ExpenseLogStore",
                     "ExpenseLogConfig", "ExpenseLogImport", "ExpenseLogUseCases", "ExpenseLogRendering"]

/// A layer of the library; `strict` layers see the members of a module only where they import it (the renderers, so
/// that they cannot reach the store or the client through a use case's types).
func layer(_ name: String, _ dependencies: [Target.Dependency], strict: Bool = false) -> Target {
    .target(
        name: name, dependencies: dependencies,
        swiftSettings: strict ? [.enableUpcomingFeature("MemberImportVisibility")] : nil)
}

let package = Package(
    name: "expense-log",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "expense-log", targets: ["expense-log"]),
        .library(name: "ExpenseLogKit", targets: libraryLayers),
    ],
    targets: [
        // The dummy environment's answers, kept at the top level as the original app had them.
        .target(
            name: "ExpenseLogFixtures",
            path: "Resources",
            exclude: ["README.md"],
            resources: [.copy("fetch.json"), .copy("register.json"), .copy("server")]
        ),
        // libcurl, the live transport on Linux (see CurlSession), loaded with dlopen at the first request. Its headers
        // come from libcurl4-openssl-dev, which the Makefile installs when missing; on macOS the target is empty.
        .target(name: "CCurl", path: "Sources/CCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // One target per layer, each importing only the layers below it (ARCHITECTURE.md), so an upward use does not
        // compile.
        layer("ExpenseLogModel", []),
        layer("ExpenseLogFormats", ["ExpenseLogModel"]),
        layer("ExpenseLogHTTP", [.target(name: "CCurl", condition: .when(platforms: [.linux]))]),
        layer("ExpenseLogClient", ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogHTTP", "ExpenseLogFixtures"]),
        layer("ExpenseLogStore", ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogClient"]),
        layer("ExpenseLogConfig", ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogHTTP", "ExpenseLogClient", "ExpenseLogStore"]),
        layer("ExpenseLogImport", ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogStore"]),
        layer("ExpenseLogUseCases", ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogHTTP", "ExpenseLogClient", "ExpenseLogStore", "ExpenseLogConfig", "ExpenseLogImport", "ExpenseLogFixtures"]),
        layer("ExpenseLogRendering", ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogImport", "ExpenseLogUseCases"], strict: true),
        // The command line reaches the store and the client only through the ledger: it does not depend on them, and
        // members of a module are visible only where it is imported, so it cannot reach theirs through a use case's
        // types either (layers.py checks the imports).
        .target(
            name: "ExpenseLogCLI",
            dependencies: libraryLayers.filter { !["ExpenseLogStore", "ExpenseLogClient"].contains($0) }
                .map { .target(name: $0) } + ["ExpenseLogFixtures"],
                swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        .executableTarget(name: "expense-log", dependencies: ["ExpenseLogCLI"]),
        // What both test targets share: child processes without Foundation's Process (see ChildProcess.swift), the tool
        // run in-process, sample statements.
        .target(name: "TestSupport", dependencies: ["ExpenseLogCLI", "ExpenseLogHTTP"], path: "Tests/Support"),
        .testTarget(name: "ExpenseLogKitTests", dependencies: libraryLayers.map { .target(name: $0) } + ["ExpenseLogCLI", "TestSupport"]),
        .testTarget(name: "ExpenseLogCLITests", dependencies: libraryLayers.map { .target(name: $0) } + ["ExpenseLogCLI", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
