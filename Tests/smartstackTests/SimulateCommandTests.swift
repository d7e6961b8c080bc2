import Foundation
import Testing

@Suite("smartstack simulate")
struct SimulateCommandTests {
  static let scenario = """
    {"name": "mini", "start": "2026-03-02", "days": 4, "timezone": "Europe/Berlin", "seed": 9,
     "people": [{"name": "p", "count": 2, "wantProbability": 0.4, "tap": 0.9, "swipe": 0.3,
       "routine": {"weekday": [{"hours": "6-23", "wants": {"transit": 3, "weather": 2, "cards": 1}}],
                   "weekend": [{"hours": "9-23", "wants": {"weather": 2, "cards": 1}}]}}],
     "stack": {"instances": [
        {"id": "u2", "kind": "Transit", "configuration": {"line": "U2"}},
        {"id": "weather", "kind": "Weather"},
        {"id": "acme", "kind": "RecentPurchases", "configuration": {"card": "Acme", "category": "Grocery"}}]},
     "apps": [
        {"id": "transit", "kind": "Transit", "intent": "ViewDepartures", "parameters": {"line": "U2", "stop": "Alexanderplatz"}},
        {"id": "weather", "kind": "Weather", "timeline": {"type": "weather", "alertsPerDay": 1, "alertMinutes": 120},
         "reload": {"policy": "after", "minutes": 30}},
        {"id": "cards", "kind": "RecentPurchases", "intent": "ViewRecentPurchases",
         "parameters": {"card": "Acme", "category": "Grocery"},
         "timeline": {"type": "purchases", "purchasesPerDay": 2}, "reload": {"policy": "never"}}],
     "intents": {"ViewDepartures": [["line"]], "ViewRecentPurchases": [["card"], ["card", "category"]]}}
    """

  @Test func sameSeedGivesTheSameBytes() throws {
    let dir = try CLI.temporaryFolder()
    try CLI.write(Self.scenario, to: "mini.json", in: dir)
    for out in ["a", "b"] {
      let r = try CLI.run(["simulate", "--scenario", "mini.json", "--out", out, "--explain", "--replicates", "2", "--quiet"], in: dir)
      #expect(r.status == 0, "\(r.stderr)")
    }
    for file in ["runs.csv", "daily.csv", "explain.csv"] {
      let a = try Data(contentsOf: dir.appendingPathComponent("a/\(file)"))
      let b = try Data(contentsOf: dir.appendingPathComponent("b/\(file)"))
      #expect(a == b, "\(file) differs between two runs with the same seed")
      #expect(a.count > 100)
    }
    let r = try CLI.run(["simulate", "--scenario", "mini.json", "--out", "c", "--seed", "10", "--quiet"], in: dir)
    #expect(r.status == 0)
    #expect(try Data(contentsOf: dir.appendingPathComponent("a/runs.csv")) != Data(contentsOf: dir.appendingPathComponent("c/runs.csv")))
    let runs = try String(contentsOf: dir.appendingPathComponent("a/runs.csv"), encoding: .utf8)
    #expect(runs.hasPrefix("source,strategy,parameters,replicate,seed,people,visits,target_visits,hits,"))
    #expect(runs.split(separator: "\n").first!.hasSuffix(",regret,taps,manual_opens,swipes,unacted_wants,reloads_requested,reloads_granted,reloads_refused,reloads_coalesced,suggestion_windows"))
    // 12 strategies x 2 replicates.
    #expect(runs.split(separator: "\n").count == 1 + 24)
    let explain = try String(contentsOf: dir.appendingPathComponent("a/explain.csv"), encoding: .utf8)
    #expect(explain.hasPrefix("strategy,person,time,shown,previous,rotated,rule,target,hit,top,local_time\n"))
    #expect(explain.contains(",smart-rotate,") || explain.contains("\nsmart-rotate,"))
  }

