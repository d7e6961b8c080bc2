import Foundation
import Testing

/// `simulate` and `batch` spread one cell's people over `--jobs` workers on one machine
/// (docs/batch.md, "People in parallel"): the same bytes for every `--jobs`.
@Suite("People in parallel: simulate and batch give the same bytes for every --jobs")
struct PeopleInParallelCommandTests {
  private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test("simulate of one strategy (20 people, cut into blocks from --jobs 2 on) writes the same runs.csv and daily.csv for --jobs 1 to 4")
  func simulate() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scenario = root.appendingPathComponent("Datasets/scenarios/commuter.json").path
    var reports: [[String: Data]] = []
    for jobs in 1...4 {
      let r = try CLI.run(
        ["simulate", "--scenario", scenario, "--strategy", "smart-rotate", "--days", "3", "--jobs", "\(jobs)",
         "--out", "s\(jobs)", "--quiet"], in: folder)
      #expect(r.status == 0, "\(r.stderr)")
      reports.append(try CLI.reports(folder.appendingPathComponent("s\(jobs)")))
    }
    #expect(Set(reports[0].keys) == ["runs.csv", "daily.csv"])
    #expect(reports.allSatisfy { $0 == reports[0] })
  }

  @Test("a batch of one log and one strategy writes the same reports for --jobs 1, 2 and 3, journals whole cells, and resumes")
  func batch() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = root.appendingPathComponent("Datasets/logs/commuter/donations.csv").path
    let file = try CLI.write(
      """
      {"name": "one-log", "seed": 5, "replicates": 2, "baseline": "random", "outputs": {"people": true},
       "sources": [{"name": "commuter", "log": "\(log)", "visits": "sessions:5", "timezone": "Europe/Berlin"}],
       "strategies": ["random"]}

      """, to: "one.json", in: folder)
    func batch(_ jobs: Int, _ out: String, resume: Bool = false) throws -> [String: Data] {
      let r = try CLI.run(
        ["batch", file, "--jobs", "\(jobs)", "--out", out, "--quiet"] + (resume ? ["--resume"] : []), in: folder)
      #expect(r.status == 0, "\(r.stderr)")
      return try CLI.reports(folder.appendingPathComponent(out))
    }
    let one = try batch(1, "j1")
    #expect(Set(one.keys) == ["runs.csv", "daily.csv", "summary.csv", "paired.csv", "people.csv"])
    #expect(try batch(2, "j2") == one)
    #expect(try batch(3, "j3") == one)
    // The journal holds the two whole cells, joined before they were recorded.
    let journal = folder.appendingPathComponent("j3/.journal/cells.jsonl")
    let lines = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 3 && !lines.contains { $0.contains("\"block\":") }, "\(lines.map { $0.prefix(120) })")
    // An interrupted run (the last cell not journaled) resumes into the same reports.
    try Data((lines.dropLast().joined(separator: "\n") + "\n").utf8).write(to: journal)
    #expect(try batch(3, "j3", resume: true) == one)
    let manifest = try String(contentsOf: folder.appendingPathComponent("j3/manifest.json"), encoding: .utf8)
    #expect(manifest.contains("\"from_journal\": 1") || manifest.contains("\"from_journal\":1"), "\(manifest)")
  }
}
