import SmartStackBase

/// One person's context at a moving time: the value of each signal set by their changes
/// dated `<= time` (`ContextLog`'s meaning: a row holds until the person's next row of the
/// same signal; before the first, the signal is unknown), and their UTC offset.
///
/// Times must not go backwards (`advance(to:)`), so a grid is walked in one pass.
public struct ContextCursor: Sendable {
  /// The person's rows of the log, by time (ties: file order).
  private let rows: [Int]
  private let log: ContextLog
  private var next = 0
  /// `values[signal.rawValue]`: the current value, or nil while unknown.
  public private(set) var values: [String?] = Array(repeating: nil, count: ContextSignal.allCases.count)
  /// The UTC offset (seconds east) of the person's latest row with one dated `<= time`;
  /// before it, the first such row's; nil when none of their rows has an offset.
  public private(set) var utcOffset: Int?
  /// The time of the last `advance(to:)`.
  public private(set) var time = Instant(milliseconds: .min)

  /// The cursor of `user` in `log`, before any change.
  ///
  /// - Complexity: O(r log r) for the log's r rows.
  public init(log: ContextLog, user: String) {
    self.log = log
    rows = log.changes(of: user)
    utcOffset = rows.lazy.map { log.utcOffset($0) }.first { $0 != UTCOffset.none }.map(Int.init)
  }

  /// The person's first and last change times, or nil when they have none.
  public var span: (first: Instant, last: Instant)? {
    guard let first = rows.first, let last = rows.last else { return nil }
    return (Instant(milliseconds: log.times[first]), Instant(milliseconds: log.times[last]))
  }

  /// Applies every change dated `<= time`. Amortised O(1) per change.
  ///
  /// - Precondition: `time` is not before the previous call's.
  public mutating func advance(to time: Instant) {
    precondition(time >= self.time, "ContextCursor times must not go backwards")
    self.time = time
    while next < rows.count, log.times[rows[next]] <= time.milliseconds {
      let r = rows[next]
      values[log.signals[r].rawValue] = log.values[r]
      if log.utcOffset(r) != UTCOffset.none { utcOffset = Int(log.utcOffset(r)) }
      next += 1
    }
  }

  /// The current value of `signal`, or nil while unknown. O(1).
  public subscript(_ signal: ContextSignal) -> String? { values[signal.rawValue] }
}
