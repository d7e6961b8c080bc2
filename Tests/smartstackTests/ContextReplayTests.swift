import Foundation
import Testing

/// `replay --context` (issue 33 items 1 and 4): the emitted world of a simulation with
/// context replays to the simulation's own results, and context strategies really read
/// the file.
@Suite("smartstack replay --context")
struct ContextReplayTests {
  /// Two commuters whose wants depend on their place; every want is acted on (tap and
  /// open 1, no swipes) and rotation is unlimited (Developer Mode), so the emitted log
  /// determines every visit's target and the replay can match the simulation exactly.
  static let scenario = """
    {"name": "ctx", "start": "2026-03-02", "days": 3, "timezone": "Europe/Berlin", "seed": 3,
     "people": [{"name": "c", "count": 2, "wantProbability": 0.4, "tap": 1, "open": 1, "swipe": 0,
       "context": {"places": {"weekday": [{"from": "07:30", "place": "commute"}, {"from": "08:15", "place": "work"},
                                         {"from": "17:30", "place": "commute"}, {"from": "18:15", "place": "home"}]},
                   "jitterMinutes": 25, "headphones": ["commute"], "sleep": true},
       "routine": {"weekday": [{"hours": "0-24", "place": "commute", "wants": {"transit": 5, "music": 2}},
                               {"hours": "0-24", "place": "work", "wants": {"calendar": 3}},
                               {"hours": "0-24", "place": "home", "wants": {"news": 3, "music": 1}}]}}],
     "stack": {"developerMode": true, "instances": [{"id": "transit", "kind": "Transit"}, {"id": "music", "kind": "Music"},
                                                   {"id": "calendar", "kind": "Calendar"}, {"id": "news", "kind": "News"}]},
     "apps": [{"id": "transit", "kind": "Transit"}, {"id": "music", "kind": "Music"},
              {"id": "calendar", "kind": "Calendar"}, {"id": "news", "kind": "News"}]}
    """

  /// `people, visits, target_visits, hits` of the first row of `path`.
  static func counts(_ path: String, in dir: URL) throws -> [String] {
    let lines = try String(contentsOf: dir.appendingPathComponent(path), encoding: .utf8).split(separator: "\n")
    let header = lines[0].split(separator: ",").map(String.init)
    let row = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    return ["people", "visits", "target_visits", "hits"].map { row[header.firstIndex(of: $0)!] }
  }

  @Test func theEmittedWorldReplaysToTheSimulationsResults() throws {
    let dir = try CLI.temporaryFolder()
    try CLI.write(Self.scenario, to: "ctx.json", in: dir)
    for strategy in ["context-mfu", "mfu"] {
      var r = try CLI.run(
        ["simulate", "--scenario", "ctx.json", "--strategy", strategy, "--out", "sim-\(strategy)", "--emit-log", "world-\(strategy)", "--quiet"],
        in: dir)
      #expect(r.status == 0, "\(r.stderr)")
      let w = "world-\(strategy)"
      let replay = ["replay", "--log", "\(w)/donations.csv", "--visits", "\(w)/visits.csv", "--stack", "\(w)/stack.json",
                    "--timelines", "\(w)/timelines.json", "--timezone", "Europe/Berlin", "--horizon", "0", "--strategy", strategy]
      r = try CLI.run(replay + ["--context", "\(w)/context.csv", "--out", "rep-\(strategy)", "--quiet"], in: dir)
      #expect(r.status == 0, "\(r.stderr)")
      let simulated = try Self.counts("sim-\(strategy)/runs.csv", in: dir)
      #expect(Int(simulated[3])! > 50)
      #expect(try Self.counts("rep-\(strategy)/runs.csv", in: dir) == simulated, "\(strategy)")
      // Without the context file, context-mfu has no place and ranks as mfu does.
      r = try CLI.run(replay + ["--out", "blind-\(strategy)", "--quiet"], in: dir)
      #expect(r.status == 0, "\(r.stderr)")
      let blind = try Self.counts("blind-\(strategy)/runs.csv", in: dir)
      if strategy == "context-mfu" {
        #expect(blind != simulated)
        #expect(Int(blind[3])! < Int(simulated[3])!)
      } else {
        #expect(blind == simulated)
      }
    }
  }

  @Test func aContextFileNamingAnUnknownPersonIsLocated() throws {
    let dir = try CLI.temporaryFolder()
    try CLI.write("timestamp,user,kind\n2026-03-02T08:00:00Z,ana,A\n", to: "log.csv", in: dir)
    try CLI.write("timestamp,user,signal,value\n2026-03-02T07:00:00Z,ana,place,home\n2026-03-02T07:00:00Z,bob,place,work\n", to: "ctx.csv", in: dir)
    let r = try CLI.run(["replay", "--log", "log.csv", "--context", "ctx.csv", "--strategy", "context-mfu", "--out", "o"], in: dir)
    #expect(r.status == 65)
    #expect(r.stderr.contains("ctx.csv:3:22: unknown user 'bob': the log has no donation of this person"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o/runs.csv").path))
  }
}
