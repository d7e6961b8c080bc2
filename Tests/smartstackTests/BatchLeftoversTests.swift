import Foundation
import Testing

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// Issue 29, item 14: `batch --init` writes a config that runs where it is written.
@Suite("batch --init writes paths that work wherever the config is written and run")
struct BatchInitPathsTests {
  @Test func aConfigWrittenOutsideTheRepositoryNamesFilesThatExist() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    try FileManager.default.createDirectory(
      at: work.appendingPathComponent("study"), withIntermediateDirectories: true)
    let r = try CLI.run(["batch", "--init", "study/exp.json"], in: work)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!r.stderr.contains("warning"), "\(r.stderr)")
    let folder = work.appendingPathComponent("study")
    let text = try String(contentsOf: folder.appendingPathComponent("exp.json"), encoding: .utf8)
    for key in [#""log": ""#, #""scenario": ""#] {
      let path = try #require(text.components(separatedBy: key).dropFirst().first?.components(separatedBy: "\"").first)
      #expect(
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path),
        "\(path) from \(folder.path)")
    }
  }
}

/// Issue 29, item 15: a finished run keeps no second copy of its trace.
@Suite("A finished traced run keeps what --resume and merge need, not a copy of its trace")
struct FinishedRunLeftoversTests {
  @Test func aFinishedRunRemovesItsTracePartsAndResumeStillGivesTheSameTrace() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let out = work.appendingPathComponent("t")
    let arguments = [
      "batch", "--log", "Datasets/logs/tiny.csv", "--strategy", "mfu,mru", "--replicates", "1", "--trace",
      "--out", out.path, "--quiet",
    ]
    let first = try CLI.run(arguments, in: root)
    #expect(first.status == 0, "\(first.stderr)")
    let journal = out.appendingPathComponent(".journal")
    let left = try FileManager.default.contentsOfDirectory(atPath: journal.path).sorted()
    #expect(left == ["cells.jsonl"])
    let trace = try Data(contentsOf: out.appendingPathComponent("trace.csv"))
    let resumed = try CLI.run(arguments + ["--resume"], in: root)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(try Data(contentsOf: out.appendingPathComponent("trace.csv")) == trace)
  }

  @Test func aShardKeepsItsTracePartsForMerge() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let out = work.appendingPathComponent("s1")
    let r = try CLI.run(
      ["batch", "--log", "Datasets/logs/tiny.csv", "--strategy", "mfu,mru", "--replicates", "1", "--trace",
       "--shard", "1/2", "--out", out.path, "--quiet"], in: root)
    #expect(r.status == 0, "\(r.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent(".journal").path)
    #expect(left.contains { $0.hasPrefix("trace-") })
  }
}
