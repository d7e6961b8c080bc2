import Foundation
import Testing

/// The repository's root folder.
private let root = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite("smartstack fit")
struct FitCommandTests {
  /// `fit LOG --out` writes a scenario that `simulate` runs as is, and the same command
  /// writes the same bytes again.
  @Test func theFittedScenarioRunsInSimulateAndRepeatsByteForByte() throws {
    let folder = try CLI.temporaryFolder()
    let log = root.appendingPathComponent("Datasets/logs/commuter").path
    let fit = try CLI.run(
      ["fit", log, "--timezone", "Europe/Berlin", "--clusters", "2", "--seed", "5", "--out", "a.json"], in: folder)
    #expect(fit.status == 0, "\(fit.stderr)")
    try CLI.run(["fit", log, "--timezone", "Europe/Berlin", "--clusters", "2", "--seed", "5", "--out", "b.json"], in: folder)
    let a = try Data(contentsOf: folder.appendingPathComponent("a.json"))
    #expect(a == (try Data(contentsOf: folder.appendingPathComponent("b.json"))))
    let simulate = try CLI.run(
      ["simulate", "--scenario", "a.json", "--days", "1", "--strategy", "mfu", "--out", "sim", "--quiet"], in: folder)
    #expect(simulate.status == 0, "\(simulate.stderr)")
  }

  /// `fit --report` writes fit-report.csv with the six distributions, a hit-rate row per
  /// strategy, the two strategy orders and the live hit rates, beside
  /// fit-distributions.csv and the scenario it simulated.
  @Test func theReportComparesEveryDistributionAndTheStrategyOrders() throws {
    let folder = try CLI.temporaryFolder()
    let log = root.appendingPathComponent("Datasets/logs/tiny.csv").path
    let result = try CLI.run(["fit", log, "--report", "report", "--strategy", "mfu,mru", "--quiet"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let csv = try String(contentsOf: folder.appendingPathComponent("report/fit-report.csv"), encoding: .utf8)
    let statistics = csv.split(separator: "\n").dropFirst().map { String($0.split(separator: ",").first!) }
    #expect(
      statistics == [
        "visits_per_day", "donations_by_hour_of_week", "app_shares", "inter_arrival_seconds", "session_seconds",
        "same_app_as_previous", "hit_rate:mfu", "hit_rate:mru", "strategy_order", "live_hit_rate:mfu",
        "live_hit_rate:mru",
      ])
    #expect(csv.hasPrefix("statistic,distance,log_count,log_summary,sim_count,sim_summary,value,tolerance,within\n"))
    for name in ["scenario.json", "fit-distributions.csv", "manifest.json"] {
      #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("report/\(name)").path))
    }
  }

  /// A broken log row is reported at its line and column, and nothing is written.
  @Test func aBrokenLogIsReportedWhereItIsBroken() throws {
    let folder = try CLI.temporaryFolder()
    let log = try CLI.write("timestamp,user,kind\n2026-03-02T06:00:00Z,a,News\n2026-03-0X,a,News\n", to: "d.csv", in: folder)
    let result = try CLI.run(["fit", log, "--out", "fitted.json"], in: folder)
    #expect(result.status != 0)
    #expect(result.stderr.contains("d.csv:3:"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("fitted.json").path))
  }

  /// --out naming the log itself is refused before anything is read or written.
  @Test func theOutputNeverReplacesTheLog() throws {
    let folder = try CLI.temporaryFolder()
    let text = "timestamp,user,kind\n2026-03-02T06:00:00Z,a,News\n"
    let log = try CLI.write(text, to: "d.csv", in: folder)
    let result = try CLI.run(["fit", log, "--out", log], in: folder)
    #expect(result.status == 64, "\(result.stderr)")
    #expect(try String(contentsOfFile: log, encoding: .utf8) == text)
  }

  /// Neither --out nor --report is a usage error.
  @Test func anOutputIsRequired() throws {
    let result = try CLI.run(["fit", root.appendingPathComponent("Datasets/logs/tiny.csv").path])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--out"))
  }
}
