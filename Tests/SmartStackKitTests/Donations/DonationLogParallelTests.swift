import Foundation
import Testing
@testable import SmartStackBase
@testable import SmartStackData

/// A big log's parts are joined, and the log finished, on two threads
/// (`DonationLogBuilder.append(_:lineOffset:inParallelFrom:)`, `build(inParallelFrom:)`):
/// the result is the one-thread reader's, bit for bit.
@Suite("A big donation log joined and finished on two threads is the one-thread log")
struct DonationLogParallelTests {
  /// `rows` rows of CSV, 400 users, 6 kinds, intents and parameter sets, offsets on some
  /// rows; with `sorted` false, about one row in 50 is earlier than the one before it.
  static func log(rows: Int, sorted: Bool, seed: UInt64) -> [UInt8] {
    var random = SplitMix64(seed: seed)
    var text = "timestamp,user,kind,intent,parameters\n"
    var second = 1_772_400_000
    for _ in 0..<rows {
      second += Int(random.next() % 40)
      let instant = Instant(milliseconds: Int64(!sorted && random.next() % 50 == 0 ? second - 600 : second) * 1000)
      let time =
        random.next() % 3 == 0 ? ISO8601.formatLocal(instant, offsetSeconds: 3600) : ISO8601.format(instant)
      let user = "person-\(random.next() % 400)"
      let kind = ["News", "Transit", "Weather", "Mail", "Music", "Maps"][Int(random.next() % 6)]
      let intent = random.next() % 4 == 0 ? "" : "View\(kind)"
      let parameters = random.next() % 3 == 0 ? "" : "line=U\(random.next() % 5);stop=S\(random.next() % 4)"
      text += "\(time),\(user),\(kind),\(intent),\(parameters)\n"
    }
    return Array(text.utf8)
  }

  @Test(arguments: [true, false])
  func partsJoinedAndTheLogFinishedOnTwoThreadsGiveTheOneThreadLog(sorted: Bool) throws {
    let bytes = Self.log(rows: 70_000, sorted: sorted, seed: sorted ? 1 : 2)
    // One thread: the one-pass reader, finished on one thread.
    var onePass = DonationLogBuilder()
    try bytes.withUnsafeBufferPointer {
      try DonationLog.readCSV($0, file: "log.csv", timeZone: .utc, limit: 1, into: &onePass)
    }
    let expected = onePass.build(inParallelFrom: .max)
    #expect(expected.count == 70_000)
    // The same rows finished on two threads.
    #expect(onePass.build(inParallelFrom: 0) == expected)
    // Two parts of 35,000 rows (over `rowsJoinedInParallel`) in one window, joined and
    // finished on two threads.
    #expect(bytes.count < CSVChunks.windowBytes)
    #expect(70_000 / 2 >= DonationLogBuilder.rowsJoinedInParallel)
    #expect(70_000 >= DonationLogBuilder.rowsFinishedInParallel)
    let chunked = try #require(
      bytes.withUnsafeBufferPointer {
        DonationLog.chunked($0, file: "log.csv", format: .csv, timeZone: .utc, mapped: nil, parts: 2)
      })
    #expect(chunked.build() == expected)
  }
}
