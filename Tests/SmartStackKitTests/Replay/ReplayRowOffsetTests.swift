import SmartStackKit
import Testing

@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackStrategies

/// A traveller: two mornings in Berlin (+01:00), coffee at 08:00 and news at 14:00 local,
/// then a Home Screen visit at 08:00 in New York (-05:00), when coffee is donated again.
///
/// In UTC the Berlin donations are at 07:00 (coffee) and 13:00 (news), and the New York
/// visit at 13:00: read in one zone (UTC), the visit's hour holds the news donations; read
/// in each row's own offset it holds the coffee donations.
enum Traveller {
  static let donations = """
    timestamp,user,kind,utc_offset
    2026-03-02T07:00:00Z,t,Coffee,3600
    2026-03-02T13:00:00Z,t,News,3600
    2026-03-03T07:00:00Z,t,Coffee,3600
    2026-03-03T13:00:00Z,t,News,3600
    2026-03-05T13:00:00Z,t,Coffee,-18000

    """
  static let visits = "timestamp,user\n2026-03-05T08:00:00-05:00,t\n"

  /// The same donations with the offset column dropped.
  static var donationsWithoutOffsets: String {
    donations.split(separator: "\n").map { line in
      line.split(separator: ",").dropLast().joined(separator: ",")
    }.joined(separator: "\n") + "\n"
  }

  static func plan(_ donations: String, zone: ZoneRules = .utc) throws -> ReplayPlan {
    let log = try DonationLog.read(bytes: Array(donations.utf8), file: "d.csv", format: .csv, timeZone: zone)
    var options = ReplayOptions()
    options.zone = zone
    options.visits = .log(try VisitLog.read(bytes: Array(visits.utf8), file: "v.csv", zone: zone))
    return try ReplayPlan(log: log, options: options)
  }

  static func hits(_ plan: ReplayPlan) throws -> Int {
    RunMetrics(Replay.run(plan, choice: try StrategyRegistry.builtIn.parse("hour-of-day")), days: LocalDays(plan: plan)).total.hits
  }

  /// The outcomes and the hour-of-day counts (`[instance * 24 + hour]`) after a replay.
  static func replay(_ plan: ReplayPlan) -> (outcomes: [VisitOutcome], hourCounts: [Int32]) {
    let person = plan.people[0]
    var session = StackSession(
      person: 0, instances: person.instances, strategy: HourOfDayStrategy(parameters: .none),
      observer: LastVisit(), zone: plan.options.zone, options: EngineOptions(), strategySeed: 1)
    Replay.run(person, horizon: 300_000, session: &session)
    return (session.observer.outcomes, session.context.features.hourOfDayCount)
  }
}

@Suite("Replay: each row's own UTC offset drives its local time")
struct ReplayRowOffsetTests {
  @Test func aTravellersHourOfDayCountsFollowTheRowOffsets() throws {
    let (outcomes, counts) = Traveller.replay(try Traveller.plan(Traveller.donations))
    // Instances in order of first donation: Coffee 0, News 1.
    #expect(counts[0 * 24 + 8] == 3)  // two Berlin mornings and the New York one
    #expect(counts[1 * 24 + 14] == 2)
    #expect(counts.reduce(0, +) == 5)
    let visit = try #require(outcomes.first)
    #expect(visit.hourOfDay == 8)
    #expect(visit.shown == 0)
  }

  @Test func theSameInstantsWithoutOffsetsCountInTheRunsZone() throws {
    let (outcomes, counts) = Traveller.replay(try Traveller.plan(Traveller.donationsWithoutOffsets))
    #expect(counts[0 * 24 + 7] == 2)
    #expect(counts[0 * 24 + 13] == 1)
    #expect(counts[1 * 24 + 13] == 2)
    // The visit's own `-05:00` still places it at 08:00 local.
    #expect(outcomes.first?.hourOfDay == 8)
  }

  @Test func theHourOfDayStrategyHitsOnlyWhenTheDonationsCountInTheirOwnOffsets() throws {
    #expect(try Traveller.hits(Traveller.plan(Traveller.donations)) == 1)
    // The same instants with no offset anywhere, in UTC: the visit at 13:00 sees the two
    // news donations of that hour and no coffee, and shows news.
    let utcVisits = Traveller.visits.replacingOccurrences(of: "08:00:00-05:00", with: "13:00:00Z")
    var options = ReplayOptions()
    options.visits = .log(try VisitLog.read(bytes: Array(utcVisits.utf8), file: "v.csv"))
    let plan = try ReplayPlan(
      log: DonationLog.read(bytes: Array(Traveller.donationsWithoutOffsets.utf8), file: "d.csv", format: .csv),
      options: options)
    #expect(try Traveller.hits(plan) == 0)
  }

  @Test func aVisitsDayIsItsOwnLocalDay() throws {
    // 2026-03-06T02:00Z is still 03-05 in New York (21:00 -05:00), 03-06 in UTC.
    let donations = "timestamp,user,kind\n2026-03-05T10:00:00Z,t,Coffee\n"
    let visits = "timestamp,user,utc_offset\n2026-03-06T02:00:00Z,t,-18000\n2026-03-06T03:00:00Z,t,\n"
    var options = ReplayOptions()
    options.visits = .log(try VisitLog.read(bytes: Array(visits.utf8), file: "v.csv"))
    let plan = try ReplayPlan(
      log: DonationLog.read(bytes: Array(donations.utf8), file: "d.csv", format: .csv), options: options)
    let (outcomes, _) = Traveller.replay(plan)
    let march5 = ISO8601.daysFromCivil(year: 2026, month: 3, day: 5)
    #expect(outcomes.map(\.dayIndex) == [march5, march5 + 1])
    #expect(outcomes.map(\.hourOfDay) == [21, 3])
  }

  @Test func rowsWithoutAnOffsetInAMixedLogUseTheRunsZone() throws {
    // Berlin zone; the second coffee row has no offset: 07:00Z is 08:00 in Berlin.
    let berlin = try #require(ZoneRules(identifier: "Europe/Berlin"))
    let mixed = """
      timestamp,user,kind,utc_offset
      2026-03-02T13:00:00Z,t,Coffee,-18000
      2026-03-03T07:00:00Z,t,Coffee,
      2026-03-04T13:00:00Z,t,News,-18000

      """
    let log = try DonationLog.read(bytes: Array(mixed.utf8), file: "m.csv", format: .csv, timeZone: berlin)
    #expect(log.utcOffsets == [-18000, UTCOffset.none, -18000])
    var options = ReplayOptions()
    options.zone = berlin
    let (outcomes, counts) = Traveller.replay(try ReplayPlan(log: log, options: options))
    #expect(counts[0 * 24 + 8] == 2)
    #expect(counts[1 * 24 + 8] == 1)
    // Visits at the donations: each in its donation's offset, the middle one in Berlin.
    #expect(outcomes.map(\.hourOfDay) == [8, 8, 8])
  }

  @Test func sessionVisitsTakeTheOffsetOfTheDonationTheyAreMadeAt() throws {
    let log = try DonationLog.read(bytes: Array(Traveller.donations.utf8), file: "d.csv", format: .csv)
    var options = ReplayOptions()
    options.visits = .sessions(gapMinutes: 30)
    let (outcomes, _) = Traveller.replay(try ReplayPlan(log: log, options: options))
    // Berlin 08:00 and 14:00 twice, then New York 08:00; in UTC they would be 7, 13, 7, 13, 13.
    #expect(outcomes.map(\.hourOfDay) == [8, 14, 8, 14, 8])
  }
}
