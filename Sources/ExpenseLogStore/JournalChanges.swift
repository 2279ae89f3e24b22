import ExpenseLogFormats
import ExpenseLogModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The journal's changes: an edit or a deletion is one entry of its own, sent in the journal's order by `sync` (or by
/// the next `edit`/`delete`) and removed once the server answered it.
///
/// Both changes are idempotent on the bundled script (deleting what is gone is "missing"; an update sets fields, and
/// finds an item it already moved), so a change whose answer was lost is simply sent again. Senders hold the journal's
/// lock, so two runs never send the same change.
extension Journal {
    /// Journals a change as a new entry (written whole, then renamed, so a crash leaves all of it or nothing).
    @discardableResult
    public func append(_ change: QueuedEdit.Change, now: Date = Date()) throws -> QueuedEdit {
        let file = try newEntryFile(now: now)
        try AtomicFile.write(Data(Self.encode(change, queuedAt: now).utf8), to: file)
        return QueuedEdit(change: change, queuedAt: now, file: file)
    }

    /// A change read back from its entry; a `StoreError` saying what is wrong when it is not one.
    func readChange(_ file: URL) throws -> QueuedEdit {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            if access(file.path, F_OK) != 0 { throw CocoaError(.fileReadNoSuchFile) }
            throw StoreError.readFailed(path: file.path, reason: AtomicFile.errorText())
        }
        return try change(from: Array(data), file: file)
    }

    /// A change from a file's bytes; a `StoreError` when they are not one.
    func change(from bytes: [UInt8], file: URL) throws -> QueuedEdit {
        guard let change = Self.decode(bytes, file: file) else {
            throw StoreError.readFailed(path: file.path, reason: "not a change as expense-log writes one")
        }
        return change
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
    public func dropChanges(ids: Set<String>?) throws -> [QueuedEdit] {
        var dropped: [QueuedEdit] = []
        for edit in try listing().changes where ids.map({ !$0.isDisjoint(with: edit.ids) }) ?? true {
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
