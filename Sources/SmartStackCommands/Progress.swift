import Foundation
import SmartStackKit

/// Progress of a long command on standard error: the one progress facility of `batch`,
/// `simulate`, `replay`, `evaluate --validate` and every `import` format.
///
/// On a terminal: one line redrawn in place (at most 10 times a second, `Throttle`) with a
/// bar, units done/total, the rate of this run and the time left, ended by a final line
/// `done in …`. Not on a terminal (a log file, a pipe, a cluster job's output): nothing,
/// unless `plainLines` (batch, whose cluster logs want them): then a plain line at most
/// every 2 seconds, and one at the end. Nothing at all when quiet.
///
/// Standard error counts as a terminal when `isatty` says so, or when the environment sets
/// `SMARTSTACK_PROGRESS=terminal` (for tests, which read it through a pipe). With
/// `SMARTSTACK_PROGRESS=lines` every command writes plain lines when not on a terminal.
///
/// `update` may be called from any thread.
final class ProgressReporter: @unchecked Sendable {
  let quiet: Bool
  let isTerminal: Bool
  let plainLines: Bool
  let label: String
  /// What is counted, plural (`cells`, `runs`, `replicates`, `rows`, `MB`).
  let unit: String
  /// How many counted things (`update`'s numbers) make one `unit`: 1, or 1,000,000 for
  /// bytes shown as `MB` (`Line.perUnit`).
  let perUnit: Int
  let clock = ContinuousClock()
  let start: ContinuousClock.Instant
  let lock = NSLock()
  var throttle: Throttle
  var initialDone: Int? = nil
  var drewBar = false
  /// Whether the last update (done == total) was drawn: later updates are ignored.
  var ended = false

  init(
    label: String, unit: String = "cells", perUnit: Int = 1, quiet: Bool,
    plainLines: Bool = ProgressReporter.environmentAsksForLines,
    isTerminal: Bool = ProgressReporter.standardErrorIsTerminal
  ) {
    self.label = label
    self.unit = unit
    self.perUnit = max(1, perUnit)
    self.quiet = quiet
    self.plainLines = plainLines
    self.isTerminal = isTerminal
    throttle = Throttle(isTerminal: isTerminal)
    start = clock.now
  }

  /// True when the environment sets `SMARTSTACK_PROGRESS=lines`: plain lines in a pipe
  /// for every command, as batch always writes them (the Python package sets it, so a
  /// notebook shows a long replay's or simulation's progress).
  static var environmentAsksForLines: Bool {
    ProcessInfo.processInfo.environment["SMARTSTACK_PROGRESS"] == "lines"
  }

  /// True when standard error is a terminal, or `SMARTSTACK_PROGRESS=terminal`.
  static var standardErrorIsTerminal: Bool {
    isatty(STDERR_FILENO) == 1 || ProcessInfo.processInfo.environment["SMARTSTACK_PROGRESS"] == "terminal"
  }

  /// True when this reporter writes anything.
  var isShown: Bool { !quiet && (isTerminal || plainLines) }

  /// Seconds since the reporter was made.
  var elapsed: Double { Self.seconds(clock.now - start) }

