import ExpenseLogFixtures
import ExpenseLogFormats
import Foundation

/// The web app this binary ships (`Resources/server`): its script, its manifest, and the script's version.
enum BundledScript {
    /// The bundled file at `name` (`FixtureBundle.serverScript`…), read whole.
    static func read(_ name: String) throws -> Data {
        guard let directory = FixtureBundle.directory() else {
            throw InputError(
                path: FixtureBundle.name + ".resources",
                reason: "the bundled resources are not next to the binary; "
                    + "reinstall expense-log (make install)")
        }
        return Data(try InputFile.read(directory.appendingPathComponent(name).path))
    }

    /// The script's `VERSION`, as `?action=info` of a deployment of it answers; nil when the bundle cannot be read.
    static func version() -> Int? {
        guard let script = try? read(FixtureBundle.serverScript) else { return nil }
        let text = String(decoding: script.prefix(16_384), as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("var VERSION = ") }) else {
            return nil
        }
        return Int(line.dropFirst("var VERSION = ".count).prefix { $0.isNumber })
    }
}
