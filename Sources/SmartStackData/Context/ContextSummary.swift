import SmartStackBase

/// What a context file holds, per signal: how often it changes, for how many people, and
/// how the known time splits between its values (`validate --context`).
///
/// Known time: for each person and signal, a value holds from its row until the person's
/// next row of that signal, or until the person's last row of any signal (the end of
/// what the file says about them); before their first row of the signal nothing is known
/// and nothing counts. A value's share is its known time over the signal's known time,
/// summed over people.
public struct ContextSummary: Sendable, Hashable {
  /// One value of a signal and the time it held.
  public struct Value: Sendable, Hashable {
    public var value: String
    /// Rows that set it.
    public var changes: Int
    /// Milliseconds it held (known time).
    public var milliseconds: Int64
  }

  /// One signal's figures.
  public struct Signal: Sendable, Hashable {
    public var signal: ContextSignal
    /// Rows of this signal, and the people with at least one.
    public var changes: Int
    public var people: Int
    /// Its values, by known time descending, then rows descending, then value (bytes).
    public var values: [Value]
    /// The signal's known time (ms), summed over people.
    public var milliseconds: Int64

    /// `value`'s share of the known time (0 when nothing is known).
    public func share(of value: Value) -> Double {
      milliseconds > 0 ? Double(value.milliseconds) / Double(milliseconds) : 0
    }
  }

  /// Rows, distinct people, and the first and last row's time (nil for an empty file).
  public var changes: Int
  public var people: Int
  public var first: Instant?
  public var last: Instant?
  /// The signals the file has rows of, in `ContextSignal` order.
  public var signals: [Signal]

  /// Summarises `log`.
  ///
  /// - Complexity: O(r log r) for r rows.
  public init(_ log: ContextLog) {
    changes = log.count
    let people = log.changesByPerson()
    self.people = people.count
    first = log.times.min().map { Instant(milliseconds: $0) }
    last = log.times.max().map { Instant(milliseconds: $0) }
    let signalCount = ContextSignal.allCases.count
    var rows = Array(repeating: 0, count: signalCount)
    var peopleWith = Array(repeating: 0, count: signalCount)
    // Per signal: value -> (rows, ms); names kept in first-seen order, sorted at the end.
    var held = Array(repeating: [String: (changes: Int, ms: Int64)](), count: signalCount)
    for (_, order) in people {
      guard let end = order.last.map({ log.times[$0] }) else { continue }
      var current = Array(repeating: (value: "", since: Int64.min), count: signalCount)
      var seen = Array(repeating: false, count: signalCount)
      for r in order {
        let s = log.signals[r].rawValue
        if seen[s] { held[s][current[s].value, default: (0, 0)].ms += log.times[r] - current[s].since }
        if !seen[s] { peopleWith[s] += 1 }
        seen[s] = true
        rows[s] += 1
        held[s][log.values[r], default: (0, 0)].changes += 1
        current[s] = (log.values[r], log.times[r])
      }
      for s in 0..<signalCount where seen[s] {
        held[s][current[s].value, default: (0, 0)].ms += end - current[s].since
      }
    }
    signals = ContextSignal.allCases.filter { rows[$0.rawValue] > 0 }.map { signal in
      let s = signal.rawValue
      let values = held[s].map { Value(value: $0.key, changes: $0.value.changes, milliseconds: $0.value.ms) }
        .sorted {
          if $0.milliseconds != $1.milliseconds { return $0.milliseconds > $1.milliseconds }
          if $0.changes != $1.changes { return $0.changes > $1.changes }
          return $0.value.utf8.lexicographicallyPrecedes($1.value.utf8)
        }
      return Signal(
        signal: signal, changes: rows[s], people: peopleWith[s], values: values,
        milliseconds: values.reduce(0) { $0 + $1.milliseconds })
    }
  }
}
