import SmartStackBase
import SmartStackData
import SmartStackEngine

/// The independent random streams of one simulated person (paired design).
///
/// Stream `s` of person `p` in replicate `r` under master seed `seed` is a
/// `Xoshiro256StarStar` seeded with `StreamSeed.derive(seed, r, p, s.rawValue)`, or, for
/// streams kept per app or per instance, `StreamSeed.derive(seed, r, p, s.rawValue,
/// StreamSeed.stableHash(id))` with the app's or instance's id. A stream depends on
/// nothing else, so adding a feature to one component never shifts another's numbers,
/// and reordering or adding apps or instances leaves the others' streams unchanged.
public enum WorldStream: UInt64, Sendable, CaseIterable {
  /// Home Screen visit times (`VisitProcess`).
  case visits = 1
  /// Wants: three uniforms per visit (`WantGenerator`).
  case wants = 2
  /// Tap, open and swipe uniforms: three per visit, in that order.
  case choices = 3
  /// One per app (by app id): the app's random timeline events.
  case timeline = 4
  /// One per instance (by instance id): times the system picks for reloads.
  case reloads = 5
  /// Context changes (`ContextGenerator`): jitter and workout draws, day by day.
  case context = 6
}

extension Scenario {
  /// The seed of `stream` for person `person` of replicate `replicate` (see
  /// `WorldStream`); `id` names the app or instance for per-app and per-instance streams.
  public static func streamSeed(
    _ seed: UInt64, replicate: Int, person: Int, _ stream: WorldStream, id: String? = nil
  ) -> UInt64 {
    var components = [
      UInt64(truncatingIfNeeded: replicate), UInt64(truncatingIfNeeded: person), stream.rawValue,
    ]
    if let id { components.append(StreamSeed.stableHash(id)) }
    return StreamSeed.derive(seed, components: components)
  }

