import Foundation
import Testing

/// `--emit-exposures` is refused at the start, with the path named, when it leads (as
/// given, or through a symbolic link) to an input, a folder holding an input, a report
/// set's folder or its `.journal/`, or a file of the set the same run writes; the inputs
/// are then byte-identical with the same modification time (issue 30, item 12).
@Suite("An emit path never names an input, a report set or the run's own set")
struct EmitPathRefusalTests {
  /// Bytes and modification time of a file.
  struct Fingerprint: Equatable {
    var bytes: Data?
    var modified: Date?
    init(_ path: String) {
      bytes = FileManager.default.contents(atPath: path)
      modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
  }

  /// Makes each symbolic link `name` → `target` in `work`.
  static func link(_ links: [String: String], in work: URL) throws {
    for (name, target) in links {
      try FileManager.default.createSymbolicLink(
        atPath: work.appendingPathComponent(name).path, withDestinationPath: target)
    }
  }

  @Test("simulate --emit-exposures: the scenario through a link, a link's companion, and its own --out and --emit-log files")
  func simulateRefusals() throws {
    let work = try ExposureFolderClaimTests.work()
    let scenario = work.appendingPathComponent("sc.json").path
    let before = Fingerprint(scenario)
    let fm = FileManager.default
    try Self.link(["d": ".", "link.csv": "sc.json", "e.sidecar.json": "sc.json"], in: work)
    for (path, fragment) in [
      ("sc.json", "would overwrite the input"), ("d/sc.json", "would overwrite the input"),
      ("link.csv", "link.csv: cannot write"), ("e.csv", "e.sidecar.json: cannot write"),
      ("s/runs.csv", "s/runs.csv: cannot write: --emit-exposures names runs.csv in s"),
      ("d/s/manifest.json", "names manifest.json in s"), ("s/.lock", "names .lock in s"),
      ("em/visits.csv", "names visits.csv in em"),
    ] {
      let r = try CLI.run(
        ["simulate", "--scenario", "sc.json", "--strategy", "mfu", "--out", "s", "--emit-log", "em",
         "--emit-exposures", path, "--quiet"], in: work)
      #expect(r.status != 0, "\(path)")
      #expect(r.stderr.contains(fragment), "\(path): \(r.stderr)")
      #expect(!fm.fileExists(atPath: work.appendingPathComponent("s").path), "\(path)")
      #expect(!fm.fileExists(atPath: work.appendingPathComponent("em").path), "\(path)")
    }
    #expect(Fingerprint(scenario) == before)
    // A name of its own beside the reports is the user's choice.
    let beside = try CLI.run(
      ["simulate", "--scenario", "sc.json", "--strategy", "mfu", "--out", "s", "--emit-exposures", "s/ex.csv", "--quiet"], in: work)
    #expect(beside.status == 0, "\(beside.stderr)")
    #expect(Fingerprint(scenario) == before)
  }

  @Test("batch --emit-exposures and simulate --emit-log: an input's folder through a link, a set's .journal through a link, its own --out/.journal")
  func batchRefusals() throws {
    let work = try ExposureFolderClaimTests.work()
    let fm = FileManager.default
    let inputs = ["sc.json", "exp.json"].map { work.appendingPathComponent($0).path }
    let before = inputs.map(Fingerprint.init)
    let log = ExposureFolderClaimTests.repository.appendingPathComponent("Datasets/logs/tiny.csv").path
    #expect(try CLI.run(["replay", "--log", log, "--strategy", "mfu", "--out", "t2", "--quiet"], in: work).status == 0)
    try fm.createDirectory(at: work.appendingPathComponent("t2/.journal"), withIntermediateDirectories: false)
    let set = try CLI.files(in: work.appendingPathComponent("t2"))
    try Self.link(["here": ".", "j": "t2/.journal", "r": "t2"], in: work)
    for (folder, fragment) in [
      ("here", "here: cannot write: the input"), ("j", "j: cannot write"),
      ("r", "r: cannot write"), ("out/.journal", "out/.journal: cannot write: it is inside .journal/"),
      ("out", "is the batch's own output folder"),
    ] {
      let r = try CLI.run(["batch", "exp.json", "--out", "out", "--emit-exposures", folder, "--quiet"], in: work)
      #expect(r.status != 0, "\(folder)")
      #expect(r.stderr.contains(fragment), "\(folder): \(r.stderr)")
      #expect(!fm.fileExists(atPath: work.appendingPathComponent("out").path), "\(folder)")
    }
    for folder in ["j", "t2", "t2/.journal"] {
      let r = try CLI.run(["simulate", "--scenario", "sc.json", "--strategy", "mfu", "--out", "s", "--emit-log", folder, "--quiet"], in: work)
      #expect(r.status == 73, "simulate --emit-log \(folder): \(r.stderr)")
      #expect(r.stderr.contains("\(folder): cannot write"), "\(folder): \(r.stderr)")
    }
    #expect(inputs.map(Fingerprint.init) == before)
    #expect(try CLI.files(in: work.appendingPathComponent("t2")) == set)
  }
}
