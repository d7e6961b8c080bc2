import Foundation

/// Fault injection for the crash-consistency and full-disk tests, driven by two
/// environment variables that nothing else reads. Unset (always, outside tests), every
/// check is one dictionary-free `getenv` call and does nothing.
///
/// - `SMARTSTACK_CRASH_AT=POINT:N`: the process kills itself with `SIGKILL` (as `kill -9`
///   would) the N-th time (1-based) it reaches `POINT`. Points: `cell` (a cell's journal
///   line was just written), `report` (a report file was just written into the staging
///   folder), `commit` (the staging folder was just renamed to the committed folder),
///   `move` (a committed file was just renamed into place), `spill` (a spill file's
///   segment was just written: `SpillFile`).
/// - `SMARTSTACK_NO_FSYNC=1`: report sets are not `fsync`ed (they still survive a killed
///   process, not a power cut); for tests that write hundreds of sets on a slow disk.
/// - `SMARTSTACK_FAIL_WRITE=NAME`: writing an output file whose name is `NAME` (e.g.
///   `daily.csv`) writes half its bytes and then fails with `ENOSPC`, as a full disk does.
package enum FaultInjection {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var counts: [String: Int] = [:]

  /// Counts one arrival at `point`; kills the process when `SMARTSTACK_CRASH_AT` says so.
  package static func reached(_ point: String) {
    guard let spec = getenv("SMARTSTACK_CRASH_AT").map({ String(cString: $0) }) else { return }
    let parts = spec.split(separator: ":")
    guard parts.count == 2, parts[0] == point, let target = Int(parts[1]) else { return }
    lock.lock()
    let n = counts[point, default: 0] + 1
    counts[point] = n
    lock.unlock()
    if n == target { kill(getpid(), SIGKILL) }
  }

  /// False when `SMARTSTACK_NO_FSYNC=1`.
  package static var syncs: Bool {
    guard let value = getenv("SMARTSTACK_NO_FSYNC") else { return true }
    return String(cString: value) != "1"
  }

  /// True when writing a file named `name` must fail as on a full disk.
  package static func failsWrite(_ name: String) -> Bool {
    guard let spec = getenv("SMARTSTACK_FAIL_WRITE") else { return false }
    return String(cString: spec) == name
  }
}
