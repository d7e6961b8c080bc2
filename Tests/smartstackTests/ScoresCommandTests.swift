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
  }
}
