import SmartStackBase

/// What `DonationStatistics.read(path:format:timeZone:limit:)` found: the statistics, the
/// format the file was read as, its size in bytes, and the columns (CSV) or keys (JSON
/// Lines) the reader ignored, in the order first met (`DonationStatisticsSink`).
public struct StreamedStatistics: Sendable, Hashable {
  public var statistics: DonationStatistics
  public var format: DonationLogFormat
  public var bytes: Int
  public var ignoredColumns: [String] = []
  /// The naive local times the log holds (`LocalTimeReport`).
  public var localTimes = LocalTimeReport()
}

extension DonationStatistics {
  /// The statistics of the donation log at `path`, read in one pass without keeping its
  /// rows or the file: equal to `DonationLog.read(path:format:timeZone:limit:)` followed
  /// by `statistics(in: timeZone)`, and throwing exactly the same problems, but the file
  /// is mapped (`MappedInputFile`) and let go of behind the reader, and only the distinct
  /// names are kept (`DonationStatisticsSink`).
  ///
  /// Memory: the distinct users', kinds', intents' and parameter keys' bytes plus about
  /// 8 to 16 bytes per distinct name, the line or record being read, and a window of the
  /// file of about `MappedInputFile.releaseStep` plus the kernel's read-ahead.
  ///
  /// - Throws: `InputFileError` when the file cannot be read; `DiagnosticList` with every
  ///   problem found (up to `limit`).
  /// - Complexity: O(n) in the file's length (expected, for the name sets).
  public static func read(
    path: String, format: DonationLogFormat? = nil, timeZone: ZoneRules = .utc,
    limit: Int = DiagnosticCollector.defaultLimit
  ) throws -> StreamedStatistics {
    let file = try MappedInputFile(path: path)
    return try file.withBytes { bytes in
      let resolved = DonationLogFormat.resolve(format, path: path, bytes: bytes)
      let sink = try sink(
        bytes: bytes, file: path, format: resolved, timeZone: timeZone, limit: limit,
        passed: { file.release(before: $0) })
      return StreamedStatistics(
        statistics: sink.statistics, format: resolved, bytes: bytes.count,
        ignoredColumns: sink.ignoredColumns, localTimes: sink.localTimes)
    }
  }

  /// The statistics of the donation log in `bytes`, read as `format`, in one pass that
  /// keeps no rows (`read(path:format:timeZone:limit:)`; `passed`, called with the offset
  /// of each record or line before it is read, is the readers' hook for letting go of the
  /// bytes behind them). Public for the fuzz targets, which check it against
  /// `DonationLog.read` followed by `statistics(in:)`.
  public static func read(
    bytes: UnsafeBufferPointer<UInt8>, file: String, format: DonationLogFormat,
    timeZone: ZoneRules, limit: Int = DiagnosticCollector.defaultLimit,
    passed: ((Int) -> Void)? = nil
  ) throws -> DonationStatistics {
    try sink(
      bytes: bytes, file: file, format: format, timeZone: timeZone, limit: limit, passed: passed
    ).statistics
  }

  /// The sink `read(bytes:file:format:timeZone:limit:passed:)` fills.
  private static func sink(
    bytes: UnsafeBufferPointer<UInt8>, file: String, format: DonationLogFormat,
    timeZone: ZoneRules, limit: Int, passed: ((Int) -> Void)?
  ) throws -> DonationStatisticsSink {
    var sink = DonationStatisticsSink(zone: timeZone)
    switch format {
    case .csv:
      try DonationLog.readCSV(
        bytes, file: file, timeZone: timeZone, limit: limit, into: &sink, passed: passed)
    case .jsonl:
      try DonationLog.readJSONLines(
        bytes, file: file, timeZone: timeZone, limit: limit, into: &sink, passed: passed)
    }
    return sink
  }
}
