import SmartStackBase
import SmartStackData
import SmartStackEngine

/// Options of a simulation run that are not part of the scenario.
public struct SimulationOptions: Sendable {
  /// Overrides the scenario's number of days.
  public var days: Int? = nil
  public var engine = EngineOptions()
  @inlinable public init() {}
}

/// Simulates a scenario's people over days with one strategy deciding what the stack
/// shows (DESIGN.md §3, issue 4).
///
/// **What is shared between strategies (the paired design).** For replicate `r`, each
/// person's visits, wants, the random draws that decide taps, swipes and manual opens,
/// the apps' delivered relevance entries, reload counts and suggestion windows come from
/// `Scenario.person(_:replicate:seed:days:)` and depend only on (seed, r, person): every
/// strategy faces the same people. What a strategy changes is what is shown, hence hits,
/// taps versus manual opens, swipes and the pins they cause. With the default
/// reactions (tap = open = 1, swipe = 0) every want produces exactly one donation at the
/// visit instant whatever the strategy, so even the donations are shared.
///
/// **Per visit**, in this order: the stack's own rules choose a policy (a pinned swipe
/// for `swipeCooldownMinutes`, Smart Rotate off, or the stack rotation limit); the
/// strategy ranks; the engine applies the policy and suppression to the ranking
/// (`StackRules`); the shown instance is recorded; then the person reacts to a want:
/// - the shown instance is a wanted one: they tap it with probability `tap` (a hit, and a
///   donation of the app's intent at the visit instant);
/// - otherwise, if a wanted instance is in the stack, they swipe to it with probability
///   `swipe` (a donation; the swiped instance stays on top for the cooldown);
/// - otherwise they open the app by hand with probability `open` (a donation);
/// - otherwise nothing (an unacted want).
/// The strategy then learns the outcome (tap or no tap) at once: in simulation the tap
/// happens at the visit.
///
/// The oracle (`TargetAwareStrategy`) is exempt from the stack's own rules (pins, Smart Rotate
/// off, the rotation limit): it measures what a perfect ranking could reach.
public enum Simulation {
  /// A simulated person's event classes; the raw values are their order at equal
  /// instants (`EventMerger`): suggestion toggles (removals before insertions), then
  /// relevance entries, then visits. A visit's donation and revealed outcome are
  /// handled within the visit, at its instant, in that order.
  @usableFromInline package enum Event: Int {
    case toggle, entry, visit
  }

  /// Runs `prototype` over every person of replicate `replicate`, feeding `observer`.
  /// `emitter`, when given, receives every donation, visit and delivered timeline entry
  /// in the public formats.
  ///
  /// The engine path is found from the strategy's conformances at run time
  /// (`RankingStrategy.openEnginePath(_:)`), so this generic entry point is not
  /// specialised for `S`; a registered strategy runs specialised (`StrategyRunner`).
  @inlinable public static func run<S: RankingStrategy, O: OutcomeObserver>(
    _ scenario: Scenario, strategy prototype: S, descriptor: StrategyDescriptor,
    replicate: Int, seed: UInt64, options: SimulationOptions, observer: O,
    emitter: inout LogEmitter?
  ) -> (observer: O, counts: SimulationCounts) {
    let run = ScenarioRun(
      scenario: scenario, descriptor: descriptor, replicate: replicate, seed: seed, options: options,
      observer: observer, emitter: emitter)
    let (result, counts, emitted) = prototype.openEnginePath(run)
    emitter = emitted
    return (result, counts)
  }

