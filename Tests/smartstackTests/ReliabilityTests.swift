import Foundation
import Testing

/// One row of `Tests/Fixtures/bad/expected.tsv`: a hostile input, the command that reads
/// it, and what the real binary must do with it.
struct BadInputCase: Sendable, CustomTestStringConvertible {
  /// Path of the input, relative to the corpus folder.
  var file: String
  /// The exit status: 0 (accepted), 64 (usage), 65 (data error), 66 (no input).
  var exit: Int32
  /// `LINE:COLUMN` after `FILE:`; `file` for a whole-file message (`FILE: message`); `-` for
  /// none (usage errors and accepted inputs).
  var location: String
  /// A fragment of the first message on standard error (empty: not checked).
  var fragment: String
  /// The arguments, with `{}` for the input, `{dir}` for the corpus folder and `{out}` for a
  /// fresh output folder.
  var arguments: [String]
  /// The manifest line, for failure messages.
  var line: Int

  var testDescription: String { "expected.tsv:\(line) \(file) (\(arguments.first ?? ""))" }

  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/bad")

  static let all: [BadInputCase] = {
    let manifest = folder.appendingPathComponent("expected.tsv")
    guard let text = try? String(contentsOf: manifest, encoding: .utf8) else { return [] }
    var cases: [BadInputCase] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.isEmpty || line.hasPrefix("#") { continue }
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard columns.count == 5, let exit = Int32(columns[1]) else {
        // A malformed manifest row becomes a case that fails with its line number.
        cases.append(
          BadInputCase(
            file: "MALFORMED", exit: -1, location: "-", fragment: "", arguments: [], line: index + 1))
        continue
      }
      cases.append(
        BadInputCase(
          file: columns[0], exit: exit, location: columns[2], fragment: columns[3],
          arguments: columns[4].split(separator: " ").map(String.init), line: index + 1))
    }
    return cases
  }()
}

@Suite("Reliability: the bad-input corpus through the real binary")
struct BadInputCorpusTests {
  @Test func theManifestCoversEveryCorpusFileAndHasAtLeastFortyBadInputs() throws {
    let cases = BadInputCase.all
    #expect(!cases.contains { $0.file == "MALFORMED" }, "expected.tsv has a malformed row")
    let files = try FileManager.default.contentsOfDirectory(atPath: BadInputCase.folder.path)
      .filter { $0 != "expected.tsv" && $0 != "make-corpus.py" && $0 != "ok" }
    let listed = Set(cases.map(\.file))
    for file in files.sorted() {
      #expect(listed.contains(file), "\(file) is in Tests/Fixtures/bad but not in expected.tsv")
    }
    #expect(files.count >= 40, "only \(files.count) corpus files")
    #expect(cases.filter { $0.exit == 65 }.count >= 40)
  }

  @Test(arguments: BadInputCase.all)
  func theBinaryRefusesTheInputAtItsLocationAndWritesNothing(_ c: BadInputCase) throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let input = BadInputCase.folder.appendingPathComponent(c.file).path
    let out = work.appendingPathComponent("out").path
    let arguments = c.arguments.map {
      $0.replacingOccurrences(of: "{}", with: input)
        .replacingOccurrences(of: "{dir}", with: BadInputCase.folder.path)
        .replacingOccurrences(of: "{out}", with: out)
    }
    let r = try CLI.run(arguments, in: work)
    #expect(r.status == c.exit, "exit \(r.status), expected \(c.exit); stderr: \(r.stderr.prefix(400))")
    #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("crashed"))

    let firstLine = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
    switch c.location {
    case "-": break
    case "file":
      #expect(firstLine.hasPrefix("\(input): "), "stderr: \(firstLine.prefix(300))")
    default:
      #expect(firstLine.hasPrefix("\(input):\(c.location): "), "stderr: \(firstLine.prefix(300))")
    }
    if !c.fragment.isEmpty {
      #expect(firstLine.contains(c.fragment), "stderr: \(firstLine.prefix(300))")
    }
    if c.exit != 0 {
      // Refused input: no output file at all, not even a partial one.
      let left = FileManager.default.enumerator(atPath: out)?.allObjects ?? []
      #expect(left.isEmpty, "files written for refused input: \(left)")
      #expect(r.stdout.isEmpty || c.exit == 64, "stdout: \(r.stdout.prefix(200))")
    }
  }
}

/// A `smartstack` process running in the background, its output going to files.
private struct BackgroundRun {
  let process = Process()
  let stderrPath: String

  init(_ arguments: [String], in directory: URL) throws {
    stderrPath = directory.appendingPathComponent("stderr.txt").path
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    process.executableURL = CLI.binary
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle(forWritingAtPath: stderrPath)
    process.standardInput = FileHandle.nullDevice
    try process.run()
  }

  var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
}

@Suite("Reliability: interrupted batches")
struct InterruptedBatchTests {
  static let reportFiles = ["runs.csv", "daily.csv", "summary.csv", "paired.csv"]

  /// 1 scenario source (tiny, 60 days) × 4 strategies × 6 replicates = 24 cells: a few
  /// seconds with one job in a debug build.
  static func config(scenario: String) -> String {
    """
    {"name": "interrupt", "seed": 11, "replicates": 6,
     "sources": [{"name": "world", "scenario": "\(scenario)", "days": 60}],
     "strategies": ["mfu", "mru", "hour-of-week", "bandit"]}
    """
  }

