import Foundation
import Testing

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// Issue 19 items 4 and 8: captioned console tables with one name per metric, a compact
/// summary by default, a warning for few units; local time beside UTC.
@Suite("Console tables say what they are; local time beside UTC")
struct HonestOutputTests {
  static let tiny = InterruptedBatchTests.scenarioPath

  @Test func batchPrintsACompactCaptionedSummaryAndEverythingWithVerbose() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let base = ["batch", "--scenario", Self.tiny, "--days", "3", "--strategy", "mfu,mru,oracle", "--replicates", "2"]
    let compact = try CLI.run(base + ["--out", "a"], in: work)
    #expect(compact.status == 0, "\(compact.stderr)")
    for metric in ["hit_rate (higher is better)", "mrr (higher is better)", "rotations_per_day (lower is better)"] {
      #expect(compact.stdout.contains(metric + ": per-unit means"), "\(metric)")
    }
    #expect(!compact.stdout.contains("rotations/day"))
    #expect(!compact.stdout.contains("Per-unit means with 95% bootstrap CIs"), "CIs only with --verbose")
    #expect(compact.stdout.split(separator: "\n").count < 40)
    #expect(compact.stdout.contains("Warning: fewer than 10 units for tiny (n = "), "\(compact.stdout)")
    let verbose = try CLI.run(base + ["--out", "b", "--verbose"], in: work)
    #expect(verbose.status == 0)
    #expect(verbose.stdout.contains("each rate pooled over the run's visits"))
    #expect(verbose.stdout.contains("Per-unit means with 95% bootstrap CIs (summary.csv)"))
    #expect(verbose.stdout.contains("so these differ from the pooled rates above"))
    #expect(verbose.stdout.contains("Δ = this strategy's per-unit mean minus mfu's on the same units"))
    #expect(verbose.stdout.contains("| rotations_per_day |") || verbose.stdout.contains("rotations_per_day (95% CI)"))
    #expect(!verbose.stdout.contains("rotations/day"))
    #expect(try CLI.run(["report", "b", "--verbose"], in: work).stdout == verbose.stdout)
    #expect(try CLI.run(["report", "a"], in: work).stdout == compact.stdout)
  }

  @Test func replayAndSimulateTablesHaveACaptionAndOneNamePerMetric() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let r = try CLI.run(["simulate", "--scenario", Self.tiny, "--days", "2", "--strategy", "mfu,oracle"], in: work)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix("Per run (source, strategy, replicate): rates pooled over the run's visits"))
    #expect(r.stdout.contains("| rotations_per_day |"))
    #expect(!r.stdout.contains("rotations/day"))
  }

  @Test func relevanceOutputCarriesLocalTimeWithItsOffset() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let path = try CLI.write(
      #"{"instances": [{"id": "a", "entries": [{"date": "2026-01-05T09:00:00Z", "relevance": {"score": 1}}]}]}"#,
      to: "t.json", in: work)
    let winter = try CLI.run(
      ["relevance", path, "--from", "2026-01-05T09:00:00Z", "--to", "2026-01-05T09:00:00Z", "--step", "60",
       "--timezone", "Europe/Berlin"], in: work)
    #expect(winter.status == 0, "\(winter.stderr)")
    #expect(winter.stdout == "time,instance,state,score,percentile,local_time\n2026-01-05T09:00:00Z,a,active,1,0.5,2026-01-05T10:00:00+01:00\n")
    let summer = try CLI.run(
      ["relevance", path, "--from", "2026-07-05T09:00:00Z", "--to", "2026-07-05T09:00:00Z", "--step", "60",
       "--timezone", "Europe/Berlin"], in: work)
    #expect(summer.stdout.hasSuffix(",2026-07-05T11:00:00+02:00\n"), "\(summer.stdout)")
  }

  @Test func explainAndTraceCarryLocalTimeInTheSourcesZone() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let sim = try CLI.run(
      ["simulate", "--scenario", Self.tiny, "--days", "1", "--strategy", "mfu", "--explain", "--out", "s", "--quiet"],
      in: work)
    #expect(sim.status == 0, "\(sim.stderr)")
    let explain = try String(contentsOf: work.appendingPathComponent("s/explain.csv"), encoding: .utf8)
      .split(separator: "\n")
    #expect(explain[0].hasSuffix(",top,local_time"))
    let row = try #require(explain.dropFirst().first)
    #expect(row.hasSuffix("+01:00") || row.hasSuffix("+02:00"), "Europe/Berlin: \(row)")
    let batch = try CLI.run(
      ["batch", "--log", "Datasets/logs/commuter/donations.csv", "--timezone", "Europe/Berlin", "--strategy", "mfu",
       "--replicates", "1", "--trace", "--out", work.appendingPathComponent("t").path, "--quiet"], in: root)
    #expect(batch.status == 0, "\(batch.stderr)")
    let trace = try String(contentsOf: work.appendingPathComponent("t/trace.csv"), encoding: .utf8)
      .split(separator: "\n")
    #expect(trace[0].hasSuffix(",shown_state,local_time"))
    let utc = try #require(trace[1].split(separator: ",", omittingEmptySubsequences: false).dropFirst(2).first)
    let local = try #require(trace[1].split(separator: ",").last)
    #expect(local.hasSuffix("+01:00") || local.hasSuffix("+02:00"), "\(trace[1])")
    #expect(utc.hasSuffix("Z") && utc.prefix(10) <= local.prefix(10))
  }
}

/// Issue 19 item 7: one definition of a relevant moment, the same default everywhere.
@Suite("Relevance defaults")
struct RelevanceDefaultsTests {
  /// The README's `simulate ... sports-fan.json ... --explain`: every strategy has a
  /// relevance_honoured value (it was `–` for all at the old command-line default 0.8).
  @Test func theReadmeSportsFanExampleCountsConstantScoreWidgets() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.contains("$B simulate --scenario Datasets/scenarios/sports-fan.json --strategy mfu,relevance,smart-rotate,oracle --explain"))
    let r = try CLI.run(
      ["simulate", "--scenario", "Datasets/scenarios/sports-fan.json", "--strategy", "mfu,relevance,smart-rotate,oracle",
       "--explain", "--out", work.appendingPathComponent("s").path], in: root)
    #expect(r.status == 0, "\(r.stderr)")
    let rows = r.stdout.split(separator: "\n").filter { $0.hasPrefix("| sports-fan") }
    #expect(rows.count == 4)
    for row in rows {
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      #expect(cells.count == 9 && cells[7] != "–", "\(row)")
    }
  }

  @Test func commandsAndConfigsShareTheDefault() throws {
    #expect(try CLI.run(["replay", "--help"]).stdout.contains("(default: 0.5)"))
    #expect(try CLI.run(["simulate", "--help"]).stdout.contains("(default: 0.5)"))
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let r = try CLI.run(
      ["batch", "--scenario", HonestOutputTests.tiny, "--days", "2", "--strategy", "mfu", "--replicates", "1",
       "--out", "o", "--quiet"], in: work)
    #expect(r.status == 0, "\(r.stderr)")
    let manifest = try String(contentsOf: work.appendingPathComponent("o/manifest.json"), encoding: .utf8)
    #expect(manifest.contains("\"relevanceThreshold\": 0.5"), "a config without engine")
  }
}