  /// `run(_:strategy:descriptor:replicate:seed:options:observer:emitter:)` through a
  /// run-time opened path.
  @usableFromInline package struct ScenarioRun<O: OutcomeObserver>: EnginePathVisitor {
    @usableFromInline package let scenario: Scenario
    @usableFromInline package let descriptor: StrategyDescriptor
    @usableFromInline package let replicate: Int
    @usableFromInline package let seed: UInt64
    @usableFromInline package let options: SimulationOptions
    @usableFromInline package let observer: O
    @usableFromInline package let emitter: LogEmitter?
    @inlinable package init(
      scenario: Scenario, descriptor: StrategyDescriptor, replicate: Int, seed: UInt64,
      options: SimulationOptions, observer: O, emitter: LogEmitter?
    ) {
      self.scenario = scenario
      self.descriptor = descriptor
      self.replicate = replicate
      self.seed = seed
      self.options = options
      self.observer = observer
      self.emitter = emitter
    }
    @inlinable package func visit<P: EnginePath>(_ path: P) -> (O, SimulationCounts, LogEmitter?) {
      var emitter = emitter
      let (result, counts) = Simulation.run(
        scenario, path: path, descriptor: descriptor, replicate: replicate, seed: seed, options: options,
        observer: observer, emitter: &emitter)
      return (result, counts, emitter)
    }
  }

  /// `run(_:strategy:descriptor:replicate:seed:options:observer:emitter:)` with the
  /// strategy in its engine path.
  @inlinable package static func run<P: EnginePath, O: OutcomeObserver>(
    _ scenario: Scenario, path prototype: P, descriptor: StrategyDescriptor,
    replicate: Int, seed: UInt64, options: SimulationOptions, observer: O,
    emitter: inout LogEmitter?
  ) -> (observer: O, counts: SimulationCounts) {
    var observer = observer
    var counts = SimulationCounts()
    let strategyStream = StreamSeed.stableHash(descriptor.description)
    for p in 0..<scenario.personCount {
      let person = scenario.person(p, replicate: replicate, seed: seed, days: options.days)
      let strategySeed = StreamSeed.derive(seed, UInt64(replicate), strategyStream, UInt64(p))
      var session = StackSession(
        person: Int32(p), instances: person.instances, path: prototype,
        observer: consume observer, zone: scenario.zone, options: options.engine,
        strategySeed: strategySeed)
      run(person, scenario: scenario, session: &session, counts: &counts, emitter: &emitter)
      observer = session.finishedObserver()
    }
    return (observer, counts)
  }