  static var scenarioPath: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Datasets/scenarios/tiny.json").path
  }

  /// The number of finished cells in a journal (its lines after the header).
  static func journaledCells(_ out: URL) -> Int {
    let path = out.appendingPathComponent(".journal/cells.jsonl").path
    guard let data = FileManager.default.contents(atPath: path) else { return 0 }
    return max(0, data.filter { $0 == UInt8(ascii: "\n") }.count - 1)
  }

  /// SIGINT is Ctrl-C (exit 130 after a note); SIGKILL stands for a trap or a power cut:
  /// the process dies at once, with no handler.
  @Test(arguments: [SIGINT, SIGKILL])
  func aSignalMidRunKeepsFinishedCellsWritesNoReportAndResumeGivesTheSameBytes(signal: Int32)
    throws
  {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    try CLI.write(Self.config(scenario: Self.scenarioPath), to: "exp.json", in: work)
    let out = work.appendingPathComponent("out")

    let run = try BackgroundRun(["batch", "exp.json", "--out", "out", "--jobs", "1", "--quiet"], in: work)
    // Wait until at least one cell is journaled (at most 60 s), then signal.
    let deadline = Date().addingTimeInterval(60)
    while Self.journaledCells(out) < 1 && run.process.isRunning && Date() < deadline {
      usleep(20_000)
    }
    #expect(run.process.isRunning, "the batch ended before the signal: make the config bigger")
    kill(run.process.processIdentifier, signal)
    run.process.waitUntilExit()

    let journaled = Self.journaledCells(out)
    #expect(journaled >= 1 && journaled < 24, "\(journaled) cells journaled")
    if signal == SIGINT {
      #expect(run.process.terminationReason == .exit)
      #expect(run.process.terminationStatus == 130)
      #expect(run.stderr.contains("interrupted: the finished cells are in the output folder's journal"))
    } else {
      #expect(run.process.terminationReason == .uncaughtSignal)
    }
    // No report and no half-written file: the folder holds the journal and the lock file
    // (released by the kernel, its holder's id still in it) only.
    let left = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(left == [".journal", ".lock"], "\(left)")

    let resumed = try CLI.run(["batch", "exp.json", "--out", "out", "--resume", "--quiet"], in: work)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    // A successful run leaves the reports and the journal, no lock or temporary file.
    let after = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(after == ([".journal", "manifest.json"] + Self.reportFiles).sorted(), "\(after)")
    let clean = try CLI.run(["batch", "exp.json", "--out", "clean", "--quiet"], in: work)
    #expect(clean.status == 0, "\(clean.stderr)")
    for name in Self.reportFiles {
      let a = FileManager.default.contents(atPath: out.appendingPathComponent(name).path)
      let b = FileManager.default.contents(atPath: work.appendingPathComponent("clean/" + name).path)
      #expect(a != nil && a == b, "\(name) differs after resume")
    }
  }
}

@Suite("Reliability: output paths")
struct OutputPathTests {
  /// Every file under `folder`, relative, sorted.
  static func files(under folder: URL) -> [String] {
    (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
  }

  @Test func namesWithDotDotAndSlashesNeverPlaceFilesOutsideTheOutputFolder() throws {
    let root = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let work = root.appendingPathComponent("a/b")
    try CLI.write("timestamp,user,kind\n2026-03-02T08:00:00Z,../../u,News\n", to: "log.csv", in: work)
    try CLI.write(
      """
      {"name": "../../../escaped-experiment", "seed": 1,
       "sources": [{"name": "../../escaped-source/x", "log": "log.csv"}],
       "strategies": ["mfu", {"name": "hour-of-week", "parameters": {"half-life-days": [0, 2]}}],
       "outputs": {"trace": true}}
      """, to: "exp.json", in: work)
    let batch = try CLI.run(["batch", "exp.json", "--out", "out", "--quiet"], in: work)
    #expect(batch.status == 0, "\(batch.stderr)")
    let scenario = try String(contentsOfFile: InterruptedBatchTests.scenarioPath, encoding: .utf8)
      .replacingOccurrences(of: "\"name\": \"tiny\"", with: "\"name\": \"../../escaped-scenario\"")
    try CLI.write(scenario, to: "world.json", in: work)
    let simulate = try CLI.run(
      ["simulate", "--scenario", "world.json", "--out", "sim", "--explain", "--emit-log", "emitted",
       "--days", "1", "--quiet"], in: work)
    #expect(simulate.status == 0, "\(simulate.stderr)")

    // Outside a/b nothing appeared; inside, only the inputs and the chosen folders.
    #expect(Self.files(under: root).filter { !$0.hasPrefix("a/b/") } == ["a", "a/b"])
    let top = try FileManager.default.contentsOfDirectory(atPath: work.path).sorted()
    #expect(top == ["emitted", "exp.json", "log.csv", "out", "sim", "world.json"])
    #expect(Self.files(under: work.appendingPathComponent("sim")) == ["daily.csv", "explain.csv", "manifest.json", "runs.csv"])
    #expect(
      Self.files(under: work.appendingPathComponent("emitted"))
        == ["donations.csv", "manifest.json", "stack.json", "timelines.json", "visits.csv"])
    #expect(
      Self.files(under: work.appendingPathComponent("out")).filter { !$0.hasPrefix(".journal/") }
        == [".journal", "daily.csv", "manifest.json", "paired.csv", "runs.csv", "summary.csv", "trace.csv"])
  }
}
