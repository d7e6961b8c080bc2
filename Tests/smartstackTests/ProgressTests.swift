import Foundation
import Testing

@testable import SmartStackCommands

private let datasets = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Datasets")
private let tinyScenario = datasets.appendingPathComponent("scenarios/tiny.json").path
private let tinyLog = datasets.appendingPathComponent("logs/tiny.csv").path
/// Standard error counts as a terminal (`ProgressReporter.standardErrorIsTerminal`).
private let terminal = ["SMARTSTACK_PROGRESS": "terminal"]

/// One progress facility for every long command (issue 29 item 13): a bar on a terminal,
/// nothing in a pipe (batch: plain lines), nothing with `--quiet`.
@Suite("progress of long commands on standard error")
struct ProgressTests {
  /// The throttle's answers to updates at these (seconds, final) points, in order.
  static func decisions(terminal: Bool, _ updates: [(Double, Bool)]) -> [Bool] {
    var throttle = ProgressReporter.Throttle(isTerminal: terminal)
    return updates.map { throttle.shouldDraw(at: $0.0, final: $0.1) }
  }

  @Test func aTerminalDrawsAtOnceThenAtMostTenTimesASecondAndAlwaysTheLast() {
    let updates = [(0.0, false), (0.05, false), (0.1, false), (0.15, false), (0.16, true)]
    #expect(Self.decisions(terminal: true, updates) == [true, false, true, false, true])
  }

  @Test func plainLinesWaitTwoSecondsBetweenLinesAndAlwaysDrawTheLast() {
    let updates = [(0.0, false), (1.9, false), (2.0, false), (3.0, false), (3.5, true)]
    #expect(Self.decisions(terminal: false, updates) == [false, false, true, false, true])
  }

  @Test func aLineSaysUnitsDoneRateAndTimeLeft() {
    let line = ProgressReporter.Line(
      label: "simulate", unit: "runs", done: 3, total: 12, ranNow: 3, elapsed: 2)
    #expect(line.terminal == "simulate ██████░░░░░░░░░░░░░░░░░░ 3/12 runs (25%)  1.50 runs/s  ETA 6.0 s")
    #expect(line.plain == "simulate: 3/12 runs (25%), 1.50 runs/s, ETA 6.0 s")
    let done = ProgressReporter.Line(
      label: "replay", unit: "runs", done: 12, total: 12, ranNow: 10, elapsed: 8)
    #expect(done.terminal.hasSuffix("12/12 runs (100%)  1.25 runs/s  done in 8.0 s"))
    #expect(done.plain == "replay: 12/12 runs done in 8.0 s")
  }

  @Test func bytesAreShownInMBWithTheDecimalsOfTwoSignificantDigits() {
    let line = ProgressReporter.Line(
      label: "import", unit: "MB", done: 3_200_000, total: 12_500_000, ranNow: 3_200_000, elapsed: 2,
      perUnit: 1_000_000)
    #expect(line.terminal == "import ██████░░░░░░░░░░░░░░░░░░ 3.2/12.5 MB (25%)  1.60 MB/s  ETA 5.8 s")
    let small = ProgressReporter.Line(
      label: "import", unit: "MB", done: 410_000, total: 880_000, ranNow: 410_000, elapsed: 1, perUnit: 1_000_000)
    #expect(small.plain == "import: 0.41/0.88 MB (46%), 0.41 MB/s, ETA 1.1 s")
    let tiny = ProgressReporter.Line(
      label: "import", unit: "MB", done: 1_300, total: 1_300, ranNow: 1_300, elapsed: 1, perUnit: 1_000_000)
    #expect(tiny.plain == "import: 0.0013/0.0013 MB done in 1.0 s")
  }

  @Test func aQuietReporterOrOneInAPipeShowsNothingUnlessPlainLinesAreAsked() {
    #expect(!ProgressReporter(label: "x", quiet: true, isTerminal: true).isShown)
    #expect(!ProgressReporter(label: "x", quiet: false, isTerminal: false).isShown)
    #expect(ProgressReporter(label: "x", quiet: false, plainLines: true, isTerminal: false).isShown)
    #expect(ProgressReporter(label: "x", quiet: false, isTerminal: true).isShown)
  }

  /// The commands, each with the label and unit of its bar.
  static let commands: [(arguments: [String], bar: String)] = [
    (["simulate", "--scenario", tinyScenario, "--strategy", "mfu,mru", "--days", "3"], "simulate"),
    (["replay", "--log", tinyLog, "--strategy", "mfu,mru"], "replay"),
    (["evaluate", "--validate", tinyScenario, "--strategy", "mfu", "--logging", "random",
      "--replicates", "2", "--days", "2"], "validate"),
  ]

  @Test(arguments: 0..<3)
  func aLongCommandDrawsItsBarOnATerminalOnly(command: Int) throws {
    let (arguments, label) = Self.commands[command]
    let folder = try CLI.temporaryFolder()
    let shown = try CLI.run(arguments + ["--out", "a"], in: folder, environment: terminal)
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(shown.stderr.contains("\r\u{1B}[2K\(label) "), "\(shown.stderr)")
    #expect(shown.stderr.contains("(100%)"), "\(shown.stderr)")
    // Through a pipe (the tests' standard error) and with --quiet: no bar.
    let piped = try CLI.run(arguments + ["--out", "b"], in: folder)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(!piped.stderr.contains("\u{1B}[2K"))
    #expect(!piped.stderr.contains("(100%)"))
    let quiet = try CLI.run(arguments + ["--out", "c", "--quiet"], in: folder, environment: terminal)
    #expect(quiet.status == 0, "\(quiet.stderr)")
    #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
  }

  /// `SMARTSTACK_PROGRESS=lines` (what the Python package sets): plain lines in a pipe
  /// for every long command, ending with the `done in` line; none with `--quiet`.
  @Test(arguments: 0..<3)
  func linesAreAskedForThroughAPipe(command: Int) throws {
    let (arguments, label) = Self.commands[command]
    let folder = try CLI.temporaryFolder()
    let lines = try CLI.run(arguments + ["--out", "a"], in: folder, environment: ["SMARTSTACK_PROGRESS": "lines"])
    #expect(lines.status == 0, "\(lines.stderr)")
    #expect(lines.stderr.contains("\(label): "), "\(lines.stderr)")
    #expect(lines.stderr.contains(" done in "), "\(lines.stderr)")
    #expect(!lines.stderr.contains("\u{1B}[2K"), "\(lines.stderr)")
    let quiet = try CLI.run(
      arguments + ["--out", "b", "--quiet"], in: folder, environment: ["SMARTSTACK_PROGRESS": "lines"])
    #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
  }
}
