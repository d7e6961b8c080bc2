import Foundation
import Testing
import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies

/// Records the shown instance and the features at every visit.
private struct ShownTrace: OutcomeObserver {
  var visits: [(person: Int32, time: Int64, shown: Int32, available: [Bool], last: [Int64], count: [Int32])] = []
  mutating func observe(
    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    visits.append((o.person, o.time, o.shown, features.available, features.lastDonation, features.donationCount))
  }
}

/// Records, at every visit, the shown and the previous instance, the rule and the
/// candidates' tie-break features.
private struct RuleTrace: OutcomeObserver {
  var visits: [(person: Int32, time: Int64, shown: Int32, previous: Int32, rule: String, available: [Bool], last: [Int64], count: [Int32])] = []
  mutating func observe(
    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    visits.append((o.person, o.time, o.shown, o.previous, "\(o.rule)", features.available, features.lastDonation, features.donationCount))
  }
}

/// Scores from an outside model (issue 32 item 3): the score file, its located errors,
/// and the `scores` strategy's ranking at every visit.
@Suite("Scores from an outside model")
struct ScoresStrategyTests {
  static let log = """
    timestamp,user,kind
    2026-03-02T08:00:00Z,ana,A
    2026-03-02T09:00:00Z,ana,B
    2026-03-02T10:00:00Z,ben,C

    """

  /// Epoch ms of an ISO 8601 time with `Z`.
  static func ms(_ text: String) -> Int64 {
    Array(text.utf8).withUnsafeBufferPointer { try! ZoneRules.utc.instant(parsing: $0).get().milliseconds }
  }

  static func plan(_ scores: String, log: String = Self.log, stack: ReplayOptions.Stack = .all) throws -> ReplayPlan {
    var options = ReplayOptions()
    options.stack = stack
    options.scores = try ScoreFile.read(bytes: Array(scores.utf8), file: "s.csv")
    return try ReplayPlan(log: try DonationLog.read(bytes: Array(log.utf8), file: "l.csv", format: .csv), options: options)
  }

  /// The rendered diagnostics of reading (and checking) `scores`, or [] when it is fine.
  static func problems(_ scores: String) -> [String] {
    do {
      _ = try plan(scores)
      return []
    } catch let list as DiagnosticList {
      return list.diagnostics.map(\.description)
    } catch {
      return ["\(error)"]
    }
  }

  @Test func aGoodFileGivesEachInstanceItsSeriesInTimeOrder() throws {
    let plan = try Self.plan("""
      user,timestamp,instance,score
      ana,2026-03-02T07:00:00Z,A,0.5
      ana,2026-03-02T08:30:00+01:00,B,2
      ana,2026-03-02T09:30:00Z,A,3
      ben,2026-03-02T07:00:00Z,C,-1

      """)
    let ana = try #require(plan.people.first { $0.name == "ana" })
    #expect(ana.instances.map(\.id) == ["A", "B"])
    #expect(ana.scoreSeries[0].times.count == 2 && ana.scoreSeries[0].values == [0.5, 3])
    #expect(ana.scoreSeries[1].values == [2])
    #expect(ana.scoreSeries[0].value(at: Self.ms("2026-03-02T07:00:00Z") - 1) == nil)
    #expect(ana.scoreSeries[0].value(at: Self.ms("2026-03-02T09:29:59Z")) == 0.5)
    #expect(ana.scoreSeries[0].value(at: Self.ms("2026-03-02T09:30:00Z")) == 3)
    let ben = try #require(plan.people.first { $0.name == "ben" })
    #expect(ben.scoreSeries[0].values == [-1])
  }

