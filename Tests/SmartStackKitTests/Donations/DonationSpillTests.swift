import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
import SmartStackTestSupport

private let pieces = ["a", "B", "7", ",", "\"", ";", "=", "%", " ", "é", "日本", "\n", "{", "\\"]

private func name(_ random: inout SplitMix64) -> String {
  (0..<(random.nextInt(below: 3) + 1)).map { _ in pieces[random.nextInt(below: pieces.count)] }.joined()
}

/// Donations of up to 14 users, with intents, parameters and (with `offsets`) some rows'
/// own UTC offsets, at a few instants (many ties), in array order.
private func randomDonations(_ random: inout SplitMix64, offsets: Bool) -> [Donation] {
  let users = (0..<(random.nextInt(below: 14) + 1)).map { "u\($0)-" + name(&random) }
  let kinds = (0..<4).map { _ in name(&random) }
  let start: Int64 = 1_772_438_400_000
  return (0..<random.nextInt(below: 120)).map { _ in
    var parameters: [Parameter] = []
    if random.nextInt(below: 3) == 0 { parameters.append(Parameter(name(&random), name(&random))) }
    return Donation(
      timestamp: Instant(milliseconds: start + Int64(random.nextInt(below: 40)) * 60_000),
      user: users[random.nextInt(below: users.count)], kind: kinds[random.nextInt(below: kinds.count)],
      intent: random.nextInt(below: 3) == 0 ? nil : name(&random), parameters: parameters,
      utcOffset: offsets && random.nextInt(below: 2) == 0 ? Int32(random.nextInt(below: 5) - 2) * 3600 : nil)
  }
}

/// The text of `donations` in file order (not sorted): JSON Lines, one object per line.
private func jsonlText(_ donations: [Donation]) -> String {
  donations.map { DonationLog([$0]).jsonlText() }.joined()
}

private func temporaryFile(_ text: String, name: String) throws -> String {
  let path = TestFolders.root.appendingPathComponent("spill-\(UUID().uuidString)-\(name)").path
  try Array(text.utf8).withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
  return path
}

/// One user's rows as values (time, kind, intent, parameters, offset), names as text.
private func rows(of user: Int32, in log: DonationLog) -> [String] {
  log.rows(ofUser: user).map { r in
    let d = log[Int(r)]
    return "\(d.timestamp.milliseconds) \(d.kind) \(d.intent ?? "-") \(d.parameters) \(log.utcOffset(Int(r))) \(log.kinds[Int(r)]) \(log.intents[Int(r)]) \(log.parameterSets[Int(r)])"
  }
}

/// Reads `path` whole and spilled (`usersPerBucket` users a bucket) and checks the spill
/// against the whole log: the same names and ids, and each block's log gives each of its
/// users the whole log's rows and no other user any. Returns whether the blocks fit.
@discardableResult
private func checkSpill(_ path: String, usersPerBucket: Int, maxRows: Int, label: String) throws -> Bool {
  var localTimes = LocalTimeReport()
  let whole = try DonationLog.read(path: path, localTimes: &localTimes)
  let spill = try DonationSpill.read(path: path, usersPerBucket: usersPerBucket)
  #expect(spill.count == whole.count, "\(label)")
  #expect(spill.userNames == whole.userNames, "\(label)")
  #expect(spill.kindNames == whole.kindNames, "\(label)")
  #expect(spill.intentNames == whole.intentNames, "\(label)")
  #expect(spill.parameterKeys == whole.parameterKeys, "\(label)")
  #expect(spill.parameterValues == whole.parameterValues, "\(label)")
  #expect(spill.parameterTable == whole.parameterTable, "\(label)")
  #expect(spill.firstTimestamp == whole.timestamps.first, "\(label)")
  #expect(spill.lastTimestamp == whole.timestamps.last, "\(label)")
  #expect(spill.hasOffsets == !whole.utcOffsets.isEmpty, "\(label)")
  #expect(spill.localTimes == localTimes, "\(label)")
  let userRows: [Int] = (0..<whole.userNames.count).map { (u: Int) -> Int in
    whole.rows(ofUser: Int32(u)).count
  }
  #expect(spill.userRows == userRows, "\(label)")
  let (blocks, fit) = spill.blocks(maxBytes: maxRows * DonationSpill.rowBytes)
  // They fit when every block is within the size on disk (none is a single bucket over it).
  #expect(fit == blocks.allSatisfy { spill.bytes($0) <= maxRows * DonationSpill.rowBytes }, "\(label): fit")
  // Each block starts where the one before ends, the first at 0 (a log without rows has none).
  #expect(blocks.map(\.lowerBound) == Array(([0] + blocks.map(\.upperBound)).dropLast()), "\(label): consecutive")
  #expect((blocks.last?.upperBound ?? 0) == whole.userNames.count, "\(label): every user")
  for block in blocks {
    let part = try spill.log(users: block)
    #expect(part.userNames == whole.userNames, "\(label)")
    #expect(zip(part.timestamps, part.timestamps.dropFirst()).allSatisfy { $0 <= $1 }, "\(label): time order")
    #expect(part.utcOffsets.isEmpty == whole.utcOffsets.isEmpty, "\(label)")
    for u in 0..<whole.userNames.count {
      let expected = block.contains(u) ? rows(of: Int32(u), in: whole) : []
      #expect(rows(of: Int32(u), in: part) == expected, "\(label): user \(u) in \(block)")
    }
  }
  return fit
}