  static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }

  /// When to draw: on a terminal at most every 0.1 s (the first update at once); in plain
  /// lines at most every 2 s (the first line 2 s after the first update). The last update
  /// (done == total) is always drawn.
  struct Throttle {
    let isTerminal: Bool
    var lastDraw: Double? = nil
    var gap: Double { isTerminal ? 0.1 : 2 }

    /// Whether to draw an update at `now` (seconds on any clock that only goes forward).
    mutating func shouldDraw(at now: Double, final: Bool) -> Bool {
      if final {
        lastDraw = now
        return true
      }
      guard let last = lastDraw else {
        lastDraw = now
        return isTerminal
      }
      guard now - last >= gap else { return false }
      lastDraw = now
      return true
    }
  }

  /// What a line says, made from its numbers only (no clock): `Line.terminal` and
  /// `Line.plain`.
  struct Line {
    var label: String
    var unit: String
    var done: Int
    var total: Int
    /// Units done by this run (not counting journaled ones) and the seconds it took.
    var ranNow: Int
    var elapsed: Double
    /// How many of `done` and `total` make one `unit`. Above 1 (bytes shown as `MB`:
    /// 1,000,000) the counts are shown in units with the decimals that give the total two
    /// significant digits, at least 1 and at most 6: `3.2/12.5 MB`, `0.41/0.88 MB`,
    /// `0.0007/0.0013 MB`.
    var perUnit: Int = 1

    var percent: Int { total > 0 ? Int((Double(done) * 100 / Double(total)).rounded(.down)) : 100 }
    /// Units per second.
    var rate: Double { elapsed > 0 ? Double(ranNow) / Double(perUnit) / elapsed : 0 }
    var eta: Double { rate > 0 ? Double(total - done) / Double(perUnit) / rate : .nan }
    var counts: String {
      guard perUnit > 1 else { return "\(done)/\(total) \(unit)" }
      let totalUnits = Double(total) / Double(perUnit)
      let decimals = totalUnits > 0 ? min(6, max(1, 1 - Int(log10(totalUnits).rounded(.down)))) : 1
      return "\(NumberFormat.format(Double(done) / Double(perUnit), decimals: decimals))/"
        + "\(NumberFormat.format(totalUnits, decimals: decimals)) \(unit)"
    }
    var speed: String {
      rate > 0 ? "\(NumberFormat.format(rate, decimals: rate < 10 ? 2 : 1)) \(unit)/s" : "– \(unit)/s"
    }

    /// `batch ██████░░… 3/12 cells (25%)  1.50 cells/s  ETA 6.0 s` (`done in …` at the end).
    var terminal: String {
      let width = 24
      let filled = total > 0 ? min(done, total) * width / total : width
      let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
      let tail = done == total ? "done in \(ProgressReporter.duration(elapsed))" : "ETA \(ProgressReporter.duration(eta))"
      return "\(label) \(bar) \(counts) (\(percent)%)  \(speed)  \(tail)"
    }

    /// `batch: 3/12 cells (25%), 1.50 cells/s, ETA 6.0 s`, or `batch: 12/12 cells done in 8.0 s`.
    var plain: String {
      done == total
        ? "\(label): \(counts) done in \(ProgressReporter.duration(elapsed))"
        : "\(label): \(counts) (\(percent)%), \(speed), ETA \(ProgressReporter.duration(eta))"
    }
  }

  /// `done` units (including journaled ones) out of `total`. Nothing after the update
  /// with `done == total` (its line is the last).
  func update(done: Int, total: Int) {
    guard isShown else { return }
    lock.lock()
    defer { lock.unlock() }
    guard !ended else { return }
    if initialDone == nil { initialDone = done }
    let elapsed = self.elapsed
    guard throttle.shouldDraw(at: elapsed, final: done == total) else { return }
    if done == total { ended = true }
    let line = Line(
      label: label, unit: unit, done: done, total: total, ranNow: done - (initialDone ?? 0), elapsed: elapsed,
      perUnit: perUnit)
    if isTerminal {
      FileHandle.standardError.write(Data("\r\u{1B}[2K\(line.terminal)".utf8))
      drewBar = true
      if done == total { endLine() }
    } else {
      StandardError.write(line.plain)
    }
  }

  /// Ends the bar's line (so later messages start on a fresh line).
  func finish() {
    lock.lock()
    defer { lock.unlock() }
    endLine()
  }

  private func endLine() {
    if drewBar {
      FileHandle.standardError.write(Data("\n".utf8))
      drewBar = false
    }
  }

  /// Counts finished units from any thread and reports them: `tick()` once per unit.
  final class Counter: @unchecked Sendable {
    let reporter: ProgressReporter
    let total: Int
    let lock = NSLock()
    var done = 0
    init(_ reporter: ProgressReporter, total: Int) {
      self.reporter = reporter
      self.total = total
      reporter.update(done: 0, total: total)
    }
    func tick() {
      lock.lock()
      done += 1
      let now = done
      lock.unlock()
      reporter.update(done: now, total: total)
    }
  }

  /// `42 s`, `3 min 05 s`, `1 h 02 min`, or `?`.
  static func duration(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds >= 0 else { return "?" }
    let s = Int(seconds.rounded())
    if s < 60 { return seconds < 10 ? "\(NumberFormat.format(seconds, decimals: 1)) s" : "\(s) s" }
    if s < 3600 { return "\(s / 60) min \(NumberFormat.format(s % 60, minimumDigits: 2)) s" }
    return "\(s / 3600) h \(NumberFormat.format(s % 3600 / 60, minimumDigits: 2)) min"
  }
}

/// Runs `body` and maps the batch's errors to messages and exit codes: those of
/// `reportingErrors` (65, 66, 73), plus `BatchError` (65) and `ExperimentUsageError`
/// (a usage error, 64).
func reportingBatchErrors<T>(_ body: () async throws -> T) async throws -> T {
  do {
    return try await body()
  } catch let error as BatchError {
    StandardError.write("error: \(error.description)")
    throw Exit.dataError
  } catch let error as ExperimentUsageError {
    StandardError.write("error: \(error.description)")
    throw Exit.usage
  } catch {
    return try reportingErrors { throw error }
  }
}

/// On Ctrl-C (SIGINT) or SIGTERM during a batch: says how to continue, then exits with
/// 128 + the signal number, as a shell expects. Cells finished so far are in the journal.
enum InterruptNote {
  static let message: [UInt8] = Array(
    "\ninterrupted: the finished cells are in the output folder's journal; run the same command with --resume to continue\n"
      .utf8)

  static func install() {
    _ = message.count  // initialise before any signal arrives
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber) { received in
        InterruptNote.message.withUnsafeBufferPointer { buffer in
          _ = write(STDERR_FILENO, buffer.baseAddress, buffer.count)
        }
        _exit(128 + received)
      }
    }
  }
}