  /// The emitted world replayed with `--horizon 0` has the simulation's visits and
  /// target visits (every want is acted on: open = 1), and with the emitted timelines the
  /// same relevance situation at every visit: the visits with a high-relevance candidate
  /// and the watched windows (which depend on the entries, not on what is shown).
  @Test func anEmittedLogReplaysWithTheSameVisitsTargetsAndRelevance() throws {
    let dir = try CLI.temporaryFolder()
    try CLI.write(Self.scenario, to: "mini.json", in: dir)
    var r = try CLI.run(["simulate", "--scenario", "mini.json", "--strategy", "mfu", "--out", "sim", "--emit-log", "world"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("smartstack replay --log world/donations.csv --visits world/visits.csv --stack world/stack.json --timelines world/timelines.json --timezone Europe/Berlin --horizon 0"))
    r = try CLI.run(
      ["replay", "--log", "world/donations.csv", "--visits", "world/visits.csv", "--stack", "world/stack.json",
       "--timelines", "world/timelines.json", "--timezone", "Europe/Berlin", "--horizon", "0", "--strategy", "mfu",
       "--out", "rep", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    func counts(_ path: String) throws -> [String] {
      let lines = try String(contentsOf: dir.appendingPathComponent(path), encoding: .utf8).split(separator: "\n")
      let header = lines[0].split(separator: ",").map(String.init)
      let row = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      return ["people", "visits", "target_visits", "relevance_visits", "windows"].map { row[header.firstIndex(of: $0)!] }
    }
    let simulated = try counts("sim/runs.csv")
    #expect(Int(simulated[1])! > 100)
    #expect(Int(simulated[3])! > 0 && Int(simulated[4])! > 0, "the scenario should have relevance to check: \(simulated)")
    #expect(try counts("rep/runs.csv") == simulated)
    let timelines = try String(contentsOf: dir.appendingPathComponent("world/timelines.json"), encoding: .utf8)
    #expect(timelines.contains(#""user":"p-1""#) && timelines.contains(#""user":"p-2""#))
    // `relevance` reads the emitted file for one person, and asks whose without --user.
    r = try CLI.run(
      ["relevance", "world/timelines.json", "--from", "2026-03-02T00:00:00Z", "--to", "2026-03-06T00:00:00Z",
       "--step", "3600", "--user", "p-1"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix("time,instance,state,score,percentile,local_time\n"))
    #expect(r.stdout.contains(",active,"))
    r = try CLI.run(
      ["relevance", "world/timelines.json", "--from", "2026-03-02T00:00:00Z", "--to", "2026-03-03T00:00:00Z",
       "--step", "3600"], in: dir)
    #expect(r.status == 64)
    #expect(r.stderr.contains("world/timelines.json has per-person timelines (e.g. instance '"))
    #expect(r.stderr.contains("choose whose with --user"))
    // The JSON Lines form reads back to the same log.
    r = try CLI.run(["simulate", "--scenario", "mini.json", "--strategy", "mfu", "--out", "sim2", "--emit-log", "world2", "--emit-format", "jsonl", "--quiet"], in: dir)
    #expect(r.status == 0)
    let csv = try CLI.run(["validate", "world/donations.csv", "--json"], in: dir)
    let jsonl = try CLI.run(["validate", "world2/donations.jsonl", "--json"], in: dir)
    #expect(csv.stdout.replacingOccurrences(of: "world/donations.csv", with: "").replacingOccurrences(of: "\"csv\"", with: "")
      == jsonl.stdout.replacingOccurrences(of: "world2/donations.jsonl", with: "").replacingOccurrences(of: "\"jsonl\"", with: ""))
  }

  @Test func badScenariosAndOptionsExitWithClearErrors() throws {
    let dir = try CLI.temporaryFolder()
    try CLI.write(Self.scenario.replacingOccurrences(of: "\"days\": 4", with: "\"days\": 400"), to: "bad.json", in: dir)
    var r = try CLI.run(["simulate", "--scenario", "bad.json"], in: dir)
    #expect(r.status == 65)
    #expect(r.stderr.contains("bad.json:1:"))
    #expect(r.stderr.contains("days"))
    r = try CLI.run(["simulate", "--scenario", "missing.json"], in: dir)
    #expect(r.status == 66)
    try CLI.write(Self.scenario, to: "mini.json", in: dir)
    r = try CLI.run(["simulate", "--scenario", "mini.json", "--strategy", "oracel"], in: dir)
    #expect(r.status == 64)
    #expect(r.stderr.contains("did you mean 'oracle'?"))
    #expect(r.stderr.contains("\nUsage: smartstack simulate "))
    r = try CLI.run(["simulate", "--scenario", "mini.json", "--days", "0"], in: dir)
    #expect(r.status == 64)
  }

  /// Every output of one command with --explain, --emit-log and --emit-exposures (all
  /// recorded on the single run of replicate 0) has the same bytes for --jobs 1 and 2,
  /// and the explain rows of the first strategy are those of a run of it alone.
  @Test func everyOutputIsTheSameForAnyJobs() throws {
    let dir = try CLI.temporaryFolder()
    try CLI.write(Self.scenario, to: "mini.json", in: dir)
    for jobs in ["1", "2"] {
      try FileManager.default.createDirectory(at: dir.appendingPathComponent("x\(jobs)"), withIntermediateDirectories: true)
      let r = try CLI.run(
        [
          "simulate", "--scenario", "mini.json", "--strategy", "epsilon:rate=0.2:base=mfu,mfu,relevance",
          "--replicates", "2", "--explain", "--out", "out\(jobs)", "--emit-log", "world\(jobs)",
          "--emit-exposures", "x\(jobs)/exposures.csv", "--jobs", jobs, "--quiet",
        ], in: dir)
      #expect(r.status == 0, "\(r.stderr)")
    }
    for (a, b) in [("out1", "out2"), ("world1", "world2"), ("x1", "x2")] {
      let one = try CLI.files(in: dir.appendingPathComponent(a)).filter { $0.key != "manifest.json" }
      let two = try CLI.files(in: dir.appendingPathComponent(b)).filter { $0.key != "manifest.json" }
      #expect(one == two, "\(a) and \(b) differ")
      #expect(one.count >= 3, "\(a): \(one.keys.sorted())")
    }
    let r = try CLI.run(
      ["simulate", "--scenario", "mini.json", "--strategy", "epsilon:rate=0.2:base=mfu", "--explain", "--out", "alone", "--quiet"],
      in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let alone = try String(contentsOf: dir.appendingPathComponent("alone/explain.csv"), encoding: .utf8)
    let all = try String(contentsOf: dir.appendingPathComponent("out1/explain.csv"), encoding: .utf8)
    #expect(alone.split(separator: "\n").count > 10)
    #expect(all.hasPrefix(alone))
    #expect(all.contains("\nmfu,") && all.contains("\nrelevance,"))
  }
}
