import Foundation
import SmartStackKit

/// Progress of a batch on standard error.
///
/// On a terminal: one line redrawn in place (at most 10 times a second) with a bar,
/// cells done/total, the rate of this run and the time left. Otherwise (a log file, a
/// pipe, a cluster job's output): a plain line at most every 2 seconds, and one at the
/// end. Nothing at all when quiet.
final class ProgressReporter {
  let quiet: Bool
  let isTerminal: Bool
  let label: String
  let clock = ContinuousClock()
  let start: ContinuousClock.Instant
  var lastDraw: ContinuousClock.Instant? = nil
  var initialDone: Int? = nil
  var drewBar = false

  init(label: String, quiet: Bool, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
    self.label = label
    self.quiet = quiet
    self.isTerminal = isTerminal
    start = clock.now
  }

  /// Seconds since the reporter was made.
  var elapsed: Double { Self.seconds(clock.now - start) }

  static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }

  /// Cells done (including journaled ones) out of `total`.
  func update(done: Int, total: Int) {
    guard !quiet else { return }
    if initialDone == nil { initialDone = done }
    let now = clock.now
    let final = done == total
    if let lastDraw, !final {
      let gap = Self.seconds(now - lastDraw)
      if gap < (isTerminal ? 0.1 : 2) { return }
    } else if lastDraw == nil && !isTerminal && !final {
      // Plain output: the first line after 2 s, not at once.
      lastDraw = now
      return
    }
    lastDraw = now
    let ranNow = done - (initialDone ?? 0)
    let rate = elapsed > 0 ? Double(ranNow) / elapsed : 0
    let remaining = total - done
    let eta = rate > 0 ? Double(remaining) / rate : .nan
    let percent = total > 0 ? Int((Double(done) * 100 / Double(total)).rounded(.down)) : 100
    let counts = "\(done)/\(total) cells"
    let speed =
      rate > 0 ? "\(NumberFormat.format(rate, decimals: rate < 10 ? 2 : 1)) cells/s" : "– cells/s"
    if isTerminal {
      let width = 24
      let filled = total > 0 ? done * width / total : width
      let bar =
        String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
      let tail = final ? "done in \(Self.duration(elapsed))" : "ETA \(Self.duration(eta))"
      FileHandle.standardError.write(
        Data("\r\u{1B}[2K\(label) \(bar) \(counts) (\(percent)%)  \(speed)  \(tail)".utf8))
      drewBar = true
      if final { finish() }
    } else if final {
      StandardError.write("\(label): \(counts) done in \(Self.duration(elapsed))")
    } else {
      StandardError.write("\(label): \(counts) (\(percent)%), \(speed), ETA \(Self.duration(eta))")
    }
  }

  /// Ends the bar's line (so later messages start on a fresh line).
  func finish() {
    if drewBar {
      FileHandle.standardError.write(Data("\n".utf8))
      drewBar = false
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
