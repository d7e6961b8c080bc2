import Foundation
import Testing

/// One output folder, one run at a time; special files are never replaced; a failed write
/// leaves the previous report set.
@Suite("Reliability: output folder lock, special files, full disk")
struct OutputSafetyTests {
  static let reportFiles = ["runs.csv", "daily.csv", "summary.csv", "paired.csv", "manifest.json"]

  /// Starts `smartstack ARGS` in `folder` with its output thrown away.
  static func start(_ arguments: [String], in folder: URL) throws -> Process {
    let process = Process()
    process.executableURL = CLI.binary
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
  }

  static func contents(_ folder: URL, _ names: [String]) -> [Data?] {
    names.map { FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) }
  }

  @Test func aSecondBatchOnTheSameFolderIsRefusedWithTheHoldersProcessID() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    try InterruptedBatchTests.configPath(in: work)
    let first = try Self.start(["batch", "exp.json", "--out", "out", "--jobs", "1"], in: work)
    let lock = work.appendingPathComponent("out/.lock").path
    let deadline = Date().addingTimeInterval(60)
    while (FileManager.default.contents(atPath: lock)?.isEmpty ?? true) && first.isRunning
      && Date() < deadline
    {
      usleep(10_000)
    }
    let second = try CLI.run(["batch", "exp.json", "--out", "out", "--quiet"], in: work)
    first.waitUntilExit()
    #expect(second.status == 75)
    #expect(
      second.stderr.contains("out: in use by process \(first.processIdentifier), which holds out/.lock"),
      "\(second.stderr)")
    #expect(first.terminationStatus == 0)
    #expect(try CLI.run(["report", "out"], in: work).status == 0)
    #expect(!FileManager.default.fileExists(atPath: lock), "a finished run removes its lock file")
  }

  @Test func twoBatchesStartedTogetherOneRunsOneIsRefused() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    try InterruptedBatchTests.configPath(in: work)
    for pair in 0..<3 {
      let out = "out-\(pair)"
      let runs = try (0..<2).map { _ in
        try Self.start(["batch", "exp.json", "--out", out, "--jobs", "1", "--quiet"], in: work)
      }
      for run in runs { run.waitUntilExit() }
      #expect(runs.map(\.terminationStatus).sorted() == [0, 75], "pair \(pair)")
      #expect(try CLI.run(["report", out], in: work).status == 0)
    }
  }

  @Test(arguments: ["char", "fifo", "symlink", "socket"])
  func specialFilesAsOutputsAreRefusedAndLeftAlone(kind: String) throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let lsapp = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/importers/lsapp.tsv").path
    let path = work.appendingPathComponent("special").path
    let words: String
    switch kind {
    case "char":
      #expect(mknod(path, S_IFCHR | 0o644, dev_t(1 << 8 | 3)) == 0)  // makedev(1, 3): /dev/null
      words = "a character device"
    case "fifo":
      #expect(mkfifo(path, 0o644) == 0)
      words = "a FIFO (named pipe)"
    case "symlink":
      #expect(symlink(work.appendingPathComponent("target").path, path) == 0)
      words = "a symbolic link"
    default:
      let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        for (i, byte) in path.utf8.enumerated() where i < buffer.count - 1 { buffer[i] = byte }
      }
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
      #expect(bound == 0)
      close(fd)
      words = "a socket"
    }
    func refused(_ arguments: [String], _ what: String) throws {
      let result = try CLI.run(arguments, in: work)
      #expect(result.status == 73, "\(arguments)")
      #expect(result.stderr.contains("special: cannot write: it is \(words), not \(what)"), "\(result.stderr)")
    }
    try refused(["import", "lsapp", lsapp, "--out", "special"], "a regular file")
    try refused(["import", "lsapp", lsapp, "--out", "log.csv", "--visits-out", "special"], "a regular file")
    try refused(["batch", try InterruptedBatchTests.configPath(in: work), "--out", "special"], "a folder")
    try refused(["simulate", "--scenario", InterruptedBatchTests.scenarioPath, "--out", "special"], "a folder")
    #expect(PathKindName.of(path) == kind, "the special file is left as it was")
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("log.csv").path))
  }

  @Test func aReportFileThatIsALinkInsideTheFolderIsRefusedBeforeAnyWork() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    try FileManager.default.createDirectory(
      at: work.appendingPathComponent("out"), withIntermediateDirectories: true)
    #expect(symlink("/dev/null", work.appendingPathComponent("out/daily.csv").path) == 0)
    let result = try CLI.run(
      ["batch", try InterruptedBatchTests.configPath(in: work), "--out", "out"], in: work)
    #expect(result.status == 73)
    #expect(result.stderr.contains("out/daily.csv: cannot write: it is a symbolic link"))
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("out/.journal").path))
  }

  /// A write that fails as on a full disk, for each file of the set: exit 73 with the
  /// cause in words, and the previous set left byte for byte, with no staging folder.
  @Test func aFullDiskLeavesThePreviousReportSet() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let config = try InterruptedBatchTests.configPath(in: work)
    let out = work.appendingPathComponent("out")
    #expect(try CLI.run(["batch", config, "--out", "out", "--quiet"], in: work).status == 0)
    let previous = Self.contents(out, Self.reportFiles)
    for name in Self.reportFiles {
      let result = try CLI.run(
        ["batch", config, "--out", "out", "--seed", "99", "--quiet", "--overwrite"], in: work,
        environment: ["SMARTSTACK_FAIL_WRITE": name])
      #expect(result.status == 73, "\(name)")
      #expect(result.stderr.contains("No space left on device (the previous reports are left as they were)"))
      #expect(Self.contents(out, Self.reportFiles) == previous, "\(name)")
      let left = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
      #expect(left == ([".journal"] + Self.reportFiles).sorted(), "\(left)")
    }
    // replay: a failing daily.csv leaves the previous runs.csv and daily.csv.
    let log = InterruptedBatchTests.scenarioPath.replacingOccurrences(
      of: "scenarios/tiny.json", with: "logs/tiny.csv")
    #expect(try CLI.run(["replay", "--log", log, "--out", "r", "--quiet"], in: work).status == 0)
    let replayed = Self.contents(work.appendingPathComponent("r"), ["runs.csv", "daily.csv"])
    let failed = try CLI.run(
      ["replay", "--log", log, "--out", "r", "--seed", "5", "--strategy", "random", "--quiet", "--overwrite"],
      in: work, environment: ["SMARTSTACK_FAIL_WRITE": "daily.csv"])
    #expect(failed.status == 73)
    #expect(Self.contents(work.appendingPathComponent("r"), ["runs.csv", "daily.csv"]) == replayed)
  }
}

