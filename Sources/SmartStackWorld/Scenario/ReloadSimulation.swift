import SmartStackBase
import SmartStackData
import SmartStackEngine

/// Which of an app's intended timeline entries reach one widget instance, and when:
/// timelines reach the stack only through reloads (reference rules 22-26, Q9).
///
/// ## Requests
/// In time order (ties in this order): a delayed reload whose wait is over; the reload
/// the policy schedules; an app-driven request at each live entry's date (`onEvent`);
/// an app-driven request at each want for the app (`onOpen`). The widget also asks for
/// its first timeline at the start of the run. Requests at equal instants of one source
/// count once. Requests at or after the end of the run are not made.
///
/// A request at `t`, with `g` the last performed reload and `s` the spacing (5 min):
/// 1. while a delayed reload is waiting, or when `t == g`: **coalesced** (merged);
/// 2. when `t - g < s`: **delayed** to `g + s`, then executed as below;
/// 3. otherwise executed: **granted free** when the app is in the foreground (within
///    `foregroundMinutes` after a want for it, reference rule 25); else **granted** when
///    fewer than `ReloadBudget.allowance` budgeted reloads happened in `(t - 24 h, t]`;
///    else **refused**.
///
/// ## Policies (earliest next request after a granted reload at `t`)
/// - `atEnd`: the date of the last entry of the returned timeline when it lies after
///   `t`, else a time the system picks, `t + U(systemPickMinutes)`;
/// - `after(m)`: `t + m`;
/// - `never`: none (app-driven requests only).
/// After a refusal of the scheduled request, it is retried at `t + m` (`after`), at
/// `t + U(systemPickMinutes)` (`atEnd`), or not at all (`never`). The only random draws
/// (`nextDouble`, one output each) are these system picks, from the instance's reload
/// stream.
///
/// ## What a reload at `t` delivers
/// The app returns the timeline it would build at `t`:
/// - the **current entry**: the last intended entry with non-nil relevance dated before
///   `t`, when no reload delivered it yet. It takes effect at `t`, its window keeping
///   its original end (duration `end - t`); if that window already ended it is dropped
///   (WidgetKit never learns of it). Other undelivered entries dated before `t`
///   (superseded, or nil-relevance updates) are dropped.
/// - every undelivered entry dated exactly `t`;
/// - every **scheduled** entry dated in `(t, t + horizon]` (live entries are unknown
///   before their date).
/// So an entry takes effect at `max(its date, the time of the reload that delivered
/// it)`, and entries never delivered are dropped. Entries taking effect at or after the
/// end are left out.
///
/// - Complexity: O(entries + requests + visits + wants).
struct ReloadSimulation {
  /// A delivered entry and the index of the intended entry it came from.
  struct Delivered: Sendable, Equatable {
    var entry: RelevanceEntry
    var order: Int
  }

  var timeline: IntendedTimeline
  var spec: ReloadSpec
  var budget: ReloadBudget
  /// The run's range, epoch ms.
  var start: Int64
  var end: Int64
  /// The person's visit times, ascending.
  var visits: [Int64]
  /// Visits per day assumed before the start (the persona's expectation).
  var expectedVisitsPerDay: Double
  /// Times of the person's wants for this app, ascending: foreground starts.
  var wants: [Int64]
  /// How long the app stays in the foreground after a want, ms.
  var foregroundLength: Int64

  /// What a run produced.
  struct Result: Sendable {
    /// Delivered entries, in delivery order (not sorted by date).
    var entries: [Delivered]
    var counts: ReloadCounts
    /// Times of performed reloads, ascending, and of those counted against the budget.
    var performed: [Int64]
    var budgeted: [Int64]
  }

  /// Runs the requests and deliveries; see the type's documentation.
  func run<G: RandomNumberGenerator>(using random: inout G) -> Result {
    var state = RunState(self)
    state.loop(&random)
    return Result(
      entries: state.output, counts: state.counts, performed: state.performed,
      budgeted: state.budgeted)
  }
}

extension ReloadSimulation {
  /// The sources of reload requests; the raw values are their order at equal instants
  /// (`EventMerger`; the type's "Requests"). The initial request comes at the start,
  /// before every other source can have one.
  private enum Source: Int { case initial, delayed, scheduled, event, open }