  @Test func eachErrorIsLocated() {
    #expect(Self.problems("user,timestamp,instance,score\nzed,2026-03-02T07:00:00Z,A,1\n") == [
      "s.csv:2:1: unknown user 'zed': the log has no donation of this person"
    ])
    #expect(Self.problems("user,timestamp,instance,score\nana,2026-03-02T07:00:00Z,Nope,1\n") == [
      "s.csv:2:26: unknown instance 'Nope': the log has no kind 'Nope'"
    ])
    #expect(Self.problems("user,timestamp,instance,score\nana,2026-03-02T07:00:00Z,A,1\nana,2026-03-02T06:00:00Z,A,1\n") == [
      "s.csv:3:5: time out of order: user 'ana' has a score at 2026-03-02T07:00:00Z on an earlier row; each user's rows go in time order"
    ])
    #expect(Self.problems("user,timestamp,instance,score\nana,2026-03-02T07:00:00Z,A,high\nana,2026-03-02T07:00:00Z,A,nan\n") == [
      "s.csv:2:28: score 'high' is not a finite decimal number",
      "s.csv:3:28: score 'nan' is not a finite decimal number",
    ])
    #expect(Self.problems("user,timestamp,instance,score\nana,2026-13-02T07:00:00Z,A,1\n") == [
      "s.csv:2:10: timestamp: month 13 is out of range 01...12"
    ])
    #expect(Self.problems("user,timestamp,score\n").first?.hasPrefix("s.csv:1:1: missing required column 'instance' (or 'kind') (columns found") == true)
    // A stack file: instance ids, or its kinds with a `kind` column.
    let stack = StackSpec(file: "st.json", instances: [WidgetInstance(id: "a1", kind: "A"), WidgetInstance(id: "b1", kind: "B")])
    #expect(throws: DiagnosticList.self) { try Self.plan("user,timestamp,instance,score\nana,2026-03-02T07:00:00Z,A,1\n", stack: .fixed(stack)) }
    #expect(throws: Never.self) { try Self.plan("user,timestamp,kind,score\nana,2026-03-02T07:00:00Z,A,1\n", stack: .fixed(stack)) }
  }

  /// A generated log and score file (`seed`): the log's text, the score file's text and
  /// each user's rows (time, kind, score) in file order.
  static func generated(seed: UInt64) -> (log: String, scores: String, rows: [String: [(time: Int64, kind: String, score: Double)]]) {
    var random = SplitMix64(seed: seed)
    let kinds = ["K0", "K1", "K2", "K3", "K4"]
    let users = ["u0", "u1", "u2"]
    let start = Self.ms("2026-03-02T00:00:00Z")
    var logText = "timestamp,user,kind\n"
    var t = start
    for _ in 0..<300 {
      t += Int64(random.next() % 1_800_000)
      logText += "\(ISO8601.format(Instant(milliseconds: t))),\(users[Int(random.next() % 3)]),\(kinds[Int(random.next() % 5)])\n"
    }
    var scoreText = "user,timestamp,kind,score\n"
    var raw: [String: [(time: Int64, kind: String, score: Double)]] = [:]
    for user in users {
      var s = start - 3_600_000
      for _ in 0..<80 {
        s += Int64(random.next() % 7_200_000)
        let kind = kinds[Int(random.next() % 5)]
        // Few distinct values, so ties happen.
        let score = Double(random.next() % 4) / 2
        scoreText += "\(user),\(ISO8601.format(Instant(milliseconds: s))),\(kind),\(NumberFormat.format(score))\n"
        raw[user, default: []].append((s, kind, score))
      }
    }
    return (logText, scoreText, raw)
  }

  /// The candidate with the highest latest score dated `<= time` among `rows` (minus
  /// infinity before an instance's first), ties broken as the engine does (more recent
  /// donation, more donations, kind name, index); -1 without a candidate.
  static func top(
    _ person: ReplayPlan.Person, rows: [(time: Int64, kind: String, score: Double)], at time: Int64,
    available: [Bool], last: [Int64], count: [Int32]
  ) -> Int32 {
    func score(_ i: Int) -> Double {
      let kind = person.instances[i].kind
      return rows.last { $0.time <= time && $0.kind == kind }?.score ?? -.infinity
    }
    let best = person.instances.indices.filter { available[$0] }.min { a, b in
      let (sa, sb) = (score(a), score(b))
      if sa != sb { return sa > sb }
      if last[a] != last[b] { return last[a] > last[b] }
      if count[a] != count[b] { return count[a] > count[b] }
      let (ka, kb) = (person.instances[a].kind, person.instances[b].kind)
      if ka != kb { return Array(ka.utf8).lexicographicallyPrecedes(Array(kb.utf8)) }
      return a < b
    }
    return Int32(best ?? -1)
  }

  /// The same under the rotation limit (1 an hour, 3 a day): at every visit the shown
  /// instance is the highest-scored candidate by the latest scores dated at or before
  /// the visit (engine tie-break), unless the limit is used up (rule `stack rotation
  /// limit`), and then it is the one shown before.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func underTheRotationLimitEachVisitShowsTheTopScoreOrStays(seed: UInt64) throws {
    let (logText, scoreText, raw) = Self.generated(seed: seed)
    var options = ReplayOptions()
    options.stack = .all
    options.stackRules = StackRuleSettings(rotationLimit: RotationLimit(perHour: 1, perDay: 3))
    options.scores = try ScoreFile.read(bytes: Array(scoreText.utf8), file: "s.csv")
    let plan = try ReplayPlan(
      log: try DonationLog.read(bytes: Array(logText.utf8), file: "l.csv", format: .csv), options: options)
    let trace = Replay.run(
      plan, strategy: ScoresStrategy(parameters: .none),
      descriptor: StrategyDescriptor(name: "scores", parameters: .none), observer: RuleTrace())
    #expect(trace.visits.count == plan.visitCount)
    var refused = 0
    for v in trace.visits {
      let person = plan.people[Int(v.person)]
      let best = Self.top(person, rows: raw[person.name]!, at: v.time, available: v.available, last: v.last, count: v.count)
      let at = "person \(person.name) at \(ISO8601.format(Instant(milliseconds: v.time)))"
      if v.rule == "stack rotation limit" {
        // The limit is used up: the stack stays, whatever the scores.
        #expect(v.shown == v.previous, "\(at)")
        if best != v.previous { refused += 1 }
      } else {
        #expect(v.shown == best, "\(at): \(v.rule)")
      }
    }
    // The limit did refuse rotations the scores asked for.
    #expect(refused > 0)
  }

  /// A generated log and score file, rules unconstrained: at every visit the shown
  /// instance is the candidate with the highest latest score, ties (and no score, which
  /// is minus infinity) broken as the engine does.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func theRankingEqualsTheScoresAtEveryVisit(seed: UInt64) throws {
    let (logText, scoreText, raw) = Self.generated(seed: seed)
    let plan = try Self.plan(scoreText, log: logText)
    let trace = Replay.run(
      plan, strategy: ScoresStrategy(parameters: .none),
      descriptor: StrategyDescriptor(name: "scores", parameters: .none), observer: ShownTrace())
    #expect(trace.visits.count == plan.visitCount)
    for v in trace.visits {
      let person = plan.people[Int(v.person)]
      let best = Self.top(person, rows: raw[person.name]!, at: v.time, available: v.available, last: v.last, count: v.count)
      #expect(v.shown == best, "person \(person.name) at \(ISO8601.format(Instant(milliseconds: v.time)))")
    }
  }
}
