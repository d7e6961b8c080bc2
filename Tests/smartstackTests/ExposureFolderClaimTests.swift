import Foundation
import Testing

/// `batch --emit-exposures FOLDER` claims its folder before any work and publishes it with a
/// manifest, as a report folder is (issue 30, item 12): a second run with another seed is
/// refused, `--overwrite` replaces exactly the first run's files, and a log no manifest
/// lists is never replaced.
@Suite("An exposure folder is claimed and published like a report folder")
struct ExposureFolderClaimTests {
  static var repository: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// A folder with the tiny scenario as `sc.json` and a one-source experiment `exp.json`.
  static func work() throws -> URL {
    let work = try CLI.temporaryFolder()
    try FileManager.default.copyItem(
      atPath: repository.appendingPathComponent("Datasets/scenarios/tiny.json").path,
      toPath: work.appendingPathComponent("sc.json").path)
    try CLI.write(
      #"{"name": "e", "seed": 1, "replicates": 1, "sources": [{"name": "w", "scenario": "sc.json", "days": 3}], "strategies": ["mfu"]}"#,
      to: "exp.json", in: work)
    return work
  }

  @Test("two batches with different seeds into one folder: the second is refused, or replaces the first with --overwrite")
  func anotherRunsFolder() throws {
    let work = try Self.work()
    let x = work.appendingPathComponent("x")
    let first = try CLI.run(["batch", "exp.json", "--out", "a", "--emit-exposures", "x", "--quiet"], in: work)
    #expect(first.status == 0, "\(first.stderr)")
    let written = try CLI.files(in: x)
    #expect(written.keys.sorted() == [
      "exposures-w-mfu.csv", "exposures-w-mfu.sidecar.json", "exposures-w-mfu.timelines.json", "manifest.json",
    ])
    let manifest = try String(contentsOf: x.appendingPathComponent("manifest.json"), encoding: .utf8)
    #expect(manifest.contains(#""run": "exposures""#))
    #expect(manifest.contains(#""seed": 1"#))
    #expect(manifest.contains(#""name": "exposures-w-mfu.csv""#))

    let second = try CLI.run(["batch", "exp.json", "--out", "b", "--seed", "2", "--emit-exposures", "x", "--quiet"], in: work)
    #expect(second.status == 73)
    #expect(second.stderr.contains("x: cannot write: it holds the exposure logs of another run"), "\(second.stderr)")
    #expect(second.stderr.contains("--overwrite"))
    #expect(try CLI.files(in: x) == written)
    // Refused at the start: the batch did not run.
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("b").path))

    // Another run's --out is refused before any log is made.
    let out = try CLI.run(["batch", "exp.json", "--out", "a", "--seed", "2", "--emit-exposures", "y", "--quiet"], in: work)
    #expect(out.status == 73)
    #expect(out.stderr.contains("a: cannot write: it holds the reports of another run"), "\(out.stderr)")
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("y").path))

    // The same run again replaces its own logs.
    let again = try CLI.run(["batch", "exp.json", "--out", "a", "--emit-exposures", "x", "--quiet"], in: work)
    #expect(again.status == 0, "\(again.stderr)")

    let replaced = try CLI.run(
      ["batch", "exp.json", "--out", "b", "--seed", "2", "--strategy", "mru", "--baseline", "mru",
       "--emit-exposures", "x", "--overwrite", "--quiet"], in: work)
    #expect(replaced.status == 0, "\(replaced.stderr)")
    let now = try CLI.files(in: x)
    #expect(now.keys.sorted() == [
      "exposures-w-mru.csv", "exposures-w-mru.sidecar.json", "exposures-w-mru.timelines.json", "manifest.json",
    ])
    #expect(try String(contentsOf: x.appendingPathComponent("manifest.json"), encoding: .utf8).contains(#""seed": 2"#))
  }

  @Test("an exposure log no manifest lists is never replaced; other files stay")
  func strangersLog() throws {
    let work = try Self.work()
    try CLI.write("mine\n", to: "x/exposures-w-mfu.csv", in: work)
    try CLI.write("notes\n", to: "x/notes.txt", in: work)
    for extra in [[], ["--overwrite"]] {
      let r = try CLI.run(["batch", "exp.json", "--out", "a", "--emit-exposures", "x", "--quiet"] + extra, in: work)
      #expect(r.status == 73, "\(extra)")
      #expect(r.stderr.contains("x/exposures-w-mfu.csv: cannot write: no manifest.json in x lists it"), "\(r.stderr)")
    }
    #expect(try CLI.files(in: work.appendingPathComponent("x")) == ["exposures-w-mfu.csv": Data("mine\n".utf8), "notes.txt": Data("notes\n".utf8)])
    try FileManager.default.removeItem(at: work.appendingPathComponent("x/exposures-w-mfu.csv"))
    let r = try CLI.run(["batch", "exp.json", "--out", "a", "--emit-exposures", "x", "--quiet"], in: work)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(FileManager.default.contents(atPath: work.appendingPathComponent("x/notes.txt").path) == Data("notes\n".utf8))
  }

  @Test("an exposure set's files are read, never written, by other commands")
  func readNotWritten() throws {
    let work = try Self.work()
    #expect(try CLI.run(["batch", "exp.json", "--out", "a", "--emit-exposures", "x", "--quiet"], in: work).status == 0)
    let before = try CLI.files(in: work.appendingPathComponent("x"))
    let lsapp = Self.repository.appendingPathComponent("Tests/Fixtures/importers/lsapp.tsv").path
    for output in ["x/exposures-w-mfu.csv", "x/manifest.json", "x/exposures-w-mfu.sidecar.json"] {
      let r = try CLI.run(["import", "lsapp", lsapp, "--out", output], in: work)
      #expect(r.status == 73, "\(output)")
      #expect(r.stderr.contains("holds an exposure set"), "\(output): \(r.stderr)")
    }
    let simulate = try CLI.run(
      ["simulate", "--scenario", "sc.json", "--strategy", "mfu", "--out", "s", "--emit-exposures", "x/exposures-w-mfu.csv", "--quiet"],
      in: work)
    #expect(simulate.status == 73)
    #expect(simulate.stderr.contains("holds an exposure set"), "\(simulate.stderr)")
    let reports = try CLI.run(["simulate", "--scenario", "sc.json", "--strategy", "mfu", "--out", "x", "--overwrite", "--quiet"], in: work)
    #expect(reports.status == 73)
    #expect(reports.stderr.contains("it holds the exposure logs of another run"), "\(reports.stderr)")
    #expect(try CLI.files(in: work.appendingPathComponent("x")) == before)
    let report = try CLI.run(["report", "x"], in: work)
    #expect(report.status == 65)
    #expect(report.stderr.contains("x holds exposure logs"), "\(report.stderr)")
    let evaluate = try CLI.run(
      ["evaluate", "--exposures", "x/exposures-w-mfu.csv", "--strategy", "mfu", "--out", "ev", "--quiet"], in: work)
    #expect(evaluate.status == 0, "\(evaluate.stderr)")
    #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("ev/estimates.csv").path))
  }
}
