import SmartStackBase
/// PowerLog's clock correction (`PLStorageOperator_EventForward_TimeOffset`).
///
/// PowerLog stores its `timestamp` columns in Unix seconds of its own clock, which can
/// drift from wall time; the time-offset table records, per row, a `system` value in
/// seconds. A raw time is corrected by adding the `system` of the offset row in effect
/// at it: the latest row whose `timestamp` is at or before it, or the earliest row for a
/// time before all of them (the rule of iLEAPP's `powerlog.py` and of Whiffin's
/// "PowerLog" write-up). With no offset rows, times are used as stored.
public struct PowerLogClock: Sendable {
  /// The offset rows, sorted by raw timestamp (stably).
  public let offsets: [(timestamp: Double, system: Double)]

  public init(_ offsets: [(timestamp: Double, system: Double)]) {
    self.offsets = offsets.enumerated().sorted {
      $0.element.timestamp != $1.element.timestamp
        ? $0.element.timestamp < $1.element.timestamp : $0.offset < $1.offset
    }.map(\.element)
  }

  /// The `system` offset in effect at raw time `raw` (seconds), 0 when there are no rows.
  ///
  /// - Complexity: O(log n).
  public func offset(at raw: Double) -> Double {
    guard !offsets.isEmpty else { return 0 }
    var low = 0
    var high = offsets.count  // the first row with timestamp > raw
    while low < high {
      let mid = (low + high) / 2
      if offsets[mid].timestamp <= raw { low = mid + 1 } else { high = mid }
    }
    return offsets[max(0, low - 1)].system
  }

  /// True when `raw` is before the first offset row (the earliest offset is used).
  public func isBeforeFirst(_ raw: Double) -> Bool {
    guard let first = offsets.first else { return false }
    return raw < first.timestamp
  }

  /// Epoch milliseconds of raw time `raw` after correction, or nil when out of range.
  public func milliseconds(raw: Double) -> Int64? {
    DeviceTime.milliseconds(unixSeconds: raw + offset(at: raw))
  }
}
