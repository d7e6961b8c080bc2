import SmartStackKit
import Testing

@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine

/// A plan gets its visits after its donations (`ReplayPlan.addVisits`), from a visit log
/// held in chunks (`VisitChunk`) that it lets go of one by one: whatever the chunks, the
/// plan is the one a visit log of one chunk gives, and the people with no donation are
/// noted in file order.
@Suite("A plan's visits from a visit log in chunks")
struct ReplayPlanVisitsTests {
  static let donations = """
    timestamp,user,kind
    2026-03-02T08:00:00Z,ann,Maps
    2026-03-02T08:03:00Z,bob,Mail
    2026-03-02T08:10:00Z,ann,Mail
    2026-03-02T09:00:00Z,cat,Maps
    2026-03-02T09:02:00Z,bob,Maps
    2026-03-03T08:00:00Z,ann,Maps
    2026-03-03T08:01:00Z,cat,Mail

    """

  /// A visit log of the three people and of people with no donation (`x…`), some rows with
  /// an offset and some without, out of time order, from a seeded generator.
  static func visits(seed: UInt64) -> String {
    var rng = SplitMix64(seed: seed)
    var text = "timestamp,user,utc_offset\n"
    let users = ["ann", "bob", "cat", "xena", "xavier", "ann", "xu", "bob"]
    for _ in 0..<(20 + rng.nextInt(below: 60)) {
      let minute = rng.nextInt(below: 2 * 24 * 60)
      let time = String(format: "2026-03-0%dT%02d:%02d:00Z", 2 + minute / 1440, minute % 1440 / 60, minute % 60)
      let offset = rng.nextInt(below: 3) == 0 ? "3600" : ""
      text += "\(time),\(users[rng.nextInt(below: users.count)]),\(offset)\n"
    }
    return text
  }

  static func plan(_ visitLog: VisitLog) throws -> ReplayPlan {
    let log = try DonationLog.read(bytes: Array(donations.utf8), file: "d.csv", format: .csv, timeZone: .utc)
    var options = ReplayOptions()
    options.visits = .log(visitLog)
    options.horizonSeconds = 3600
    options.warmupDays = 0.5
    return try ReplayPlan(log: log, options: options)
  }

  @Test func chunksGiveThePlanOfOneChunk() throws {
    var chunksSeen = 0
    for seed in UInt64(1)...40 {
      let bytes = Array(Self.visits(seed: seed).utf8)
      let whole = try VisitLog.read(bytes: bytes, file: "v.csv")
      let chunked = try #require(
        bytes.withUnsafeBufferPointer {
          VisitLog.chunked($0, file: "v.csv", zone: .utc, mapped: nil, windowBytes: 64, parts: 3)
        })
      chunksSeen = max(chunksSeen, chunked.chunks.count)
      #expect(whole.chunks.count == 1)
      // Every row answers as the one-chunk log's.
      #expect(chunked.count == whole.count)
      for row in 0..<whole.count {
        #expect(chunked.user(row) == whole.user(row))
        #expect(chunked.utcOffset(row) == whole.utcOffset(row))
      }
      let a = try Self.plan(whole)
      let b = try Self.plan(chunked)
      #expect(a.notes == b.notes, "seed \(seed)")
      #expect(a.people.map(\.name) == b.people.map(\.name))
      for (p, q) in zip(a.people, b.people) {
        #expect(p.visitTimes == q.visitTimes, "seed \(seed), \(p.name)")
        #expect(p.visitOffsets == q.visitOffsets, "seed \(seed), \(p.name)")
        #expect(p.visitTarget == q.visitTarget, "seed \(seed), \(p.name)")
      }
    }
    #expect(chunksSeen > 10, "the small windows cut every log into many chunks")
  }

  /// Hand-made: visits in time order per person, the warm-up's (first donation + 12 h)
  /// dropped, targets within the hour, and a note naming the first people with no
  /// donation as the file meets them.
  @Test func visitsTargetsAndTheNoteByHand() throws {
    let text = """
      timestamp,user
      2026-03-03T07:59:00Z,ann
      2026-03-02T08:00:00Z,zed
      2026-03-03T07:30:00Z,cat
      2026-03-02T07:00:00Z,ann
      2026-03-03T06:00:00Z,yan
      2026-03-03T07:00:00Z,zed
      2026-03-03T08:30:00Z,ann
      2026-03-03T09:00:00Z,xia
      2026-03-03T10:00:00Z,wu

      """
    let visitLog = try VisitLog.read(bytes: Array(text.utf8), file: "v.csv")
    let plan = try Self.plan(visitLog)
    let ann = try #require(plan.people.first { $0.name == "ann" })
    // 2026-03-02T07:00 is before ann's warm-up ends (08:00 + 12 h): not scored.
    // 2026-03-03T07:59:00Z and 2026-03-03T08:30:00Z, in epoch ms.
    #expect(ann.visitTimes == [1_772_524_740_000, 1_772_526_600_000])
    // 07:59 -> ann's third donation, 2026-03-03T08:00 (index 2); 08:30 -> none after it.
    #expect(ann.visitTarget == [2, -1])
    let cat = try #require(plan.people.first { $0.name == "cat" })
    #expect(cat.visitTimes.count == 1)
    #expect(cat.visitTarget == [1])
    #expect(plan.people.first { $0.name == "bob" }?.visitTimes == [])
    #expect(
      plan.notes == ["5 visit(s) of people with no donation in the log were ignored (e.g. 'zed', 'yan', 'xia')"])
  }
}
