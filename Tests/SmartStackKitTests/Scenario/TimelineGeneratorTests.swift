import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

@Suite("Timeline generators")
struct TimelineGeneratorTests: ScenarioTesting {
  let minute: Int64 = 60_000
  let day: Int64 = 86_400_000

  func generate(
    _ spec: TimelineSpec, start: String = "2026-01-05T00:00:00Z", days: Int64 = 7,
    zone: ZoneRules = .utc, sleep: SleepWindow = .default, seed: UInt64 = 1
  ) -> IntendedTimeline {
    var random = Xoshiro256StarStar(seed: seed)
    let s = ms(start)
    return TimelineGenerator.generate(
      spec, app: 3, zone: zone, start: s, end: s + days * day, scheduledEnd: s + (days + 1) * day,
      sleep: sleep, using: &random)
  }

  func entry(_ date: String, _ score: Double?, minutes: Int64 = 0) -> RelevanceEntry {
    RelevanceEntry(
      date: Instant(milliseconds: ms(date)),
      relevance: score.map { Relevance(score: $0, durationMilliseconds: minutes * 60_000) })
  }

  @Test func sportsGamesHaveAScoreOneWindowOfTheGameLengthAndNilUpdatesInside() {
    // Saturdays 15:30, 110 minutes; the week from Monday 2026-01-05 has one, on the 10th.
    var sports = SportsTimeline(schedule: [
      ScheduleItem(start: .weekly(weekdays: 32, minuteOfDay: 15 * 60 + 30), minutes: 110)
    ])
    sports.updateMinutes = 15
    let timeline = generate(.sports(sports))
    #expect(
      timeline.entries == [
        entry("2026-01-10T15:30:00Z", 1, minutes: 110),
        entry("2026-01-10T15:45:00Z", nil), entry("2026-01-10T16:00:00Z", nil),
        entry("2026-01-10T16:15:00Z", nil), entry("2026-01-10T16:30:00Z", nil),
        entry("2026-01-10T16:45:00Z", nil), entry("2026-01-10T17:00:00Z", nil),
        entry("2026-01-10T17:15:00Z", nil),
      ])
    // The window is known from the schedule; the updates only as they happen.
    #expect(timeline.live == [false, true, true, true, true, true, true, true])
    #expect(
      timeline.events == [
        RelevantEvent(
          app: 3, start: ms("2026-01-10T15:30:00Z"), end: ms("2026-01-10T17:20:00Z"),
          wantProbability: 0.5)
      ])

    sports.leadMinutes = 30
    sports.updateMinutes = 0
    let early = generate(.sports(sports))
    #expect(early.entries == [entry("2026-01-10T15:00:00Z", 1, minutes: 140)])
    #expect(early.events.map(\.start) == [ms("2026-01-10T15:00:00Z")])
  }

  @Test func calendarEventsAreRelevantFromTheirLeadToTheirEnd() {
    var calendar = CalendarTimeline(schedule: [
      ScheduleItem(start: .weekly(weekdays: 31, minuteOfDay: 9 * 60), minutes: 60),
      ScheduleItem(start: .once(Instant(milliseconds: ms("2026-01-07T14:00:00Z"))), minutes: 30),
    ])
    calendar.wantProbability = 0.3
    // Start on Monday at 09:10: Monday's 09:00 meeting is still running, so it counts.
    let timeline = generate(.calendar(calendar), start: "2026-01-05T09:10:00Z", days: 3)
    #expect(
      timeline.entries == [
        entry("2026-01-05T08:45:00Z", 1, minutes: 75),
        entry("2026-01-06T08:45:00Z", 1, minutes: 75),
        entry("2026-01-07T08:45:00Z", 1, minutes: 75),
        entry("2026-01-07T13:45:00Z", 1, minutes: 45),
        // The scheduled part reaches one day past the end (the reload horizon).
        entry("2026-01-08T08:45:00Z", 1, minutes: 75),
        entry("2026-01-09T08:45:00Z", 1, minutes: 75),
      ])
    #expect(timeline.live.allSatisfy { !$0 })
    #expect(timeline.events.count == 6)
    #expect(
      timeline.events.allSatisfy {
        $0.end - $0.start == 75 * minute || $0.end - $0.start == 45 * minute
      })
    #expect(timeline.events.allSatisfy { $0.wantProbability == 0.3 })
  }

  @Test func weeklyStartsFollowLocalTimeAcrossTheSpringGap() throws {
    let berlin = try #require(ZoneRules(identifier: "Europe/Berlin"))
    let sundayNight = ScheduleItem(start: .weekly(weekdays: 64, minuteOfDay: 150), minutes: 30)
    let sundayMorning = ScheduleItem(start: .weekly(weekdays: 64, minuteOfDay: 540), minutes: 30)
    let from = ms("2026-03-21T00:00:00Z")
    let to = ms("2026-04-01T00:00:00Z")
    // 02:30 does not exist on 2026-03-29: read with the winter offset, it is 01:30Z.
    #expect(
      TimelineGenerator.occurrences(sundayNight, zone: berlin, from: from, to: to)
        == [ms("2026-03-22T01:30:00Z"), ms("2026-03-29T01:30:00Z")])
    #expect(
      TimelineGenerator.occurrences(sundayMorning, zone: berlin, from: from, to: to)
        == [ms("2026-03-22T08:00:00Z"), ms("2026-03-29T07:00:00Z")])
  }

  @Test func purchasesScoreTheirAmountWithDurationZeroWhileAwake() {
    var purchases = PurchasesTimeline()
    purchases.purchasesPerDay = 3
    let timeline = generate(.purchases(purchases), days: 40, seed: 11)
    let n = timeline.entries.count
    #expect(n > 84 && n < 156, "\(n) purchases in 40 days at 3 a day")
    for (entry, live) in zip(timeline.entries, timeline.live) {
      let relevance = entry.relevance
      #expect(live)
      #expect(relevance?.durationMilliseconds == 0)
      let amount = relevance?.score ?? 0
      #expect(
        amount >= 0.01 && abs((amount * 100).rounded() - amount * 100) < 1e-6, "amount \(amount)")
      #expect(!SleepWindow.default.isAsleep(localMilliseconds: entry.date.milliseconds))
    }
    let amounts = timeline.entries.compactMap { $0.relevance?.score }.sorted()
    let median = amounts[amounts.count / 2]
    #expect(median > 12 && median < 33, "median amount \(median)")
    #expect(timeline.events.count == n)
    #expect(
      zip(timeline.events, timeline.entries).allSatisfy {
        $0.start == $1.date.milliseconds && $0.end == $0.start + 30 * minute
          && $0.wantProbability == 0.5
      })
  }

  @Test func weatherAlertsScoreTheirSeverityForAFixedDuration() {
    var weather = WeatherTimeline()
    weather.alertsPerDay = 2
    weather.alertMinutes = 90
    let timeline = generate(.weather(weather), days: 100, seed: 5)
    let n = timeline.entries.count
    #expect(n > 160 && n < 240, "\(n) alerts in 100 days at 2 a day")
    var bySeverity = [0, 0, 0]
    for entry in timeline.entries {
      #expect(entry.relevance?.durationMilliseconds == 90 * minute)
      let score = entry.relevance?.score ?? 0
      #expect(score == 1 || score == 2 || score == 3)
      bySeverity[Int(score) - 1] += 1
    }
    // Weights 0.6, 0.3, 0.1.
    #expect(abs(Double(bySeverity[0]) / Double(n) - 0.6) < 0.1, "\(bySeverity)")
    #expect(bySeverity[2] < bySeverity[1] && bySeverity[1] < bySeverity[0], "\(bySeverity)")
    #expect(timeline.live.allSatisfy { $0 })
  }

  @Test func anEmptyStateWidgetAlternatesBetweenContentAndNothing() {
    var state = EmptyStateTimeline()
    state.score = 2
    state.emptyScore = -1
    let timeline = generate(.emptyState(state), days: 10, seed: 3)
    let entries = timeline.entries
    #expect(entries.first == entry("2026-01-05T00:00:00Z", -1))
    #expect(timeline.live.first == false)
    #expect(entries.count > 10)
    for (index, e) in entries.enumerated() {
      #expect(e.relevance?.score == (index % 2 == 0 ? -1 : 2))
      #expect(e.relevance?.durationMilliseconds == 0)
    }
    // Each content period is an event from its entry to the next (empty) entry.
    for (k, event) in timeline.events.enumerated() {
      #expect(event.start == entries[2 * k + 1].date.milliseconds)
      if 2 * k + 2 < entries.count { #expect(event.end == entries[2 * k + 2].date.milliseconds) }
    }
  }

  @Test func explicitEntriesPassThroughAndMakeEventsOfActiveWindows() {
    var explicit = EntriesTimeline(entries: [
      entry("2026-01-05T12:00:00Z", 5),  // replaced at once by the next entry
      entry("2026-01-05T12:00:00Z", 1, minutes: 60),
      entry("2026-01-05T10:00:00Z", 2),  // out of order: sorted by date
      entry("2026-01-05T12:30:00Z", nil),  // no change
      entry("2026-01-05T15:00:00Z", 0),  // suppressed: no event
      entry("2026-01-05T18:00:00Z", 3),  // open-ended: until the end
    ])
    #expect(generate(.entries(explicit)).events.isEmpty)  // wantProbability 0
    explicit.wantProbability = 1
    let timeline = generate(.entries(explicit), days: 1)
    #expect(
      timeline.entries.map(\.date.milliseconds) == [
        ms("2026-01-05T10:00:00Z"), ms("2026-01-05T12:00:00Z"), ms("2026-01-05T12:00:00Z"),
        ms("2026-01-05T12:30:00Z"), ms("2026-01-05T15:00:00Z"), ms("2026-01-05T18:00:00Z"),
      ])
    #expect(timeline.entries[1].relevance?.score == 5)  // stable at equal dates
    #expect(
      timeline.events.map { [$0.start, $0.end] } == [
        [ms("2026-01-05T10:00:00Z"), ms("2026-01-05T12:00:00Z")],
        [ms("2026-01-05T12:00:00Z"), ms("2026-01-05T13:00:00Z")],
        [ms("2026-01-05T18:00:00Z"), ms("2026-01-06T00:00:00Z")],
      ])
  }
}
