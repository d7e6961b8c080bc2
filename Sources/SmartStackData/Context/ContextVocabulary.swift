/// Dense ids for one person's context values, per signal (`ContextSignal`), so that the
/// engine and strategies key state by small integers instead of names.
///
/// A signal's ids: a fixed vocabulary's values by their position in `fixedValues`; an
/// open vocabulary's reserved values first (`reservedValues`), then the other values
/// the person's changes hold, in byte order. Ids depend only on the values present, not
/// on their order in time, so a replay of an emitted context file and the simulation
/// that wrote it give every value the same id.
public struct ContextVocabulary: Sendable, Hashable {
  /// `names[signal.rawValue][id]`.
  public private(set) var names: [[String]]

  /// The vocabulary of `values` (signal, value) pairs: the fixed and reserved values of
  /// every signal, and the open values present.
  ///
  /// - Complexity: O(v log v) for v values.
  public init<S: Sequence>(_ values: S) where S.Element == (ContextSignal, String) {
    names = ContextSignal.allCases.map { $0.fixedValues ?? $0.reservedValues }
    var extra = Array(repeating: Set<String>(), count: ContextSignal.allCases.count)
    for (signal, value) in values where !names[signal.rawValue].contains(value) {
      extra[signal.rawValue].insert(value)
    }
    for s in names.indices {
      names[s] += extra[s].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
  }

  /// The number of ids of `signal`.
  public func count(_ signal: ContextSignal) -> Int { names[signal.rawValue].count }

  /// The id of `value` for `signal`, or nil when the vocabulary lacks it. O(k) in the
  /// signal's values.
  public func id(of value: String, _ signal: ContextSignal) -> Int32? {
    names[signal.rawValue].firstIndex(of: value).map(Int32.init)
  }

  /// The name of id `id` for `signal`, or nil when out of range (-1: unknown).
  public func name(_ id: Int32, _ signal: ContextSignal) -> String? {
    id >= 0 && Int(id) < names[signal.rawValue].count ? names[signal.rawValue][Int(id)] : nil
  }
}
