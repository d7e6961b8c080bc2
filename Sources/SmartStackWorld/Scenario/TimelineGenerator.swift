import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine

/// The entries an app *intends* for its widget, before reloads decide what reaches the
/// stack, and the relevant events behind them.
///
/// Each entry is either **scheduled** (the app knows it from the start: calendar events,
/// game windows, explicit entries) or **live** (the app learns it at the entry's own
/// date: a purchase, an alert, a score update, content appearing). A reload at `t` can
/// deliver scheduled entries ahead of their date, live ones only once they happened.
struct IntendedTimeline: Sendable {
  /// Entries sorted by date; at equal dates in the order they were generated.
  private(set) var entries: [RelevanceEntry] = []
  /// `live[i]`: entry `i` is known only from its own date on.
  private(set) var live: [Bool] = []
  /// The relevant events, in generation order.
  var events: [RelevantEvent] = []
  private var sorted = true

  mutating func append(_ entry: RelevanceEntry, live isLive: Bool) {
    if let last = entries.last, entry.date < last.date { sorted = false }
    entries.append(entry)
    live.append(isLive)
  }

  /// Sorts the entries by date, stably. - Complexity: O(n log n), O(n) when sorted.
  mutating func finish() {
    guard !sorted else { return }
    let order = entries.indices.sorted { (entries[$0].date, $0) < (entries[$1].date, $1) }
    entries = order.map { entries[$0] }
    live = order.map { live[$0] }
    sorted = true
  }
}

/// Generates intended timelines and events from `TimelineSpec`s.
///
/// Scheduled entries are generated from two days before the simulation's start (so
/// windows that began before it are known) up to `scheduledEnd` (the end plus the
/// reload horizon); random (live) ones from the start to the end. Random draws come
/// from the app's own timeline stream, in time order, so a shorter run's timeline is a
/// prefix of a longer run's.
enum TimelineGenerator {
  /// - Parameters:
  ///   - app: the app's index, written into the events.
  ///   - start, end: the simulated range, epoch ms.
  ///   - scheduledEnd: scheduled entries are generated up to here (>= end).
  ///   - sleep: the person's sleep (purchases happen only while awake).
  /// - Complexity: O(entries + days × schedule items).
  static func generate<G: RandomNumberGenerator>(
    _ spec: TimelineSpec, app: Int32, zone: ZoneRules, start: Int64, end: Int64,
    scheduledEnd: Int64, sleep: SleepWindow, using random: inout G
  ) -> IntendedTimeline {
    var timeline = IntendedTimeline()
    switch spec {
    case .calendar(let calendar):
      scheduled(
        calendar.schedule, leadMinutes: calendar.leadMinutes, updateMinutes: 0, score: calendar.score,
        wantProbability: calendar.wantProbability, app: app, zone: zone, start: start,
        scheduledEnd: scheduledEnd, into: &timeline)
    case .sports(let sports):
      scheduled(
        sports.schedule, leadMinutes: sports.leadMinutes, updateMinutes: sports.updateMinutes,
        score: sports.score, wantProbability: sports.wantProbability, app: app, zone: zone,
        start: start, scheduledEnd: scheduledEnd, into: &timeline)
    case .weather(let weather):
      let duration = milliseconds(minutes: weather.alertMinutes)
      poisson(perDay: weather.alertsPerDay, start: start, end: end, using: &random) { t, random in
        let severity =
          (RandomShuffle.weightedIndex(weather.severityWeights, using: &random) ?? 0) + 1
        timeline.append(
          RelevanceEntry(
            date: Instant(milliseconds: t),
            relevance: Relevance(score: Double(severity), durationMilliseconds: duration)),
          live: true)
        timeline.events.append(
          RelevantEvent(
            app: app, start: t, end: t + duration, wantProbability: weather.wantProbability))
      }
    case .purchases(let purchases):
      var awakeMinutes = 0
      for hour in 0..<24 { awakeMinutes += sleep.awakeMinutes(inHour: hour) }
      let perAwakeDay =
        awakeMinutes > 0 ? purchases.purchasesPerDay * 1440 / Double(awakeMinutes) : 0
      let want = milliseconds(minutes: purchases.wantMinutes)
      var cursor = zone.cursor()
      poisson(perDay: perAwakeDay, start: start, end: end, using: &random) { t, random in
        let local = cursor.localMilliseconds(at: Instant(milliseconds: t))
        if sleep.isAsleep(localMilliseconds: local) { return }
        let amount = purchaseAmount(purchases, using: &random)
        timeline.append(
          RelevanceEntry(date: Instant(milliseconds: t), relevance: Relevance(score: amount)),
          live: true)
        timeline.events.append(
          RelevantEvent(
            app: app, start: t, end: t + want, wantProbability: purchases.wantProbability))
      }
    case .emptyState(let state):
      timeline.append(
        RelevanceEntry(
          date: Instant(milliseconds: start), relevance: Relevance(score: state.emptyScore)),
        live: false)
      var t = Double(start)
      let msPerMinute = Double(Instant.millisecondsPerMinute)
      while true {
        t += random.nextExponential(mean: state.emptyMinutes) * msPerMinute
        guard t < Double(end) else { break }
        let on = Int64(t)
        timeline.append(
          RelevanceEntry(date: Instant(milliseconds: on), relevance: Relevance(score: state.score)),
          live: true)
        t += random.nextExponential(mean: state.contentMinutes) * msPerMinute
        let off = Int64(min(t, Double(end)))
        timeline.events.append(
          RelevantEvent(
            app: app, start: on, end: max(off, on + 1), wantProbability: state.wantProbability))
        guard t < Double(end) else { break }
        timeline.append(
          RelevanceEntry(
            date: Instant(milliseconds: off), relevance: Relevance(score: state.emptyScore)),
          live: true)
      }
    case .entries(let explicit):
      for entry in explicit.entries { timeline.append(entry, live: false) }
      timeline.finish()
      if explicit.wantProbability > 0 {
        timeline.events = activeWindows(timeline.entries, until: end).map {
          RelevantEvent(
            app: app, start: $0.start, end: $0.end, wantProbability: explicit.wantProbability)
        }
      }
    }
    timeline.finish()
    return timeline
  }

