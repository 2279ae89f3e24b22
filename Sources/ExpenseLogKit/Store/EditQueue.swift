import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A change to items already on the server (the bundled web app's `delete` or `update`), as queued for sending.
public struct QueuedEdit: Sendable, Equatable {
    /// What the change does.
    public enum Change: Sendable, Equatable {
        /// Deletes these items, as the cache held them (their dates name their sheets).
        case delete([Item])
        /// Changes `item` to `changed`, sending only `fields`, so another machine's change to another field is kept.
        case update(item: Item, changed: Item, fields: Set<ItemField>)
    }

    /// The change.
    public let change: Change
    /// When it was queued.
    public let queuedAt: Date
    /// The file it waits in.
    public let file: URL

    /// A change as queued in a file.
    public init(change: Change, queuedAt: Date, file: URL) {
        (self.change, self.queuedAt, self.file) = (change, queuedAt, file)
    }

    /// The ids of the items it touches.
    public var ids: [String] {
        switch change {
        case .delete(let items): items.map(\.id)
        case .update(let item, _, _): [item.id]
        }
    }

    /// Whether it is a deletion.
    public var isDelete: Bool {
        if case .delete = change { true } else { false }
    }

    /// The months it touches, oldest first: an update's old and new.
    public var months: [YearMonth] {
        switch change {
        case .delete(let items): Set(items.map(\.date.yearMonth)).sorted()
        case let .update(item, changed, _): Set([item.date.yearMonth, changed.date.yearMonth]).sorted()
        }
    }
}

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

    /// Every queued change, oldest first, and a message for each file that cannot be read (left in place).
    public func edits() throws -> (edits: [QueuedEdit], problems: [String]) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            var info = stat()
            if stat(directory.path, &info) != 0, errno == ENOENT { return ([], []) }
            throw StoreError.readFailed(path: directory.path, reason: "the queue of edits cannot be listed (\(StoreError.reason(of: error)))")
        }
        var edits: [QueuedEdit] = [], problems: [String] = []
        for name in names.filter({ $0.hasSuffix(".json") && !$0.hasPrefix(".") }).sorted() {
            let file = directory.appendingPathComponent(name)
            let data = FileManager.default.contents(atPath: file.path)
            if data == nil, access(file.path, F_OK) != 0 { continue }  // sent and removed since the folder was listed
            if let data, let edit = Self.decode(Array(data), file: file) {
                edits.append(edit)
            } else {
                problems.append("the queued change \(file.path) cannot be read\(data == nil ? " (\(AtomicFile.errorText()))" : ""); it was "
                                + "left in place and is not sent until it is fixed or moved away")
            }
        }
        return (edits, problems)
    }

    /// Removes a change the server answered (or that can never apply).
    public func remove(_ edit: QueuedEdit) throws {
        guard unlink(edit.file.path) == 0 || errno == ENOENT else {
            throw StoreError.writeFailed(path: edit.file.path, reason: "it cannot be removed (\(AtomicFile.errorText()))")
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
                dropped.append(QueuedEdit(change: .delete(items.filter { ids.contains($0.id) }), queuedAt: edit.queuedAt, file: edit.file))
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
            return head + "\"action\":\"update\",\"item\":\(ItemJSON.object(item)),\"changed\":\(ItemJSON.object(changed)),"
                + "\"fields\":[\(names)]}\n"
        }
    }

    /// A change read back from its file, or nil when the bytes are not one.
    static func decode(_ bytes: [UInt8], file: URL) -> QueuedEdit? {
        guard case .object(let members, _)? = try? JSONParser.parse(bytes) else { return nil }
        func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        func itemAt(_ key: String) -> Item? { member(key).flatMap { try? ItemCodec.item($0) } }
        guard case .number(let time, _)? = member("queuedAt"), let seconds = Double(time),
              case .string(let action, _)? = member("action") else { return nil }
        let change: QueuedEdit.Change
        switch action {
        case "delete":
            guard case .array(let values, _)? = member("items") else { return nil }
            let items = values.compactMap { try? ItemCodec.item($0) }
            guard items.count == values.count else { return nil }
            change = .delete(items)
        case "update":
            guard let item = itemAt("item"), let changed = itemAt("changed"), case .array(let names, _)? = member("fields") else { return nil }
            let fields = names.compactMap { if case .string(let name, _) = $0 { ItemField(rawValue: name) } else { nil } }
            guard fields.count == names.count else { return nil }
            change = .update(item: item, changed: changed, fields: Set(fields))
        default:
            return nil
        }
        return QueuedEdit(change: change, queuedAt: Date(timeIntervalSince1970: seconds), file: file)
    }
}

extension [QueuedEdit] {
    /// A month's items as the server answered them, with these queued changes made in order: deleted items gone, edited
    /// ones changed in the fields the edit sends, an item moved in added and one moved out removed. The cache holds
    /// a month so, as it does right after a change is queued, so a refetch does not bring back what was deleted.
    public func applied(to items: [Item], in month: YearMonth) -> [Item] {
        var items = items
        for edit in self {
            switch edit.change {
            case .delete(let gone):
                let ids = Set(gone.map(\.id))
                items.removeAll { ids.contains($0.id) }
            case let .update(item, changed, fields):
                let index = items.firstIndex { $0.id == item.id }
                let base = index.map { items[$0] } ?? changed
                let result = Item(id: base.id, date: fields.contains(.date) ? changed.date : base.date,
                                  name: fields.contains(.name) ? changed.name : base.name,
                                  price: fields.contains(.price) ? changed.price : base.price,
                                  category: fields.contains(.category) ? changed.category : base.category,
                                  categorySub: fields.contains(.categorySub) ? changed.categorySub : base.categorySub)
                if let index { items.remove(at: index) }
                // An item the server shows in another month comes in only when the edit moves it here.
                guard result.date.yearMonth == month, index != nil || fields.contains(.date) else { continue }
                items.insert(result, at: index ?? items.endIndex)
            }
        }
        return items
    }
}
