import Foundation
import Testing

@_spi(Fixtures) import SmartStackData

/// The repository's root folder.
private let root = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Every `smartstack` command the documentation shows runs as written, in order, on the
/// bundled data: the fenced `sh` blocks of README.md, docs/*.md and Datasets/README.md, and
/// the examples of every command's `--help`.
///
/// A document runs in a fresh folder of its own, which links `Datasets`, `Tests` and
/// `Benchmarks` to the repository's, has `smartstack` on the `PATH` and
/// `.build/release/smartstack` (with `B=.build/release/smartstack`, as the README sets it)
/// naming the binary under test; each line runs through `/bin/sh -c` there and must exit 0.
/// Lines run: those starting with `smartstack`, `$B`, `.build/release/smartstack` or
/// `swift run -c release smartstack` (run as `smartstack`), and the `cp`, `sed` and
/// `python3 -c` lines that prepare their inputs. Other lines (building, cloning, the
/// notebooks, the Python package) are run by `.ci/run`. The few commands not run here are
/// in `notRunHere`, each with the reason and where it does run.
@Suite("Every documented command runs as written")
struct EveryDocExampleTests {
  /// One command of a document, `line` its first line (1-based).
  struct Example: CustomStringConvertible {
    var document: String
    var line: Int
    var text: String
    var description: String { "\(document):\(line): \(text)" }
  }

  /// Commands not run here, and why: those containing `match`, or, when `exact`, equal to it.
  static let notRunHere: [(match: String, exact: Bool, reason: String)] = [
    (
      "swift run -c release smartstack batch", false,
      "the main job: `.ci/run` runs it with the release build (minutes in a debug build)"
    ),
    ("smartstack batch", true, "the main job, as `batch --help` shows it: see above"),
    ("$n", false, "a shell loop over every bundled scenario with 20 replicates: minutes; docs/counterfactual.md's tables"),
    ("--replicates 60", false, "60 replicates of sports-fan: over a minute even in a release build"),
    ("SLURM_", false, "a line of a Slurm job script; its variables come from the scheduler"),
    ("bench --quick --baseline", false, "`.ci/run` runs it (Scripts/bench-check.sh); speed is never a test"),
    (
      "batch Datasets/experiments/hour-of-week-sweep.json", false,
      "a traced sweep (a 70 MB trace): over a minute in a debug build; `.ci/run`'s notebook stage runs it with the release build"
    ),
    (
      "evaluate --validate Datasets/scenarios/tiny.json --replicates 5", false,
      "`.ci/run`'s notebook stage runs it with the release build (seconds in a debug build)"
    ),
    (
      "$B simulate --scenario Datasets/scenarios/sports-fan.json --strategy mfu,relevance,smart-rotate,oracle --explain", true,
      "half a minute in a debug build: `.ci/run` runs it with the release build after the main job"
    ),
    (
      "Datasets/experiments/context.json", false,
      "two 5-replicate batches of the context scenarios: `.ci/run` runs them with the release build and checks docs/context.md's table (Scripts/context-check.sh)"
    ),
    (
      "ctx-exposures.csv", false,
      "14 days with 1,000 redraws per visit: `.ci/run` runs it with the release build and checks docs/context.md's table (Scripts/context-check.sh)"
    ),
  ]

  /// The documents whose `sh` blocks are run.
  static let documents = ["README.md", "Datasets/README.md"] + {
    let docs = root.appendingPathComponent("docs")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
    return names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  }()

  /// Whether a (joined) line of an `sh` block is one this suite runs.
  static func runs(_ line: String) -> Bool {
    ["smartstack ", "$B ", ".build/release/smartstack ", "swift run -c release smartstack", "cp ", "sed ", "python3 -c "]
      .contains { line.hasPrefix($0) }
  }

