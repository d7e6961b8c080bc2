import Foundation
import Testing

/// `replay --scores FILE --strategy scores` end to end: the bundled score file runs, the
/// stack's rules apply to it, and `scores` without a file is a usage error.
@Suite("replay --scores")
struct ScoresCommandTests {
  static func rotations(_ extra: [String]) throws -> (status: Int32, rotations: Int?, stderr: String) {
    let dir = try CLI.temporaryFolder()
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let r = try CLI.run(
      ["replay", "--log", root.appendingPathComponent("Datasets/logs/tiny.csv").path, "--strategy", "scores", "--out", "out", "--quiet"]
        + extra.map { $0 == "SCORES" ? root.appendingPathComponent("Datasets/scores/tiny.csv").path : $0 }, in: dir)
    guard r.status == 0 else { return (r.status, nil, r.stderr) }
    let lines = try String(contentsOf: dir.appendingPathComponent("out/runs.csv"), encoding: .utf8).split(separator: "\n")
    let header = lines[0].split(separator: ",").map(String.init)
    let row = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    return (r.status, Int(row[header.firstIndex(of: "rotations")!]), r.stderr)
  }

  @Test func theStackRulesApplyToOutsideScores() throws {
    let free = try Self.rotations(["--scores", "SCORES"])
    #expect(free.status == 0, "\(free.stderr)")
    // The scores change during the log, so a free stack rotates...
    #expect((free.rotations ?? 0) > 0)
    // ...but with Smart Rotate off the widget shown first stays.
    let off = try Self.rotations(["--scores", "SCORES", "--smart-rotate", "off"])
    #expect(off.status == 0 && off.rotations == 0, "\(off.stderr)")
  }

  @Test func scoresWithoutAFileIsAUsageError() throws {
    let r = try Self.rotations([])
    #expect(r.status == 64 && r.stderr.contains("give --scores FILE"), "\(r.stderr)")
    // Commands that give strategies no scores refuse it rather than rank everything unscored.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let dir = try CLI.temporaryFolder()
    let simulate = try CLI.run(
      ["simulate", "--scenario", root.appendingPathComponent("Datasets/scenarios/tiny.json").path, "--days", "1",
       "--strategy", "scores", "--out", "s", "--quiet"], in: dir)
    #expect(simulate.status == 64 && simulate.stderr.contains("only replay and batch read"), "\(simulate.stderr)")
    let evaluate = try CLI.run(
      ["evaluate", "--exposures", root.appendingPathComponent("Datasets/exposures/field-study.csv").path,
       "--strategy", "scores", "--timezone", "Europe/Berlin", "--out", "e"], in: dir)
    #expect(evaluate.status == 64 && evaluate.stderr.contains("only replay and batch read"), "\(evaluate.stderr)")
  }

  @Test func batchRunsScoresFromTheQuickPathAndRefusesSourcesWithout() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let log = root.appendingPathComponent("Datasets/logs/tiny.csv").path
    let scores = root.appendingPathComponent("Datasets/scores/tiny.csv").path
    let dir = try CLI.temporaryFolder()
    let ok = try CLI.run(["batch", "--log", log, "--scores", scores, "--strategy", "scores,mfu", "--out", "out", "--quiet"], in: dir)
    #expect(ok.status == 0, "\(ok.stderr)")
    let runs = try String(contentsOf: dir.appendingPathComponent("out/runs.csv"), encoding: .utf8)
    #expect(runs.contains("tiny|scores|0,tiny,scores,"))
    let without = try CLI.run(["batch", "--log", log, "--strategy", "scores,mfu", "--out", "out2", "--quiet"], in: dir)
    #expect(without.status == 64 && without.stderr.contains("source 'tiny' has none"), "\(without.stderr)")
    // The score file is checked against the log, located in the file.
    try CLI.write("user,timestamp,kind,score\nzed,2026-03-02T00:00:00Z,Music,1\n", to: "bad.csv", in: dir)
    let bad = try CLI.run(["batch", "--log", log, "--scores", "bad.csv", "--strategy", "scores", "--out", "out3", "--quiet"], in: dir)
    #expect(bad.status == 65 && bad.stderr.contains("bad.csv:2:1: unknown user 'zed'"), "\(bad.stderr)")
  }
}
