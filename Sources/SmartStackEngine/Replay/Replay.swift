import SmartStackBase
import SmartStackData

/// Replays a plan with one strategy.
///
/// Per person, six time-ordered streams are merged by an `EventMerger`: relevance
/// entries, outside scores (`--scores`), context changes (`--context`), visits,
/// donations and revealed outcomes (taps, then misses); at equal instants they are processed in that order (`Event`), within a
/// stream in input order. So a visit is decided before the donation that follows it at
/// the same millisecond, a visit sees every score dated at or before it, and no
/// strategy sees the future.
///
/// Outcomes: after a visit, the strategy learns whether the person used what was shown
/// (a tap) only when that becomes observable: at the time of the target donation when
/// the shown instance was a target, otherwise once the horizon has passed.
public enum Replay {
  /// Replay's event classes; the raw values are their order at equal instants
  /// (`EventMerger`).
  @usableFromInline package enum Event: Int {
    case entry, score, context, visit, donation, tap, miss
  }

  /// Runs `prototype` (a fresh copy per person) over every person of `plan`, feeding
  /// `observer`, and returns the observer.
  ///
  /// Strategy seeds: `StreamSeed.derive(seed, replicate, stableHash(strategy), person)`,
  /// so a strategy's randomness is the same whatever else runs beside it.
  ///
  /// The engine path is found from the strategy's conformances at run time
  /// (`RankingStrategy.openEnginePath(_:)`), so this generic entry point is not
  /// specialised for `S`; a registered strategy runs specialised (`StrategyRunner`).
  ///
  /// - Complexity: O(events × instances) plus the strategy's own cost.
  @inlinable public static func run<S: RankingStrategy, O: OutcomeObserver>(
    _ plan: ReplayPlan, strategy prototype: S, descriptor: StrategyDescriptor, observer: O
  ) -> O {
    prototype.openEnginePath(PlanRun(plan: plan, descriptor: descriptor, observer: observer))
  }

  /// `run(_:strategy:descriptor:observer:)` through a run-time opened path.
  @usableFromInline package struct PlanRun<O: OutcomeObserver>: EnginePathVisitor {
    @usableFromInline package let plan: ReplayPlan
    @usableFromInline package let descriptor: StrategyDescriptor
    @usableFromInline package let observer: O
    @inlinable package init(plan: ReplayPlan, descriptor: StrategyDescriptor, observer: O) {
      self.plan = plan
      self.descriptor = descriptor
      self.observer = observer
    }
    @inlinable package func visit<P: EnginePath>(_ path: P) -> O {
      Replay.run(plan, path: path, descriptor: descriptor, observer: observer)
    }
  }

  /// `run(_:strategy:descriptor:observer:)` with the strategy in its engine path.
  @inlinable package static func run<P: EnginePath, O: OutcomeObserver>(
    _ plan: ReplayPlan, path prototype: P, descriptor: StrategyDescriptor, observer: O
  ) -> O {
    var observer = observer
    let options = plan.options
    let strategyStream = StreamSeed.stableHash(descriptor.description)
    let horizon = InputLimits.milliseconds(options.horizonSeconds * 1000)
    let rules = options.rules
    for (k, person) in plan.people.enumerated() {
      let personIndex = plan.firstPersonIndex + k
      let seed = StreamSeed.derive(options.seed, options.replicate, strategyStream, UInt64(personIndex))
      var session = StackSession(
        person: Int32(personIndex), instances: person.instances, path: prototype,
        observer: consume observer, zone: options.zone, options: options.engine, strategySeed: seed,
        rules: rules)
      run(person, horizon: horizon, session: &session)
      observer = session.finishedObserver()
    }
    return observer
  }

