import SmartStackBase

/// The context a knowledgeC database holds (`KnowledgeCImporter.readsContext`), read from
/// `ZOBJECT` rows of two streams, each a change at its `ZSTARTDATE` (Mac absolute time,
/// `DeviceTime.milliseconds(macAbsolute:)`) with its own `ZSECONDSFROMGMT` as its UTC
/// offset, exactly as a donation's:
///
/// | stream | `charging` / `headphones` |
/// |---|---|
/// | `/device/isPluggedIn`, `ZVALUEINTEGER` 1 / 0 | `charging` `true` / `false` |
/// | `/audio/outputRoute`, port type in `headphonePortTypes` / any other non-empty one | `headphones` `connected` / `disconnected` |
///
/// The port type is `ZSTRUCTUREDMETADATA.Z_DKAUDIOMETADATAKEY__PORTTYPE` through
/// `ZOBJECT.ZSTRUCTUREDMETADATA` (CoreDuet's `_DKAudioMetadataKey-portType`, an
/// `AVAudioSession.Port` raw value). A row of these streams with another value, none, or
/// a time outside 1970–2100 is not a change (`ImportedContext.unread`). `ZENDDATE` is not
/// read: the stream's next row starts the next state.
enum KnowledgeCContext {
  static let pluggedInStream = "/device/isPluggedIn"
  static let audioRouteStream = "/audio/outputRoute"
  /// The metadata column of an audio route's port type.
  static let portTypeColumn = "Z_DKAUDIOMETADATAKEY__PORTTYPE"
  /// `AVAudioSession.Port` raw values that are headphones: `headphones` (wired),
  /// `bluetoothA2DP`, `bluetoothLE` and `bluetoothHFP` (a headset's hands-free profile).
  /// Every other port type (`Speaker`, `Receiver`, `CarAudio`, `AirPlay`, `HDMI`,
  /// `LineOut`, `USBAudio`, …) is `disconnected`.
  static let headphonePortTypes = ["Headphones", "BluetoothA2DPOutput", "BluetoothLE", "BluetoothHFP"]

  /// Reads the changes of `db`, whose `ZOBJECT` has the columns `object`;
  /// `metadata` are `ZSTRUCTUREDMETADATA`'s columns when the join is safe (its `Z_PK` was
  /// checked unique), else empty.
  static func read(_ db: SQLiteDatabase, object: [String], metadata: [String]) throws -> ImportedContext {
    let joins = object.contains("ZSTRUCTUREDMETADATA") && metadata.contains(portTypeColumn)
    let selected = [
      "o.ZSTREAMNAME", "o.ZSTARTDATE",
      object.contains("ZSECONDSFROMGMT") ? "o.ZSECONDSFROMGMT" : "NULL",
      object.contains("ZVALUEINTEGER") ? "o.ZVALUEINTEGER" : "NULL",
      joins ? "m.\(portTypeColumn)" : "NULL",
    ]
    var sql = "SELECT " + selected.joined(separator: ", ") + " FROM ZOBJECT o"
    if joins { sql += " LEFT JOIN ZSTRUCTUREDMETADATA m ON o.ZSTRUCTUREDMETADATA = m.Z_PK" }
    sql += " WHERE o.ZSTREAMNAME IN (?, ?) ORDER BY o.ZSTARTDATE, o.rowid"
    var context = ImportedContext(sources: [pluggedInStream, audioRouteStream], recordsOffsets: true)
    try db.query(sql, bind: [.text(pluggedInStream), .text(audioRouteStream)]) { row in
      let change: (ContextSignal, String)?
      if row.values[0].text == pluggedInStream {
        switch row.values[3].integer {
        case 1: change = (.charging, "true")
        case 0: change = (.charging, "false")
        default: change = nil
        }
      } else if let port = row.values[4].text, !port.isEmpty {
        change = (.headphones, headphonePortTypes.contains(port) ? "connected" : "disconnected")
      } else {
        change = nil
      }
      guard let change, let start = row.values[1].double,
        let ms = DeviceTime.milliseconds(macAbsolute: start)
      else {
        context.unread += 1
        return
      }
      var offset = UTCOffset.none
      if let gmt = row.values[2].integer, gmt.magnitude <= UInt64(UTCOffset.limit) { offset = Int32(gmt) }
      context.add(at: ms, change.0, change.1, offset: offset)
    }
    return context.sorted()
  }
}
