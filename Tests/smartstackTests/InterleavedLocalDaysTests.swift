import Foundation
import Testing

/// The rows of `name` in `folder/out` whose text contains `needle`, split into cells.
private func rows(_ name: String, in folder: URL, containing needle: String) throws -> [[String]] {
  let text = try String(contentsOf: folder.appendingPathComponent("out/\(name)"), encoding: .utf8)
  let lines = text.split(separator: "\n").map(String.init)
  return lines.filter { $0.contains(needle) }.map {
    $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
  }
}

/// The value of `column` in `row` of `name` (header of that file).
private func cell(_ name: String, in folder: URL, _ row: [String], _ column: String) throws -> String {
  let text = try String(contentsOf: folder.appendingPathComponent("out/\(name)"), encoding: .utf8)
  let header = text.prefix(while: { $0 != "\n" }).split(separator: ",").map(String.init)
  return row[header.firstIndex(of: column)!]
}

/// A traveller whose local dates interleave in time order (issue 29, item 2): kai's
/// visits fall on 03-05, 03-06, 03-05, 03-06 (across the date line).
private let acrossTheDateLine = """
  timestamp,user,kind
  2026-03-05T23:00:00+13:00,kai,A
  2026-03-06T00:30:00+13:00,kai,B
  2026-03-05T10:00:00-10:00,kai,A
  2026-03-06T09:00:00-10:00,kai,B

  """

@Suite("rotations_per_day counts active person-days, not changes of local date")
struct ActivePersonDaysTests {
  @Test func aTravellerBackOnAnEarlierDateAddsNoActiveDay() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(acrossTheDateLine, to: "d.csv", in: folder)
    let r = try CLI.run(["replay", "--log", "d.csv", "--strategy", "mru", "--out", "out"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    let run = try #require(try rows("runs.csv", in: folder, containing: ",mru,").first)
    #expect(try cell("runs.csv", in: folder, run, "rotations") == "2")
    #expect(try cell("runs.csv", in: folder, run, "rotations_per_day") == "1")
    // daily.csv: two days with one rotation each.
    let days = try rows("daily.csv", in: folder, containing: ",mru,")
    #expect(days.count == 2)
    for day in days { #expect(try cell("daily.csv", in: folder, day, "rotations") == "1") }
  }

  @Test func summaryCountsEachPersonsActiveDays() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(acrossTheDateLine, to: "d.csv", in: folder)
    let r = try CLI.run(
      ["batch", "--log", "d.csv", "--strategy", "mfu,mru", "--out", "out", "--quiet"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    // Both strategies rotate twice over kai's two local days: 1 per day, per person too.
    let summary = try rows("summary.csv", in: folder, containing: ",rotations_per_day,")
    #expect(summary.count == 2)
    for row in summary { #expect(try cell("summary.csv", in: folder, row, "mean") == "1") }
    for row in try rows("runs.csv", in: folder, containing: "d|") {
      #expect(try cell("runs.csv", in: folder, row, "rotations_per_day") == "1")
    }
  }
}

@Suite("daily.csv spans a day from its first visit's midnight to its last visit's")
struct InterleavedDaySpanTests {
  /// Issue 29, item 3: ana's 03-29 (Berlin's change to summer time) has a visit at
  /// +01:00 and one at +02:00, with a naive-zone visit on 03-28 (São Paulo) between them.
  @Test func aDayInterruptedByAnotherDateKeepsItsOwnOffsetsInTimeOrder() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      """
      timestamp,user,kind
      2026-03-29T00:30:00+01:00,ana,A
      2026-03-29T01:00:00Z,ana,B
      2026-03-29T10:00:00+02:00,ana,A

      """, to: "i.csv", in: folder)
    let r = try CLI.run(
      ["replay", "--log", "i.csv", "--timezone", "America/Sao_Paulo", "--strategy", "mru", "--out", "out"],
      in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    let day = try #require(try rows("daily.csv", in: folder, containing: ",2026-03-29,").first)
    let span = try ["utc_offset", "utc_offset_end", "start_utc", "end_utc"].map {
      try cell("daily.csv", in: folder, day, $0)
    }
    #expect(span == ["3600", "7200", "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z"])
  }
}
