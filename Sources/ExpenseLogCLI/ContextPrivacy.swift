import ExpenseLogConfig
import ExpenseLogStore
import Foundation
import Synchronization

extension Context {
    /// The roots already made private in this process, so that each is looked at once a run (one `lstat`).
    private static let privateRoots = Mutex<Set<String>>([])

    /// Makes the folders the tool keeps its data in (the cache's and the state's: the config file and the token are
    /// checked apart, and refused when others can read them) readable by their owner alone, once: earlier versions made
    /// them with the umask's mode, so a 0755 folder is tightened with everything in it, with one note. Throws when one
    /// belongs to another account; warns of a mode that cannot be changed (a read-only mount).
    func keepPrivate(_ paths: Paths) throws {
        let roots = [paths.cacheRoot, paths.stateRoot].filter { root in
            Self.privateRoots.withLock { $0.insert(root.standardizedFileURL.path).inserted }
        }
        var tightened: [(URL, Int)] = []
        for root in roots {
            let done: PrivateFiles.Tightening
            do {
                done = try PrivateFiles.tighten(root)
            } catch {
                Self.privateRoots.withLock { _ = $0.remove(root.standardizedFileURL.path) }
                throw error
            }
            if done.count > 0 { tightened.append((root, done.count)) }
            for (path, reason) in done.failures {
                warn(say("\(path) could not be made readable by you alone (\(reason)); other accounts on this machine may read it",
                         ja: "\(path) を自分だけが読めるようにできませんでした (\(reason))。このマシンのほかのアカウントが読めるかもしれません"))
            }
        }
        guard !tightened.isEmpty else { return }
        let count = tightened.map(\.1).reduce(0, +)
        let places = tightened.map(\.0.path).joined(separator: ", ")
        note(say("Made \(count) file\(count == 1 ? "" : "s") and folder\(count == 1 ? "" : "s") in \(places) readable by you alone: an "
                 + "earlier version left them readable by other accounts on this machine (the household's purchases, the queue).",
                 ja: "\(places) の\(count)個のファイルとフォルダーを自分だけが読めるようにしました。以前のバージョンはこの"
                     + "マシンのほかのアカウントが読めるように作っていました (家計の支出、送信待ち)。"))
    }
}
