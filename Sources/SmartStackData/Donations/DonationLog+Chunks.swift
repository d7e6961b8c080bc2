import SmartStackBase

extension DonationLog {
  /// Reads a big donation log on every core: windows of parts (`CSVChunks`), each part
  /// into its own `DonationLogBuilder`, joined in file order (`DonationLogBuilder.append`).
  /// The result is the one-pass reader's: the builder renumbers every id canonically when
  /// it builds, and the naive local times' first places are moved to their lines in the
  /// file. Nil when any part meets a problem (or the header does): the one-pass reader
  /// then reads the file and reports every problem with its own positions.
  ///
  /// Memory: the builder's columns, and of a mapped file about one window.
  static func chunked(
    _ bytes: UnsafeBufferPointer<UInt8>, file: String, format: DonationLogFormat, timeZone: ZoneRules,
    mapped: MappedInputFile?, windowBytes: Int = CSVChunks.windowBytes, parts: Int = ParallelMap.partCount
  ) -> DonationLogBuilder? {
    var joined = DonationLogBuilder()
    let read = chunked(
      bytes, file: file, format: format, timeZone: timeZone, mapped: mapped, windowBytes: windowBytes, parts: parts
    ) { part, cut, lineOffset in
      if joined.count == 0 {
        joined.reserve(CSVChunks.estimatedRows(part.count, in: cut.count, remaining: bytes.count - cut.lowerBound))
      }
      joined.append(part, lineOffset: lineOffset)
    }
    return read ? joined : nil
  }

  /// `chunked(_:file:format:timeZone:mapped:windowBytes:parts:)` handing each part, in file
  /// order, to `join` with its bytes (`cut`) and the number of lines before it (counted
  /// only as far as a part with naive local times needs: 0 may be passed for a part without
  /// any), instead of joining the parts into one builder: what `DonationSpill` writes to
  /// disk as it reads. False when any part (or the header) meets a problem; the parts
  /// before it were handed over.
  static func chunked(
    _ bytes: UnsafeBufferPointer<UInt8>, file: String, format: DonationLogFormat, timeZone: ZoneRules,
    mapped: MappedInputFile?, windowBytes: Int = CSVChunks.windowBytes, parts: Int = ParallelMap.partCount,
    join: (_ part: DonationLogBuilder, _ cut: Range<Int>, _ lineOffset: Int) -> Void
  ) -> Bool {
    // Where the body starts, and how a part is read.
    var start = 0
    let readPart: (Range<Int>) -> DonationLogBuilder?
    switch format {
    case .csv:
      var csv = CSVReader(bytes)
      guard case .record = csv.next(), let columns = try? CSVColumns(csv, file: file, limit: 1),
        let fieldCount = csv.expectedFieldCount
      else { return false }
      start = csv.offset
      readPart = { range in
        var csv = CSVReader(chunk: UnsafeBufferPointer(rebasing: bytes[range]), expectedFieldCount: fieldCount)
        var reader = CSVRowReader(columns: columns, timeZone: timeZone)
        var problems = DiagnosticCollector(file: file, limit: 1)
        var part = DonationLogBuilder()
        part.reserve(range.count / 64)
        while problems.isEmpty {
          switch csv.next() {
          case .end: return part
          case .problem: return nil
          case .record: reader.read(csv, into: &part, problems: &problems)
          }
        }
        return nil
      }
    case .jsonl:
      readPart = { range in
        var part = DonationLogBuilder()
        do {
          try readJSONLines(UnsafeBufferPointer(rebasing: bytes[range]), file: file, timeZone: timeZone, limit: 1, into: &part)
        } catch {
          return nil
        }
        return part
      }
    }
    // Lines before `counted` (LF bytes in `bytes[..<counted]`), counted only as far as a
    // part with naive local times needs.
    var counted = 0
    var lines = 0
    return CSVChunks.read(
      bytes, from: start, quoted: format == .csv, mapped: mapped, windowBytes: windowBytes, parts: parts,
      readPart: readPart,
      join: { part, cut in
        if !part.localTimes.isEmpty {
          lines += CSVChunks.lineFeeds(in: bytes, counted..<cut.lowerBound)
          counted = cut.lowerBound
        }
        join(part, cut, lines)
      })
  }
}
