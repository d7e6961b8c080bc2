import SmartStackBase

extension TimelineFile {
  /// The columns of `writeRelevanceCSV`.
  public static let relevanceCSVHeader = ["time", "instance", "state", "score", "percentile", "local_time"]

  /// Evaluates the file on `grid` (see `evaluate(on:normaliser:_:)`) and writes CSV:
  /// the header `time,instance,state,score,percentile,local_time`, then one row per grid time and
  /// instance, by time and then file order.
  ///
  /// - `time`: ISO 8601 UTC (`ISO8601.format`);
  /// - `instance`: the instance id (quoted per RFC 4180 when needed);
  /// - `state`: `none`, `active`, `suppressed` or `expired`;
  /// - `score`: the window's score for `active`/`suppressed`, `0` for `expired`, empty
  ///   for `none`;
  /// - `percentile`: empty for `none` and `expired`;
  /// - `local_time`: `time` in `zone` with its offset (`2026-03-02T10:00:00+01:00`).
  ///
  /// Numbers are written by `NumberFormat.format`. The output is handed to `write` in
  /// pieces of about `chunkBytes` bytes (at least one piece: the header), so memory stays
  /// bounded however many rows there are; concatenated they are the whole CSV.
  ///
  /// - Complexity: that of `evaluate` plus O(output size).
  public func writeRelevanceCSV(
    on grid: RelevanceGrid, normaliser: PercentileNormaliser, zone: ZoneRules = .utc,
    chunkBytes: Int = 1 << 20,
    _ write: ([UInt8]) throws -> Void
  ) rethrows {
    let limit = max(1, chunkBytes)
    var buffer = CSVWriter(header: Self.relevanceCSVHeader).bytes
    buffer.reserveCapacity(min(limit, 1 << 24) + 256)
    // Each id's field bytes, quoted by the CSV writer's rules (a one-column "header").
    let idFields: [[UInt8]] = instances.map { Array(CSVWriter(header: [$0.id]).bytes.dropLast()) }
    // Score texts change only when a window changes: keep the last one per instance.
    var lastScore = [Double?](repeating: nil, count: instances.count)
    var lastScoreText = [[UInt8]](repeating: [], count: instances.count)
    var timeText: [UInt8] = []
    var localText: [UInt8] = []
    var timeOfText: Instant? = nil

    try evaluate(on: grid, normaliser: normaliser) { row in
      if timeOfText != row.time {
        timeText = Array(ISO8601.format(row.time).utf8)
        localText = Array(ISO8601.formatLocal(row.time, zone: zone).utf8)
        timeOfText = row.time
      }
      buffer.append(contentsOf: timeText)
      buffer.append(UInt8(ascii: ","))
      buffer.append(contentsOf: idFields[row.instance])
      buffer.append(UInt8(ascii: ","))
      buffer.append(contentsOf: row.state.name.utf8)
      buffer.append(UInt8(ascii: ","))
      if let score = row.state.effectiveScore {
        // Compare bit patterns so -0.0 and 0.0 keep their own texts.
        if lastScore[row.instance]?.bitPattern != score.bitPattern {
          lastScore[row.instance] = score
          lastScoreText[row.instance] = Array(NumberFormat.format(score).utf8)
        }
        buffer.append(contentsOf: lastScoreText[row.instance])
      }
      buffer.append(UInt8(ascii: ","))
      if let percentile = row.percentile {
        buffer.append(contentsOf: NumberFormat.format(percentile).utf8)
      }
      buffer.append(UInt8(ascii: ","))
      buffer.append(contentsOf: localText)
      buffer.append(UInt8(ascii: "\n"))
      if buffer.count >= limit {
        try write(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    if !buffer.isEmpty { try write(buffer) }
  }
}
