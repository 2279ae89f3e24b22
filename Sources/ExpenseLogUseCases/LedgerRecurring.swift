import ExpenseLogClient
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// Where the household's fixed-cost rules are kept.
public enum RuleHome: Sendable, Equatable {
    /// On the server (the bundled script's sheet 固定費 in 家計簿_固定費), shared by every machine and the partner.
    case server(URL)
    /// In a file on this machine: the server keeps none (another script), or there is no server (`dummy`).
    case machine(URL, noServer: Bool)
}

/// The fixed-cost rules as read, and from where.
public struct RecurringRules: Sendable {
    /// The rules, in the order they were added.
    public let rules: [RecurringRule]
    /// Where they are kept.
    public let home: RuleHome
    /// Why the server could not be asked: `rules` are then this machine's last copy of the server's.
    public let unreachable: APIError?
    /// What the server said of rows of the rules sheet it could not read (a person's typing).
    public let notices: [String]
}

/// Why rules cannot be changed now.
public enum RuleChangeError: Error, Sendable {
    /// The server could not be asked: nothing was changed (rules do not wait in the journal).
    case unreachable(APIError)
}

extension Ledger {
    /// The rules kept on this machine when the server keeps none: with the configuration, one file per environment.
    nonisolated var machineRules: RecurringRuleFile {
        RecurringRuleFile(
            url: config.paths.configDirectory.appendingPathComponent(
                "recurring-\(config.environment.value.rawValue).json"))
    }

    /// This machine's last copy of the server's rules (read when it cannot be reached).
    nonisolated var serverRulesCopy: RecurringRuleFile {
        RecurringRuleFile(url: config.cacheDirectory.appendingPathComponent("recurring.json"))
    }

    /// The rules kept on this machine, as a home.
    private nonisolated var onMachine: RuleHome {
        .machine(machineRules.url, noServer: !config.environment.value.usesNetwork)
    }

    /// Where the rules are kept: the server when it offers the `rules` action; nil with the error when it cannot be
    /// asked.
    private nonisolated func ruleHome(_ link: ServerLink?) async throws -> (home: RuleHome, unreachable: APIError?) {
        guard config.environment.value.usesNetwork, let link else { return (onMachine, nil) }
        switch try await EditTargets.availability(of: "rules", link.client, repository) {
        case .offered: return (.server(link.client.baseURL), nil)
        case .absent: return (onMachine, nil)
        case .unknown(let error):
            // Cannot tell: a machine that kept rules of its own goes on with them, else with its copy of the server's.
            if (try? machineRules.load().isEmpty) == false { return (onMachine, nil) }
            return (.server(link.client.baseURL), error)
        }
    }

    /// The household's fixed-cost rules: from the server when it keeps them (its copy kept for offline reads), else
    /// from this machine. Rules this machine kept before the server offered them are moved up once (`hooks.notice`).
    public nonisolated func recurringRules(link: ServerLink?) async throws -> RecurringRules {
        let (home, unreachable) = try await ruleHome(link)
        guard case .server(let url) = home, let link else {
            return RecurringRules(rules: try machineRules.load(), home: home, unreachable: nil, notices: [])
        }
        if let unreachable {
            return RecurringRules(rules: try serverRulesCopy.load(), home: home, unreachable: unreachable, notices: [])
        }
        var read: ServerRules
        do {
            read = try await link.client.rules()
        } catch let error as APIError where error.isTransient {
            return RecurringRules(rules: try serverRulesCopy.load(), home: home, unreachable: error, notices: [])
        }
        let local = try machineRules.load()
        if !local.isEmpty {
            let known = Set(read.rules.map(\.id))
            let moving = local.filter { !known.contains($0.id) }
            if !moving.isEmpty { read = try await link.client.saveRules(put: moving, remove: []) }
            try FileManager.default.removeItem(at: machineRules.url)
            hooks.notice(.recurringRulesMoved(count: moving.count, from: machineRules.url, to: url))
        }
        // No rules and a notice (the spreadsheet in the trash): the copy keeps what was known.
        if !read.rules.isEmpty || read.notices.isEmpty { try? await serverRulesCopy.save(read.rules) }
        return RecurringRules(rules: read.rules, home: home, unreachable: nil, notices: read.notices)
    }

