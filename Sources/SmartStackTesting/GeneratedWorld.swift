import SmartStackKit

/// One event of a generated person's run, as the engine receives it.
///
/// A world exercises everything a driver can do: relevance entries (nil, suppressing
/// and expiring ones included), outside scores (with `outsideScores`), visits with and without a target, under a swipe pin or
/// with rotation off, donations matching zero, one or two instances, instances
/// entering and leaving the candidates, manual swipes, outcome reveals, equal instants
/// and a clock that sometimes steps back.
public enum WorldEvent: Sendable {
  case entry(instance: Int, RelevanceEntry)
  case score(instance: Int, time: Int64, value: Double)
  case visit(time: Int64, targets: [Int32], policy: VisitPolicy)
  case donation(time: Int64, matched: [Int32])
  case available(instance: Int, Bool)
  case swipe(instance: Int, time: Int64)
  case outcome(time: Int64, VisitFeedback)
}

/// A generated person: a stack, engine options and a stream of events.
public struct GeneratedWorld: Sendable {
  /// The stack's instances (kinds repeat, so kind-scoped normalisation shares scores).
  public var instances: [WidgetInstance]
  public var options: EngineOptions
  /// Instances that are candidates before the first event.
  public var initiallyAvailable: [Int]
  public var events: [WorldEvent]

  /// The world of `seed`: six instances (or `instanceCount`), 300 events in steps of
  /// 0 to 45 minutes. With `longChains` only entries, unpinned visits and donations
  /// matching each instance at most once, every instance a candidate: decisions are
  /// then reused or updated many times in a row, as in replay. With `outsideScores`,
  /// about one event in six is preceded by an outside score (`.score`) for one of the
  /// touched instances at that event's time, drawn from a stream of its own (the other
  /// events are those of the same world without).
  ///
  /// - Complexity: O(events).
  public init(
    seed: UInt64, instanceCount: Int = 6, longChains: Bool = false, eventCount: Int = 300, outsideScores: Bool = false
  ) {
    let kinds = ["B", "A", "C", "A", "B", "D", "E"]
    instances = (0..<instanceCount).map { WidgetInstance(id: "i\($0)", kind: kinds[$0 % kinds.count]) }
    var options = EngineOptions()
    options.relevanceThreshold = [0.5, 0.8, 0][Int(seed % 3)]
    if seed % 4 == 1 { options.normaliserScope = .kind }
    if seed % 5 == 2 { options.normaliserWindow = .days(1) }
    self.options = options
    initiallyAvailable = (0..<instanceCount).filter { longChains || $0 % 3 != 2 }
    var rng = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 17)
    var t: Int64 = 1_772_409_600_000
    var visits: [(time: Int64, shown: Int32)] = []
    var out: [WorldEvent] = []
    // The events touch the first six instances (a larger stack tests the paths that
    // stop short of per-instance work).
    let touched = min(6, instanceCount)
    let pick = { (rng: inout SplitMix64) -> [Int32] in
      (0..<(1 + rng.nextInt(below: 2))).map { _ in Int32(rng.nextInt(below: touched)) }
    }
    for _ in 0..<eventCount {
      let step = Int64(rng.nextInt(below: 4)) * 900_000
      t += !longChains && rng.nextInt(below: 60) == 0 ? -2 * step : step
      switch rng.nextInt(below: 22) {
      case 0..<4:
        let duration = [0, 600_000, 1_800_000, 7_200_000][rng.nextInt(below: 4)]
        let relevance: Relevance? =
          rng.nextInt(below: 6) == 0
          ? nil : Relevance(score: Double(rng.nextInt(below: 7)) - 2, durationMilliseconds: Int64(duration))
        out.append(
          .entry(instance: rng.nextInt(below: touched), RelevanceEntry(date: Instant(milliseconds: t), relevance: relevance)))
      case 4..<12:
        var policy = VisitPolicy.rank
        if !longChains {
          switch rng.nextInt(below: 12) {
          case 0: policy = .forced(Int32(rng.nextInt(below: touched)))
          case 1: policy = .noRotation(.smartRotateOff)
          default: break
          }
        }
        out.append(.visit(time: t, targets: rng.nextInt(below: 3) == 0 ? [] : pick(&rng), policy: policy))
        visits.append((t, Int32(rng.nextInt(below: touched))))
      case 12..<17:
        var matched = rng.nextInt(below: 5) == 0 ? [] : pick(&rng)
        if longChains { matched = Array(Set(matched)).sorted() }
        out.append(.donation(time: t, matched: matched))
      case 17..<19 where !longChains:
        out.append(.available(instance: rng.nextInt(below: touched), rng.nextInt(below: 4) != 0))
      case 19 where !longChains:
        out.append(.swipe(instance: rng.nextInt(below: touched), time: t))
      case 20..<22 where !visits.isEmpty:
        let v = visits[rng.nextInt(below: visits.count)]
        let feedback = VisitFeedback(
          visitTime: v.time, hourOfDay: Int((v.time / 3_600_000) % 24), hourOfWeek: Int((v.time / 3_600_000) % 168),
          shown: v.shown, tapped: rng.nextInt(below: 3) == 0)
        out.append(.outcome(time: t, feedback))
      default:
        break
      }
    }
    if outsideScores {
      // Scores at the time of the event they precede (the clock as the world moves it),
      // a few distinct values so that ties happen.
      var scoreRandom = SplitMix64(seed: seed &* 0x2545_F491 &+ 91)
      var withScores: [WorldEvent] = []
      var time: Int64 = 1_772_409_600_000
      for event in out {
        time = event.time ?? time
        if scoreRandom.nextInt(below: 6) == 0 {
          withScores.append(
            .score(
              instance: scoreRandom.nextInt(below: touched), time: time,
              value: Double(scoreRandom.nextInt(below: 5)) / 2 - 1))
        }
        withScores.append(event)
      }
      out = withScores
    }
    events = out
  }
}

extension WorldEvent {
  /// The event's time, epoch ms; nil for a change of the candidates (which has none).
  public var time: Int64? {
    switch self {
    case .entry(_, let entry): entry.date.milliseconds
    case .score(_, let t, _), .visit(let t, _, _), .donation(let t, _), .swipe(_, let t), .outcome(let t, _): t
    case .available: nil
    }
  }

  /// Feeds the event to `session`; returns the visit's outcome for a visit.
  @discardableResult
  package func apply<P, O>(to session: inout StackSession<P, O>) -> VisitOutcome? {
    switch self {
    case .entry(let i, let entry): session.relevanceEntry(instance: i, entry: entry)
    case .score(let i, let t, let value): session.outsideScore(instance: i, value, at: t)
    case .visit(let t, let targets, let policy):
      return session.visit(at: t, hasTarget: !targets.isEmpty, targets: targets[...], policy: policy)
    case .donation(let t, let matched): session.donation(at: t, kind: 0, matched: matched[...])
    case .available(let i, let on): session.setAvailable(i, on)
    case .swipe(let i, let t): session.manualSwipe(to: i, at: t)
    case .outcome(let t, let feedback): session.reveal(feedback, at: t)
    }
    return nil
  }
}
