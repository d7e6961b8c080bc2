import Foundation
import Testing

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// Issue 29, item 5: `--replicates N` on a deterministic replay writes N identical rows.
@Suite("batch says when its replicates only repeat one result")
struct IdenticalReplicatesTests {
  @Test func aDeterministicReplayWithReplicatesIsNoted() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let out = work.appendingPathComponent("r").path
    let r = try CLI.run(
      ["batch", "--log", "Datasets/logs/tiny.csv", "--strategy", "mfu,hour-of-day", "--replicates", "3",
       "--out", out], in: root)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stderr.contains(
        "note: tiny: its 3 replicates gave identical rows for every strategy (a replay of a log is the same every time unless a strategy draws at random): runs.csv repeats one result 3 times, not 3 independent ones; use --replicates 1"
      ), "\(r.stderr)")
  }

  @Test func oneReplicateOrAScenarioIsNotNoted() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    for (arguments, name) in [
      (["--log", "Datasets/logs/tiny.csv", "--replicates", "1"], "one"),
      (["--scenario", "Datasets/scenarios/tiny.json", "--replicates", "2"], "scenario"),
    ] {
      let r = try CLI.run(
        ["batch"] + arguments + ["--strategy", "mfu", "--out", work.appendingPathComponent(name).path],
        in: root)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(!r.stderr.contains("identical rows"), "\(arguments)")
    }
  }
}
