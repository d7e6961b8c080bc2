import SmartStackBase
import SmartStackData
import SmartStackEngine

/// Options of a simulation run that are not part of the scenario.
public struct SimulationOptions: Sendable {
  /// Overrides the scenario's number of days.
  public var days: Int? = nil
  public var engine = EngineOptions()
  /// Simulates only these people (indices in the scenario's person order, within
  /// `0..<Scenario.personCount`); nil: every person. A person's world and strategy seed
  /// depend on (seed, replicate, person index) alone, so each of these people has the
  /// results it has in a run of everyone (a people-shard's block, `PeopleBlocks`).
  public var people: Range<Int>? = nil
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
  /// relevance entries, then context changes, then visits. A visit's donation and
  /// revealed outcome are handled within the visit, at its instant, in that order.
  @usableFromInline package enum Event: Int {
    case toggle, entry, context, visit
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
    for p in options.people ?? 0..<scenario.personCount {
      let person = scenario.person(p, replicate: replicate, seed: seed, days: options.days)
      let strategySeed = StreamSeed.derive(seed, UInt64(replicate), strategyStream, UInt64(p))
      if let watch = scenario.watch {
        var session = StackSession(
          person: Int32(p), instances: person.instances, path: prototype,
          observer: WatchCardObserver(consume observer, capacity: watch.cards), zone: scenario.zone,
          options: options.engine, strategySeed: strategySeed, rules: scenario.stack.rules)
        runWatch(person, platform: watch, session: &session, counts: &counts, emitter: &emitter)
        observer = session.finishedObserver().inner
        continue
      }
      var session = StackSession(
        person: Int32(p), instances: person.instances, path: prototype,
        observer: consume observer, zone: scenario.zone, options: options.engine,
        strategySeed: strategySeed, rules: scenario.stack.rules)
      run(person, scenario: scenario, session: &session, counts: &counts, emitter: &emitter)
      observer = session.finishedObserver()
    }
    return (observer, counts)
  }

  /// Simulates one person through `session` and finishes it, the person's reactions
  /// drawn as the scenario says (`SimulatedResponder`).
  @inlinable package static func run<P: EnginePath, O: OutcomeObserver>(
    _ person: SimulatedPerson, scenario: Scenario, session: inout StackSession<P, O>,
    counts: inout SimulationCounts, emitter: inout LogEmitter?
  ) {
    var responder = SimulatedResponder(person)
    run(
      person, widgetSuggestions: scenario.stack.widgetSuggestions, responder: &responder, session: &session,
      counts: &counts, emitter: &emitter)
  }

  /// Runs one person's world (visits, wants, relevance entries, suggestion windows)
  /// through `session`, with `responder` deciding what the person does at each visit
  /// with a want, and finishes the session. The stack's rules are the session's
  /// (`StackRuleState`). Rule replay runs a person rebuilt from an exposure log through
  /// this same loop (`RuleReplay`).
  @inlinable package static func run<P: EnginePath, O: OutcomeObserver, R: VisitResponder>(
    _ person: SimulatedPerson, widgetSuggestions: Bool, responder: inout R, session: inout StackSession<P, O>,
    counts: inout SimulationCounts, emitter: inout LogEmitter?
  ) {
    for i in 0..<person.stackCount { session.makeAvailable(i) }
    emitter?.timelines(
      person: person.name, instances: person.instances[...], stackCount: person.stackCount,
      entryInstance: person.entryInstance, entries: person.entries)
    if widgetSuggestions { emitter?.suggestionWindows(person: person.name, person.suggestionWindows) }
    if !person.context.isEmpty { emitter?.context(person: person.name, person.context) }
    counts.addReloads(of: person)
    counts.suggestionWindows += widgetSuggestions ? person.suggestionWindows.count : 0

    // Suggestion toggles, ascending by time; at equal times removals first.
    var toggles: [(time: Int64, instance: Int32, on: Bool)] = []
    if widgetSuggestions {
      for w in person.suggestionWindows {
        toggles.append((w.start, w.instance, true))
        toggles.append((w.end, w.instance, false))
      }
      toggles.sort { ($0.time, $0.on ? 1 : 0, $0.instance) < ($1.time, $1.on ? 1 : 0, $1.instance) }
    }

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
    // The person's context, as engine events (ids of their own vocabulary).
    let context = person.context.isEmpty
      ? ContextEvents() : ContextEvents(person.context.lazy.map { ($0.time, $0.signal, $0.value) })
    var c = 0
    if !context.isEmpty { session.beginContext(context.vocabulary) }
    merger[.context] = context.isEmpty ? Int64.max : context.times[0]
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
      case .context:
        session.contextChange(context.signals[c], value: context.values[c], at: t)
        c += 1
        merger[.context] = c < context.count ? context.times[c] : Int64.max
        continue
      case .visit:
        break
      }

