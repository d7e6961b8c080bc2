import SmartStackBase
import SmartStackData

extension ReplayPlan {
  /// The rows of `scores` per person, after checking that every row names a person of
  /// `log` and an instance (or kind) of the stack: for a stack file its instance ids (or
  /// kinds), for `all` and `top:N` a kind of the log (the instance id is the kind).
  ///
  /// - Throws: `DiagnosticList`, each problem located in the score file
  ///   (`FILE:LINE:COLUMN`).
  /// - Complexity: O(R × n) for R rows and n instances of a stack file.
  @usableFromInline package static func checkedScoreRows(
    _ scores: ScoreFile, log: DonationLog, stack: ReplayOptions.Stack
  ) throws -> [String: [Int]] {
    var problems = DiagnosticCollector(file: scores.file)
    var rows: [String: [Int]] = [:]
    let known: (String) -> Bool
    let what: String
    switch stack {
    case .fixed(let spec):
      let names = Set(spec.instances.map { scores.target == .kind ? $0.kind : $0.id })
      known = { names.contains($0) }
      what = scores.target == .kind
        ? "no instance of the stack \(spec.file) has kind"
        : "the stack \(spec.file) has no instance"
    case .all, .top:
      known = { log.kindNames.id(of: $0) != nil }
      what = "the log has no kind"
    }
    for r in 0..<scores.count where !problems.isFull {
      let user = scores.users[r]
      if log.userNames.id(of: user) == nil {
        let p = scores.userPositions[r]
        problems.report(line: p.line, column: p.column, "unknown user '\(user)': the log has no donation of this person")
        continue
      }
      let target = scores.targets[r]
      if !known(target) {
        let p = scores.targetPositions[r]
        problems.report(line: p.line, column: p.column, "unknown \(scores.target.rawValue) '\(target)': \(what) '\(target)'")
        continue
      }
      rows[user, default: []].append(r)
    }
    try problems.throwIfAny()
    return rows
  }

  /// One person's score events from their rows (in time order, ties in file order):
  /// a row naming an instance is one event for that instance, a row naming a kind one
  /// event for each instance of that kind, in stack order. A row naming nothing in this
  /// person's stack (a kind they never donate, for `all`) is unused.
  ///
  /// - Complexity: O(R × n) for the person's R rows and n instances.
  @usableFromInline package static func addScoreEvents(
    _ scores: ScoreFile, rows: [Int], to person: inout Person
  ) {
    for r in rows {
      let target = scores.targets[r]
      for (i, instance) in person.instances.enumerated()
      where (scores.target == .kind ? instance.kind : instance.id) == target {
        person.scoreTimes.append(scores.times[r])
        person.scoreInstance.append(Int32(i))
        person.scoreValues.append(scores.scores[r])
      }
    }
  }
}

extension ReplayPlan.Person {
  /// Each instance's outside scores over time, from the score events (for tests and
  /// tools that look at a whole series; the engine receives the events one by one, at
  /// their times).
  ///
  /// - Complexity: O(E + n) for E score events and n instances.
  public var scoreSeries: [ScoreSeries] {
    var series = Array(repeating: ScoreSeries(), count: instances.count)
    for k in scoreTimes.indices {
      series[Int(scoreInstance[k])].times.append(scoreTimes[k])
      series[Int(scoreInstance[k])].values.append(scoreValues[k])
    }
    return series
  }
}
