import Foundation
import SmartStackKit
import Testing

/// `smartstack import` writes its donation and visit logs as one set (`FileSet`): killed
/// (`SIGKILL` at a seeded point, `SMARTSTACK_CRASH_AT`) while staging, at the commit or
/// between the two renames, it leaves the previous pair (before the commit) or a pair
/// every reader refuses with the command that finishes it (after); the next import
/// finishes or discards it and then writes the bytes of an uninterrupted import.
@Suite("Reliability: an import's outputs are one set")
struct ImportSetTests {
  static var lsapp: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/importers/lsapp.tsv").path
  }

  static func importing(zone: String) -> [String] {
    ["import", "lsapp", lsapp, "--out", "logs/d.csv", "--visits-out", "visits/v.csv", "--timezone", zone]
  }

  static func pair(_ work: URL) -> [Data?] {
    ["logs/d.csv", "visits/v.csv"].map { FileManager.default.contents(atPath: work.appendingPathComponent($0).path) }
  }

  static func hidden(_ work: URL) throws -> [String] {
    try ["logs", "visits"].flatMap { folder in
      try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent(folder).path)
        .filter { $0.hasPrefix(".") }.map { folder + "/" + $0 }
    }.sorted()
  }

  /// Two imports of the same file do not interleave their sets: while one holds a target
  /// (`OutputFilesLock`, here held by the test), another is refused at once (exit 75,
  /// naming the holder's process id), writes nothing and leaves the lock alone; once it is
  /// released, the import runs and leaves no lock file behind.
  @Test func anImportOfAFileAnotherImportIsWritingIsRefused() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    for folder in ["logs", "visits"] {
      try FileManager.default.createDirectory(
        at: work.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    let held = try OutputFilesLock([work.appendingPathComponent("visits/v.csv").path])
    let refused = try CLI.run(Self.importing(zone: "UTC"), in: work)
    #expect(refused.status == 75, "\(refused.stderr)")
    #expect(refused.stderr.contains("v.csv: being written by process \(getpid()), which holds "), "\(refused.stderr)")
    #expect(Self.pair(work) == [nil, nil])
    #expect(try Self.hidden(work) == ["visits/.v.csv.lock"])
    held.release()
    let ran = try CLI.run(Self.importing(zone: "UTC"), in: work)
    #expect(ran.status == 0, "\(ran.stderr)")
    #expect(Self.pair(work).allSatisfy { $0 != nil })
    #expect(try Self.hidden(work) == [])
  }

  /// A kill while the set's record is written leaves `..d.csv.set.tmp-PID` (the record's
  /// own temporary file): the next import removes it once its process is gone.
  @Test func aStrayTemporaryRecordOfAKilledImportIsRemovedByTheNext() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    for folder in ["logs", "visits"] {
      try FileManager.default.createDirectory(
        at: work.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    let gone = Process()
    gone.executableURL = URL(fileURLWithPath: "/bin/true")
    try gone.run()
    gone.waitUntilExit()
    let stray = work.appendingPathComponent("logs/..d.csv.set.tmp-\(gone.processIdentifier)").path
    try CLI.write("smartstack file set 1\n", to: "logs/..d.csv.set.tmp-\(gone.processIdentifier)", in: work)
    let ran = try CLI.run(Self.importing(zone: "UTC"), in: work)
    #expect(ran.status == 0, "\(ran.stderr)")
    #expect(!FileManager.default.fileExists(atPath: stray))
    #expect(try Self.hidden(work) == [])
  }

  @Test(arguments: ["import-stage:1", "import-stage:2", "import-commit:1", "import-move:1", "import-move:2"])
  func aKilledImportLeavesTheOldPairOrARefusedOneAndTheNextImportFinishesIt(point: String) throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    for folder in ["logs", "visits"] {
      try FileManager.default.createDirectory(
        at: work.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    // The new pair, uninterrupted, for comparison; then the old pair in place.
    #expect(try CLI.run(Self.importing(zone: "America/New_York"), in: work).status == 0)
    let new = Self.pair(work)
    #expect(try CLI.run(Self.importing(zone: "UTC"), in: work).status == 0)
    let old = Self.pair(work)
    #expect(old != new && old[0] != new[0] && old[1] != new[1])

    let killed = try CLI.run(
      Self.importing(zone: "America/New_York"), in: work, environment: ["SMARTSTACK_CRASH_AT": point])
    #expect(killed.status == SIGKILL, "\(point): \(killed.stderr)")
    let validate = try CLI.run(["validate", "logs/d.csv"], in: work)
    let replay = try CLI.run(
      ["replay", "--log", "logs/d.csv", "--visits", "visits/v.csv", "--strategy", "mfu", "--quiet"], in: work)
    if point.hasPrefix("import-stage") {
      // Before the commit: the old pair, read as usual.
      #expect(Self.pair(work) == old)
      #expect(validate.status == 0, "\(validate.stderr)")
      #expect(replay.status == 0, "\(replay.stderr)")
    } else {
      // Committed, maybe half moved: every reader refuses either file, naming the fix.
      for result in [validate, replay] {
        #expect(result.status == 66, "\(point): \(result.stderr)")
        #expect(result.stderr.contains("was interrupted while putting them in place"), "\(result.stderr)")
        #expect(result.stderr.contains("run that smartstack import again"), "\(result.stderr)")
      }
      let tiny = URL(fileURLWithPath: InterruptedBatchTests.scenarioPath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("logs/tiny.csv").path
      let visits = try CLI.run(
        ["replay", "--log", tiny, "--visits", "visits/v.csv", "--strategy", "mfu", "--quiet"], in: work)
      #expect(visits.status == 66, "\(visits.stderr)")
      #expect(visits.stderr.contains("v.csv: cannot read: an import that writes it"), "\(visits.stderr)")
    }
    // Any next import with these outputs finishes or discards the set first, even one
    // that then fails on its input.
    let failing = try CLI.run(
      ["import", "lsapp", "missing.tsv", "--out", "logs/d.csv", "--visits-out", "visits/v.csv"], in: work)
    #expect(failing.status == 66)
    #expect(Self.pair(work) == (point.hasPrefix("import-stage") ? old : new), "\(point)")
    #expect(try Self.hidden(work) == [], "\(point)")
    #expect(try CLI.run(["validate", "logs/d.csv"], in: work).status == 0)
    // And the import again gives the uninterrupted bytes.
    #expect(try CLI.run(Self.importing(zone: "America/New_York"), in: work).status == 0)
    #expect(Self.pair(work) == new)
    #expect(try Self.hidden(work) == [])
  }
}
