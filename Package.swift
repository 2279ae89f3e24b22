// swift-tools-version:6.0
import PackageDescription
#if os(Linux)
import Glibc
#endif

/// The package's folder, for the link order file (the linker runs elsewhere).
let packageRoot = String(#filePath.dropLast("/Package.swift".count))

/// Whether this machine's C library reads packed relative relocations (DT_RELR, glibc 2.36 of 2022): a binary linked
/// with them does not start on an older one.
let readsPackedRelocations: Bool = {
    #if os(Linux)
    var text = [CChar](repeating: 0, count: 64)
    guard confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count) > 0 else { return false }
    let version = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)  // "glibc 2.36"
    let numbers = version.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    return numbers.count >= 2 && (numbers[0], numbers[1]) >= (2, 36)
    #else
    return false
    #endif
}()

/// How a release binary is linked on Linux, for start-up and memory (docs/benchmarks.md): by lld, the functions a run
/// uses placed together in the order `bench/link-order.txt` gives (`make link-order` writes it from a profile), so a
/// run touches a few megabytes of the binary's pages instead of most of them, and relocations packed (DT_RELR) where
/// the C library reads them. A stale order file only costs locality: names it lacks go after the others.
let releaseLinking: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(packageRoot)/bench/link-order.txt",
                  "-Xlinker", "--no-warn-symbol-ordering"]
                 + (readsPackedRelocations ? ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] : []),
                 .when(platforms: [.linux], configuration: .release)),
]

/// Each function in a section of its own in release builds on Linux, so the link order can place it.
let functionSections: SwiftSetting = .unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release))

/// The library's layers, lowest first.
let libraryLayers = ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogHTTP", "ExpenseLogClient", "ExpenseLogStore",
                     "ExpenseLogConfig", "ExpenseLogImport", "ExpenseLogUseCases", "ExpenseLogRendering"]

/// A layer of the library, built optimized in debug too.
func layer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .target(name: name, dependencies: dependencies, swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug)), functionSections])
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
        // OpenSSL's libssl for the built-in client's https (NativeSession), loaded with dlopen at the first https request;
        // declared without OpenSSL's headers, so nothing more to install. Empty on macOS.
        .target(name: "CTLS", path: "Sources/CTLS", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // One target per layer, each importing only the layers below it (ARCHITECTURE.md), so an upward use does not
        // compile. Optimized in debug builds too: the tests run the binary over outboxes of 120,000 items, which took six
        // times as long unoptimized. It makes the package unusable as another's dependency.
        layer("ExpenseLogModel", []),
        layer("ExpenseLogFormats", ["ExpenseLogModel"]),
        layer("ExpenseLogHTTP", [.target(name: "CCurl", condition: .when(platforms: [.linux])),
                                 .target(name: "CTLS", condition: .when(platforms: [.linux]))]),
        layer("ExpenseLogClient", ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogHTTP", "ExpenseLogFixtures"]),
        layer("ExpenseLogStore", ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogClient"]),
        layer("ExpenseLogConfig", ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogHTTP", "ExpenseLogClient", "ExpenseLogStore"]),
        layer("ExpenseLogImport", ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogStore"]),
        layer("ExpenseLogUseCases", ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogClient", "ExpenseLogStore", "ExpenseLogImport"]),
        layer("ExpenseLogRendering", ["ExpenseLogModel", "ExpenseLogFormats", "ExpenseLogStore", "ExpenseLogImport", "ExpenseLogUseCases"]),
        // Members of a module are visible only where it is imported, so a command file, which may not import the Store or
        // the Client, cannot reach their members through a use case either (layers.py checks the imports).
        .target(name: "ExpenseLogCLI", dependencies: libraryLayers.map { .target(name: $0) } + ["ExpenseLogFixtures"],
                swiftSettings: [.enableUpcomingFeature("MemberImportVisibility"), functionSections]),
        .executableTarget(name: "expense-log", dependencies: ["ExpenseLogCLI"], swiftSettings: [functionSections],
                          linkerSettings: releaseLinking),
        // What both test targets share: child processes without Foundation's Process (see ChildProcess.swift), the tool
        // run in-process, sample statements.
        .target(name: "TestSupport", dependencies: ["ExpenseLogCLI", "ExpenseLogHTTP"], path: "Tests/Support"),
        .testTarget(name: "ExpenseLogKitTests", dependencies: libraryLayers.map { .target(name: $0) } + ["ExpenseLogCLI", "TestSupport"]),
        .testTarget(name: "ExpenseLogCLITests", dependencies: libraryLayers.map { .target(name: $0) } + ["ExpenseLogCLI", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
