import Foundation
import Testing

/// Issue 19 item 5: output folders never mix runs, every output path is checked before
/// anything is written, and the messages name the path and the cause in words.
@Suite("Output folders never mix runs")
struct OutputFolderTests {
  static let tiny = InterruptedBatchTests.scenarioPath
  static let tinyLog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Datasets/logs/tiny.csv").path

  static func names(_ folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  /// A small batch config (one source, two strategies, one replicate).
  static func config(in work: URL) throws -> String {
    try CLI.write(
      """
      {"name": "small", "seed": 3, "replicates": 1,
       "sources": [{"name": "world", "scenario": "\(tiny)", "days": 3}],
       "strategies": ["mfu", "mru"]}
      """, to: "small.json", in: work)
  }

  @Test func aFileWhereAFolderShouldBeIsNamedInWords() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    try CLI.write("x\n", to: "afile", in: work)
    for arguments in [
      ["simulate", "--scenario", Self.tiny, "--days", "2", "--out", "afile/sub"],
      ["replay", "--log", Self.tinyLog, "--out", "afile/sub"],
      ["batch", try Self.config(in: work), "--out", "afile/sub"],
    ] {
      let result = try CLI.run(arguments, in: work)
      #expect(result.status == 73, "\(arguments)")
      #expect(
        result.stderr.contains("afile/sub: cannot write: afile is a regular file, not a folder"),
        "\(result.stderr)")
      #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("error 512"))
    }
    #expect(Self.names(work) == ["afile", "small.json"])
  }

  @Test func simulateWithABadEmitLogPathWritesNothing() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    try CLI.write("x\n", to: "afile", in: work)
    for bad in ["afile", "afile/world"] {
      let result = try CLI.run(
        ["simulate", "--scenario", Self.tiny, "--days", "2", "--out", "okdir", "--emit-log", bad], in: work)
      #expect(result.status == 73, "\(result.stderr)")
      #expect(result.stderr.hasPrefix("\(bad): cannot write: "), "\(result.stderr)")
      #expect(Self.names(work) == ["afile"], "nothing written, not even okdir/")
    }
  }

  @Test func anInputInsideTheOutputFolderIsRefused() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let emitted = try CLI.run(
      ["simulate", "--scenario", Self.tiny, "--days", "2", "--strategy", "mfu", "--out", "sim",
       "--emit-log", "world", "--quiet"], in: work)
    #expect(emitted.status == 0, "\(emitted.stderr)")
    let before = Self.names(work.appendingPathComponent("world"))
    let result = try CLI.run(
      ["replay", "--log", "world/donations.csv", "--out", "world", "--strategy", "mfu", "--overwrite"], in: work)
    #expect(result.status == 73)
    #expect(result.stderr.contains("world: cannot write: the input world/donations.csv is inside it"), "\(result.stderr)")
    #expect(Self.names(work.appendingPathComponent("world")) == before)
  }

  @Test func anotherRunsFolderIsRefusedUnlessOverwriteWhichRemovesOnlyItsFiles() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let out = work.appendingPathComponent("out")
    let first = try CLI.run(
      ["simulate", "--scenario", Self.tiny, "--days", "2", "--strategy", "mfu", "--explain", "--out", "out", "--quiet"],
      in: work)
    #expect(first.status == 0, "\(first.stderr)")
    try CLI.write("mine\n", to: "out/notes.txt", in: work)
    // The same command again replaces its own set.
    let again = try CLI.run(
      ["simulate", "--scenario", Self.tiny, "--days", "2", "--strategy", "mfu", "--explain", "--out", "out", "--quiet",
       "--jobs", "1"], in: work)
    #expect(again.status == 0, "\(again.stderr)")
    // Another run is refused, naming the folder, the run and the way out.
    let other = ["simulate", "--scenario", Self.tiny, "--days", "2", "--strategy", "mru", "--out", "out", "--quiet"]
    let refused = try CLI.run(other, in: work)
    #expect(refused.status == 73)
    #expect(refused.stderr.contains("out: cannot write: it holds the reports of another run (smartstack simulate"), "\(refused.stderr)")
    #expect(refused.stderr.contains("give --overwrite"))
    #expect(Self.names(out) == ["daily.csv", "explain.csv", "manifest.json", "notes.txt", "runs.csv"])
    // --overwrite: the old explain.csv goes, the user's file stays.
    let replaced = try CLI.run(other + ["--overwrite"], in: work)
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(Self.names(out) == ["daily.csv", "manifest.json", "notes.txt", "runs.csv"])
    #expect(try CLI.run(["report", "out"], in: work).status == 0, "a simulate folder has a manifest")
  }

  @Test func aReportFileNoManifestListsIsNeverReplaced() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    try CLI.write("my,own\n1,2\n", to: "out/runs.csv", in: work)
    let result = try CLI.run(
      ["replay", "--log", Self.tinyLog, "--out", "out", "--overwrite"], in: work)
    #expect(result.status == 73)
    #expect(result.stderr.contains("out/runs.csv: cannot write: no manifest.json in out lists it"), "\(result.stderr)")
    #expect(try String(contentsOf: work.appendingPathComponent("out/runs.csv"), encoding: .utf8) == "my,own\n1,2\n")
  }

  @Test func aBatchWithoutTraceAfterOneWithTraceLeavesNoOldTrace() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let config = try Self.config(in: work)
    let out = work.appendingPathComponent("out")
    let traced = try CLI.run(["batch", config, "--trace", "--out", "out", "--quiet"], in: work)
    #expect(traced.status == 0, "\(traced.stderr)")
    #expect(Self.names(out).contains("trace.csv"))
    let refused = try CLI.run(["batch", config, "--out", "out", "--quiet"], in: work)
    #expect(refused.status == 73, "another experiment (no trace) is refused")
    #expect(refused.stderr.contains("--resume"))
    #expect(Self.names(out).contains("trace.csv"))
    let replaced = try CLI.run(["batch", config, "--out", "out", "--quiet", "--overwrite"], in: work)
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(!Self.names(out).contains("trace.csv"))
    let same = try CLI.run(["batch", config, "--out", "out", "--quiet"], in: work)
    #expect(same.status == 0, "the same experiment again: \(same.stderr)")
    #expect(try CLI.run(["report", "out"], in: work).status == 0)
  }
}
