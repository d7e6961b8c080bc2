import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual

/// A trip: `t` has two mornings in Berlin (+01:00), then on 2026-03-04 a coffee in Berlin
/// at 08:00 and news in New York (-05:00) at 18:00 the same local date, then a New York
/// morning. `u` stays in Berlin, rows without an offset, read in the source's zone
/// (Europe/Berlin).
enum Trip {
  static let log = """
    timestamp,user,kind
    2026-03-02T08:00:00+01:00,t,Coffee
    2026-03-02T14:00:00+01:00,t,News
    2026-03-03T08:00:00+01:00,t,Coffee
    2026-03-03T14:00:00+01:00,t,News
    2026-03-04T08:00:00+01:00,t,Coffee
    2026-03-04T18:00:00-05:00,t,News
    2026-03-05T08:00:00-05:00,t,Coffee
    2026-03-04 09:00:00,u,Coffee
    2026-03-04 10:00:00,u,News

    """

  static let config = #"""
    {"name": "trip", "seed": 42, "replicates": 2,
     "sources": [{"name": "trip", "log": "trip.csv", "timezone": "Europe/Berlin"}],
     "strategies": ["mfu", "random"],
     "outputs": {"trace": true}}
    """#

  static func plan() throws -> ReplayPlan {
    let zone = ZoneRules(identifier: "Europe/Berlin")!
    let log = try DonationLog.read(bytes: Array(log.utf8), file: "trip.csv", format: .csv, timeZone: zone)
    var options = ReplayOptions()
    options.zone = zone
    return try ReplayPlan(log: log, options: options)
  }

  static func day(_ date: String) -> Int64 {
    WallClock.dayIndex(ZoneRules.utc.resolve(try! ISO8601.parse(date + "T00:00:00Z").get()).milliseconds)
  }

  /// A folder with the log and the config.
  static func folder() throws -> String {
    let folder = try ExperimentFixture.folder()
    try ExperimentFixture.write(log, "trip.csv", in: folder)
    try ExperimentFixture.write(config, "exp.json", in: folder)
    return folder
  }
}

@Suite("Daily tables: each local day with its UTC offsets and its span in UTC")
struct DailyLocalDayTests {
  @Test func aZonesDaylightSavingDayIsTwentyThreeHours() throws {
    let days = LocalDays(zone: try #require(ZoneRules(identifier: "Europe/Berlin")))
    let before = days.offsets(of: Trip.day("2026-03-28"))
    #expect(before == DayOffsets(start: 3600, end: 3600))
    let change = Trip.day("2026-03-29")
    let offsets = days.offsets(of: change)
    #expect(offsets == DayOffsets(start: 3600, end: 7200))
    #expect(
      RunTables.dayCells(1, day: change, offsets: offsets)
        == ["1", "2026-03-29", "3600", "7200", "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z"])
    #expect(offsets.endInstant(day: change) - offsets.startInstant(day: change) == 23 * 3_600_000)
    // Autumn: 25 hours.
    let autumn = Trip.day("2026-10-25")
    #expect(days.offsets(of: autumn) == DayOffsets(start: 7200, end: 3600))
    #expect(LocalDays(zone: .utc).offsets(of: change) == DayOffsets(start: 0, end: 0))
  }

  @Test func aTravellersDayRunsFromTheFirstVisitsOffsetToTheLasts() throws {
    let plan = try Trip.plan()
    let days = LocalDays(plan: plan)
    #expect(days.offsets(of: Trip.day("2026-03-02")) == DayOffsets(start: 3600, end: 3600))
    // Berlin in the morning, New York in the evening: from Berlin's 00:00 to New York's
    // next 00:00 (30 hours); u's Berlin day lies inside it.
    let trip = Trip.day("2026-03-04")
    let offsets = days.offsets(of: trip)
    #expect(offsets == DayOffsets(start: 3600, end: -18000))
    #expect(
      RunTables.dayCells(2, day: trip, offsets: offsets)
        == ["2", "2026-03-04", "3600", "-18000", "2026-03-03T23:00:00Z", "2026-03-05T05:00:00Z"])
    #expect(days.offsets(of: Trip.day("2026-03-05")) == DayOffsets(start: -18000, end: -18000))
  }

  @Test func replayDailyRowsCarryTheOffsets() throws {
    let plan = try Trip.plan()
    let choice = try StrategyRegistry.builtIn.parse("mfu")
    let record = RunRecord(
      source: "trip", strategy: choice.descriptor, replicate: 0, seed: 1,
      metrics: RunMetrics(Replay.run(plan, choice: choice), days: LocalDays(plan: plan)), targetAware: false)
    let lines = RunTables.daily([record]).split(separator: "\n")
    #expect(
      lines[0]
        == "source,strategy,parameters,replicate,day,date,utc_offset,utc_offset_end,start_utc,end_utc,visits,target_visits,hits,hit_rate,rotations"
    )
    #expect(lines.count == 5)
    #expect(lines[1].hasPrefix("trip,mfu,,0,0,2026-03-02,3600,3600,2026-03-01T23:00:00Z,2026-03-02T23:00:00Z,2,"))
    // 2026-03-04: t's two visits and u's two.
    #expect(lines[3].hasPrefix("trip,mfu,,0,2,2026-03-04,3600,-18000,2026-03-03T23:00:00Z,2026-03-05T05:00:00Z,4,"))
    #expect(lines[4].hasPrefix("trip,mfu,,0,3,2026-03-05,-18000,-18000,2026-03-05T05:00:00Z,2026-03-06T05:00:00Z,1,"))
  }

  /// The offsets travel through the journal: a resumed run and merged shards write the
  /// bytes an uninterrupted run writes, whatever the number of jobs.
  @Test func resumeAndMergeKeepTheOffsets() async throws {
    let folder = try Trip.folder()
    let files = ExperimentOutputs.completeFiles + ["trace.csv"]
    _ = try await run(folder, into: "whole", jobs: 1)
    let whole = try ExperimentFixture.outputs(folder + "/whole", files)
    let daily = String(decoding: whole["daily.csv"]!, as: UTF8.self)
    #expect(daily.contains("trip|mfu|0,trip,mfu,,0,2,2026-03-04,3600,-18000,2026-03-03T23:00:00Z,2026-03-05T05:00:00Z,4,"))
    _ = try await run(folder, into: "jobs", jobs: 3)
    #expect(try ExperimentFixture.outputs(folder + "/jobs", files) == whole)
    await #expect(throws: BatchError.self) {
      _ = try await run(folder, into: "crashed", jobs: 1) { FailingSource(base: $0, failStrategy: "random") }
    }
    _ = try await run(folder, into: "crashed", resume: true)
    #expect(try ExperimentFixture.outputs(folder + "/crashed", files) == whole)
    for k in 1...2 { _ = try await run(folder, into: "shard-\(k)", shard: Shard(index: k, count: 2)!) }
    _ = try await BatchMerge.merge([folder + "/shard-1", folder + "/shard-2"], into: folder + "/merged", jobs: 2)
    #expect(try ExperimentFixture.outputs(folder + "/merged", files) == whole)
  }
}

@Suite("Journal version 3: days carry their offsets, older journals are refused")
struct JournalVersionTests {
  /// A journal written before daily rows had offsets (version 2) cannot rebuild them:
  /// `--resume` refuses it by name instead of writing wrong offsets.
  /// Version 3 too: its config hashes name the inputs by FNV-1a 64, not CRC-32.
  @Test(arguments: [2, 3])
  func anOlderVersionsJournalIsRefusedOnResume(version: Int) async throws {
    let folder = try Trip.folder()
    _ = try await run(folder, into: "out", jobs: 1)
    let path = Journal.path(directory: folder + "/out", shard: nil)
    var lines = String(decoding: try FileIO.readBytes(path), as: UTF8.self).split(separator: "\n").map(String.init)
    let header = try #require(lines.first?.range(of: #","checksum":""#))
    let body = lines[0][..<header.lowerBound]
    #expect(body.contains(#""version":4,"#))
    let old = body.replacingOccurrences(of: #""version":4,"#, with: #""version":\#(version),"#)
    lines[0] = old + #","checksum":""# + FNV1a.hexHash(old.utf8) + #""}"#
    try FileIO.writeAtomically(Array((lines.joined(separator: "\n") + "\n").utf8), to: path)
    do {
      _ = try await run(folder, into: "out", resume: true)
      Issue.record("a version \(version) journal was resumed")
    } catch {
      #expect("\(error)".contains("journal version \(version) is not supported (expected 4)"), "\(error)")
    }
  }
}

@Suite("trace.csv local_time: each visit in its own UTC offset")
struct TraceLocalTimeTests {
  @Test func aTravellersVisitsKeepTheirOwnOffsets() throws {
    let plan = try Trip.plan()
    let source = LogSource(
      name: "trip", plan: plan, statistics: SourceStatistics(people: 2, events: 9, contentHash: ""))
    let (_, recorder) = source.runTraced(
      try StrategyRegistry.builtIn.parse("mfu"), replicate: 0, seed: 1, runID: "trip|mfu|0")
    let rows = try #require(recorder).csv.text.split(separator: "\n").dropFirst().map {
      let fields = $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      return [fields[2], fields[fields.count - 1]]
    }
    // time (UTC), local_time: t in Berlin, then New York; u (no offset of its own) in the
    // source's zone.
    #expect(rows == [
      ["2026-03-02T07:00:00Z", "2026-03-02T08:00:00+01:00"],
      ["2026-03-02T13:00:00Z", "2026-03-02T14:00:00+01:00"],
      ["2026-03-03T07:00:00Z", "2026-03-03T08:00:00+01:00"],
      ["2026-03-03T13:00:00Z", "2026-03-03T14:00:00+01:00"],
      ["2026-03-04T07:00:00Z", "2026-03-04T08:00:00+01:00"],
      ["2026-03-04T23:00:00Z", "2026-03-04T18:00:00-05:00"],
      ["2026-03-05T13:00:00Z", "2026-03-05T08:00:00-05:00"],
      ["2026-03-04T08:00:00Z", "2026-03-04T09:00:00+01:00"],
      ["2026-03-04T09:00:00Z", "2026-03-04T10:00:00+01:00"],
    ])
  }

  @Test func aFixedOffsetIsWrittenAsItsWallTime() {
    let instant = Instant(milliseconds: 1_772_665_200_000)  // 2026-03-04T23:00:00Z
    #expect(ISO8601.formatLocal(instant, offsetSeconds: -18000) == "2026-03-04T18:00:00-05:00")
    #expect(ISO8601.formatLocal(instant, offsetSeconds: 19800) == "2026-03-05T04:30:00+05:30")
    #expect(ISO8601.formatLocal(instant, offsetSeconds: 0) == "2026-03-04T23:00:00+00:00")
  }
}
