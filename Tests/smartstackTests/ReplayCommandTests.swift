import Foundation
import Testing

@Suite("smartstack replay and strategies")
struct ReplayCommandTests {
  static let handLog = """
    timestamp,user,kind
    2026-03-02T08:00:00Z,u,A
    2026-03-02T08:10:00Z,u,B
    2026-03-02T09:00:00Z,u,A
    2026-03-02T09:05:00Z,u,C
    2026-03-02T10:00:00Z,u,B
    2026-03-03T08:30:00Z,u,A
    2026-03-03T08:40:00Z,u,B
    2026-03-03T09:10:00Z,u,B

    """

  /// The hand-computed numbers of ReplayHandComputedTests, through the command line.
  @Test func writesRunsAndDailyWithTheHandComputedNumbers() throws {
    let dir = try CLI.temporaryFolder()
    try CLI.write(Self.handLog, to: "hand.csv", in: dir)
    let r = try CLI.run(["replay", "--log", "hand.csv", "--strategy", "mfu,mru,hour-of-day,oracle", "--out", "out"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let runs = try String(contentsOf: dir.appendingPathComponent("out/runs.csv"), encoding: .utf8)
    let lines = runs.split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    let header = lines[0].split(separator: ",").map(String.init)
    #expect(Array(header.prefix(9)) == ["source", "strategy", "parameters", "replicate", "seed", "people", "visits", "target_visits", "hits"])
    func column(_ row: String, _ name: String) -> String {
      let cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      return cells[header.firstIndex(of: name)!]
    }
    let mfu = lines[1]
    #expect(column(mfu, "strategy") == "mfu")
    #expect(column(mfu, "visits") == "8")
    #expect(column(mfu, "target_visits") == "8")
    #expect(column(mfu, "hits") == "1")
    #expect(column(mfu, "hit_rate") == "0.125")
    #expect(Double(column(mfu, "mrr"))! == (0.5 + 1.0 / 3 + 0.5 + 0.5 + 1) / 8)
    #expect(column(mfu, "coverage") == "0.625")
    #expect(column(mfu, "rotations") == "5")
    // Regret against the oracle (hit rate 0.625): 0.5.
    #expect(column(mfu, "regret") == "0.5")
    #expect(column(lines[3], "strategy") == "hour-of-day")
    #expect(column(lines[3], "hits") == "0")
    #expect(column(lines[4], "regret") == "0")
    let daily = try String(contentsOf: dir.appendingPathComponent("out/daily.csv"), encoding: .utf8)
    #expect(daily.hasPrefix("source,strategy,parameters,replicate,day,date,utc_offset,utc_offset_end,start_utc,end_utc,visits,target_visits,hits,hit_rate,rotations\n"))
    #expect(daily.contains("hand.csv,mfu,,0,0,2026-03-02,0,0,2026-03-02T00:00:00Z,2026-03-03T00:00:00Z,5,5,0,0,2\n"))
    #expect(daily.contains("hand.csv,mfu,,0,1,2026-03-03,0,0,2026-03-03T00:00:00Z,2026-03-04T00:00:00Z,3,3,1,0.3333333333333333,3\n"))
    // The Markdown table on stdout.
    #expect(r.stdout.contains("| hand.csv | mfu "))
  }

  /// The WWDC20 credit-card example: a stack of card+category widgets, donations
  /// matched by the intent's supported combinations.
  @Test func fixedStackMatchesDonationsBySupportedCombinations() throws {
    let dir = try CLI.temporaryFolder()
    try CLI.write(
      """
      timestamp,user,kind,intent,parameters
      2026-03-06T12:00:00Z,u,RecentPurchases,ViewRecentPurchases,card=Acme;category=Grocery
      2026-03-06T13:00:00Z,u,RecentPurchases,ViewRecentPurchases,card=Acme;category=Travel
      2026-03-06T14:00:00Z,u,RecentPurchases,ViewRecentPurchases,card=Bolt;category=Grocery

      """, to: "cards.csv", in: dir)
    let stack = """
      {"instances": [
        {"id": "acme-grocery", "kind": "RecentPurchases", "configuration": {"card": "Acme", "category": "Grocery"}},
        {"id": "bolt-travel", "kind": "RecentPurchases", "configuration": {"card": "Bolt", "category": "Travel"}}],
       "intents": {"ViewRecentPurchases": [CARD]}}
      """
    // Card only: the category is ignored, so Acme;Travel matches acme-grocery and
    // Bolt;Grocery matches bolt-travel: all three donations are in the stack.
    try CLI.write(stack.replacingOccurrences(of: "CARD", with: #"["card"]"#), to: "card.json", in: dir)
    var r = try CLI.run(["replay", "--log", "cards.csv", "--stack", "card.json", "--strategy", "oracle", "--out", "a", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    var runs = try String(contentsOf: dir.appendingPathComponent("a/runs.csv"), encoding: .utf8)
    // people 1, visits 3, target visits 3, hits 3.
    #expect(runs.contains(",1,3,3,3,"))
    // Card and category: only the first donation matches a widget.
    try CLI.write(stack.replacingOccurrences(of: "CARD", with: #"["card", "category"]"#), to: "both.json", in: dir)
    r = try CLI.run(["replay", "--log", "cards.csv", "--stack", "both.json", "--strategy", "oracle", "--out", "b", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    runs = try String(contentsOf: dir.appendingPathComponent("b/runs.csv"), encoding: .utf8)
    #expect(runs.contains(",1,3,3,1,"))
  }

  /// A's timeline says score 5 from 08:05 on (duration 0: until the next entry). Its
  /// only score has percentile 0.5, so with threshold 0.5 every visit from 08:10 on is
  /// relevance-critical. The relevance strategy shows A at all 7 of them (hits at the
  /// two visits whose target is A); the window opened at 08:05 surfaces at the 08:10
  /// visit (300 s).
  @Test func relevanceTimelinesFeedTheRelevanceStrategy() throws {
    let dir = try CLI.temporaryFolder()
    try CLI.write(Self.handLog, to: "hand.csv", in: dir)
    try CLI.write(
      """
      {"instances": [{"id": "A", "entries": [
        {"date": "2026-03-02T08:05:00Z", "relevance": {"score": 5}}]}]}
      """, to: "t.json", in: dir)
    let r = try CLI.run(
      ["replay", "--log", "hand.csv", "--timelines", "t.json", "--strategy", "relevance,mfu",
       "--relevance-threshold", "0.5", "--out", "o", "--quiet"], in: dir)
    #expect(r.status == 0, "\(r.stderr)")
    let lines = try String(contentsOf: dir.appendingPathComponent("o/runs.csv"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let header = lines[0].split(separator: ",").map(String.init)
    func column(_ row: String, _ name: String) -> String {
      row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)[header.firstIndex(of: name)!]
    }
    let relevance = lines[1]
    #expect(column(relevance, "hits") == "2")
    #expect(column(relevance, "relevance_visits") == "7")
    #expect(column(relevance, "relevance_honoured") == "1")
    #expect(column(relevance, "windows") == "1")
    #expect(column(relevance, "windows_surfaced") == "1")
    #expect(column(relevance, "median_time_to_surface_s") == "300")
    #expect(column(relevance, "suppression_violations") == "0")
    // mfu shows A at v2, v4, v5, v7 only (see the hand computation): 4 of 7.
    #expect(column(lines[2], "relevance_honoured") == NumberFormatForTests.shortest(4.0 / 7))
  }

  @Test func badUsageExitsWith64AndSaysWhy() throws {
    let dir = try CLI.temporaryFolder()
    try CLI.write(Self.handLog, to: "hand.csv", in: dir)
    var r = try CLI.run(["replay", "--log", "hand.csv", "--strategy", "mfuu"], in: dir)
    #expect(r.status == 64)
    #expect(r.stderr.contains("unknown strategy 'mfuu' (did you mean 'mfu'?)"))
    // Found while running, not while parsing: still the usage of `replay`, not of the root.
    #expect(r.stderr.contains("\nUsage: smartstack replay "))
    #expect(r.stderr.contains("See 'smartstack replay --help' for more information."))
    r = try CLI.run(["replay", "--log", "hand.csv", "--stack", "top:3"], in: dir)
    #expect(r.status == 64)
    #expect(r.stderr.contains("--warmup-days"))
    r = try CLI.run(["replay", "--log", "hand.csv", "--timezone", "Mars/Olympus"], in: dir)
    #expect(r.status == 64)
    r = try CLI.run(["replay", "--log", "hand.csv", "--visits", "sessions:-3"], in: dir)
    #expect(r.status == 64)
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("reports").path))
  }

  /// `replay --visits/--stack` and a batch config's "visits"/"stack" share one parser
  /// (`VisitSource`, `StackSource`): the same values are refused, each in its own style.
  @Test func replayAndBatchConfigsRefuseTheSameSessionsAndTopValues() throws {
    let dir = try CLI.temporaryFolder()
    try CLI.write(Self.handLog, to: "hand.csv", in: dir)
    let visits = try CLI.run(["replay", "--log", "hand.csv", "--visits", "sessions:0"], in: dir)
    #expect(visits.status == 64)
    #expect(
      visits.stderr.hasPrefix(
        "Error: --visits sessions:MINUTES needs a number of minutes in 0 < MINUTES <= 527040 (366 days), not 'sessions:0'\n"
      ))
    let stack = try CLI.run(
      ["replay", "--log", "hand.csv", "--stack", "top:1001", "--warmup-days", "1"], in: dir)
    #expect(stack.status == 64)
    #expect(
      stack.stderr.hasPrefix(
        "Error: --stack top:N needs a whole number N in 1...1000, not 'top:1001'\n"))
    let config = try CLI.write(
      #"{"sources": [{"log": "hand.csv", "visits": "sessions:0", "stack": "top:1001", "warmupDays": 1}]}"#,
      to: "c.json", in: dir)
    let batch = try CLI.run(["batch", config, "--quiet"], in: dir)
    #expect(batch.status == 65)
    #expect(
      batch.stderr.contains(
        #"c.json:1:44: sources[0].visits: expected "sessions:MINUTES" with a number of minutes in 0 < MINUTES <= 527040 (366 days), found "sessions:0""#
      ))
    #expect(
      batch.stderr.contains(
        #"c.json:1:67: sources[0].stack: expected "top:N" with a whole number N in 1...1000, found "top:1001""#
      ))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("reports").path))
  }

  @Test func badInputExitsWith65OrNoInput66WithoutOutput() throws {
    let dir = try CLI.temporaryFolder()
    try CLI.write("timestamp,kind\n2026-13-02T08:00:00Z,A\n2026-02-30T08:00:00Z,B\n", to: "bad.csv", in: dir)
    var r = try CLI.run(["replay", "--log", "bad.csv", "--out", "o"], in: dir)
    #expect(r.status == 65)
    #expect(r.stderr.contains("bad.csv:2:"))
    #expect(r.stderr.contains("bad.csv:3:"))
    #expect(r.stdout.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o").path))
    r = try CLI.run(["replay", "--log", "missing.csv"], in: dir)
    #expect(r.status == 66)
    try CLI.write(Self.handLog, to: "hand.csv", in: dir)
    try CLI.write("timestamp,user\nyesterday,u\n", to: "visits.csv", in: dir)
    r = try CLI.run(["replay", "--log", "hand.csv", "--visits", "visits.csv", "--out", "v"], in: dir)
    #expect(r.status == 65)
    #expect(r.stderr.contains("visits.csv:2:1: timestamp:"))
    // The visit log is read last (after the plan's donations), and still before the
    // output folder is claimed.
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("v").path))
  }

  @Test func strategiesListsEveryBuiltInWithParameters() throws {
    let r = try CLI.run(["strategies"])
    #expect(r.status == 0)
    for name in ["static", "random", "round-robin", "mru", "mfu", "hour-of-day", "hour-of-week", "markov", "relevance", "bandit", "smart-rotate", "oracle"] {
      #expect(r.stdout.contains("\n\(name)\n") || r.stdout.hasPrefix("\(name)\n"), "\(name) missing")
    }
    #expect(r.stdout.contains("half-life-days=0"))
    #expect(r.stdout.contains("max-per-hour=4"))
  }
}

enum NumberFormatForTests {
  static func shortest(_ x: Double) -> String { "\(x)" }
}
