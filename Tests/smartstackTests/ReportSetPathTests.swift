import Foundation
import Testing

/// Commands that write one file refuse a path that belongs to a report set, and
/// `--emit-exposures` refuses inputs and report sets and publishes with the batch's reports
/// all or nothing (issue 30, items 12, 13 and 14).
@Suite("A single-file output never replaces a file of a report set")
struct ReportSetPathTests {
  static var repository: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  @Test("import --out/--visits-out, relevance --out and .journal paths of a set are refused")
  func setFilesRefused() throws {
    let work = try CLI.temporaryFolder()
    let log = Self.repository.appendingPathComponent("Datasets/logs/tiny.csv").path
    let replay = try CLI.run(["replay", "--log", log, "--strategy", "mfu", "--out", "t2", "--quiet"], in: work)
    #expect(replay.status == 0, "\(replay.stderr)")
    let before = try CLI.files(in: work.appendingPathComponent("t2"))
    let lsapp = Self.repository.appendingPathComponent("Tests/Fixtures/importers/lsapp.tsv").path
    for arguments in [
      ["--out", "t2/runs.csv"], ["--out", "t2/manifest.json"], ["--out", "ok.csv", "--visits-out", "t2/daily.csv"],
      ["--out", "t2/.journal/cells.jsonl"], ["--out", "./t2/../t2/runs.csv"],
    ] {
      let r = try CLI.run(["import", "lsapp", lsapp] + arguments, in: work)
      #expect(r.status != 0, "\(arguments)")
      #expect(r.stderr.contains("report set"), "\(arguments): \(r.stderr)")
    }
    let timeline = try CLI.write(
      #"{"instances": [{"id": "a", "entries": [{"date": "2026-01-05", "relevance": {"score": 1}}]}]}"#,
      to: "t.json", in: work)
    let relevance = try CLI.run(
      ["relevance", timeline, "--from", "2026-01-05", "--to", "2026-01-05", "--step", "1", "--out", "t2/runs.csv"],
      in: work)
    #expect(relevance.status != 0)
    #expect(relevance.stderr.contains("report set"), "\(relevance.stderr)")
    #expect(try CLI.files(in: work.appendingPathComponent("t2")) == before)
    #expect(try CLI.run(["report", "t2"], in: work).status == 0)
    // A file of another name beside the set is the user's to write.
    #expect(try CLI.run(["import", "lsapp", lsapp, "--out", "t2/lsapp.csv"], in: work).status == 0)
  }

  @Test("simulate --emit-exposures on its scenario, and batch --emit-exposures into a set or an input folder")
  func emitExposuresRefusesInputsAndSets() throws {
    let work = try CLI.temporaryFolder()
    let scenario = Self.repository.appendingPathComponent("Datasets/scenarios/tiny.json").path
    let copy = work.appendingPathComponent("sc.json").path
    try FileManager.default.copyItem(atPath: scenario, toPath: copy)
    let before = FileManager.default.contents(atPath: copy)
    let simulate = try CLI.run(
      ["simulate", "--scenario", "sc.json", "--strategy", "mfu", "--emit-exposures", "sc.json", "--quiet"], in: work)
    #expect(simulate.status != 0)
    #expect(simulate.stderr.contains("would overwrite the input"), "\(simulate.stderr)")
    #expect(FileManager.default.contents(atPath: copy) == before)
    try CLI.write(
      #"{"name": "e", "seed": 1, "replicates": 1, "sources": [{"name": "w", "scenario": "sc.json", "days": 3}], "strategies": ["mfu"]}"#,
      to: "exp.json", in: work)
    let log = Self.repository.appendingPathComponent("Datasets/logs/tiny.csv").path
    #expect(try CLI.run(["replay", "--log", log, "--strategy", "mfu", "--out", "t2", "--quiet"], in: work).status == 0)
    for folder in [".", "t2", "t2/.journal"] {
      let r = try CLI.run(["batch", "exp.json", "--out", "out", "--emit-exposures", folder, "--quiet"], in: work)
      #expect(r.status != 0, "\(folder)")
      #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("out/runs.csv").path), "\(folder)")
    }    // A full disk while writing an exposure log: neither the reports nor the logs appear.
    let full = try CLI.run(
      ["batch", "exp.json", "--out", "out", "--emit-exposures", "exp", "--quiet"], in: work,
      environment: ["SMARTSTACK_FAIL_WRITE": "exposures-w-mfu.csv"])
    #expect(full.status != 0)
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("out/runs.csv").path))
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("exp/exposures-w-mfu.csv").path))
    let whole = try CLI.run(["batch", "exp.json", "--out", "out", "--emit-exposures", "exp", "--quiet"], in: work)
    #expect(whole.status == 0, "\(whole.stderr)")
    #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("exp/exposures-w-mfu.csv").path))
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("exp/.reports-staging").path))
  }
}
