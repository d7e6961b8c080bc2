import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual

/// `context-bandit` by its definition: a ridge model per instance over one-hot context and
/// hour features, scored by linear Thompson draws, learning from the features of the
/// visit an outcome belongs to.
@Suite("context-bandit")
struct ContextBanditTests {
  let start = ms("2026-03-02T08:00:00Z")  // a Monday, 08h UTC
  static let vocabulary = ContextVocabulary([(.place, "home"), (.place, "work"), (.charging, "on")])

  func session(_ spec: String, seed: UInt64 = 42)
    throws -> StackSession<DynamicPath<ContextBanditStrategy>, BanditScoreLog>
  {
    let choice = try StrategyRegistry.builtIn.parse(spec)
    var s = StackSession(
      person: 0, instances: (0..<3).map { WidgetInstance(id: "w\($0)", kind: "K\($0)") },
      strategy: choice.prototype as! ContextBanditStrategy, observer: BanditScoreLog(), zone: .utc,
      options: EngineOptions(), strategySeed: seed)
    for i in 0..<3 { s.makeAvailable(i) }
    s.beginContext(Self.vocabulary)
    return s
  }

  func place(_ name: String) -> Int32 { Self.vocabulary.id(of: name, .place)! }

  func snapshot(place: String) -> ContextSnapshot {
    var values = SIMD8<Int32>(repeating: -1)
    values[ContextSignal.place.rawValue] = self.place(place)
    return ContextSnapshot(values)
  }

  /// Solves `A x = b` by Gaussian elimination with partial pivoting (a reference for the
  /// Sherman–Morrison updates).
  static func solve(_ a: [[Double]], _ b: [Double]) -> [Double] {
    var m = a
    var y = b
    let n = b.count
    for c in 0..<n {
      let p = (c..<n).max { abs(m[$0][c]) < abs(m[$1][c]) }!
      m.swapAt(c, p)
      y.swapAt(c, p)
      for r in (c + 1)..<n {
        let f = m[r][c] / m[c][c]
        for k in c..<n { m[r][k] -= f * m[c][k] }
        y[r] -= f * y[c]
      }
    }
    var x = [Double](repeating: 0, count: n)
    for r in stride(from: n - 1, through: 0, by: -1) {
      var s = y[r]
      for k in (r + 1)..<n { s -= m[r][k] * x[k] }
      x[r] = s / m[r][r]
    }
    return x
  }

