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

  /// The message for a line longer than `maximumLineBytes`.
  static func lineTooLong(_ length: Int) -> String {
    "line is \(length) bytes long, more than the limit of \(maximumLineBytes) bytes (1 MiB)"
  }
}
