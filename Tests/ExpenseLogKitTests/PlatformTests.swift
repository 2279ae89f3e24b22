import ExpenseLogCLI
import ExpenseLogHTTP
import Foundation
import TestSupport
import Testing

/// What differs on macOS, checked here through the same code: the proxy variables as Apple's URLSession is given them,
/// the language a Mac with no `LANG` reads in, and `ru_maxrss`'s units.
@Suite struct PlatformTests {
    @Test func theProxyVariablesAreReadAsCurlReadsThem() {
        let settings = ProxySettings(environment: [
            "http_proxy": "http://user:secret@proxy.example:3128",
            "HTTPS_PROXY": "proxy.example", "no_proxy": ".internal.example, localhost",
        ])
        #expect(settings.http == ProxySettings.Proxy(host: "proxy.example", port: 3128))
        #expect(settings.https == ProxySettings.Proxy(host: "proxy.example", port: 1080), "curl's default port")
        #expect(settings.exceptions == ["internal.example", "*.internal.example", "localhost", "*.localhost"])
        #expect(
            ProxySettings(environment: ["HTTP_PROXY": "http://cgi.example:80"]).isEmpty,
            "HTTP_PROXY is not read, as curl does not")
        #expect(
            ProxySettings(environment: ["https_proxy": "http://p:1", "no_proxy": "*"]).isEmpty,
            "no_proxy=* turns proxies off")
    }

    @Test func theLanguageComesFromTheLocaleVariablesThenTheSystemsPreferredLanguages() {
        #expect(
            Language.isJapanese(environment: [:], preferred: ["ja-JP", "en-US"]), "a Mac set to Japanese, with no LANG")
        #expect(!Language.isJapanese(environment: [:], preferred: ["en-JP"]))
        #expect(
            !Language.isJapanese(environment: ["LANG": "en_US.UTF-8"], preferred: ["ja-JP"]), "LANG, when set, wins")
        #expect(Language.isJapanese(environment: ["LANG": "en_US.UTF-8", "LC_ALL": "ja_JP.UTF-8"], preferred: []))
        #expect(!Language.isJapanese(environment: ["LC_MESSAGES": "C"], preferred: ["ja-JP"]))
        #expect(!Language.isJapanese(environment: [:], preferred: []))
    }

    @Test func peakMemoryIsReadInTheUnitsOfEachPlatform() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ReferenceServer").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("peak-units-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let code =
            "import sys; sys.path.insert(0, sys.argv[1]); import peak_rss; "
            + "print(peak_rss.kib(2097152, 'darwin'), peak_rss.kib(2048, 'linux'))"
        let child = try ChildProcess("/usr/bin/env", ["python3", "-c", code, folder], stdout: .file(out))
        #expect(child.waitBlocking() == 0)
        #expect(
            try String(contentsOfFile: out, encoding: .utf8) == "2048 2048\n",
            "bytes on macOS, KiB on Linux, both read as KiB")
    }
}
