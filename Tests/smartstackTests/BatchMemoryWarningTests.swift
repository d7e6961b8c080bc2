import Foundation
import SmartStackKit
import Testing

@testable import SmartStackCommands

private let datasets = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Datasets")

/// A traced `batch` holds a replay plan for every log source point at once; before it
/// loads them it warns when they are likely more than the process may use (`MemoryLimit`).
/// Without the trace such points are replayed in blocks (`SpilledLogSourceTests`,
/// `BatchMaxMemoryTests`).
@Suite("Batch memory warning: a traced experiment whose log plans will not fit is told so before it loads")
struct BatchMemoryWarningTests {
  @Test func theEstimateIsHalfOfEachLogPointsDonationAndVisitLogs() throws {
    let commuter = datasets.appendingPathComponent("logs/commuter").path
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Two points read the same files (each holds its own plan); a scenario point and the
    // stack file count nothing.
    let config = try CLI.write(
      """
      {"sources": [
        {"name": "a", "log": "\(commuter)/donations.csv", "visits": "\(commuter)/visits.csv", "stack": "\(commuter)/stack.json"},
        {"name": "b", "log": "\(commuter)/donations.csv", "visits": "\(commuter)/visits.csv", "horizon": 60},
        {"name": "c", "scenario": "\(datasets.path)/scenarios/commuter.json"}]}
      """, to: "exp.json", in: folder)
    let design = try ExperimentConfig.read(path: config)
    let size = { (name: String) in try FileManager.default.attributesOfItem(atPath: "\(commuter)/\(name)")[.size] as! Int }
    let pair = try size("donations.csv") + size("visits.csv")
    #expect(SourceLoader.estimatedPlanBytes(design) == 2 * (pair / 2))
  }

  @Test func theWarningComesOnlyWhenThePlansAreOverTheLimit() throws {
    #expect(BatchCommand.memoryWarning(estimate: 1_000_000, limit: 2_000_000) == nil)
    #expect(BatchCommand.memoryWarning(estimate: 2_000_000, limit: 2_000_000) == nil)
    #expect(BatchCommand.memoryWarning(estimate: 0, limit: 0) == nil)
    let warning = try #require(BatchCommand.memoryWarning(estimate: 3_400_000_000, limit: 2_147_483_648))
    #expect(
      warning.hasPrefix("warning: with trace.csv, batch holds a replay plan for every log source point in memory, about 3400 MB here"))
    #expect(warning.contains("more than the 2147 MB this process may use"))
    #expect(warning.contains("Without the trace, such logs are replayed in blocks of people"))
  }
}