  /// Generates person `p` (0-based, `0..<personCount`) of replicate `replicate`.
  ///
  /// Everything in the result depends only on the scenario and `(seed, replicate, p)`,
  /// never on a strategy. Generation runs forward in time, so with fewer `days` the
  /// visits, wants, draws, events and delivered entries are a prefix of a longer run's.
  ///
  /// - Parameters:
  ///   - seed: the master seed (`self.seed` unless the command line gives one).
  ///   - days: the number of local days to simulate (default `self.days`), clamped to
  ///     1...366.
  /// - Returns: the person; an out-of-range `p` gives a person with no visits.
  /// - Complexity: O(visits × apps + entries log entries + days × 24 × suggestions);
  ///   memory for one person only.
  public func person(_ p: Int, replicate: Int, seed: UInt64, days: Int? = nil) -> SimulatedPerson {
    let runDays = Scenario.clampDays(days ?? self.days)
    let start = startInstant.milliseconds
    let end = endInstant(days: runDays).milliseconds
    let all = instances
    let located = persona(ofPerson: p)
    var person = SimulatedPerson(
      index: p, name: personName(p), persona: located?.persona ?? -1, replicate: replicate,
      start: start, end: end, instances: all, stackCount: stack.instances.count, apps: apps,
      appMatches: appMatches())
    guard let located else { return person }
    let persona = personas[located.persona]
    func random(_ stream: WorldStream, _ id: String? = nil) -> Xoshiro256StarStar {
      Xoshiro256StarStar(
        seed: Scenario.streamSeed(seed, replicate: replicate, person: p, stream, id: id))
    }

    // 1. Visits.
    let process = VisitProcess(persona: persona)
    var visitRandom = random(.visits)
    person.visitTimes = process.generate(zone: zone, start: start, end: end, using: &visitRandom)
    let visitCount = person.visitTimes.count

    // 2. What each app intends, and the relevant events.
    var timelines = [IntendedTimeline?](repeating: nil, count: apps.count)
    var events: [RelevantEvent] = []
    for (a, app) in apps.enumerated() {
      guard let spec = app.timeline else { continue }
      var timelineRandom = random(.timeline, app.id)
      let horizon = Int64(
        min(max(0, app.reload.horizonHours * Double(Instant.millisecondsPerHour)), 1e13))
      let timeline = TimelineGenerator.generate(
        spec, app: Int32(a), zone: zone, start: start, end: end, scheduledEnd: end &+ horizon,
        sleep: persona.sleep, using: &timelineRandom)
      // Scheduled events reach past the end (for reloads ahead); keep the run's own.
      events += timeline.events.filter { $0.start < end && $0.end > start }
      timelines[a] = timeline
    }
    events.sort { ($0.start, $0.app, $0.end) < ($1.start, $1.app, $1.end) }

    // 3. Context, then wants (which may depend on the place).
    if let routine = persona.context {
      var contextRandom = random(.context)
      person.context = ContextGenerator.generate(
        routine, sleep: persona.sleep, zone: zone, startDay: startDay, days: runDays, start: start, end: end,
        using: &contextRandom)
    }
    let routines = WantGenerator.Routines(persona: persona, appCount: apps.count)
    var wantRandom = random(.wants)
    (person.wantApp, person.wantSource) = WantGenerator.generate(
      visits: person.visitTimes, routines: routines, wantProbability: persona.wantProbability,
      events: events, zone: zone, startDay: startDay, context: person.context, repeating: persona.repeating,
      using: &wantRandom)

    // 4. Tap, open and swipe draws.
    var choiceRandom = random(.choices)
    person.tapDraw.reserveCapacity(visitCount)
    person.openDraw.reserveCapacity(visitCount)
    person.swipeDraw.reserveCapacity(visitCount)
    for _ in 0..<visitCount {
      person.tapDraw.append(choiceRandom.nextUnit())
      person.openDraw.append(choiceRandom.nextUnit())
      person.swipeDraw.append(choiceRandom.nextUnit())
    }
    person.tapProbability = persona.tap
    person.openProbability = persona.open
    person.swipeProbability = persona.swipe

    // 5. Reloads: what reaches each instance.
    var wantTimes = [[Int64]](repeating: [], count: apps.count)
    for v in 0..<visitCount where person.wantApp[v] >= 0 {
      wantTimes[Int(person.wantApp[v])].append(person.visitTimes[v])
    }
    let foreground = TimelineGenerator.milliseconds(minutes: persona.foregroundMinutes)
    var delivered: [(instance: Int32, item: ReloadSimulation.Delivered)] = []
    for (i, owner) in timelineApps().enumerated() where owner >= 0 {
      guard let timeline = timelines[Int(owner)] else { continue }
      let simulation = ReloadSimulation(
        timeline: timeline, spec: apps[Int(owner)].reload, budget: stack.reloadBudget,
        start: start, end: end, visits: person.visitTimes,
        expectedVisitsPerDay: process.expectedPerDay, wants: wantTimes[Int(owner)],
        foregroundLength: foreground)
      var reloadRandom = random(.reloads, all[i].id)
      let result = simulation.run(using: &reloadRandom)
      person.reloadCounts[i] = result.counts
      for item in result.entries { delivered.append((Int32(i), item)) }
    }
    delivered.sort {
      ($0.item.entry.date, $0.instance, $0.item.order) < (
        $1.item.entry.date, $1.instance, $1.item.order
      )
    }
    person.entryInstance = delivered.map(\.instance)
    person.entries = delivered.map(\.item.entry)

    // 6. Suggestion windows.
    var windows: [SuggestionWindow] = []
    for (k, a) in suggestionApps.enumerated() {
      guard let spec = apps[a].suggestion else { continue }
      windows += SuggestionPlanner.windows(
        spec, app: a, instance: Int32(stack.instances.count + k), routines: routines,
        events: events, zone: zone, startDay: startDay, days: runDays, start: start, end: end)
    }
    windows.sort { ($0.start, $0.instance, $0.end) < ($1.start, $1.instance, $1.end) }
    person.suggestionWindows = windows
    person.events = events
    return person
  }
}
