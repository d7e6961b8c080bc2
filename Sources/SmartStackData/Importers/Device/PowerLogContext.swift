import SmartStackBase

/// The context a PowerLog database holds (`PowerLogImporter.readsContext`): whether the
/// device is charging, from `PLBatteryAgent_EventBackward_Battery` (`timestamp`,
/// `IsCharging`), the battery agent's samples (about one every 20 seconds).
///
/// Rows are taken in `timestamp` order (then rowid); each time is corrected by
/// `PowerLogClock`. A row whose `IsCharging` is 1 or 0 and differs from the previous such
/// row (or is the first) is a change, `charging` `true` or `false`; a row repeating the
/// state is a sample, not a change, and is skipped; a row with another value, none, or a
/// time outside 1970–2100 is not read (`ImportedContext.unread`). PowerLog records no UTC
/// offset: the changes have none. `ExternalConnected` (power connected, charging or not)
/// is not read: `charging` says the battery charges.
enum PowerLogContext {
  static let batteryTable = "PLBatteryAgent_EventBackward_Battery"

  /// Reads the changes; `require` checks that a table exists with the columns (throwing
  /// when it exists without them), as `PowerLogImporter` does for its tables.
  static func read(
    _ db: SQLiteDatabase, clock: PowerLogClock, require: (String, [String]) throws -> Bool
  ) throws -> ImportedContext {
    var context = ImportedContext(sources: [batteryTable], recordsOffsets: false)
    guard try require(batteryTable, ["timestamp", "IsCharging"]) else { return context }
    var last: Int64? = nil
    try db.query("SELECT timestamp, IsCharging FROM \(batteryTable) ORDER BY timestamp, rowid") { row in
      guard let raw = row.values[0].double, let ms = clock.milliseconds(raw: raw),
        let charging = row.values[1].integer, charging == 0 || charging == 1
      else {
        context.unread += 1
        return
      }
      guard charging != last else { return }
      last = charging
      context.add(at: ms, .charging, charging == 1 ? "true" : "false", offset: UTCOffset.none)
    }
    return context.sorted()
  }
}
