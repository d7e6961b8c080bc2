import Foundation
import Testing

@Suite("smartstack relevance")
struct RelevanceCommandTests {
  static let header = "time,instance,state,score,percentile\n"

  /// The output without its last column, `local_time` (checked on its own below).
  static func utc(_ csv: String) -> String {
    csv.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.lastIndex(of: ",").map { String(line[..<$0]) } ?? String(line)
    }.joined(separator: "\n")
  }

  /// Writes `json` to a fresh folder and runs `smartstack relevance FILE ARGS...` there.
  func run(_ json: String, _ arguments: [String]) throws -> CLI.Result {
    let folder = try CLI.temporaryFolder()
    let path = try CLI.write(json, to: "timeline.json", in: folder)
    return try CLI.run(["relevance", path] + arguments, in: folder)
  }

  @Test func basketballGameIsActiveDuringTheGameDespiteNilUpdatesThenExpired() throws {
    let r = try run(
      """
      {"instances": [{"id": "game", "kind": "Scores", "entries": [
        {"date": "2026-01-05T19:00:00Z", "relevance": {"score": 1, "duration": 10800}},
        {"date": "2026-01-05T20:00:00Z"},
        {"date": "2026-01-05T21:00:00Z", "relevance": null},
        {"date": "2026-01-05T21:30:00Z"}
      ]}]}
      """,
      ["--from", "2026-01-05T18:00:00Z", "--to", "2026-01-05T23:00:00Z", "--step", "3600"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty)
    #expect(
      Self.utc(r.stdout) == Self.header + """
        2026-01-05T18:00:00Z,game,none,,
        2026-01-05T19:00:00Z,game,active,1,0.5
        2026-01-05T20:00:00Z,game,active,1,0.5
        2026-01-05T21:00:00Z,game,active,1,0.5
        2026-01-05T22:00:00Z,game,expired,0,
        2026-01-05T23:00:00Z,game,expired,0,

        """)
  }

  @Test func purchasesScoresAreRankedAgainstTheHistorySoFar() throws {
    // Amounts 10, 500 and 20 as scores with duration 0: each lasts until the next one.
    let r = try run(
      """
      {"instances": [{"id": "acme", "kind": "RecentPurchases", "entries": [
        {"date": "2026-01-05T09:00:00Z", "relevance": {"score": 10}},
        {"date": "2026-01-05T12:00:00Z", "relevance": {"score": 500}},
        {"date": "2026-01-05T15:00:00Z", "relevance": {"score": 20, "duration": 0}}
      ]}]}
      """,
      ["--from", "2026-01-05T09:00:00Z", "--to", "2026-01-05T18:30:00Z", "--step", "10800"])
    #expect(r.status == 0, "\(r.stderr)")
    // 09:00 {10}: 0.5; 12:00 {10, 500}: 500 -> 0.75; 15:00 {10, 500, 20}: 20 -> 0.5;
    // 18:00 unchanged.
    #expect(
      Self.utc(r.stdout) == Self.header + """
        2026-01-05T09:00:00Z,acme,active,10,0.5
        2026-01-05T12:00:00Z,acme,active,500,0.75
        2026-01-05T15:00:00Z,acme,active,20,0.5
        2026-01-05T18:00:00Z,acme,active,20,0.5

        """)
  }

  @Test func aZeroScoreSuppressesAndAnExpiredWindowHasScoreZero() throws {
    let r = try run(
      """
      {"instances": [
        {"id": "news", "entries": [
          {"date": "2026-01-05T00:00:00Z", "relevance": {"score": 4}},
          {"date": "2026-01-05T01:00:00Z", "relevance": {"score": 0, "duration": 1800}}
        ]},
        {"id": "weather, home", "entries": [
          {"date": "2026-01-05T00:30:00Z", "relevance": {"score": 2.5, "duration": 900.5}}
        ]}
      ]}
      """,
      ["--from", "2026-01-05T00:00:00Z", "--to", "2026-01-05T01:30:00Z", "--step", "1800"])
    #expect(r.status == 0, "\(r.stderr)")
    // news at 01:00: {4, 0} -> 0 is below 4 -> 0.25; at 01:30 its 30 min window ended.
    // "weather, home" is quoted; its window [00:30, 00:45:00.5) has ended by 01:00.
    #expect(
      Self.utc(r.stdout) == Self.header + """
        2026-01-05T00:00:00Z,news,active,4,0.5
        2026-01-05T00:00:00Z,"weather, home",none,,
        2026-01-05T00:30:00Z,news,active,4,0.5
        2026-01-05T00:30:00Z,"weather, home",active,2.5,0.5
        2026-01-05T01:00:00Z,news,suppressed,0,0.25
        2026-01-05T01:00:00Z,"weather, home",expired,0,
        2026-01-05T01:30:00Z,news,expired,0,
        2026-01-05T01:30:00Z,"weather, home",expired,0,

        """)
  }

  @Test func kindScopeAndDayWindowChangeThePercentiles() throws {
    let json = """
      {"instances": [
        {"id": "a", "kind": "K", "entries": [{"date": "2026-01-05T00:00:00Z", "relevance": {"score": 1}}]},
        {"id": "b", "kind": "K", "entries": [
          {"date": "2026-01-04T00:00:00Z", "relevance": {"score": 9}},
          {"date": "2026-01-05T00:00:00Z", "relevance": {"score": 5}}
        ]}
      ]}
      """
    let grid = ["--from", "2026-01-05T00:00:00Z", "--to", "2026-01-05T00:00:00Z", "--step", "60"]
    let own = try run(json, grid)
    #expect(
      Self.utc(own.stdout) == Self.header
        + "2026-01-05T00:00:00Z,a,active,1,0.5\n2026-01-05T00:00:00Z,b,active,5,0.25\n")
    // Kind K pools {9, 1, 5}: 1 -> 0.5/3, 5 -> 1.5/3.
    let kind = try run(json, grid + ["--scope", "kind"])
    #expect(
      Self.utc(kind.stdout) == Self.header
        + "2026-01-05T00:00:00Z,a,active,1,0.16666666666666666\n2026-01-05T00:00:00Z,b,active,5,0.5\n"
    )
    // With a one-day window the score of 2026-01-04T00:00Z (exactly one day old) no longer counts.
    let windowed = try run(json, grid + ["--scope", "kind", "--window-days", "1"])
    #expect(
      Self.utc(windowed.stdout) == Self.header
        + "2026-01-05T00:00:00Z,a,active,1,0.25\n2026-01-05T00:00:00Z,b,active,5,0.75\n")
  }

  /// An open window (duration 0) older than `--window-days`: its entry has left the
  /// span, yet the current score is part of its own population ("itself included"),
  /// so the percentile is defined: 0.5 alone, its mid-rank among the span's other
  /// scores otherwise.
  @Test func anOpenWindowOlderThanTheSpanCountsItself() throws {
    let json = """
      {"instances": [
        {"id": "a", "kind": "K", "entries": [{"date": "2026-01-01T00:00:00Z", "relevance": {"score": 3}}]},
        {"id": "b", "kind": "K", "entries": [{"date": "2026-01-04T12:00:00Z", "relevance": {"score": 1}}]}
      ]}
      """
    let grid = ["--from", "2026-01-05T00:00:00Z", "--to", "2026-01-05T00:00:00Z", "--step", "60"]
    // Own scope: a's population in (Jan 4, Jan 5] is empty but for itself: 0.5.
    let own = try run(json, grid + ["--window-days", "1"])
    #expect(
      Self.utc(own.stdout) == Self.header
        + "2026-01-05T00:00:00Z,a,active,3,0.5\n2026-01-05T00:00:00Z,b,active,1,0.5\n")
    // Kind scope: the span holds b's 1; a's 3 joins it: a = 1.5/2, b = 0.5/1.
    let kind = try run(json, grid + ["--scope", "kind", "--window-days", "1"])
    #expect(
      Self.utc(kind.stdout) == Self.header
        + "2026-01-05T00:00:00Z,a,active,3,0.75\n2026-01-05T00:00:00Z,b,active,1,0.5\n")
  }

  @Test func naiveTimesAreReadInTheTimeZone() throws {
    let r = try run(
      """
      {"instances": [{"id": "a", "entries": [{"date": "2026-01-05T09:00", "relevance": {"score": 3}}]}]}
      """,
      [
        "--from", "2026-01-05T08:00", "--to", "2026-01-05T09:00", "--step", "3600", "--timezone",
        "Europe/Berlin",
      ])
    #expect(r.status == 0, "\(r.stderr)")
    // 08:00 and 09:00 Berlin (UTC+1) are 07:00Z and 08:00Z; the entry is at 08:00Z.
    #expect(
      Self.utc(r.stdout) == Self.header
        + "2026-01-05T07:00:00Z,a,none,,\n2026-01-05T08:00:00Z,a,active,3,0.5\n")
  }

  @Test func noInstancesWriteTheHeaderOnly() throws {
    let r = try run(
      #"{"instances": []}"#, ["--from", "2026-01-05", "--to", "2026-01-06", "--step", "60"])
    #expect(r.status == 0)
    #expect(Self.utc(r.stdout) == Self.header)
  }

  @Test func outWritesTheFileAtomicallyAndNothingToStdout() throws {
    let folder = try CLI.temporaryFolder()
    let path = try CLI.write(
      #"{"instances": [{"id": "a", "entries": [{"date": "2026-01-05", "relevance": {"score": 1}}]}]}"#,
      to: "t.json", in: folder)
    try CLI.write("old content", to: "out.csv", in: folder)
    let r = try CLI.run(
      [
        "relevance", path, "--from", "2026-01-05", "--to", "2026-01-05", "--step", "1", "--out",
        "out.csv",
      ],
      in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.isEmpty)
    let written = try String(contentsOf: folder.appendingPathComponent("out.csv"), encoding: .utf8)
    #expect(Self.utc(written) == Self.header + "2026-01-05T00:00:00Z,a,active,1,0.5\n")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(leftovers == ["out.csv", "t.json"])
  }

  /// `--out` never replaces an input: the timeline, or in clue mode the app file or the
  /// context file, also through a symbolic link. Refused with exit 64 before anything is
  /// read, and the input keeps its bytes.
  @Test func outOntoAnInputIsRefusedAndTheInputKept() throws {
    let folder = try CLI.temporaryFolder()
    let timeline = #"{"instances": [{"id": "a", "entries": [{"date": "2026-01-05", "relevance": {"score": 1}}]}]}"#
    try CLI.write(timeline, to: "t.json", in: folder)
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("link.csv"), withDestinationURL: folder.appendingPathComponent("t.json"))
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let context = try String(contentsOf: root.appendingPathComponent("Datasets/context/tiny.csv"), encoding: .utf8)
    let app = try String(contentsOf: root.appendingPathComponent("Datasets/watch/commuter-app.json"), encoding: .utf8)
    try CLI.write(context, to: "c.csv", in: folder)
    try CLI.write(app, to: "app.json", in: folder)
    let grid = ["--from", "2026-01-05", "--to", "2026-01-05", "--step", "1"]
    for (arguments, input) in [
      (["relevance", "t.json"] + grid + ["--out", "t.json"], "t.json"),
      (["relevance", "t.json"] + grid + ["--out", "link.csv"], "t.json"),
      (["relevance", "--clues", "app.json", "--context", "c.csv", "--user", "ana", "--out", "c.csv"], "c.csv"),
      (["relevance", "--clues", "app.json", "--context", "c.csv", "--user", "ana", "--out", "app.json"], "app.json"),
    ] {
      let before = try String(contentsOf: folder.appendingPathComponent(input), encoding: .utf8)
      let r = try CLI.run(arguments, in: folder)
      #expect(r.status == 64, "\(arguments): \(r.stderr)")
      #expect(r.stderr.contains("--out") && r.stderr.contains("would overwrite the input"), "\(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(try String(contentsOf: folder.appendingPathComponent(input), encoding: .utf8) == before)
    }
  }

  @Test func aBadFileExits65WithEveryProblemOnStderrAndNothingOnStdout() throws {
    let r = try run(
      """
      {"instances": [
        {"id": "a", "entries": [
          {"date": "2026-02-30T09:00:00Z", "relevance": {"score": 1, "durations": 60}},
          {"date": "2026-01-05T09:00:00Z", "relevance": {"score": 1, "duration": -1}}
        ]},
        {"id": "a", "entries": []}
      ]}
      """,
      ["--from", "2026-01-05", "--to", "2026-01-06", "--step", "3600"])
    #expect(r.status == 65)
    #expect(r.stdout.isEmpty)
    let lines = r.stderr.split(separator: "\n").map { String($0.split(separator: "/").last ?? "") }
    #expect(
      lines == [
        "timeline.json:3:23: instances[0].entries[0].date: day 30 does not exist in February 2026",
        "timeline.json:3:64: instances[0].entries[0].relevance: unknown key \"durations\" (did you mean \"duration\"?)",
        "timeline.json:4:76: instances[0].entries[1].relevance.duration: expected seconds >= 0, found -1 (0 means until the next entry with relevance)",
        "timeline.json:6:10: instances[1].id: duplicate instance id \"a\" (first used by instances[0])",
      ])
  }

  @Test func malformedJSONExits65() throws {
    let r = try run(
      "{\"instances\": [", ["--from", "2026-01-05", "--to", "2026-01-06", "--step", "60"])
    #expect(r.status == 65)
    #expect(r.stdout.isEmpty)
    #expect(r.stderr.hasSuffix("timeline.json:1:16: unexpected end of input\n"))
  }

  @Test func aMissingFileExits66AndAnUnwritableOutExits73() throws {
    let missing = try CLI.run([
      "relevance", "/nonexistent/t.json", "--from", "2026-01-05", "--to", "2026-01-06", "--step",
      "60",
    ])
    #expect(missing.status == 66)
    #expect(missing.stderr == "/nonexistent/t.json: cannot read: no such file\n")
    let r = try run(
      #"{"instances": []}"#,
      [
        "--from", "2026-01-05", "--to", "2026-01-06", "--step", "60", "--out",
        "/nonexistent/out.csv",
      ])
    #expect(r.status == 73)
    #expect(r.stderr.hasPrefix("/nonexistent/out.csv: cannot write: "))
  }

  @Test func badGridOptionsAreUsageErrorsNamingTheOption() throws {
    let json = #"{"instances": [{"id": "a", "entries": []}, {"id": "b", "entries": []}]}"#
    let cases: [([String], String)] = [
      (
        ["--from", "2026-01-06", "--to", "2026-01-05", "--step", "60"],
        "--from 2026-01-06 is after --to 2026-01-05"
      ),
      (
        ["--from", "2026-01-05", "--to", "2026-01-06", "--step", "0"],
        "--step must be a positive number of seconds, got 0"
      ),
      (
        ["--from", "2026-01-05", "--to", "2026-01-06", "--step=-60"],
        "--step must be a positive number of seconds, got -60"
      ),
      (
        ["--from", "2026-13-05", "--to", "2026-01-06", "--step", "60"],
        "--from: cannot read '2026-13-05' as an ISO 8601 time: month 13 is out of range 01...12"
      ),
      (
        ["--from", "2026-01-05", "--to", "soon", "--step", "60"],
        "--to: cannot read 'soon' as an ISO 8601 time"
      ),
      (
        ["--from", "2026-01-05", "--to", "2026-01-06", "--step", "60", "--timezone", "Mars/Base"],
        "--timezone: unknown time zone 'Mars/Base'"
      ),
      (
        ["--from", "2026-01-05", "--to", "2026-01-06", "--step", "60", "--window-days", "0"],
        "--window-days must be at least 1, got 0"
      ),
      (
        ["--from", "2026-01-05", "--to", "2026-01-06", "--step", "60", "--scope", "app"], "--scope"
      ),
      // 2026 has 31 536 000 s: more than 10 million grid times on their own.
      (["--from", "2026-01-01", "--to", "2027-01-01", "--step", "1"], "more than 10000000 rows"),
      // 6 000 001 times fit, but × 2 instances do not.
      (
        ["--from", "2026-01-01", "--to", "2026-01-01T01:40:00Z", "--step", "0.001"],
        "6000001 times × 2 instances, more than 10000000 rows"
      ),
    ]
    for (arguments, message) in cases {
      let r = try run(json, arguments)
      #expect(r.status == 64, "\(arguments)")
      #expect(r.stdout.isEmpty, "\(arguments)")
      #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
    }
  }
}
