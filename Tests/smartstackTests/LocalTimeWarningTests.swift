import Foundation
import Testing

/// Berlin 2026: 03-29 02:00-03:00 does not exist (a gap), 10-25 02:00-03:00 happens twice
/// (a fold). Lines 3 and 4 are in the gap, line 5 in the fold.
private let berlin = """
  timestamp,user,kind
  2026-03-29 01:30:00,ana,A
  2026-03-29 02:30:00,ana,B
  2026-03-29 02:45:00,ana,B
  2026-10-25 02:30:00,ana,A

  """

private let gap =
  "g.csv:3:1: warning: 2 naive timestamps name a local time that does not exist in Europe/Berlin (the clocks jump over it), the first here: each is read with the offset in force before the jump; --strict-local-times makes this an error\n"
private let fold =
  "g.csv:5:1: warning: 1 naive timestamp names a local time that occurs twice in Europe/Berlin (the clocks are set back), the first here: each is read as the earlier of the two instants; --strict-local-times makes this an error\n"

@Suite("Naive local times in a gap, in a fold or read in UTC by default are told, or refused when strict")
struct LocalTimeWarningTests {
  @Test func validateAndReplayWarnWithTheCountAndTheFirstPlace() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(berlin, to: "g.csv", in: folder)
    let v = try CLI.run(["validate", "g.csv", "--timezone", "Europe/Berlin"], in: folder)
    #expect(v.status == 0)
    #expect(v.stderr == gap + fold)
    let r = try CLI.run(
      ["replay", "--log", "g.csv", "--timezone", "Europe/Berlin", "--strategy", "mru", "--out", "out"],
      in: folder)
    #expect(r.status == 0)
    #expect(r.stderr.hasPrefix(gap + fold))
  }

  @Test func batchWarnsAboutItsLogsToo() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(berlin, to: "g.csv", in: folder)
    let r = try CLI.run(
      ["batch", "--log", "g.csv", "--timezone", "Europe/Berlin", "--strategy", "mru", "--replicates", "1",
       "--out", "out"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("g.csv:3:1: warning: 2 naive timestamps name a local time that does not exist"))
    #expect(r.stderr.contains("g.csv:5:1: warning: 1 naive timestamp names a local time that occurs twice"))
  }

  @Test func jsonLinesAreToldTooAtTheTimestampsValue() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      #"{"timestamp":"2026-03-29T00:00:00Z","kind":"A"}"# + "\n"
        + #"{"timestamp":"2026-10-25 02:30:00","kind":"A"}"# + "\n", to: "g.jsonl", in: folder)
    let v = try CLI.run(["validate", "g.jsonl", "--timezone", "Europe/Berlin"], in: folder)
    #expect(v.status == 0)
    #expect(v.stderr.hasPrefix("g.jsonl:2:14: warning: 1 naive timestamp names a local time that occurs twice"))
  }

  @Test func strictLocalTimesMakesThemErrorsAndWritesNothing() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(berlin, to: "g.csv", in: folder)
    let v = try CLI.run(
      ["validate", "g.csv", "--timezone", "Europe/Berlin", "--strict-local-times"], in: folder)
    #expect(v.status == 65)
    #expect(v.stdout == "")
    #expect(v.stderr.hasPrefix("g.csv:3:1: 2 naive timestamps name a local time that does not exist"))
    let r = try CLI.run(
      ["replay", "--log", "g.csv", "--timezone", "Europe/Berlin", "--strict-local-times",
       "--strategy", "mru", "--out", "out"], in: folder)
    #expect(r.status == 65)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
  }

  @Test func naiveTimesReadInUTCByDefaultAreTold() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(berlin, to: "g.csv", in: folder)
    let v = try CLI.run(["validate", "g.csv"], in: folder)
    #expect(v.status == 0)
    #expect(
      v.stderr
        == "g.csv:2:1: warning: 4 naive timestamps (without Z or an offset) read in UTC, the default --timezone, the first here: give --timezone if they are another zone's local times; --strict-local-times makes this an error\n"
    )
  }

  @Test func aLogWithoutNaiveTimesSaysNothing() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write("timestamp,kind\n2026-03-29T02:30:00+02:00,A\n", to: "z.csv", in: folder)
    let v = try CLI.run(["validate", "z.csv", "--timezone", "Europe/Berlin"], in: folder)
    #expect(v.stderr == "")
  }
}
