import Testing
import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

/// A small log whose replay numbers were computed by hand (see each test's comment),
/// with `--visits donations --stack all`, UTC, horizon 300 s.
///
/// Donations of one person (2026-03-02 is a Monday):
/// ```
/// d1 03-02 08:00 A    d5 03-02 10:00 B
/// d2 03-02 08:10 B    d6 03-03 08:30 A
/// d3 03-02 09:00 A    d7 03-03 08:40 B
/// d4 03-02 09:05 C    d8 03-03 09:10 B
/// ```
/// Each donation instant is a visit whose target is that donation's kind; the kind is
/// a candidate only if donated before the visit.
enum HandLog {
  static let rows: [(String, String)] = [
    ("2026-03-02T08:00:00Z", "A"), ("2026-03-02T08:10:00Z", "B"),
    ("2026-03-02T09:00:00Z", "A"), ("2026-03-02T09:05:00Z", "C"),
    ("2026-03-02T10:00:00Z", "B"), ("2026-03-03T08:30:00Z", "A"),
    ("2026-03-03T08:40:00Z", "B"), ("2026-03-03T09:10:00Z", "B"),
  ]

  static var csv: String {
    "timestamp,user,kind\n" + rows.map { "\($0.0),u,\($0.1)\n" }.joined()
  }

  static func log() throws -> DonationLog {
    try DonationLog.read(bytes: Array(csv.utf8), file: "hand.csv", format: .csv, timeZone: .utc)
  }

  static func run(_ strategy: String) throws -> RunMetrics {
    let plan = try ReplayPlan(log: log(), options: ReplayOptions())
    let choice = try StrategyRegistry.builtIn.parse(strategy)
    return RunMetrics(Replay.run(plan, choice: choice), days: LocalDays(plan: plan))
  }
}

@Suite("Replay matches hand computation")
struct ReplayHandComputedTests {
  /// mfu ranks (shown first; target rank):
  /// v1 none (miss, not in stack); v2 A (B not in stack); v3 B,A (rank 2: A and B have 1
  /// each, B donated more recently); v4 A (C not in stack); v5 A,C,B (rank 3); v6 B,A,C
  /// (rank 2); v7 A,B,C (rank 2); v8 B (hit: A and B have 3, B more recent).
  @Test func mfuHitRateMrrCoverageAndRotations() throws {
    let m = try HandLog.run("mfu")
    #expect(m.total.visits == 8)
    #expect(m.total.targetVisits == 8)
    #expect(m.total.hits == 1)
    #expect(m.total.hitRate == 0.125)
    #expect(abs(m.total.mrr - (0.5 + 1.0 / 3 + 0.5 + 0.5 + 1) / 8) < 1e-12)
    #expect(m.total.coverage == 5.0 / 8)
    #expect(m.total.hitRateAt3 == 5.0 / 8)
    // Shown: -, A, B, A, A, B, A, B -> 5 rotations over 2 active days.
    #expect(m.total.rotations == 5)
    #expect(m.total.activeDays == 2)
    #expect(m.total.rotationsPerDay == 2.5)
  }

  /// mru: v3 B,A (2); v5 C,A,B (3); v6 B,C,A (3); v7 A,B,C (2); v8 B first (hit).
  @Test func mruHitRateAndMrr() throws {
    let m = try HandLog.run("mru")
    #expect(m.total.hits == 1)
    #expect(abs(m.total.mrr - (0.5 + 1.0 / 3 + 1.0 / 3 + 0.5 + 1) / 8) < 1e-12)
    #expect(m.total.coverage == 5.0 / 8)
  }

  /// hour-of-day (UTC hours): v3 hour 9 all 0 -> B,A (2); v5 hour 10 all 0 -> C,A,B (3);
  /// v6 hour 8 A=1,B=1 -> B,A,C (2); v7 hour 8 A=2,B=1 -> A,B (2); v8 hour 9 A=1,C=1,B=0
  /// -> A,C,B (3). No hit.
  @Test func hourOfDayHitRateAndMrr() throws {
    let m = try HandLog.run("hour-of-day")
    #expect(m.total.hits == 0)
    #expect(m.total.hitRate == 0)
    #expect(abs(m.total.mrr - (0.5 + 1.0 / 3 + 0.5 + 0.5 + 1.0 / 3) / 8) < 1e-12)
  }

