import ExpenseLogConfig
import ExpenseLogUseCases
import Foundation
import Synchronization

extension Context {
    /// The roots already made private in this process, so that each is looked at once a run (one `lstat`).
    private static let privateRoots = Mutex<Set<String>>([])

    /// Makes the folders the tool keeps its data in (the config's, the cache's and the state's) readable by their owner
    /// alone, once: earlier versions made them with the umask's mode, so a 0755 folder is tightened with everything in
    /// it, with one note; but for the token file, which is refused where it is read when others can read it (someone
    /// may have). Throws when one belongs to another account; warns of a mode that cannot be changed (a read-only mount).
    func keepPrivate(_ paths: Paths) throws {
        // Under the lock throughout, so that a second look at a root waits for the first to finish (or to refuse it).
        let (tightened, failures) = try Self.privateRoots.withLock {
            done -> ([(URL, Int)], [(path: String, reason: String)]) in
            var tightened: [(URL, Int)] = [], failures: [(path: String, reason: String)] = []
            for root in [paths.configDirectory, paths.cacheRoot, paths.stateRoot] where !done.contains(root.path) {
                let result = try ToolFacts.keepPrivate(root, leaving: [paths.tokenFile.path])
                done.insert(root.path)
                if result.count > 0 { tightened.append((root, result.count)) }
                failures += result.failures
            }
            return (tightened, failures)
        }
        for (path, reason) in failures {
            warn(
                say(
                    "\(path) could not be made readable by you alone (\(reason)); other accounts on this machine may read it",
                    ja: "\(path) を自分だけが読めるようにできませんでした (\(reason))。このマシンのほかのアカウントが読めるかもしれません"))
        }
        guard !tightened.isEmpty else { return }
        let count = tightened.map(\.1).reduce(0, +)
        let places = tightened.map(\.0.path).joined(separator: ", ")
        note(
            say(
                "Made \(count) file\(count == 1 ? "" : "s") and folder\(count == 1 ? "" : "s") in \(places) readable by you alone: an "
                    + "earlier version left them readable by other accounts on this machine (the household's purchases, the queue).",
                ja: "\(places) の\(count)個のファイルとフォルダーを自分だけが読めるようにしました。以前のバージョンはこの"
                    + "マシンのほかのアカウントが読めるように作っていました (家計の支出、送信待ち)。"))
    }
}