extension OutputSafetyTests {
  /// The mixed folder: seed 99's runs.csv beside seed 11's other files.
  @Test func reportRefusesAFolderWhoseFilesDoNotMatchTheManifestNamingTheFile() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let config = try InterruptedBatchTests.configPath(in: work)
    #expect(try CLI.run(["batch", config, "--out", "a", "--quiet"], in: work).status == 0)
    #expect(
      try CLI.run(["batch", config, "--out", "b", "--seed", "99", "--quiet"], in: work).status == 0)
    #expect(try CLI.run(["report", "a"], in: work).status == 0)
    let a = work.appendingPathComponent("a/runs.csv")
    try FileManager.default.removeItem(at: a)
    try FileManager.default.copyItem(at: work.appendingPathComponent("b/runs.csv"), to: a)
    let mixed = try CLI.run(["report", "a"], in: work)
    #expect(mixed.status == 65)
    #expect(mixed.stderr.contains("error: a/runs.csv does not match manifest.json"), "\(mixed.stderr)")
    #expect(mixed.stdout.isEmpty)
  }

  /// What killed runs leave (temporary files, an uncommitted staging folder) is removed by
  /// the next run under the lock; a committed set is moved into place first.
  @Test func theNextRunCleansWhatAKilledRunLeft() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let config = try InterruptedBatchTests.configPath(in: work)
    #expect(try CLI.run(["batch", config, "--out", "out", "--quiet"], in: work).status == 0)
    let stale = [
      ".dat.nosyncab12.runs.csv", ".runs.csv.tmp-99999", ".reports-staging/runs.csv",
      ".journal/.cells.jsonl.tmp-12345",
    ]
    for name in stale { try CLI.write("partial", to: name, in: work.appendingPathComponent("out")) }
    let resumed = try CLI.run(["batch", config, "--out", "out", "--resume"], in: work)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stderr.contains("removed the unfinished report set of an interrupted run"))
    let out = work.appendingPathComponent("out")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        == ([".journal"] + Self.reportFiles).sorted())
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent(".journal").path)
        == ["cells.jsonl"])
  }
}

/// The test's name for what is at a path.
enum PathKindName {
  static func of(_ path: String) -> String {
    var info = stat()
    guard lstat(path, &info) == 0 else { return "missing" }
    switch info.st_mode & S_IFMT {
    case S_IFCHR: return "char"
    case S_IFIFO: return "fifo"
    case S_IFLNK: return "symlink"
    case S_IFSOCK: return "socket"
    default: return "other"
    }
  }
}

extension InterruptedBatchTests {
  /// Writes the 24-cell config into `folder` and returns its path.
  @discardableResult static func configPath(in folder: URL) throws -> String {
    try CLI.write(config(scenario: scenarioPath), to: "exp.json", in: folder)
  }
}