  /// Over random 0/1 observations, the kept `A⁻¹` and `θ` are those of the ridge model
  /// built from scratch: `A = λI + Σ x xᵀ`, `θ = A⁻¹ b`, for every arm and seed.
  @Test(arguments: [1 as UInt64, 2, 3, 4, 5])
  func theUpdatedModelIsTheRidgeSolutionBuiltFromScratch(seed: UInt64) {
    let d = 9
    let lambda = 0.7
    var arms = LinearArms(instances: 2, dimension: d, lambda: lambda)
    var a = (0..<2).map { _ in (0..<d).map { r in (0..<d).map { c in r == c ? lambda : 0 } } }
    var b = [[Double]](repeating: [Double](repeating: 0, count: d), count: 2)
    var g = Xoshiro256StarStar(seed: seed)
    for _ in 0..<300 {
      let arm = g.nextInt(below: 2)
      let active = (0..<d).filter { _ in g.nextInt(below: 3) == 0 }
      let reward = g.nextInt(below: 2) == 0 ? 1.0 : 0.0
      arms.update(arm, active: active[...], reward: reward)
      for r in active {
        b[arm][r] += reward
        for c in active { a[arm][r][c] += 1 }
      }
    }
    for arm in 0..<2 {
      let theta = Self.solve(a[arm], b[arm])
      for r in 0..<d {
        #expect(abs(arms.theta[arm * d + r] - theta[r]) < 1e-9)
        let column = Self.solve(a[arm], (0..<d).map { $0 == r ? 1 : 0 })
        for c in 0..<d { #expect(abs(arms.inverse[arm * d * d + c * d + r] - column[c]) < 1e-9) }
      }
    }
  }

  /// The score of each candidate is `θᵀx + v·√(xᵀA⁻¹x)·z` with z from the strategy's own
  /// stream in instance order; before any outcome, θ = 0 and A⁻¹ = I/λ, so with x of k
  /// ones the score is `v·√(k/λ)·z`. At home with charging unknown, k = 3 (intercept,
  /// home, hour bucket); a non-candidate gets no draw.
  @Test func firstScoresAreNormalDrawsWithThePriorsSpread() throws {
    var s = try session("context-bandit:v=0.5:lambda=2")
    s.setAvailable(1, false)
    s.contextChange(.place, value: place("home"), at: start)
    s.visit(at: start, hasTarget: false, targets: [])
    let normal = ZigguratNormal()
    var g = Xoshiro256StarStar(seed: 42)
    let spread = 0.5 * (3.0 / 2).squareRoot()
    let first = [spread * normal.next(using: &g), -.infinity, spread * normal.next(using: &g)]
    #expect(s.observer.scores == [first])
  }

  /// With v = 0 the score is the ridge mean: after taps of w0 at home and of w1 at work
  /// (and misses of the other), home ranks w0 first and work w1, at the same hour.
  @Test func itLearnsWhichWidgetIsTappedAtEachPlace() throws {
    var s = try session("context-bandit:v=0")
    var t = start
    for _ in 0..<30 {
      for (where_, good) in [("home", 0), ("work", 1)] {
        for shown in 0..<2 {
          let f = VisitFeedback(
            visitTime: t, hourOfDay: 8, hourOfWeek: 8, shown: Int32(shown), tapped: shown == good,
            device: snapshot(place: where_))
          t += 60_000
          s.reveal(f, at: t)
        }
      }
    }
    s.contextChange(.place, value: place("home"), at: t)
    s.visit(at: t, hasTarget: false, targets: [])
    s.contextChange(.place, value: place("work"), at: t + 1)
    s.visit(at: t + 1, hasTarget: false, targets: [])
    let (home, work) = (s.observer.scores[0], s.observer.scores[1])
    #expect(home[0] > home[1] && home[0] > 0.9)
    #expect(work[1] > work[0] && work[1] > 0.9)
  }

  /// An outcome trains on the context of its visit, not the one at its reveal: replay
  /// keeps the visit's device values in `VisitFeedback.device`.
  @Test func theFeedbackCarriesTheVisitsContextNotTheReveals() throws {
    struct Probe: OutcomeLearningStrategy {
      static let info = StrategyInfo(name: "probe", summary: "records feedback")
      var seen: [(visit: Int32, reveal: Int32)] = []
      init(parameters: StrategyParameters) {}
      mutating func begin(_ setup: StrategySetup) {}
      mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
        for i in 0..<context.instanceCount where context.isCandidate(i) { ranking.scores[i] = 0 }
      }
      mutating func observe(outcome: VisitFeedback, context: StackContext) {
        seen.append((outcome.device[.place], context.device[.place]))
      }
    }
    let log = try DonationLog.read(bytes: Array("timestamp,user,kind\n2026-03-02T08:01:00Z,ana,A\n".utf8), file: "l.csv", format: .csv)
    var options = ReplayOptions()
    options.stack = .fixed(StackSpec(file: "s", instances: [WidgetInstance(id: "A", kind: "A")]))
    options.visits = .log(VisitLog(file: "v", users: ["ana", "ana"], times: [start, start + 3_600_000]))
    options.context = try ContextLog.read(bytes: Array("""
      timestamp,user,signal,value
      2026-03-02T07:00:00Z,ana,place,home
      2026-03-02T08:00:30Z,ana,place,work
      2026-03-02T08:30:00Z,ana,place,home

      """.utf8), file: "c.csv")
    let plan = try ReplayPlan(log: log, options: options)
    var session = StackSession(
      person: 0, instances: plan.people[0].instances, strategy: Probe(parameters: try StrategyParameters(specs: [], given: [], strategy: "probe")),
      observer: BanditScoreLog(), zone: .utc, options: EngineOptions(), strategySeed: 1)
    Replay.run(plan.people[0], horizon: 300_000, session: &session)
    let vocabulary = plan.people[0].context.vocabulary
    // The 08:00 visit (at home) is tapped at 08:01 (at work); the 09:00 visit (home)
    // misses at 09:05 and its reveal comes after the run's last event, if at all.
    let first = try #require(session.strategy.seen.first)
    #expect(first.visit == vocabulary.id(of: "home", .place))
    #expect(first.reveal == vocabulary.id(of: "work", .place))
  }

  /// Logged with estimated propensities that sum to 1, and the run is the same with and
  /// without logging; on the commuter-context scenario, whose people carry context.
  @Test func itIsLoggedWithEstimatedPropensitiesWithoutChangingItsRun() throws {
    var scenario = try bundledScenario("commuter-context")
    scenario.days = 3
    for k in scenario.personas.indices { scenario.personas[k].count = 1 }
    let choice = try StrategyRegistry.builtIn.parse("context-bandit")
    let cell = SimulationCell(replicate: 0, seed: 5, options: SimulationOptions())
    let log = ExposureRun.run(scenario, choice: choice, cell: cell)
    let unforced = log.exposures.filter { !$0.forced }
    #expect(!unforced.isEmpty && unforced.allSatisfy(\.estimated))
    for e in log.exposures {
      #expect(abs(try #require(e.candidateProbabilities).reduce(0, +) - 1) < 1e-9)
    }
    var emitter: LogEmitter? = nil
    let plain = Simulation.run(
      scenario, choice: choice, replicate: 0, seed: 5, options: SimulationOptions(), observer: StandardMetrics(),
      emitter: &emitter)
    #expect(plain.counts.taps == log.exposures.filter(\.reward).count)
  }
}