@Suite("A spilled donation log gives each block of users the whole log's rows and ids")
struct DonationSpillTests {
  @Test func sortedCSVLogsSpillToTheWholeLogsRowsForManySeeds() throws {
    var fits: [Bool] = []
    for seed in UInt64(0)..<60 {
      var random = SplitMix64(seed: seed)
      let log = DonationLog(randomDonations(&random, offsets: seed % 2 == 0))
      let path = try temporaryFile(log.csvText(), name: "log.csv")
      defer { try? FileManager.default.removeItem(atPath: path) }
      fits.append(
        try checkSpill(path, usersPerBucket: 1 + Int(seed % 4), maxRows: 1 + Int(seed % 50), label: "seed \(seed)"))
    }
    // Both cases are met: blocks that fit, and a single bucket over the size.
    #expect(fits.contains(true) && fits.contains(false))
  }

  @Test func unsortedJSONLinesLogsSpillToTheWholeLogsRowsForManySeeds() throws {
    for seed in UInt64(100)..<160 {
      var random = SplitMix64(seed: seed)
      let donations = randomDonations(&random, offsets: seed % 2 == 1)
      let path = try temporaryFile(jsonlText(donations), name: "log.jsonl")
      defer { try? FileManager.default.removeItem(atPath: path) }
      try checkSpill(path, usersPerBucket: 1 + Int(seed % 3), maxRows: 1 + Int(seed % 40), label: "seed \(seed)")
    }
  }

  @Test func aBadLogThrowsExactlyWhatReadingItWholeThrows() throws {
    let text = "timestamp,user,kind\n2026-03-02T08:00:00Z,ana,Weather\nnot a time,ana,Weather\n2026-03-02T09:00:00Z,,\n"
    let path = try temporaryFile(text, name: "bad.csv")
    defer { try? FileManager.default.removeItem(atPath: path) }
    var wholeError = ""
    var spillError = ""
    do { _ = try DonationLog.read(path: path) } catch { wholeError = "\(error)" }
    do { _ = try DonationSpill.read(path: path) } catch { spillError = "\(error)" }
    #expect(!wholeError.isEmpty)
    #expect(spillError == wholeError)
  }

  @Test func blocksAreWholeBucketsAndStayWithinTheRowBudget() throws {
    var random = SplitMix64(seed: 7)
    let log = DonationLog(randomDonations(&random, offsets: false) + randomDonations(&random, offsets: false))
    let path = try temporaryFile(log.csvText(), name: "log.csv")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let spill = try DonationSpill.read(path: path, usersPerBucket: 2)
    for maxRows in [1, 5, 20, 1000] {
      for block in spill.blocks(maxBytes: maxRows * DonationSpill.rowBytes).ranges {
        #expect(block.lowerBound % 2 == 0)
        #expect(block.upperBound % 2 == 0 || block.upperBound == spill.userRows.count)
        let rows = spill.userRows[block].reduce(0, +)  // bytes: rows × rowBytes
        let buckets = (block.count + 1) / 2
        #expect(rows <= maxRows || buckets == 1, "\(block) holds \(rows) rows over \(maxRows)")
      }
    }
  }

  @Test func theSpillHasNoNameInTMPDIRWhileItHoldsRows() throws {
    let path = try temporaryFile("timestamp,user,kind\n2026-03-02T08:00:00Z,ana,Weather\n", name: "log.csv")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let spill = try DonationSpill.read(path: path)
    #expect(spill.spillFile.path.contains("smartstack-spill-"))
    #expect(!FileManager.default.fileExists(atPath: spill.spillFile.path))
    #expect(try spill.log(users: 0..<1).count == 1)
  }
}

/// Logs of over `CSVChunks.minimumBytes`, which the spill reads in parts on every core.
@Suite("A big spilled log, read in parts on every core, gives the whole log's rows and ids")
struct BigDonationSpillTests {
  /// `rows` rows of 900 users and seven kinds, some with offsets and parameters, CSV, in
  /// time order or not.
  static func bigCSV(rows: Int, sorted: Bool) -> String {
    var random = SplitMix64(seed: 99)
    var lines: [String] = []
    lines.reserveCapacity(rows + 1)
    let start: Int64 = 1_772_438_400
    for i in 0..<rows {
      let t = sorted ? start + Int64(i / 3) : start + Int64(random.nextInt(below: 200_000))
      let time = Instant(milliseconds: t * 1000)
      let offset = random.nextInt(below: 4) == 0 ? ",3600" : ","
      let parameters = random.nextInt(below: 5) == 0 ? "card=\(random.nextInt(below: 3))" : ""
      lines.append("\(ISO8601.format(time)),user\(random.nextInt(below: 900)),Kind\(random.nextInt(below: 7)),,\(parameters)\(offset)")
    }
    return (["timestamp,user,kind,intent,parameters,utc_offset"] + lines).joined(separator: "\n") + "\n"
  }

  @Test("sorted and unsorted logs of 5 MB", arguments: [true, false])
  func bigLogs(sorted: Bool) throws {
    let text = Self.bigCSV(rows: 110_000, sorted: sorted)
    #expect(text.utf8.count > CSVChunks.minimumBytes)
    let path = try temporaryFile(text, name: "big.csv")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try checkSpill(path, usersPerBucket: 128, maxRows: 30_000, label: "big \(sorted)")
  }

  @Test("a problem deep in a big log is reported exactly as reading it whole reports it")
  func aProblemDeepInABigLog() throws {
    var text = Self.bigCSV(rows: 110_000, sorted: true)
    text += "2026-13-40T00:00:00Z,late,Kind1,,,\n"
    let path = try temporaryFile(text, name: "big-bad.csv")
    defer { try? FileManager.default.removeItem(atPath: path) }
    var wholeError = ""
    var spillError = ""
    do { _ = try DonationLog.read(path: path) } catch { wholeError = "\(error)" }
    do { _ = try DonationSpill.read(path: path) } catch { spillError = "\(error)" }
    #expect(wholeError.contains(":110002:"), "\(wholeError)")
    #expect(spillError == wholeError)
  }
}