  /// The commands of `document`'s `sh` blocks, continuation lines (`\`) joined.
  static func examples(in document: String) throws -> [Example] {
    let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
    var examples: [Example] = []
    var inShell = false
    var pending: Example?
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.hasPrefix("```") {
        inShell = !inShell && (line == "```sh" || line == "```bash")
        pending = nil
        continue
      }
      guard inShell else { continue }
      if var p = pending {
        p.text += " " + line
        pending = p
      } else {
        pending = Example(document: document, line: index + 1, text: line)
      }
      if line.hasSuffix("\\") {
        pending!.text.removeLast()
        continue
      }
      if let p = pending, runs(p.text) { examples.append(p) }
      pending = nil
    }
    return examples
  }

  /// The examples of `smartstack COMMAND --help` (lines starting `  smartstack `; a
  /// wrapped example continues at column 0 up to a blank line).
  static func helpExamples(of command: String) throws -> [Example] {
    var examples: [Example] = []
    var continuing = false
    for line in try CLI.run([command, "--help"]).stdout.split(separator: "\n", omittingEmptySubsequences: false) {
      let joined = examples.last?.text.hasSuffix("\\") ?? false
      if line.hasPrefix("  smartstack ") && !joined {
        examples.append(
          Example(document: "smartstack \(command) --help", line: 0, text: line.trimmingCharacters(in: .whitespaces)))
        continuing = true
      } else if continuing && !line.isEmpty && (joined || !line.hasPrefix(" ")) {
        if joined { examples[examples.count - 1].text.removeLast() }
        examples[examples.count - 1].text += " " + line.trimmingCharacters(in: .whitespaces)
      } else {
        continuing = false
      }
    }
    return examples.map { e in
      var e = e
      e.text = e.text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
      return e
    }
  }

  /// A folder where a document's commands run (see the suite's description), with the
  /// input files the documents name as someone else's: the LSApp dataset (the test
  /// fixture's copies stand in for the download), an Android usage-event export and the
  /// `kinds.csv` that docs/importers.md shows.
  static func workspace() throws -> URL {
    let folder = try CLI.temporaryFolder()
    let fm = FileManager.default
    for name in ["Datasets", "Tests", "Benchmarks"] {
      try fm.createSymbolicLink(at: folder.appendingPathComponent(name), withDestinationURL: root.appendingPathComponent(name))
    }
    for path in ["bin", ".build/release"] {
      try fm.createDirectory(at: folder.appendingPathComponent(path), withIntermediateDirectories: true)
      try fm.createSymbolicLink(at: folder.appendingPathComponent(path + "/smartstack"), withDestinationURL: CLI.binary)
    }
    let fixtures = root.appendingPathComponent("Tests/Fixtures/importers")
    for name in ["lsapp.tar.gz", "lsapp.tsv", "lsapp.tsv.gz"] {
      try fm.copyItem(at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    try CLI.write(
      """
      timestamp,user,app,event
      2026-03-02T07:00:00Z,ana,,KEYGUARD_HIDDEN
      2026-03-02T07:00:02Z,ana,com.android.launcher3,MOVE_TO_FOREGROUND
      2026-03-02T07:00:05Z,ana,com.example.bus,MOVE_TO_FOREGROUND
      2026-03-02T07:03:00Z,ana,com.example.bus,MOVE_TO_BACKGROUND
      2026-03-02T07:03:01Z,ana,com.android.systemui,MOVE_TO_FOREGROUND

      """, to: "usage-events.csv", in: folder)
    let importers = try String(contentsOf: root.appendingPathComponent("docs/importers.md"), encoding: .utf8)
    let kinds = try #require(importers.range(of: "```csv\nid,kind\n"))
    let end = try #require(importers[kinds.upperBound...].range(of: "```"))
    try CLI.write("id,kind\n" + importers[kinds.upperBound..<end.lowerBound], to: "kinds.csv", in: folder)
    return folder
  }

  /// Runs `examples` in order in a fresh workspace and expects each to exit 0.
  static func run(_ examples: [Example]) throws {
    let folder = try workspace()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("bin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    for example in examples where !isNotRunHere(example) {
      var command = example.text
      if let database = command.firstMatch(of: /^python3 -c "import sqlite3; sqlite3\.connect\('([^']+)'\)\.executescript\(open\('([^']+)'\)\.read\(\)\)"$/) {
        // Python's sqlite3 module need not be installed where the tests run: the same
        // script through the SQLite C API.
        let sql = try String(contentsOf: root.appendingPathComponent(String(database.2)), encoding: .utf8)
        try SQLiteDatabase.create(at: folder.appendingPathComponent(String(database.1)).path, script: sql)
        continue
      }
      if command.hasPrefix("swift run -c release smartstack") {
        command = "smartstack" + command.dropFirst("swift run -c release smartstack".count)
      }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", command]
      process.currentDirectoryURL = folder
      process.environment = ProcessInfo.processInfo.environment.merging(
        ["PATH": path, "B": ".build/release/smartstack"]) { $1 }
      let err = Pipe()
      process.standardError = err
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(example)\n\(stderr)")
    }
  }

  static func isNotRunHere(_ example: Example) -> Bool {
    notRunHere.contains { $0.exact ? example.text == $0.match : example.text.contains($0.match) }
  }

  @Test(arguments: documents)
  func theDocumentsCommandsRun(document: String) throws {
    try Self.run(try Self.examples(in: document))
  }

  @Test(arguments: ["batch", "replay", "simulate", "evaluate", "validate", "relevance", "import", "strategies", "report", "merge", "bench"])
  func theHelpExamplesRun(command: String) throws {
    try Self.run(try Self.helpExamples(of: command))
  }

  /// Each entry of `notRunHere` still matches a documented command (else it is stale), and
  /// the extraction finds the commands it should.
  @Test func theExceptionsAreFewAndCurrent() throws {
    let all = try Self.documents.flatMap { try Self.examples(in: $0) } + Self.helpExamples(of: "batch")
    for skip in Self.notRunHere {
      #expect(
        all.contains { skip.exact ? $0.text == skip.match : $0.text.contains(skip.match) },
        "no documented command matches \(skip.match)")
    }
    #expect(all.count >= 50)
    // Each of these runs elsewhere (`.ci/run` or a script it calls, with the release
    // build); the bound keeps the list from growing unnoticed.
    #expect(all.filter(Self.isNotRunHere).count <= 16)
    #expect(all.contains { $0.text.hasPrefix("$B batch --log my-log.csv") && $0.text.hasSuffix("--out reports/my-log") })
  }
}
