/// Limits on the size of one unit of input, beyond which a reader refuses the input with a
/// located diagnostic instead of carrying on (docs/reliability.md lists every limit).
///
/// Other limits live with the format they bound: `StackSpec.maximumInstances` (10 widgets),
/// `Scenario.maximumDays` (366), `Scenario.maximumPeople` (1,000,000),
/// `ExperimentConfig.maximumReplicates` and `maximumCells`, the importers'
/// `--max-expanded-bytes` (gzip and tar expansion).
public enum InputLimits {
  /// The longest line a CSV or JSON Lines reader accepts: 1 MiB (1,048,576 bytes), not
  /// counting the line end. For CSV, a record whose quoted fields span several lines counts
  /// as one line from its first byte to its line end.
  public static let maximumLineBytes = 1 << 20

  /// The largest input file read whole: 2 GiB (2,147,483,648 bytes). Readers hold a file
  /// in memory with its parsed form, so a bigger one is refused before it is read.
  public static let maximumFileBytes = 2 << 30

  /// A duration in milliseconds as an integer, rounded and clamped to
  /// ±10^13 ms (about 317 years, so adding it to any supported instant cannot overflow);
  /// NaN is 0. For durations that callers validate but the library must never trap on.
  ///
  /// - Complexity: O(1).
  @usableFromInline static package func milliseconds(_ value: Double) -> Int64 {
    guard !value.isNaN else { return 0 }
    return Int64(min(max(value.rounded(), -1e13), 1e13))
  }

  /// The message for a line longer than `maximumLineBytes`.
  static package func lineTooLong(_ length: Int) -> String {
    "line is \(length) bytes long, more than the limit of \(maximumLineBytes) bytes (1 MiB)"
  }
}
