import SmartStackBase

/// The context changes a device importer read from its source: the rows of a context file
/// (`ContextLog`) for the device's one person, `default` (`DeviceLogBuilder.user`).
///
/// Row `i` says that from `times[i]` (epoch milliseconds) on, `signals[i]` is `values[i]`
/// (always one of the signal's `ContextSignal.fixedValues`), with the source row's own UTC
/// offset `utcOffsets[i]` in seconds east of UTC, or `UTCOffset.none`. `sorted()` orders
/// the rows by time, stably, as the donation and visit logs are.
public struct ImportedContext: Sendable, Hashable {
  public private(set) var times: [Int64] = []
  public private(set) var signals: [ContextSignal] = []
  public private(set) var values: [String] = []
  public private(set) var utcOffsets: [Int32] = []
  /// Whether the source records UTC offsets (knowledgeC's `ZSECONDSFROMGMT`): the text
  /// then has a `utc_offset` column, as the donation log has; PowerLog's has none.
  public let recordsOffsets: Bool
  /// The streams or tables the changes are read from, as the source names them, for the
  /// note that a source holds no context.
  public let sources: [String]
  /// Rows of those streams or tables that say no state the signals have (a value other
  /// than the documented ones, an empty one, or a time outside 1970–2100): not changes.
  public internal(set) var unread = 0

  public init(sources: [String], recordsOffsets: Bool) {
    self.sources = sources
    self.recordsOffsets = recordsOffsets
  }

  /// The number of changes.
  public var count: Int { times.count }

  /// Appends a change; `value` must be one of `signal`'s values.
  mutating func add(at milliseconds: Int64, _ signal: ContextSignal, _ value: String, offset: Int32) {
    precondition(signal.problem(with: value) == nil, "\(value) is not a value of \(signal.name)")
    times.append(milliseconds)
    signals.append(signal)
    values.append(value)
    utcOffsets.append(offset)
  }

  /// The changes ordered by time; at equal times, in the order they were added.
  ///
  /// - Complexity: O(n log n).
  func sorted() -> ImportedContext {
    let order = times.indices.sorted { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
    var copy = self
    copy.times = order.map { times[$0] }
    copy.signals = order.map { signals[$0] }
    copy.values = order.map { values[$0] }
    copy.utcOffsets = order.map { utcOffsets[$0] }
    return copy
  }

  /// The context file as the importer writes it, which `ContextLog.read` reads back as the
  /// same changes: CSV `timestamp,user,signal,value` (plus `utc_offset` when
  /// `recordsOffsets`: seconds east of UTC, empty for a row without one), or JSON Lines
  /// with the same keys (`utc_offset` a number or `null`). Each timestamp is written with
  /// its row's own offset (`DeviceTime.format`), as the donation log's are; `user` is
  /// always `default`.
  ///
  /// - Complexity: O(n) in the size of the output.
  public func text(jsonLines: Bool) -> String {
    let user = DeviceLogBuilder.user
    if jsonLines {
      var text = ""
      for i in 0..<count {
        text += "{\"timestamp\":\"" + DeviceTime.format(milliseconds: times[i], utcOffset: utcOffsets[i])
          + "\",\"user\":" + JSONEscaping.quoted(user) + ",\"signal\":\"" + signals[i].name
          + "\",\"value\":\"" + values[i] + "\""
        if recordsOffsets {
          text += ",\"utc_offset\":" + (utcOffsets[i] == UTCOffset.none ? "null" : String(utcOffsets[i]))
        }
        text += "}\n"
      }
      return text
    }
    var csv = CSVWriter(header: ["timestamp", "user", "signal", "value"] + (recordsOffsets ? [UTCOffset.fieldName] : []))
    for i in 0..<count {
      csv.append(DeviceTime.format(milliseconds: times[i], utcOffset: utcOffsets[i]))
      csv.append(user)
      csv.append(signals[i].name)
      csv.append(values[i])
      if recordsOffsets { csv.append(ImportResult.offsetText(utcOffsets[i])) }
      csv.endRow()
    }
    return csv.text
  }
}
