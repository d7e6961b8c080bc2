@testable import SmartStackKit

/// Everything observable of a run: each visit's decision with its scores and rule, and
/// each closed window.
struct EngineTranscript: OutcomeObserver, Equatable {
  var lines: [String] = []
  mutating func observe(_ o: VisitOutcome, scores: [Double], features: StackFeatures) {
    lines.append(
      "v \(o.time) shown \(o.shown) prev \(o.previous) rank \(o.targetRank) of \(o.candidateCount) "
        + "crit \(o.relevanceCritical) hon \(o.relevanceHonoured) state \(o.shownState.name) "
        + "rule \(o.rule) scores \(scores.map { $0.bitPattern })")
  }
  mutating func windowClosed(instance: Int32, start: Int64, visits: Int, surfacedAfter: Int64?) {
    lines.append("w \(instance) \(start) \(visits) \(surfacedAfter.map(String.init) ?? "-")")
  }
}

/// One random event of a person's run on a six-instance stack, including what only
/// simulation does (stack rules, manual swipes) and a clock that sometimes steps back.
enum EngineTestEvent {
  case entry(Int, RelevanceEntry)
  case visit(Int64, [Int32], VisitPolicy)
  case donation(Int64, [Int32])
  case available(Int, Bool)
  case swipe(Int, Int64)

  /// `count` events from `seed`: steps of 0 to 45 minutes (equal instants are frequent,
  /// local hours and days change), one step in 60 backwards.
  static func stream(seed: UInt64, count: Int) -> [EngineTestEvent] {
    var rng = SplitMix64(seed: seed)
    var t: Int64 = 1_772_409_600_000
    var out: [EngineTestEvent] = []
    for _ in 0..<count {
      let step = Int64(rng.nextInt(below: 4)) * 900_000
      t += rng.nextInt(below: 60) == 0 ? -2 * step : step
      let pick = { (n: Int) -> [Int32] in (0..<(1 + rng.nextInt(below: 2))).map { _ in Int32(rng.nextInt(below: n)) } }
      switch rng.nextInt(below: 20) {
      case 0..<4:
        let duration = [0, 600_000, 1_800_000, 7_200_000][rng.nextInt(below: 4)]
        let relevance: Relevance? =
          rng.nextInt(below: 6) == 0
          ? nil : Relevance(score: Double(rng.nextInt(below: 7)) - 2, durationMilliseconds: Int64(duration))
        out.append(.entry(rng.nextInt(below: 6), RelevanceEntry(date: Instant(milliseconds: t), relevance: relevance)))
      case 4..<12:
        let policy: VisitPolicy
        switch rng.nextInt(below: 12) {
        case 0: policy = .forced(Int32(rng.nextInt(below: 6)))
        case 1: policy = .noRotation("no rotation")
        default: policy = .rank
        }
        out.append(.visit(t, rng.nextInt(below: 3) == 0 ? [] : pick(6), policy))
      case 12..<17:
        out.append(.donation(t, rng.nextInt(below: 5) == 0 ? [] : pick(6)))
      case 17..<19:
        out.append(.available(rng.nextInt(below: 6), rng.nextInt(below: 4) != 0))
      default:
        out.append(.swipe(rng.nextInt(below: 6), t))
      }
    }
    return out
  }

  /// Feeds the event to `session`.
  func apply<S, O>(to session: inout StackSession<S, O>) {
    switch self {
    case .entry(let i, let entry): session.relevanceEntry(instance: i, entry: entry)
    case .visit(let t, let targets, let policy):
      session.visit(at: t, hasTarget: !targets.isEmpty, targets: targets[...], policy: policy)
    case .donation(let t, let matched): session.donation(at: t, kind: 0, matched: matched[...])
    case .available(let i, let on): session.setAvailable(i, on)
    case .swipe(let i, let t): session.manualSwipe(to: i, at: t)
    }
  }
}

extension Sequence<EngineTestEvent> {
  /// Feeds every event to `session`, in order.
  func apply<S, O>(to session: inout StackSession<S, O>) {
    for event in self { event.apply(to: &session) }
  }
}

/// A visit of an event stream as the engine decided it (see `forEachVisit(on:_:)`).
struct EngineTestVisit {
  var time: Int64
  var targets: [Int32]
  var policy: VisitPolicy
  /// The instance on top before the visit (-1 at the first).
  var previous: Int
  var outcome: VisitOutcome
}

extension Sequence<EngineTestEvent> {
  /// Feeds every event to `session`, in order, and calls `body` after each visit with
  /// the visit and the session as it is right after it.
  func forEachVisit<S, O>(
    on session: inout StackSession<S, O>, _ body: (EngineTestVisit, StackSession<S, O>) -> Void
  ) {
    for event in self {
      guard case .visit(let t, let targets, let policy) = event else {
        event.apply(to: &session)
        continue
      }
      let previous = Int(session.context.shown)
      let outcome = session.visit(at: t, hasTarget: !targets.isEmpty, targets: targets[...], policy: policy)
      body(EngineTestVisit(time: t, targets: targets, policy: policy, previous: previous, outcome: outcome), session)
    }
  }
}