  /// Whole milliseconds of `minutes`, rounded; 0 for non-finite or negative values.
  static func milliseconds(minutes: Double) -> Int64 {
    let ms = (minutes * Double(Instant.millisecondsPerMinute)).rounded()
    return ms.isFinite && ms > 0 ? Int64(min(ms, 1e15)) : 0
  }

  /// The entries and events of scheduled items (calendar and sports timelines): for each
  /// occurrence `s` of an item of `minutes` overlapping `start...`, an entry at `s - lead`
  /// with `score` for `lead + minutes`, then (with `updateMinutes > 0`) a nil "live" entry
  /// every `updateMinutes` after `s` while the item lasts, then the relevant event
  /// `s - lead ..< s + minutes`.
  static func scheduled(
    _ schedule: [ScheduleItem], leadMinutes: Double, updateMinutes: Double, score: Double,
    wantProbability: Double, app: Int32, zone: ZoneRules, start: Int64, scheduledEnd: Int64,
    into timeline: inout IntendedTimeline
  ) {
    let lead = milliseconds(minutes: leadMinutes)
    let step = milliseconds(minutes: updateMinutes)
    for item in schedule {
      let length = milliseconds(minutes: item.minutes)
      for s in occurrences(item, zone: zone, from: start - lead - length, to: scheduledEnd + lead)
      where s + length > start {
        timeline.append(
          RelevanceEntry(
            date: Instant(milliseconds: s - lead),
            relevance: Relevance(score: score, durationMilliseconds: lead + length)),
          live: false)
        if step > 0 {
          var update = s + step
          while update < s + length {
            timeline.append(RelevanceEntry(date: Instant(milliseconds: update)), live: true)
            update += step
          }
        }
        timeline.events.append(
          RelevantEvent(app: app, start: s - lead, end: s + length, wantProbability: wantProbability))
      }
    }
  }

