import Foundation
import Synchronization
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackExperiments
import SmartStackTestSupport

/// A replay plan built block by block from spilled logs (`ReplayPlan(block:of:visits:options:)`)
/// is the whole plan's blocks, and replays to the whole replay's metrics bit for bit.
@Suite("Spilled plans: blocks of people read from disk replay exactly as the whole log")
struct SpilledReplayPlanTests {
  /// Twelve people (one of them travelling, with rows' own offsets) donating five kinds
  /// at pseudo-random times over six days, written out of time order on odd rows.
  static func donationLog() -> String {
    var rows: [String] = []
    var state: UInt64 = 11
    func next(_ n: UInt64) -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (state >> 33) % n
    }
    let kinds = ["Coffee", "News", "Weather", "Transit", "Music"]
    for day in 2...7 {
      for hour in 6...22 {
        for person in 0..<11 where next(3) == 0 {
          rows.append("2026-03-0\(day)T\(hour < 10 ? "0" : "")\(hour):\(10 + next(40)):00Z,p\(person),\(kinds[Int(next(5))])")
        }
      }
    }
    rows += [
      "2026-03-05T08:00:00+09:00,traveller,Coffee", "2026-03-04T19:00:00-05:00,traveller,News",
      "2026-03-04T20:00:00-05:00,traveller,Coffee", "2026-03-05T08:00:00-05:00,traveller,News",
    ]
    // Every third row moved to the end: the file is not in time order.
    let moved = rows.enumerated().filter { $0.offset % 3 == 1 }.map(\.element)
    let kept = rows.enumerated().filter { $0.offset % 3 != 1 }.map(\.element)
    return (["timestamp,user,kind"] + kept + moved.reversed()).joined(separator: "\n") + "\n"
  }

  /// Visits of the people, a name with no donation ("ghost") and the traveller's with offsets.
  static func visitLog() -> String {
    var rows = ["timestamp,user,utc_offset"]
    for day in 2...7 {
      for hour in stride(from: 7, through: 21, by: 2) {
        for person in 0..<11 where (day + hour + person) % 4 != 0 {
          rows.append("2026-03-0\(day)T\(hour < 10 ? "0" : "")\(hour):\(10 + person * 3):00Z,p\(person),")
        }
      }
      rows.append("2026-03-0\(day)T12:00:00Z,ghost,")
    }
    rows += ["2026-03-04T18:59:00Z,traveller,-18000", "2026-03-05T07:59:00Z,traveller,32400"]
    return rows.joined(separator: "\n") + "\n"
  }

  static func write(_ text: String, _ name: String) throws -> String {
    let path = TestFolders.root.appendingPathComponent("spilled-\(UUID().uuidString)-\(name)").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// One person's plan as text: everything a replay reads of it.
  static func describe(_ p: ReplayPlan.Person) -> String {
    "\(p.name) \(p.instances.map(\.id)) \(p.alwaysAvailable) \(p.donationTimes) \(p.donationKinds) \(p.matchStart) \(p.matches) "
      + "\(p.visitTimes) \(p.visitTarget) \(Array(p.donationOffsets)) \(Array(p.visitOffsets)) \(p.entries.count)"
  }

  @Test(
    "every block of a spilled log is the whole plan's block, and the blocks replay to the whole replay",
    arguments: ["all", "top", "sessions", "donations"])
  func blocksAreTheWholePlans(variant: String) throws {
    let zone = ZoneRules(identifier: "Europe/Berlin")!
    let logPath = try Self.write(Self.donationLog(), "log.csv")
    let visitPath = try Self.write(Self.visitLog(), "visits.csv")
    defer {
      try? FileManager.default.removeItem(atPath: logPath)
      try? FileManager.default.removeItem(atPath: visitPath)
    }
    var options = ReplayOptions()
    options.zone = zone
    options.seed = 3
    switch variant {
    case "top":
      options.stack = .top(2)
      options.warmupDays = 1
      options.visits = .log(try VisitLog.read(path: visitPath, zone: zone))
    case "sessions": options.visits = .sessions(gapMinutes: 30)
    case "donations": options.visits = .donations
    default: options.visits = .log(try VisitLog.read(path: visitPath, zone: zone))
    }
    let whole = try ReplayPlan(log: try DonationLog.read(path: logPath, timeZone: zone), options: options)
    #expect(whole.people.count == 12)
    let spill = try DonationSpill.read(path: logPath, timeZone: zone, usersPerBucket: 2)
    let visits = try VisitSpill.read(path: visitPath, zone: zone, people: spill)
    let choice = try StrategyRegistry.builtIn.parse("mfu")
    let wholeMetrics = RunMetrics(Replay.run(whole, choice: choice), days: LocalDays(plan: whole))
    for maxRows in [1, 40, 100_000] {
      var blocks: [RunMetrics] = []
      for range in spill.blocks(maxBytes: maxRows * DonationSpill.rowBytes).ranges {
        let block = try ReplayPlan(block: range, of: spill, visits: visits, options: options)
        #expect(block.firstPersonIndex == range.lowerBound)
        #expect(block.notes == whole.notes)
        #expect(block.donations == whole.donations)
        #expect(block.firstInstant == whole.firstInstant && block.lastInstant == whole.lastInstant)
        #expect(block.people.map(Self.describe) == whole.block(range).people.map(Self.describe), "\(variant) \(range)")
        blocks.append(RunMetrics(block: Replay.run(block, choice: choice), days: LocalDays(plan: whole)))
      }
      PeopleBlockMetricsTests.expectIdentical(RunMetrics(blocks: blocks), wholeMetrics)
    }
    if variant == "all" {
      #expect(whole.notes.contains { $0.contains("'ghost'") })
    }
  }

  @Test("a replay in spilled blocks writes runs.csv and daily.csv byte for byte as the whole replay, for any jobs")
  func blockRunsWriteTheWholeReports() async throws {
    let zone = ZoneRules(identifier: "Europe/Berlin")!
    let logPath = try Self.write(Self.donationLog(), "log.csv")
    let visitPath = try Self.write(Self.visitLog(), "visits.csv")
    defer {
      try? FileManager.default.removeItem(atPath: logPath)
      try? FileManager.default.removeItem(atPath: visitPath)
    }
    var options = ReplayOptions()
    options.zone = zone
    options.seed = 4
    options.visits = .log(try VisitLog.read(path: visitPath, zone: zone))
    let whole = try ReplayPlan(log: try DonationLog.read(path: logPath, timeZone: zone), options: options)
    let choices = try ["mfu", "random", "bandit", "hour-of-week"].map { try StrategyRegistry.builtIn.parse($0) }
    let expected = await Replay.runAll(whole, choices: choices, source: "log.csv", jobs: 1)
    // Read only once written (`SharedSpill`'s invariant), while the next block is built
    // beside a block's replays.
    nonisolated(unsafe) let spill = try DonationSpill.read(path: logPath, timeZone: zone, usersPerBucket: 3)
    nonisolated(unsafe) let visits = try VisitSpill.read(path: visitPath, zone: zone, people: spill)
    let blockOptions = options
    for (maxRows, jobs) in [(1, 1), (60, 2), (1_000_000, 2), (90, 3)] {
      let blocks = spill.blocks(
        maxBytes: maxRows * DonationSpill.rowBytes, visitRows: visits.personRows
      ).ranges
      let (records, summary) = try await Replay.runAll(
        blockCount: blocks.count,
        plan: { try ReplayPlan(block: blocks[$0], of: spill, visits: visits, options: blockOptions) },
        choices: choices, source: "log.csv", jobs: jobs)
      #expect(RunTables.runs(records) == RunTables.runs(expected), "\(maxRows) rows, \(jobs) jobs")
      #expect(RunTables.daily(records) == RunTables.daily(expected), "\(maxRows) rows, \(jobs) jobs")
      #expect(summary.people == whole.people.count && summary.visits == whole.visitCount)
      #expect(summary.notes == whole.notes && summary.donations == whole.donations)
    }
  }

  /// `donationLog()` and `visitLog()` written out, and replay options in Europe/Berlin
  /// with that visit log.
  static func berlinInputs() throws -> (zone: ZoneRules, log: String, visits: String, options: ReplayOptions) {
    let zone = ZoneRules(identifier: "Europe/Berlin")!
    let logPath = try write(donationLog(), "log.csv")
    let visitPath = try write(visitLog(), "visits.csv")
    var options = ReplayOptions()
    options.zone = zone
    options.visits = .log(try VisitLog.read(path: visitPath, zone: zone))
    return (zone, logPath, visitPath, options)
  }

  @Test(
    "a replay in blocks builds each block once, in block order, one at a time (ahead of its replays or not), and fails with the first block that fails"
  )
  func blocksAreBuiltInOrderOneAtATime() async throws {
    let (zone, logPath, visitPath, options) = try Self.berlinInputs()
    // Read only once written (`SharedSpill`'s invariant).
    nonisolated(unsafe) let spill = try DonationSpill.read(path: logPath, timeZone: zone, usersPerBucket: 2)
    nonisolated(unsafe) let visits = try VisitSpill.read(path: visitPath, zone: zone, people: spill)
    let blocks = spill.blocks(maxBytes: 40 * DonationSpill.rowBytes, visitRows: visits.personRows)
      .ranges
    #expect(blocks.count >= 4)
    let blockOptions = options
    let choices = try ["mfu", "random"].map { try StrategyRegistry.builtIn.parse($0) }
    struct Refused: Error { var block: Int }
    let cases: [(failing: Int?, given: Bool, ahead: Bool)] = [
      (nil, false, true), (nil, true, true), (2, false, true), (nil, false, false), (1, true, false),
    ]
    for (failing, given, ahead) in cases {
      let calls = Mutex<(order: [Int], running: Int, most: Int)>(([], 0, 0))
      let plan = { @Sendable (k: Int) throws -> ReplayPlan in
        calls.withLock {
          $0.order.append(k)
          $0.running += 1
          $0.most = max($0.most, $0.running)
        }
        defer { calls.withLock { $0.running -= 1 } }
        if let failing, k >= failing { throw Refused(block: k) }
        return try ReplayPlan(block: blocks[k], of: spill, visits: visits, options: blockOptions)
      }
      let first = given ? try ReplayPlan(block: blocks[0], of: spill, visits: visits, options: options) : nil
      do {
        _ = try await Replay.runAll(
          blockCount: blocks.count, first: first, plan: plan, buildsAhead: ahead, choices: choices, source: "log.csv",
          jobs: 2)
        #expect(failing == nil)
      } catch let error as Refused {
        #expect(error.block == failing)
      }
      let (order, most) = calls.withLock { ($0.order, $0.most) }
      let built = Array((given ? 1 : 0)..<(failing.map { $0 + 1 } ?? blocks.count))
      // A failing block is awaited before the next one starts: nothing is built after it.
      #expect(order == built, "\(order)")
      #expect(most == 1)
    }
  }

  @Test("the local days of blocks gathered apart and joined are those of the whole plan")
  func localDaysJoinAcrossBlocks() throws {
    let (zone, logPath, visitPath, options) = try Self.berlinInputs()
    let whole = try ReplayPlan(log: try DonationLog.read(path: logPath, timeZone: zone), options: options)
    let expected = LocalDays(plan: whole)
    let spill = try DonationSpill.read(path: logPath, timeZone: zone, usersPerBucket: 2)
    let visits = try VisitSpill.read(path: visitPath, zone: zone, people: spill)
    let blocks = spill.blocks(maxBytes: 40 * DonationSpill.rowBytes, visitRows: visits.personRows)
      .ranges
    var joined = LocalDays.Spans(zone: zone)
    // Joined in reverse: the order the blocks' days come in does not matter.
    for block in blocks.reversed() {
      var own = LocalDays.Spans(zone: zone)
      own.add(try ReplayPlan(block: block, of: spill, visits: visits, options: options))
      joined.add(own)
    }
    let days = joined.days
    #expect(!expected.rowDays.isEmpty)
    #expect(days.rowDays == expected.rowDays)
    for day in expected.rowDays { #expect(days.offsets(of: day) == expected.offsets(of: day)) }
  }

  /// A visit log of over `CSVChunks.minimumBytes` for the people of `donationLog()` (and
  /// names with no donation), some rows with offsets, not in time order; `bad` ends it
  /// with a row whose time does not parse.
  static func bigVisitLog(bad: Bool) -> String {
    var rows = ["timestamp,user,utc_offset"]
    var state: UInt64 = 5
    func next(_ n: UInt64) -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (state >> 33) % n
    }
    let people = (0..<11).map { "p\($0)" } + ["traveller", "ghost1", "ghost2"]
    for _ in 0..<170_000 {
      let time = "2026-03-0\(2 + next(6))T\(10 + next(12)):\(10 + next(50)):\(10 + next(50))Z"
      rows.append("\(time),\(people[Int(next(UInt64(people.count)))]),\(next(5) == 0 ? "3600" : "")")
    }
    if bad { rows.append("2026-03-99T00:00:00Z,p1,") }
    return rows.joined(separator: "\n") + "\n"
  }

  @Test("a big visit log, read in parts on every core, gives every block the whole plan's visits")
  func bigVisitLog() throws {
    let zone = ZoneRules(identifier: "Europe/Berlin")!
    let logPath = try Self.write(Self.donationLog(), "log.csv")
    let visitText = Self.bigVisitLog(bad: false)
    #expect(visitText.utf8.count > CSVChunks.minimumBytes)
    let visitPath = try Self.write(visitText, "visits.csv")
    defer {
      try? FileManager.default.removeItem(atPath: logPath)
      try? FileManager.default.removeItem(atPath: visitPath)
    }
    var options = ReplayOptions()
    options.zone = zone
    options.visits = .log(try VisitLog.read(path: visitPath, zone: zone))
    let whole = try ReplayPlan(log: try DonationLog.read(path: logPath, timeZone: zone), options: options)
    let spill = try DonationSpill.read(path: logPath, timeZone: zone, usersPerBucket: 5)
    let visits = try VisitSpill.read(path: visitPath, zone: zone, people: spill)
    #expect(visits.unknownRows > 0 && visits.hasOffsets)
    for range in spill.blocks(maxBytes: 1).ranges {
      let block = try ReplayPlan(block: range, of: spill, visits: visits, options: options)
      #expect(block.notes == whole.notes)
      #expect(block.people.map(Self.describe) == whole.block(range).people.map(Self.describe), "\(range)")
    }
  }

  @Test("a problem deep in a big visit log is reported exactly as reading it whole reports it")
  func aProblemDeepInABigVisitLog() throws {
    let logPath = try Self.write(Self.donationLog(), "log.csv")
    let visitPath = try Self.write(Self.bigVisitLog(bad: true), "visits.csv")
    defer {
      try? FileManager.default.removeItem(atPath: logPath)
      try? FileManager.default.removeItem(atPath: visitPath)
    }
    let spill = try DonationSpill.read(path: logPath)
    var wholeError = ""
    var spillError = ""
    do { _ = try VisitLog.read(path: visitPath) } catch { wholeError = "\(error)" }
    do { _ = try VisitSpill.read(path: visitPath, people: spill) } catch { spillError = "\(error)" }
    #expect(wholeError.contains(":170002:"), "\(wholeError)")
    #expect(spillError == wholeError)
  }
}