  /// Simulates one person through `session` and finishes it.
  @inlinable package static func run<P: EnginePath, O: OutcomeObserver>(
    _ person: SimulatedPerson, scenario: Scenario, session: inout StackSession<P, O>,
    counts: inout SimulationCounts, emitter: inout LogEmitter?
  ) {
    let stack = scenario.stack
    for i in 0..<person.stackCount { session.makeAvailable(i) }
    emitter?.timelines(
      person: person.name, instances: person.instances[0..<person.stackCount], entryInstance: person.entryInstance,
      entries: person.entries)
    counts.reloadsRequested += person.reloads.requested
    counts.reloadsGranted += person.reloads.granted
    counts.reloadsRefused += person.reloads.refused
    counts.reloadsCoalesced += person.reloads.coalesced
    counts.suggestionWindows += stack.widgetSuggestions ? person.suggestionWindows.count : 0

    // Suggestion toggles, ascending by time; at equal times removals first.
    var toggles: [(time: Int64, instance: Int32, on: Bool)] = []
    if stack.widgetSuggestions {
      for w in person.suggestionWindows {
        toggles.append((w.start, w.instance, true))
        toggles.append((w.end, w.instance, false))
      }
      toggles.sort { ($0.time, $0.on ? 1 : 0, $0.instance) < ($1.time, $1.on ? 1 : 0, $1.instance) }
    }

    let cooldown = Int64((stack.swipeCooldownMinutes * 60_000).rounded())
    var pinned: Int32 = -1
    var pinnedUntil = Int64.min
    var rotationTimes: [Int64] = []
    var rotationHead = 0

    var e = 0
    var g = 0
    var v = 0
    var lastTime = Int64.min
    let entryCount = person.entries.count
    let visitCount = person.visitTimes.count
    // The next time of each stream, set again when that stream advances.
    var merger = EventMerger<Event>()
    merger[.toggle] = toggles.isEmpty ? Int64.max : toggles[0].time
    merger[.entry] = entryCount > 0 ? person.entries[0].date.milliseconds : Int64.max
    merger[.visit] = visitCount > 0 ? person.visitTimes[0] : Int64.max
    while let (event, t) = merger.next() {
      lastTime = t
      switch event {
      case .toggle:
        session.setAvailable(Int(toggles[g].instance), toggles[g].on)
        g += 1
        merger[.toggle] = g < toggles.count ? toggles[g].time : Int64.max
        continue
      case .entry:
        session.relevanceEntry(instance: Int(person.entryInstance[e]), entry: person.entries[e])
        e += 1
        merger[.entry] = e < entryCount ? person.entries[e].date.milliseconds : Int64.max
        continue
      case .visit:
        break
      }

      // A visit: the stack's policy, then the strategy.
      let policy: VisitPolicy
      while rotationHead < rotationTimes.count && rotationTimes[rotationHead] <= t - 86_400_000 {
        rotationHead += 1
      }
      // The engine applies the policy after the strategy ranks (`StackRules`); the
      // oracle (`TargetAwareStrategy`) is exempt there.
      if pinned >= 0 && t < pinnedUntil {
        policy = .forced(pinned)
      } else if !stack.smartRotate {
        policy = .noRotation("smart rotate off")
      } else if !stack.developerMode && stack.rotationLimit.isExhausted(rotationTimes[rotationHead...], now: t) {
        policy = .noRotation("stack rotation limit")
      } else {
        policy = .rank
      }
      let app = Int(person.wantApp[v])
      let targets = person.wantedInstances(visit: v)
      let outcome = session.visit(at: t, hasTarget: app >= 0, targets: targets, policy: policy)
      if outcome.rotated { rotationTimes.append(t) }
      emitter?.visit(person: person.name, at: t)

      var tapped = false
      if app >= 0 {
        var acted = true
        if outcome.isHit && person.wouldTap(visit: v) {
          tapped = true
          counts.taps += 1
        } else if let swipeTo = bestAvailable(targets, session: session), !outcome.isHit,
          person.wouldSwipe(visit: v)
        {
          session.manualSwipe(to: Int(swipeTo), at: t)
          pinned = swipeTo
          pinnedUntil = t + cooldown
          counts.swipes += 1
        } else if person.wouldOpen(visit: v) {
          counts.manualOpens += 1
        } else {
          acted = false
          counts.unacted += 1
        }
        if acted {
          session.donation(at: t, kind: Int32(app), matched: targets)
          emitter?.donation(person.apps[app].donation(at: Instant(milliseconds: t), user: person.name))
        }
      }
      if P.observesOutcomes && outcome.shown >= 0 {
        session.reveal(
          VisitFeedback(
            visitTime: t, hourOfDay: session._context.hourOfDay, hourOfWeek: session._context.hourOfWeek,
            shown: outcome.shown, tapped: tapped),
          at: t)
      }
      v += 1
      merger[.visit] = v < visitCount ? person.visitTimes[v] : Int64.max
    }
    session.finish(at: lastTime)
  }

  /// The first wanted instance that is a candidate now, or nil.
  @inlinable static package func bestAvailable<S, O>(_ targets: ArraySlice<Int32>, session: StackSession<S, O>) -> Int32? {
    for t in targets where session._context.isCandidate(Int(t)) { return t }
    return nil
  }
}

extension RotationLimit {
  /// True when the stack has used up its automatic rotations: at least `perHour` in
  /// `(now - 1 h, now]` or at least `perDay` in `(now - 24 h, now]` (`rotations` holds
  /// the times of the last 24 hours, ascending). A limit of 0 means unlimited.
  @inlinable package func isExhausted(_ rotations: ArraySlice<Int64>, now: Int64) -> Bool {
    if perDay > 0 && rotations.count >= perDay { return true }
    guard perHour > 0 else { return false }
    var lastHour = 0
    for t in rotations.reversed() {
      if t <= now - 3_600_000 { break }
      lastHour += 1
    }
    return lastHour >= perHour
  }
}