    /// Adds or replaces `put` (by id) and removes the rules `remove` names, where the rules are kept; every rule after.
    /// Throws `RuleChangeError.unreachable` when the server cannot be asked (nothing changed).
    public nonisolated func changeRules(
        put: [RecurringRule], remove: [String], link: ServerLink?
    ) async throws -> RecurringRules {
        let (home, unreachable) = try await ruleHome(link)
        if let unreachable { throw RuleChangeError.unreachable(unreachable) }
        guard case .server = home, let link else {
            let rules = try await machineRules.update { rules in
                rules.removeAll { rule in remove.contains(rule.id) || put.contains { $0.id == rule.id } }
                rules.append(contentsOf: put)
                return rules
            }
            return RecurringRules(rules: rules, home: home, unreachable: nil, notices: [])
        }
        do {
            let saved = try await link.client.saveRules(put: put, remove: remove)
            try? await serverRulesCopy.save(saved.rules)
            return RecurringRules(rules: saved.rules, home: home, unreachable: nil, notices: saved.notices)
        } catch let error as APIError where error.isTransient {
            throw RuleChangeError.unreachable(error)
        }
    }
}

extension Ledger {
    /// The occurrences of `due` this machine does not know to be there: none cached with its id or as a payment a
    /// person typed (`RecurringOccurrence.holder`), none waiting in the journal, none deleted here. What it lets through
    /// is compared with the server by `register` all the same; this only keeps a daily `recurring post` quiet and
    /// offline when there is nothing to do.
    public nonisolated func unposted(_ due: [RecurringOccurrence]) async -> [RecurringOccurrence] {
        guard !due.isEmpty else { return [] }
        let months = Set(due.flatMap { [$0.month.previous, $0.month, $0.month.next] })
        // Only the months the occurrences could be held in are read, not the whole cache.
        var known: [Item] = []
        for month in months.sorted() { known += ((try? await repository.month(month))??.items) ?? [] }
        if let listed = try? journal.listing() {
            for entry in listed.itemEntries {
                _ = try? journal.forEachBatch(of: entry) { known.append(contentsOf: $0.items) }
            }
        }
        let deleted = deletedIDs()
        let ids = Set(due.map(\.id))
        return due.filter {
            !deleted.contains($0.id)
                && $0.holder(among: known, window: RecurringOccurrence.window, others: ids.subtracting([$0.id])) == nil
        }
    }
}

extension Ledger {
    /// The rules a run of statement rows meets, read without a question to the person: the server's when it answers
    /// `?action=rules` (another script answers no such thing: then this machine's), this machine's copy of them when it
    /// cannot be reached; never a failure (matching then meets fewer rules).
    nonisolated func recurringRulesForMatching(link client: ExpenseLogAPIClient?) async -> [RecurringRule] {
        let local = (try? machineRules.load()) ?? []
        guard config.environment.value.usesNetwork, let client else { return local }
        let server: [RecurringRule]
        do {
            let read = try await client.rules()
            server = read.rules
            if !server.isEmpty || read.notices.isEmpty { try? await serverRulesCopy.save(server) }
        } catch let error as APIError where error.isTransient {
            server = (try? serverRulesCopy.load()) ?? []
        } catch {
            return local
        }
        return Self.merged(server, local)
    }

    /// The server's rules, then this machine's that the server lacks (not yet moved up).
    static func merged(_ server: [RecurringRule], _ local: [RecurringRule]) -> [RecurringRule] {
        let ids = Set(server.map(\.id))
        return server + local.filter { !ids.contains($0.id) }
    }
}

extension Ledger {
    /// The ids of the items deleted on this machine (`delete` keeps them, so that nothing brings them back).
    public nonisolated func deletedIDs() -> Set<String> {
        Set(((try? decisions.load()) ?? [:]).filter { $0.value.by == .deletion }.keys)
    }

    /// The rules this machine knows without asking the server: its copy of the server's (refreshed by every `recurring`
    /// command and statement import) and its own. What `fetch`, `summary` and `report` expect from; never a failure.
    public nonisolated func knownRules() -> [RecurringRule] {
        Self.merged((try? serverRulesCopy.load()) ?? [], (try? machineRules.load()) ?? [])
    }
}
