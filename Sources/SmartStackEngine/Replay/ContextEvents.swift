import SmartStackBase
import SmartStackData

/// One person's context changes as the engine receives them (`StackSession.contextChange`):
/// ascending by time (ties in the order given), each value an id of `vocabulary`
/// (`ContextVocabulary`, built from this person's values only).
public struct ContextEvents: Sendable, Hashable {
  public var vocabulary: ContextVocabulary
  public var times: [Int64] = []
  public var signals: [ContextSignal] = []
  public var values: [Int32] = []

  /// No context.
  public init() { vocabulary = ContextVocabulary([]) }

  /// The events of `changes`, which must be ascending by time.
  ///
  /// - Complexity: O(c × k) for c changes and k values per signal.
  public init<C: Collection>(_ changes: C) where C.Element == (time: Int64, signal: ContextSignal, value: String) {
    vocabulary = ContextVocabulary(changes.lazy.map { ($0.signal, $0.value) })
    times.reserveCapacity(changes.count)
    for change in changes {
      times.append(change.time)
      signals.append(change.signal)
      values.append(vocabulary.id(of: change.value, change.signal) ?? -1)
    }
  }

  public var isEmpty: Bool { times.isEmpty }
  public var count: Int { times.count }
}

extension ReplayPlan {
  /// The context rows of each person of `log` (by name), each person's in time order
  /// (`ContextLog.changesByPerson()`), after checking that every row names a person of the
  /// log.
  ///
  /// - Throws: `DiagnosticList`, each unknown person located in the context file
  ///   (`FILE:LINE:COLUMN`).
  /// - Complexity: O(r log r) for r rows.
  @usableFromInline package static func checkedContextEvents(_ context: ContextLog, log: DonationLog) throws -> [String: ContextEvents] {
    var problems = DiagnosticCollector(file: context.file)
    var reported = Set<String>()
    for r in 0..<context.count where log.userNames.id(of: context.users[r]) == nil && !problems.isFull {
      guard reported.insert(context.users[r]).inserted else { continue }
      let p = context.userPositions[r]
      problems.report(
        line: p.line, column: p.column,
        "unknown user '\(context.users[r])': the log has no donation of this person")
    }
    try problems.throwIfAny()
    var events: [String: ContextEvents] = [:]
    for (user, rows) in context.changesByPerson() {
      events[user] = ContextEvents(rows.map { (context.times[$0], context.signals[$0], context.values[$0]) })
    }
    return events
  }
}