  /// Start instants (epoch ms, ascending) of `item`'s occurrences in `[from, to)`.
  ///
  /// - Complexity: O(days in the range).
  static func occurrences(_ item: ScheduleItem, zone: ZoneRules, from: Int64, to: Int64) -> [Int64]
  {
    switch item.start {
    case .once(let instant):
      return instant.milliseconds >= from && instant.milliseconds < to ? [instant.milliseconds] : []
    case .weekly(let weekdays, let minute):
      var starts: [Int64] = []
      let firstDay = zone.dayIndex(at: Instant(milliseconds: from)) - 1
      let lastDay = zone.dayIndex(at: Instant(milliseconds: to)) + 1
      var day = firstDay
      while day <= lastDay {
        if weekdays & (1 << UInt8(WallClock.weekday(dayIndex: day))) != 0 {
          let local =
            day * Instant.millisecondsPerDay + Int64(minute) * Instant.millisecondsPerMinute
          let t = zone.instant(fromLocal: local).milliseconds
          if t >= from && t < to && starts.last.map({ $0 < t }) ?? true { starts.append(t) }
        }
        day += 1
      }
      return starts
    }
  }

  /// Runs a homogeneous Poisson process of `perDay` events per day over `[start, end)`
  /// (gaps `nextExponential`, one output each), calling `body` at each event time.
  private static func poisson<G: RandomNumberGenerator>(
    perDay: Double, start: Int64, end: Int64, using random: inout G,
    _ body: (Int64, inout G) -> Void
  ) {
    guard perDay > 0 && perDay.isFinite else { return }
    var t = Double(start)
    let msPerDay = Double(Instant.millisecondsPerDay)
    while true {
      t += random.nextExponential(rate: perDay) * msPerDay
      guard t < Double(end) else { return }
      body(Int64(t), &random)
    }
  }

  /// `medianAmount × exp(amountSigma × Z)` rounded to cents, at least 0.01; two outputs.
  static func purchaseAmount<G: RandomNumberGenerator>(
    _ purchases: PurchasesTimeline, using random: inout G
  ) -> Double {
    let z = random.nextNormal()
    let amount = purchases.medianAmount * exp(purchases.amountSigma * z)
    let cents = (amount * 100).rounded()
    guard cents.isFinite else { return 0.01 }
    return max(1, min(cents, 1e13)) / 100
  }

  /// The spans in which `entries` (sorted by date) hold an active window (score > 0),
  /// following the relevance rules of DESIGN.md §4 (of several non-nil entries at one
  /// date the last wins; a newer non-nil entry ends a window), cut at `until`.
  ///
  /// - Complexity: O(n).
  static func activeWindows(_ entries: [RelevanceEntry], until: Int64) -> [(
    start: Int64, end: Int64
  )] {
    // nextNonNil[i]: the index of the first entry after i with non-nil relevance, or -1.
    var nextNonNil = [Int](repeating: -1, count: entries.count)
    var following = -1
    for index in entries.indices.reversed() {
      nextNonNil[index] = following
      if entries[index].relevance != nil { following = index }
    }
    var spans: [(start: Int64, end: Int64)] = []
    for (index, entry) in entries.enumerated() {
      guard let relevance = entry.relevance else { continue }
      let next = nextNonNil[index]
      if next >= 0 && entries[next].date == entry.date { continue }  // replaced at once
      guard relevance.score > 0 else { continue }
      let start = entry.date.milliseconds
      var end = relevance.windowEnd(start: start) ?? Int64.max
      if next >= 0 { end = min(end, entries[next].date.milliseconds) }
      end = min(end, until)
      if end > start { spans.append((start, end)) }
    }
    return spans
  }
}