  /// The mutable state of one run.
  private struct RunState {
    let sim: ReloadSimulation
    let entryCount: Int
    let spacing: Int64
    let horizon: Int64
    var counts = ReloadCounts()
    var output: [Delivered] = []
    var delivered: [Bool]

    var initialPending = true
    var nextScheduled: Int64? = nil
    var waiting: Int64? = nil
    var lastPerformed: Int64? = nil
    var eventIndex = 0
    var openIndex = 0

    var passed = 0
    var lastNonNil = -1
    var aheadScan = 0
    var lastScheduledDate = Int64.min

    var performed: [Int64] = []
    var budgeted: [Int64] = []
    var budgetHead = 0
    var visitLow = 0
    var visitHigh = 0
    var foregroundNext = 0
    var lastWant = Int64.min

    init(_ sim: ReloadSimulation) {
      self.sim = sim
      entryCount = sim.timeline.entries.count
      spacing = TimelineGenerator.milliseconds(minutes: sim.budget.spacingMinutes)
      horizon = Int64(
        min(max(0, (sim.spec.horizonHours * Double(Instant.millisecondsPerHour)).rounded()), 1e15))
      delivered = [Bool](repeating: false, count: entryCount)
      eventIndex = nextEvent(from: 0, after: Int64.min)
      openIndex = nextOpen(from: 0, after: Int64.min)
    }

    // MARK: Request sources

    /// The next live entry at or after `start` and after `after`, from `index` on.
    func nextEvent(from index: Int, after: Int64) -> Int {
      guard sim.spec.onEvent else { return entryCount }
      var i = index
      let entries = sim.timeline.entries
      while i < entryCount {
        let date = entries[i].date.milliseconds
        if sim.timeline.live[i] && date >= sim.start && date > after { break }
        i += 1
      }
      return i
    }

    func nextOpen(from index: Int, after: Int64) -> Int {
      guard sim.spec.onOpen else { return sim.wants.count }
      var i = index
      while i < sim.wants.count && (sim.wants[i] < sim.start || sim.wants[i] <= after) { i += 1 }
      return i
    }

    mutating func loop<G: RandomNumberGenerator>(_ random: inout G) {
      var requests = EventMerger<Source>()
      while true {
        // Each source's next request time, read from the state it lives in.
        requests[.initial] = initialPending ? sim.start : Int64.max
        requests[.delayed] = waiting ?? Int64.max
        requests[.scheduled] = nextScheduled ?? Int64.max
        requests[.event] = eventIndex < entryCount ? sim.timeline.entries[eventIndex].date.milliseconds : Int64.max
        requests[.open] = openIndex < sim.wants.count ? sim.wants[openIndex] : Int64.max
        guard let (source, t) = requests.next(), t < sim.end else { break }
        switch source {
        case .initial:
          initialPending = false
          request(at: t, scheduled: false, &random)
        case .delayed:
          waiting = nil
          execute(at: t, &random)
        case .scheduled:
          request(at: t, scheduled: true, &random)
        case .event:
          eventIndex = nextEvent(from: eventIndex + 1, after: t)
          request(at: t, scheduled: false, &random)
        case .open:
          openIndex = nextOpen(from: openIndex + 1, after: t)
          request(at: t, scheduled: false, &random)
        }
      }
      if waiting != nil { counts.pending += 1 }
      for i in 0..<entryCount
      where !delivered[i] && sim.timeline.entries[i].date.milliseconds < sim.end {
        counts.entriesDropped += 1
      }
    }

    // MARK: Requests

    mutating func request<G: RandomNumberGenerator>(at t: Int64, scheduled: Bool, _ random: inout G)
    {
      counts.requested += 1
      if scheduled { nextScheduled = nil }
      if waiting != nil {
        counts.coalesced += 1
        return
      }
      if let g = lastPerformed {
        if t == g {
          counts.coalesced += 1
          return
        }
        if t - g < spacing {
          counts.delayed += 1
          waiting = g + spacing
          return
        }
      }
      execute(at: t, &random)
    }