      // A visit: the engine applies the stack's rules (a swipe pin, Smart Rotate off, the
      // rotation limit, suppression) to the strategy's ranking; the oracle
      // (`TargetAwareStrategy`) is exempt there.
      let app = person.wantApp[v]
      let targets = person.wantedInstances(visit: v)
      let outcome = session.visit(at: t, hasTarget: app >= 0, targets: targets)
      emitter?.visit(person: person.name, at: t)

      var tapped = false
      var response = VisitResponse(time: t, action: .none, app: app)
      if app >= 0 {
        let swipeTo = outcome.isHit ? nil : bestAvailable(targets, session: session)
        response.action = responder.respond(
          visit: v, shown: outcome.shown, isHit: outcome.isHit, swipeTo: swipeTo ?? -1)
        switch response.action {
        case .tap:
          tapped = true
          counts.taps += 1
        case .swipe:
          session.manualSwipe(to: Int(swipeTo!), at: t)
          response.swipedTo = swipeTo!
          counts.swipes += 1
        case .open:
          counts.manualOpens += 1
        case .none:
          counts.unacted += 1
        }
        if response.action != .none {
          session.donation(at: t, kind: app, matched: targets)
          emitter?.donation(person.apps[Int(app)].donation(at: Instant(milliseconds: t), user: person.name))
        }
      }
      session.responded(response)
      if P.observesOutcomes && outcome.shown >= 0 {
        session.reveal(
          VisitFeedback(
            visitTime: t, hourOfDay: session._context.hourOfDay, hourOfWeek: session._context.hourOfWeek,
            shown: outcome.shown, tapped: tapped, device: session._context._device.snapshot),
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

/// What a simulated person does at a visit with a want (`Simulation`), given what the
/// stack showed: tap it (only when it is wanted), swipe to `swipeTo` (only when nothing
/// wanted is shown and `swipeTo >= 0`, a wanted candidate), open the app by hand, or
/// nothing.
@usableFromInline package protocol VisitResponder {
  mutating func respond(visit v: Int, shown: Int32, isHit: Bool, swipeTo: Int32) -> VisitAction
}

/// The scenario's people: the visit's own uniforms against the persona's `tap`, `swipe`
/// and `open` probabilities (`SimulatedPerson.wouldTap(visit:)` etc.), in this order:
/// a wanted widget shown is tapped if `wouldTap`; otherwise, with nothing wanted shown
/// and a wanted widget in the stack, the person swipes to it if `wouldSwipe`; otherwise
/// they open the app if `wouldOpen`; otherwise nothing.
@usableFromInline package struct SimulatedResponder: VisitResponder {
  @usableFromInline let person: SimulatedPerson
  @inlinable package init(_ person: SimulatedPerson) { self.person = person }
  @inline(__always)
  @inlinable package func respond(visit v: Int, shown: Int32, isHit: Bool, swipeTo: Int32) -> VisitAction {
    if isHit && person.wouldTap(visit: v) { return .tap }
    if !isHit && swipeTo >= 0 && person.wouldSwipe(visit: v) { return .swipe }
    if person.wouldOpen(visit: v) { return .open }
    return .none
  }
}
