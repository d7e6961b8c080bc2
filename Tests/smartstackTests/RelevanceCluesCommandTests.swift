import Foundation
import Testing

/// `smartstack relevance --clues APP.json --context CONTEXT.csv` (issue 33 item 6) on the
/// shipped example: specific rows for each verdict, and errors as the other commands give
/// them (non-zero exit, nothing on standard output).
@Suite("smartstack relevance --clues explains a watch app's clues")
struct RelevanceCluesCommandTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let app = root.appendingPathComponent("Datasets/watch/commuter-app.json").path
  static let context = root.appendingPathComponent("Datasets/context/tiny.csv").path

  /// Runs the explainer on the example for `user` with `arguments` and returns the rows
  /// as `time,widget,source,clue,verdict,reason,card,replaced_by` (the columns the tests
  /// check), after checking the header.
  func rows(_ user: String, _ arguments: [String]) throws -> [String] {
    let r = try CLI.run(["relevance", "--clues", Self.app, "--context", Self.context, "--user", user] + arguments)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty)
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.first == "time,utc_offset,widget,source,clue,configuration,context,verdict,reason,card,replaced_by,local_time")
    return lines.dropFirst().map { line in
      // The context column may be quoted with a comma inside: cut around it.
      var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      if let open = fields.firstIndex(where: { $0.hasPrefix("\"") }) {
        fields.replaceSubrange(open...(open + 1), with: [fields[open] + "," + fields[open + 1]])
      }
      return [fields[0], fields[2], fields[3], fields[4], fields[7], fields[8], fields[9], fields[10]].joined(separator: ",")
    }
  }

  @Test func anasMorningShowsEveryVerdictAndTheCardsTheyMake() throws {
    let rows = try rows("ana", ["--from", "2026-03-02T06:00:00+01:00", "--to", "2026-03-02T09:00:00+01:00", "--step", "30m"])
    #expect(rows.count == 7 * 9 + 4)  // 7 times × 9 relevance clues, and the intent at the 4 times before 07:45 local
    for row in [
      // 06:00 local: place unknown yet, the sleep clue lacks its permission, the intent's date holds.
      "2026-03-02T05:00:00Z,NextDeparture,relevance,0,dropped,noContext(place),,",
      "2026-03-02T05:00:00Z,NextDeparture,relevance,2,dropped,noPermission(sleep),,",
      "2026-03-02T05:00:00Z,NextDeparture,intent,0,matches,,NextDeparture,",
      "2026-03-02T05:00:00Z,Trips,relevance,0,dropped,outsideDate,,",
      "2026-03-02T05:00:00Z,Trips,relevance,2,dropped,noContext(workout),,",
      // 07:00 local: at home.
      "2026-03-02T06:00:00Z,Trips,relevance,1,dropped,contextDoesNotMatch(place=home),,",
      "2026-03-02T06:00:00Z,Tickets,relevance,0,matches,,Tickets,",
      // 07:30 local: commuting with headphones; the trip card replaces NextDeparture's,
      // and ServiceAlerts wins the alerts group over the informational Tickets.
      "2026-03-02T06:30:00Z,NextDeparture,relevance,0,matches,,NextDeparture,Trips",
      "2026-03-02T06:30:00Z,NextDeparture,relevance,1,matches,,NextDeparture,Trips",
      "2026-03-02T06:30:00Z,Trips,relevance,0,matches,,Trips#0,",
      "2026-03-02T06:30:00Z,ServiceAlerts,relevance,0,matches,,ServiceAlerts,",
      "2026-03-02T06:30:00Z,Tickets,relevance,0,dropped,group(alerts: ServiceAlerts),,",
      // 08:30 local: at work; the intents were cleared at 07:45 (replace-all).
      "2026-03-02T07:30:00Z,Trips,relevance,1,matches,,Trips#1,",
      "2026-03-02T07:30:00Z,NextDeparture,relevance,1,dropped,contextDoesNotMatch(headphones=disconnected),,",
    ] {
      #expect(rows.contains(row), "\(row)")
    }
    #expect(!rows.contains { $0.hasPrefix("2026-03-02T07:00:00Z,NextDeparture,intent") })
  }

  @Test func bensWorkoutMatchesAndTheVersionAndPrefixDropClues() throws {
    let at = ["--from", "2026-03-02T07:00:00Z", "--to", "2026-03-02T07:00:00Z"]
    let gym = try rows("ben", at)
    #expect(gym.contains("2026-03-02T07:00:00Z,Trips,relevance,2,matches,,Trips#2,"))
    #expect(gym.contains("2026-03-02T07:00:00Z,Trips,relevance,3,matches,,Trips#3,"))
    let older = try rows("ben", at + ["--watchos", "11", "--clue-prefix", "1"])
    #expect(older.contains("2026-03-02T07:00:00Z,Trips,relevance,2,dropped,notOnVersion(26),,"))
    #expect(older.contains("2026-03-02T07:00:00Z,Tickets,relevance,0,dropped,notOnVersion(26),,"))
    #expect(older.contains("2026-03-02T07:00:00Z,NextDeparture,relevance,1,dropped,priorityTruncated(1),,"))
    let watch10 = try rows("ben", at + ["--watchos", "10"])
    #expect(watch10.filter { $0.contains(",relevance,") }.allSatisfy { $0.contains(",dropped,notOnVersion(") })
  }

  @Test func outWritesTheSameCSVToAFileAndNothingToStandardOutput() throws {
    let folder = try CLI.temporaryFolder()
    let arguments = ["relevance", "--clues", Self.app, "--context", Self.context, "--user", "ben", "--step", "1h"]
    let printed = try CLI.run(arguments)
    let written = try CLI.run(arguments + ["--out", "clues.csv"], in: folder)
    #expect(written.status == 0 && written.stdout.isEmpty, "\(written.stderr)")
    let file = try String(contentsOf: folder.appendingPathComponent("clues.csv"), encoding: .utf8)
    #expect(file == printed.stdout)
    // Default grid: ben's first to last context change (2026-03-02T06:00Z to 2026-03-05T20:00Z),
    // hourly: 87 times × 9 clues, the intent at 06:00Z (cleared at 06:45Z), and the header.
    #expect(file.split(separator: "\n").count == 1 + 87 * 9 + 1)
  }

  @Test func mistakesExitNonZeroWithNothingOnStandardOutput() throws {
    let folder = try CLI.temporaryFolder()
    let bad = try CLI.write(
      #"{"widgets": [{"kind": "R", "mode": "relevanceConfiguration", "pinned": true, "relevance": []}]}"#,
      to: "bad.json", in: folder)
    let cases: [([String], Int32, String)] = [
      (["--clues", Self.app, "--context", Self.context], 64, "has context for ana, ben: choose whose with --user"),
      (["--clues", Self.app], 64, "--clues needs --context"),
      (["--clues", Self.app, "--context", Self.context, "--user", "zoe"], 64, "has no context for 'zoe'"),
      (["--clues", Self.app, "--context", Self.context, "--user", "ana", "--watchos", "12"], 64, "--watchos must be one of 10, 11, 26"),
      (["--clues", Self.app, "--context", Self.context, "--user", "ana", "--scope", "kind"], 64, "--scope goes with a timeline file"),
      (["--clues", Self.app, "--context", Self.context, "--user", "ana", "--step", "15q"], 64, "--step: cannot read '15q'"),
      (["--clues", bad, "--context", Self.context, "--user", "ana"], 65, "bad.json:1:72: widgets[0].pinned: a relevanceConfiguration widget cannot be pinned"),
      (["t.json", "--context", Self.context], 64, "--context goes with --clues"),
    ]
    for (arguments, status, message) in cases {
      let r = try CLI.run(["relevance"] + arguments, in: folder)
      #expect(r.status == status, "\(arguments): \(r.stderr)")
      #expect(r.stdout.isEmpty, "\(arguments)")
      #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
    }
  }
}
