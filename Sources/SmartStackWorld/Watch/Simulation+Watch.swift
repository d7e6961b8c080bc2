import SmartStackBase
import SmartStackData
import SmartStackEngine

extension Simulation {
  /// Simulates one person on a watch (`Scenario.watch`) through `session` and finishes it
  /// (docs/watchos.md, "The watch stack").
  ///
  /// Wrist raises are the visits. Per raise, in this order:
  /// 1. the platform decides what the watch allows now (`WatchPlatform.raise`): which
  ///    cards are eligible (their clues match the person's context; groups, permissions,
  ///    versions and `associatedKind` applied) and which are pinned; each eligible card's
  ///    clue priority becomes its outside score (`StackFeatures.outsideScore`, read by
  ///    `clues`), −∞ otherwise;
  /// 2. the strategy ranks the eligible unpinned cards (the session's candidates);
  /// 3. the engine presents the pinned cards first, then the strategy's order, and the
  ///    first K are on screen (`WatchCardObserver`);
  /// 4. with a want, the person taps a wanted card on screen with probability `tap`,
  ///    otherwise opens the app by hand with probability `open` (a watch has no swipe to
  ///    a card: turning the crown is how a person sees the cards at all); either is a
  ///    donation at the raise;
  /// 5. a strategy that learns from outcomes learns about its own first card: tapped
  ///    when the person tapped a card and that card was the strategy's first.
  ///
  /// Timeline entries reach the session only on watchOS 10, the one version whose stack
  /// reads entry relevance (reference rule 8, Q12). Context changes reach the session as
  /// on iPhone (`StackSession.contextChange`).
  @inlinable package static func runWatch<P: EnginePath, O: OutcomeObserver>(
    _ person: SimulatedPerson, platform: WatchPlatform, session: inout StackSession<P, WatchCardObserver<O>>,
    counts: inout SimulationCounts, emitter: inout LogEmitter?
  ) {
    emitter?.timelines(
      person: person.name, instances: person.instances[0..<person.stackCount], stackCount: person.stackCount,
      entryInstance: person.entryInstance, entries: person.entries)
    if !person.context.isEmpty { emitter?.context(person: person.name, person.context) }
    counts.addReloads(of: person)

    var log = ContextLog(file: "simulated")
    for change in person.context {
      log.users.append(person.name)
      log.times.append(change.time)
      log.signals.append(change.signal)
      log.values.append(change.value)
      log.userPositions.append(TextPosition(line: 1, column: 1))
    }
    var cursor = ContextCursor(log: log, user: person.name)
    let honoursEntries = platform.version.honoursEntryRelevance
    let n = person.instances.count
    var priority = [Double](repeating: -.infinity, count: n)

    var e = 0
    var v = 0
    var lastTime = Int64.min
    let entryCount = honoursEntries ? person.entries.count : 0
    let visitCount = person.visitTimes.count
    var merger = EventMerger<Event>()
    merger[.toggle] = Int64.max
    merger[.entry] = entryCount > 0 ? person.entries[0].date.milliseconds : Int64.max
    merger[.visit] = visitCount > 0 ? person.visitTimes[0] : Int64.max
    let context = person.context.isEmpty
      ? ContextEvents() : ContextEvents(person.context.lazy.map { ($0.time, $0.signal, $0.value) })
    var c = 0
    if !context.isEmpty { session.beginContext(context.vocabulary) }
    merger[.context] = context.isEmpty ? Int64.max : context.times[0]
    while let (event, t) = merger.next() {
      lastTime = t
      switch event {
      case .toggle:
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
      let raise = platform.raise(at: Instant(milliseconds: t), context: &cursor)
      for i in 0..<n {
        session.setAvailable(i, raise.rankable[i])
        if raise.priority[i] != priority[i] {
          priority[i] = raise.priority[i]
          session.outsideScore(instance: i, priority[i], at: t)
        }
      }
      session._observer.pinned = raise.pinned

      let app = person.wantApp[v]
      let targets = person.wantedInstances(visit: v)
      let decided = session.visit(at: t, hasTarget: app >= 0, targets: targets)
      // What the engine presented (`WatchCardObserver`), as the observer was told it.
      let outcome = session._observer.last!
      emitter?.visit(person: person.name, at: t)

      var tapped = false
      var response = VisitResponse(time: t, action: .none, app: app)
      if app >= 0 {
        let onScreen = outcome.targetRank >= 1 && outcome.targetRank <= Int(outcome.cards)
        if onScreen && person.wouldTap(visit: v) {
          response.action = .tap
          tapped = true
          counts.taps += 1
        } else if person.wouldOpen(visit: v) {
          response.action = .open
          counts.manualOpens += 1
        } else {
          counts.unacted += 1
        }
        if response.action != .none {
          session.donation(at: t, kind: app, matched: targets)
          emitter?.donation(person.apps[Int(app)].donation(at: Instant(milliseconds: t), user: person.name))
        }
      }
      session.responded(response)
      if P.observesOutcomes && decided.shown >= 0 {
        // The strategy's first card was tapped when the tapped card is the first target
        // presented after the pinned cards, and that is the strategy's first.
        let tappedFirst = tapped && decided.isHit && outcome.targetRank == raise.pinned.count + 1
        session.reveal(
          VisitFeedback(
            visitTime: t, hourOfDay: session._context.hourOfDay, hourOfWeek: session._context.hourOfWeek,
            shown: decided.shown, tapped: tappedFirst, device: session._context._device.snapshot),
          at: t)
      }
      v += 1
      merger[.visit] = v < visitCount ? person.visitTimes[v] : Int64.max
    }
    session.finish(at: lastTime)
  }
}