    mutating func execute<G: RandomNumberGenerator>(at t: Int64, _ random: inout G) {
      if isForeground(t) {
        counts.granted += 1
        counts.free += 1
        perform(at: t, &random)
        return
      }
      let day = Instant.millisecondsPerDay
      while budgetHead < budgeted.count && budgeted[budgetHead] <= t - day { budgetHead += 1 }
      while visitHigh < sim.visits.count && sim.visits[visitHigh] <= t { visitHigh += 1 }
      while visitLow < visitHigh && sim.visits[visitLow] <= t - day { visitLow += 1 }
      var seen = Double(visitHigh - visitLow)
      let before = sim.start - (t - day)
      if before > 0 { seen += sim.expectedVisitsPerDay * Double(before) / Double(day) }
      if budgeted.count - budgetHead < sim.budget.allowance(visits: seen) {
        counts.granted += 1
        budgeted.append(t)
        perform(at: t, &random)
      } else {
        counts.refused += 1
        if nextScheduled == nil { nextScheduled = retry(after: t, &random) }
      }
    }

    /// True when a want for the app happened in `(t - foregroundLength, t]`.
    mutating func isForeground(_ t: Int64) -> Bool {
      while foregroundNext < sim.wants.count && sim.wants[foregroundNext] <= t {
        lastWant = sim.wants[foregroundNext]
        foregroundNext += 1
      }
      return lastWant != Int64.min && t - lastWant < sim.foregroundLength
    }

    // MARK: Reload policy

    mutating func systemPick<G: RandomNumberGenerator>(_ random: inout G) -> Int64 {
      let range = sim.budget.systemPickMinutes
      let minutes =
        range.upperBound > range.lowerBound
        ? random.nextDouble(in: range.lowerBound..<range.upperBound) : range.lowerBound
      return max(1, TimelineGenerator.milliseconds(minutes: minutes))
    }

    mutating func next<G: RandomNumberGenerator>(after t: Int64, _ random: inout G) -> Int64? {
      switch sim.spec.policy {
      case .atEnd:
        return lastScheduledDate > t ? lastScheduledDate : t &+ systemPick(&random)
      case .after(let minutes):
        return t &+ max(1, TimelineGenerator.milliseconds(minutes: minutes))
      case .never:
        return nil
      }
    }

    mutating func retry<G: RandomNumberGenerator>(after t: Int64, _ random: inout G) -> Int64? {
      switch sim.spec.policy {
      case .atEnd: return t &+ systemPick(&random)
      case .after(let minutes): return t &+ max(1, TimelineGenerator.milliseconds(minutes: minutes))
      case .never: return nil
      }
    }

    // MARK: Delivery

    mutating func perform<G: RandomNumberGenerator>(at t: Int64, _ random: inout G) {
      lastPerformed = t
      performed.append(t)
      let entries = sim.timeline.entries
      while passed < entryCount && entries[passed].date.milliseconds < t {
        if entries[passed].relevance != nil { lastNonNil = passed }
        passed += 1
      }
      // The current entry, re-dated to t with its window's end kept.
      if lastNonNil >= 0 && !delivered[lastNonNil], let relevance = entries[lastNonNil].relevance {
        var duration = relevance.durationMilliseconds
        var stale = false
        if let windowEnd = relevance.windowEnd(start: entries[lastNonNil].date.milliseconds) {
          if windowEnd <= t { stale = true } else { duration = windowEnd - t }
        }
        if !stale {
          emit(
            RelevanceEntry(
              date: Instant(milliseconds: t),
              relevance: Relevance(score: relevance.score, durationMilliseconds: duration)),
            order: lastNonNil)
        }
      }
      // Entries dated exactly now.
      var i = passed
      while i < entryCount && entries[i].date.milliseconds == t {
        if !delivered[i] { emit(entries[i], order: i) }
        i += 1
      }
      // Scheduled entries up to the horizon.
      if aheadScan < i { aheadScan = i }
      let limit = t &+ horizon
      while aheadScan < entryCount && entries[aheadScan].date.milliseconds <= limit {
        if !sim.timeline.live[aheadScan] {
          lastScheduledDate = max(lastScheduledDate, entries[aheadScan].date.milliseconds)
          if !delivered[aheadScan] { emit(entries[aheadScan], order: aheadScan) }
        }
        aheadScan += 1
      }
      nextScheduled = next(after: t, &random)
    }

    mutating func emit(_ entry: RelevanceEntry, order: Int) {
      delivered[order] = true
      guard entry.date.milliseconds < sim.end else { return }
      output.append(Delivered(entry: entry, order: order))
      counts.entriesDelivered += 1
    }
  }
}
