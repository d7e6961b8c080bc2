import SmartStackBase

extension WatchApp {
  /// The columns of `writeClueCSV`.
  public static let clueCSVHeader = [
    "time", "utc_offset", "widget", "source", "clue", "configuration", "context", "verdict", "reason", "card",
    "replaced_by", "local_time",
  ]

  /// Evaluates every clue at every grid time for the person of `context` and writes CSV,
  /// one row per time and clue, by time and then in `evaluate(at:context:rules:)`'s order:
  ///
  /// - `time`: ISO 8601 UTC;
  /// - `utc_offset`: the person's offset in seconds east of UTC (`ContextCursor.utcOffset`),
  ///   or `zone`'s at `time` when none of their rows has one;
  /// - `widget`, `source` (`relevance` or `intent`), `clue` (index in its source),
  ///   `configuration`, and `context` (the clue as Apple's API writes it);
  /// - `verdict` (`matches` or `dropped`) and `reason` (`ClueDropReason.text`; empty for
  ///   `matches`);
  /// - `card`: the card the clue makes eligible (`EvaluatedClue.card`), or empty;
  /// - `replaced_by`: the relevance widget whose cards replace this timeline card now;
  /// - `local_time`: `time` at `utc_offset` (`2026-03-02T07:30:00+01:00`).
  ///
  /// Pieces of about `chunkBytes` go to `write`; concatenated they are the whole CSV.
  ///
  /// - Complexity: O(T·evaluate) for T grid times.
  public func writeClueCSV(
    on grid: RelevanceGrid, context: ContextCursor, rules: ClueRules, zone: ZoneRules = .utc,
    chunkBytes: Int = 1 << 20, _ write: ([UInt8]) throws -> Void
  ) rethrows {
    var cursor = context
    var csv = CSVWriter(header: Self.clueCSVHeader)
    let headerBytes = csv.bytes.count
    var skip = 0  // the header's bytes, once written
    for step in 0..<grid.count {
      let time = grid.time(at: step)
      cursor.advance(to: time)
      let offset = cursor.utcOffset ?? zone.offsetSeconds(at: time)
      let timeText = ISO8601.format(time)
      let localText = ISO8601.formatLocal(time, offsetSeconds: offset)
      for row in evaluate(at: time, context: cursor, rules: rules) {
        var reason = ""
        if case .dropped(let why) = row.verdict { reason = why.text }
        csv.appendRow([
          timeText, String(offset), widgets[row.widget].kind, row.source.rawValue, String(row.index),
          row.configuration, row.context.description, row.verdict.name, reason, row.card ?? "",
          row.replacedBy ?? "", localText,
        ])
      }
      if csv.bytes.count - skip >= chunkBytes {
        try write(Array(csv.bytes[skip...]))
        csv = CSVWriter(header: Self.clueCSVHeader)  // a fresh buffer; its header is not written again
        skip = headerBytes
      }
    }
    if csv.bytes.count > skip || skip == 0 { try write(Array(csv.bytes[skip...])) }
  }
}
