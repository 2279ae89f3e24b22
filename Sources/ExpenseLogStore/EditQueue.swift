import ExpenseLogFormats
import ExpenseLogModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The queue of one environment's edits and deletions (`<state>/<env>/edits`): one file per change, named by the time it
/// was queued, sent in that order by `sync` (or by the next `edit`/`delete`) and removed once the server answered it.
///
/// Both changes are idempotent on the bundled script (deleting what is gone is "missing"; an update sets fields, and
/// finds an item it already moved), so a change whose answer was lost is simply sent again. Senders hold the outbox's
/// sync lock, so two runs never send the same change.
public struct EditQueue: Sendable {
    /// The folder holding the changes.
    public let directory: URL

    /// A queue over a folder, which is created when the first change is queued.
    public init(directory: URL) {
        self.directory = directory
    }

    /// Queues a change as a new file (written whole, then renamed, so a crash leaves all of it or nothing).
    @discardableResult
    public func enqueue(_ change: QueuedEdit.Change, now: Date = Date()) throws -> QueuedEdit {
        let file = directory.appendingPathComponent(Outbox.entryName(now: now))
        try AtomicFile.write(Data(Self.encode(change, queuedAt: now).utf8), to: file)
        return QueuedEdit(change: change, queuedAt: now, file: file)
    }

    /// The queue as read once: every change, the files that cannot be read, and what may be sent now.
    public struct Listing: Sendable {
        /// Every change that can be read, oldest first.
        public let edits: [QueuedEdit]
        /// A message for each file that cannot be read (left in place).
        public let problems: [String]
        /// The changes queued before the first file that cannot be read, which no later change may overtake.
        public let sendable: [QueuedEdit]
        /// That file's problem, if any.
        public let blocker: String?
    }

    /// Every queued change, oldest first, and a message for each file that cannot be read (left in place).
    public func edits() throws -> (edits: [QueuedEdit], problems: [String]) {
        let listed = try listing()
        return (listed.edits, listed.problems)
    }

    /// The queue as it is on disk now.
    public func listing() throws -> Listing {
        let read = try files()
        let end = read.firstIndex { $0.edit == nil } ?? read.endIndex
        return Listing(
            edits: read.compactMap(\.edit), problems: read.compactMap(\.problem),
            sendable: read[..<end].compactMap(\.edit),
            blocker: read[end...].first?.problem)
    }

    private func files() throws -> [(edit: QueuedEdit?, problem: String?)] {
        var listed: [(edit: QueuedEdit?, problem: String?)] = []
        for name in try QueueFolder.entryNames(in: directory, what: "the queue of edits") {
            let file = directory.appendingPathComponent(name)
            let data = FileManager.default.contents(atPath: file.path)
            if data == nil, access(file.path, F_OK) != 0 { continue }  // sent and removed since the folder was listed
            if let data, let edit = Self.decode(Array(data), file: file) {
                listed.append((edit, nil))
            } else {
                listed.append(
                    (
                        nil,
                        "the queued change \(file.path) cannot be read\(data == nil ? " (\(AtomicFile.errorText()))" : ""); it "
                            + "was left in place, and neither it nor the changes queued after it are sent until it is fixed or moved away"
                    ))
            }
        }
        return listed
    }

    /// Removes a change the server answered (or that can never apply).
    public func remove(_ edit: QueuedEdit) throws {
        guard unlink(edit.file.path) == 0 || errno == ENOENT else {
            throw StoreError.writeFailed(
                path: edit.file.path, reason: "it cannot be removed (\(AtomicFile.errorText()))")
        }
        AtomicFile.syncDirectory(directory)
    }

    /// Removes the changes touching these ids (every change when nil); a deletion of several items keeps the others,
    /// rewritten in place so its turn in the queue stays. Returns what was dropped. The caller holds the sync lock.
    public func drop(ids: Set<String>?) throws -> [QueuedEdit] {
        var dropped: [QueuedEdit] = []
        for edit in try edits().edits where ids.map({ !$0.isDisjoint(with: edit.ids) }) ?? true {
            if let ids, case .delete(let items) = edit.change, items.contains(where: { !ids.contains($0.id) }) {
                let kept = items.filter { !ids.contains($0.id) }
                try AtomicFile.write(Data(Self.encode(.delete(kept), queuedAt: edit.queuedAt).utf8), to: edit.file)
                dropped.append(
                    QueuedEdit(
                        change: .delete(items.filter { ids.contains($0.id) }), queuedAt: edit.queuedAt, file: edit.file)
                )
            } else {
                try remove(edit)
                dropped.append(edit)
            }
        }
        return dropped
    }

    /// `{"queuedAt":…,"action":"delete","items":[…]}` or `{"queuedAt":…,"action":"update","item":…,"changed":…,"fields":[…]}`.
    static func encode(_ change: QueuedEdit.Change, queuedAt: Date) -> String {
        let head = "{\"queuedAt\":\(queuedAt.timeIntervalSince1970),"
        switch change {
        case .delete(let items):
            return head + "\"action\":\"delete\",\"items\":[\(items.map(ItemJSON.object).joined(separator: ","))]}\n"
        case let .update(item, changed, fields):
            let names = ItemField.allCases.filter(fields.contains).map { "\"\($0.rawValue)\"" }.joined(separator: ",")
            return head
                + "\"action\":\"update\",\"item\":\(ItemJSON.object(item)),\"changed\":\(ItemJSON.object(changed)),"
                + "\"fields\":[\(names)]}\n"
        }
    }

    /// A change read back from its file, or nil when the bytes are not one.
    static func decode(_ bytes: [UInt8], file: URL) -> QueuedEdit? {
        guard case .object(let members, _)? = try? JSONParser.parse(bytes) else { return nil }
        func itemAt(_ key: String) -> Item? { members[member: key].flatMap { try? ItemCodec.item($0) } }
        guard case .number(let time, _)? = members[member: "queuedAt"], let seconds = Double(time),
            case .string(let action, _)? = members[member: "action"]
        else { return nil }
        let change: QueuedEdit.Change
        switch action {
        case "delete":
            guard case .array(let values, _)? = members[member: "items"] else { return nil }
            let items = values.compactMap { try? ItemCodec.item($0) }
            guard !items.isEmpty, items.count == values.count else { return nil }
            change = .delete(items)
        case "update":
            guard let item = itemAt("item"), let changed = itemAt("changed"),
                case .array(let names, _)? = members[member: "fields"]
            else { return nil }
            let fields = names.compactMap {
                if case .string(let name, _) = $0 { ItemField(rawValue: name) } else { nil }
            }
            guard fields.count == names.count else { return nil }
            change = .update(item: item, changed: changed, fields: Set(fields))
        default:
            return nil
        }
        return QueuedEdit(change: change, queuedAt: Date(timeIntervalSince1970: seconds), file: file)
    }
}
