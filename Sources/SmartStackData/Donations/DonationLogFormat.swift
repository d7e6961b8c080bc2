import SmartStackBase

/// The file formats a donation log can be read from and written to (DESIGN.md §5), also
/// as an experiment config's `format` reads them (`"csv"`, `"jsonl"`).
public enum DonationLogFormat: String, Sendable, Hashable, CaseIterable, JSONDecodable {
  /// RFC 4180 CSV with a header row: `timestamp,user,kind,intent,parameters`.
  case csv
  /// JSON Lines: one JSON object per line with the same field names.
  case jsonl

  /// The format a file name implies: `.csv` is CSV; `.jsonl`, `.ndjson` and `.json` are
  /// JSON Lines (case-insensitive); nil for any other extension.
  public init?(path: String) {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    switch name[name.index(after: dot)...].lowercased() {
    case "csv": self = .csv
    case "jsonl", "ndjson", "json": self = .jsonl
    default: return nil
    }
  }

  /// The format of a log: `explicit` when given, else the one the path's extension implies,
  /// else guessed from the content (JSON Lines when the first byte that is not white space
  /// or a byte order mark is `{`, CSV otherwise).
  public static func resolve<Bytes: RandomAccessCollection<UInt8>>(
    _ explicit: DonationLogFormat?, path: String, bytes: Bytes
  ) -> DonationLogFormat where Bytes.Index == Int {
    if let explicit { return explicit }
    if let byName = DonationLogFormat(path: path) { return byName }
    var i = bytes.startIndex + (bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
    while i < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    return i < bytes.endIndex && bytes[i] == UInt8(ascii: "{") ? .jsonl : .csv
  }
}

extension DonationLog {
  /// Reads a donation log file.
  ///
  /// - Parameters:
  ///   - path: The file, as the user named it (diagnostics start with it).
  ///   - format: The format; nil chooses by extension, then by content
  ///     (`DonationLogFormat.resolve`).
  ///   - timeZone: The zone naive timestamps (`2026-03-02 08:01:05`) are read in.
  ///   - limit: How many problems to report before giving up.
  /// - Throws: `InputFileError` when the file cannot be read; `DiagnosticList` with every
  ///   problem found (up to `limit`) when the content is bad. Never a partial log.
  public static func read(
    path: String, format: DonationLogFormat? = nil, timeZone: ZoneRules = .utc,
    limit: Int = DiagnosticCollector.defaultLimit
  ) throws -> DonationLog {
    var localTimes = LocalTimeReport()
    return try read(
      path: path, format: format, timeZone: timeZone, limit: limit, localTimes: &localTimes)
  }

  /// `read(path:format:timeZone:limit:)`, also giving the naive local times the log holds
  /// (`LocalTimeReport`: how many, how many in a gap or a fold of `timeZone`, the first
  /// of each), for the warnings a command prints.
  public static func read(
    path: String, format: DonationLogFormat? = nil, timeZone: ZoneRules = .utc,
    limit: Int = DiagnosticCollector.defaultLimit, localTimes: inout LocalTimeReport
  ) throws -> DonationLog {
    // Mapped and let go of behind the reader: only the log's columns stay resident.
    let file = try MappedInputFile(path: path)
    let builder = try file.withBytes { buffer in
      try read(buffer, file: path, format: format, timeZone: timeZone, limit: limit, mapped: file)
    }
    localTimes = builder.localTimes
    return builder.build()
  }

  /// Reads a donation log from bytes; `file` names it in diagnostics and, when `format` is
  /// nil, chooses the format as in `read(path:format:timeZone:limit:)`.
  ///
  /// - Throws: `DiagnosticList` with every problem found (up to `limit`).
  public static func read(
    bytes: [UInt8], file: String, format: DonationLogFormat? = nil, timeZone: ZoneRules = .utc,
    limit: Int = DiagnosticCollector.defaultLimit
  ) throws -> DonationLog {
    var localTimes = LocalTimeReport()
    return try read(
      bytes: bytes, file: file, format: format, timeZone: timeZone, limit: limit,
      localTimes: &localTimes)
  }

  /// `read(bytes:file:format:timeZone:limit:)`, also giving the naive local times
  /// (`read(path:format:timeZone:limit:localTimes:)`).
  public static func read(
    bytes: [UInt8], file: String, format: DonationLogFormat? = nil, timeZone: ZoneRules = .utc,
    limit: Int = DiagnosticCollector.defaultLimit, localTimes: inout LocalTimeReport
  ) throws -> DonationLog {
    let builder = try bytes.withUnsafeBufferPointer { buffer in
      try read(buffer, file: file, format: format, timeZone: timeZone, limit: limit, mapped: nil)
    }
    localTimes = builder.localTimes
    return builder.build()
  }

  /// The rows of the log in `buffer` (`mapped`'s bytes when it is a mapped file, let go
  /// of behind the reader): a big log on every core (`chunked`), a small one, and any log
  /// with a problem, in one pass, which reports every problem.
  private static func read(
    _ buffer: UnsafeBufferPointer<UInt8>, file: String, format: DonationLogFormat?, timeZone: ZoneRules,
    limit: Int, mapped: MappedInputFile?
  ) throws -> DonationLogBuilder {
    let format = DonationLogFormat.resolve(format, path: file, bytes: buffer)
    if buffer.count >= CSVChunks.minimumBytes,
      let builder = chunked(buffer, file: file, format: format, timeZone: timeZone, mapped: mapped)
    {
      return builder
    }
    var builder = DonationLogBuilder()
    let passed = mapped.map { file in { (offset: Int) in file.release(before: offset) } }
    switch format {
    case .csv:
      try readCSV(buffer, file: file, timeZone: timeZone, limit: limit, into: &builder, passed: passed)
    case .jsonl:
      try readJSONLines(buffer, file: file, timeZone: timeZone, limit: limit, into: &builder, passed: passed)
    }
    return builder
  }
}