  /// The oracle hits every target visit whose target is in the stack: hit rate =
  /// coverage.
  @Test func oracleHitRateEqualsCoverage() throws {
    let m = try HandLog.run("oracle")
    #expect(m.total.hits == 5)
    #expect(m.total.hitRate == m.total.coverage)
  }

  /// Sessions with a 30-minute gap: visits at d1 (first), d3 (50 min after d2), d5
  /// (55 min after d4), d6 (next day) and d8 (exactly 30 min after d7: a gap of at
  /// least 30 minutes); d2, d4 and d7 follow within 30 minutes.
  @Test func sessionVisitsStartAfterAGap() throws {
    var options = ReplayOptions()
    options.visits = .sessions(gapMinutes: 30)
    let plan = try ReplayPlan(log: HandLog.log(), options: options)
    let times = plan.people[0].visitTimes.map { ISO8601.format(Instant(milliseconds: $0)) }
    #expect(times == ["2026-03-02T08:00:00Z", "2026-03-02T09:00:00Z", "2026-03-02T10:00:00Z", "2026-03-03T08:30:00Z", "2026-03-03T09:10:00Z"])
  }

  /// An explicit visit 4 minutes before d2 has target B; one 6 minutes before d3 (8:54)
  /// has none with the default 300 s horizon; one after the last donation has none.
  @Test func explicitVisitsTakeTheFirstDonationWithinTheHorizon() throws {
    var options = ReplayOptions()
    options.visits = .log(
      VisitLog(
        file: "v.csv", users: ["u", "u", "u"],
        times: ["2026-03-02T08:06:00Z", "2026-03-02T08:54:00Z", "2026-03-04T00:00:00Z"].map(ms)))
    let plan = try ReplayPlan(log: HandLog.log(), options: options)
    #expect(plan.people[0].visitTarget == [1, -1, -1])
    let m = RunMetrics(Replay.run(plan, choice: try StrategyRegistry.builtIn.parse("mfu")), days: LocalDays(plan: plan))
    #expect(m.total.visits == 3)
    #expect(m.total.targetVisits == 1)
  }

  /// Warm-up of 1 day: only the three visits of 03-03 are scored.
  @Test func warmupVisitsAreNotScored() throws {
    var options = ReplayOptions()
    options.warmupDays = 1
    let plan = try ReplayPlan(log: HandLog.log(), options: options)
    let m = RunMetrics(Replay.run(plan, choice: try StrategyRegistry.builtIn.parse("mfu")), days: LocalDays(plan: plan))
    #expect(m.total.visits == 3)
    // v6 rank 2, v7 rank 2, v8 hit, as in the full run: learning continued in warm-up.
    #expect(m.total.hits == 1)
  }

  /// top:2 with a 1-day warm-up: day 1 has A×2, B×2, C×1 -> A and B (B more recent at
  /// equal count comes first).
  @Test func topNStackTakesTheMostDonatedKindsOfTheWarmup() throws {
    var options = ReplayOptions()
    options.stack = .top(2)
    options.warmupDays = 1
    let plan = try ReplayPlan(log: HandLog.log(), options: options)
    #expect(plan.people[0].instances.map(\.id) == ["B", "A"])
  }

  @Test func topNWithoutWarmupIsRefused() throws {
    var options = ReplayOptions()
    options.stack = .top(2)
    #expect(throws: ReplayError.self) { try ReplayPlan(log: HandLog.log(), options: options) }
  }
}

func ms(_ text: String) -> Int64 {
  guard case .success(.absolute(let instant)) = ISO8601.parse(text) else { return Int64.min }
  return instant.milliseconds
}