  /// Replays one person's events through `session`, in the order described above, and
  /// finishes the session.
  @inlinable package static func run<P: EnginePath, O: OutcomeObserver>(
    _ person: ReplayPlan.Person, horizon: Int64, session: inout StackSession<P, O>
  ) {
    if person.alwaysAvailable {
      for i in 0..<person.instances.count { session.makeAvailable(i) }
    }
    // Pending outcome reveals: taps at donation times, misses at visit + horizon.
    // Each queue is ascending by construction; at most one reveal per visit goes into
    // one or the other, so each has room for the person's visits. Both stay empty (no
    // room at all) for strategies that ignore outcomes (not an `OutcomeLearningStrategy`).
    let revealCapacity = P.observesOutcomes ? person.visitTimes.count : 0
    var taps = RevealQueue(capacity: revealCapacity)
    var misses = RevealQueue(capacity: revealCapacity)

    var e = 0
    var s = 0
    var v = 0
    var d = 0
    let entryCount = person.entries.count
    let scoreCount = person.scoreTimes.count
    let visitCount = person.visitTimes.count
    let donationCount = person.donationTimes.count
    var lastTime = Int64.min
    // Rows with their own UTC offsets set the clock's offset before each donation and
    // visit (`StackSession+Clock`); without any, the clock stays the zone's.
    let rowOffsets = person.hasRowOffsets
    // The next time of each input stream (`Int64.max` once it is used up), set again
    // only when that stream advances.
    var merger = EventMerger<Event>()
    merger[.entry] = entryCount > 0 ? person.entries[0].date.milliseconds : Int64.max
    merger[.score] = scoreCount > 0 ? person.scoreTimes[0] : Int64.max
    var c = 0
    let contextCount = person.context.count
    if contextCount > 0 { session.beginContext(person.context.vocabulary) }
    merger[.context] = contextCount > 0 ? person.context.times[0] : Int64.max
    merger[.visit] = visitCount > 0 ? person.visitTimes[0] : Int64.max
    merger[.donation] = donationCount > 0 ? person.donationTimes[0] : Int64.max
    while true {
      // The reveal queues stay empty without `OutcomeLearningStrategy`: not even looked at.
      if P.observesOutcomes {
        merger[.tap] = taps.nextTime
        merger[.miss] = misses.nextTime
      }
      guard let (event, t) = merger.next() else { break }
      lastTime = t
      switch event {
      case .entry:
        session.relevanceEntry(instance: Int(person.entryInstance[e]), entry: person.entries[e])
        e += 1
        merger[.entry] = e < entryCount ? person.entries[e].date.milliseconds : Int64.max
      case .score:
        session.outsideScore(instance: Int(person.scoreInstance[s]), person.scoreValues[s], at: t)
        s += 1
        merger[.score] = s < scoreCount ? person.scoreTimes[s] : Int64.max
      case .context:
        session.contextChange(person.context.signals[c], value: person.context.values[c], at: t)
        c += 1
        merger[.context] = c < contextCount ? person.context.times[c] : Int64.max
      case .visit:
        if rowOffsets { session.setRowOffset(person.visitOffsets.isEmpty ? UTCOffset.none : person.visitOffsets[v]) }
        let target = Int(person.visitTarget[v])
        // The targets go to the visit as a buffer into the plan (for the target's rank);
        // the slice `person.matched(target)` is built only for a `TargetAwareStrategy`
        // and an observer that reads it. The closure returns the two values replay needs,
        // not the outcome (item 20 of docs/performance.md).
        let (shown, isHit) = person.matches.withUnsafeBufferPointer { matches in
          let range = target >= 0 ? Int(person.matchStart[target])..<Int(person.matchStart[target + 1]) : 0..<0
          let outcome = session.visit(
            at: t, hasTarget: target >= 0, targetBuffer: UnsafeBufferPointer(rebasing: matches[range]),
            targets: target >= 0 ? person.matched(target) : [])
          return (outcome.shown, outcome.isHit)
        }
        if P.observesOutcomes && shown >= 0 {
          var feedback = VisitFeedback(
            visitTime: t, hourOfDay: session._context.hourOfDay, hourOfWeek: session._context.hourOfWeek,
            shown: shown, tapped: false, device: session._context._device.snapshot)
          if isHit {
            feedback.tapped = true
            taps.push(feedback, at: person.donationTimes[target])
          } else {
            misses.push(feedback, at: t &+ horizon)
          }
        }
        v += 1
        merger[.visit] = v < visitCount ? person.visitTimes[v] : Int64.max
      case .donation:
        if !person.alwaysAvailable {
          // By index, not over the slice `person.matched(d)`: the slice kept a reference
          // to the plan's array across the calls (a retain and a release per donation).
          for k in Int(person.matchStart[d])..<Int(person.matchStart[d + 1]) {
            session.makeAvailable(Int(person.matches[k]))
          }
        }
        if rowOffsets {
          session.setRowOffset(person.donationOffsets.isEmpty ? UTCOffset.none : person.donationOffsets[d])
        }
        session.donation(at: t, kind: person.donationKinds[d], matched: person.matched(d))
        d += 1
        merger[.donation] = d < donationCount ? person.donationTimes[d] : Int64.max
      case .tap:
        session.reveal(taps.pop(), at: t)
      case .miss:
        session.reveal(misses.pop(), at: t)
      }
    }
    session.finish(at: lastTime)
  }
}
