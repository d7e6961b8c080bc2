import SmartStackBase

/// The supported parameter combinations each intent type declares (DESIGN.md §4).
///
/// A combination is a set of parameter names, e.g. `[card]` or `[card, category]` for an
/// intent `ViewRecentPurchases`. Names inside a combination are kept sorted and unique.
/// An intent that is not in the catalog declares no combinations.
///
/// The catalog is only ever looked up by name; nothing iterates its storage in hash order
/// (`intents` is sorted).
public struct IntentCatalog: Sendable, Hashable {
  private var table: [String: [[String]]] = [:]

  /// An empty catalog: every intent matches on kind alone.
  public init() {}

  /// A catalog declaring `combinations[intent]` for each intent.
  public init(_ combinations: [String: [[String]]]) {
    for intent in combinations.keys.sorted() {
      declare(intent, combinations: combinations[intent] ?? [])
    }
  }

  /// Declares (replacing any earlier declaration) the supported combinations of `intent`.
  /// Duplicate combinations are kept once, in first-declared order.
  public mutating func declare(_ intent: String, combinations: [[String]]) {
    var normalised: [[String]] = []
    for combination in combinations {
      let names = Array(Set(combination)).sorted()
      if !normalised.contains(names) { normalised.append(names) }
    }
    table[intent] = normalised
  }

  /// The declared combinations of `intent` (each sorted), or `[]` when it declares none.
  public func combinations(of intent: String) -> [[String]] { table[intent] ?? [] }

  /// The intents with a declaration, sorted.
  public var intents: [String] { table.keys.sorted() }

  /// Whether a donation matches a widget instance (DESIGN.md §4).
  ///
  /// True exactly when `kind == instance.kind` and either
  /// - the donation has no intent, or its intent declares no combinations (kind alone), or
  /// - for at least one declared combination, every parameter named in it is present both in
  ///   `parameters` and in `instance.configuration`, with equal values.
  ///
  /// Donated parameters outside the combination are ignored. An empty combination is
  /// satisfied by every donation of the kind.
  ///
  /// - Complexity: O(c·k·p) for c combinations of k names over p donated parameters.
  public func matches(
    kind: String, intent: String?, parameters: [Parameter], instance: WidgetInstance
  ) -> Bool {
    guard kind == instance.kind else { return false }
    guard let intent else { return true }
    let combinations = combinations(of: intent)
    if combinations.isEmpty { return true }
    return combinations.contains { combination in
      combination.allSatisfy { name in
        guard let configured = instance.value(of: name) else { return false }
        return parameters.contains { $0.key == name && $0.value == configured }
      }
    }
  }
}
