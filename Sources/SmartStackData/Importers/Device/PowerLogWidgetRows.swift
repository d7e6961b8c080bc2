import SmartStackBase
/// PowerLog's home-screen widget statistics, as found: the rows of every table that has a
/// column named `isInStack` (ASCII case-insensitive), tables in name order, rows in
/// `timestamp` order.
///
/// No public source we could check names the table or its other columns, so nothing is
/// assumed about them: each row is written with its table's name, its corrected time (from
/// a `timestamp` column when the table has one) and every other non-null stored column
/// (generated columns are not read) as
/// `name=value` pairs (`ParameterText`), among them `isInStack` and whatever columns hold
/// the widget's size and time on screen on that iOS version.
public struct PowerLogWidgetRows: Sendable {
  /// One row: epoch ms (nil when the table has no usable `timestamp`), table, fields
  /// sorted by name.
  public var rows: [(milliseconds: Int64?, table: String, fields: [Parameter])] = []

  public var count: Int { rows.count }

  public init() {}

  /// The tables of `tables` (in their order) with a column named `isInStack`.
  static func tables(_ db: SQLiteDatabase, tables: [String]) throws -> [String] {
    try tables.filter { try db.columns(of: $0).contains { $0.lowercased() == "isinstack" } }
  }

  /// Reads the rows of those of `tables` with an `isInStack` column, calling `tick` once
  /// per row.
  static func read(
    _ db: SQLiteDatabase, tables: [String], clock: PowerLogClock, tick: () -> Void = {}
  ) throws -> PowerLogWidgetRows {
    var widgets = PowerLogWidgetRows()
    for table in tables {
      let columns = try db.columns(of: table)
      guard columns.contains(where: { $0.lowercased() == "isinstack" }) else { continue }
      let timestamp = columns.first { $0.lowercased() == "timestamp" }
      let order = timestamp.map { SQLiteDatabase.quoted($0) + ", rowid" } ?? "rowid"
      // The stored columns by name, never `SELECT *`: `columns(of:)` (`PRAGMA table_info`)
      // leaves out generated columns, which would be computed on every read.
      let list = columns.map(SQLiteDatabase.quoted).joined(separator: ", ")
      try db.query("SELECT \(list) FROM \(SQLiteDatabase.quoted(table)) ORDER BY \(order)") { row in
        tick()
        var ms: Int64?
        var fields: [Parameter] = []
        for (name, value) in zip(row.names, row.values) {
          if name == timestamp {
            ms = value.double.flatMap { clock.milliseconds(raw: $0) }
          } else if name.uppercased() != "ID", let text = value.text {
            fields.append(Parameter(name, text))
          }
        }
        widgets.rows.append((ms, table, fields.sorted()))
      }
    }
    return widgets
  }

  /// CSV `timestamp,table,fields`: the corrected time in UTC (empty when unknown), the
  /// table, and the fields as `ParameterText` (`key=value;...`).
  public func csvText() -> String {
    var csv = CSVWriter(header: ["timestamp", "table", "fields"])
    for row in rows {
      csv.append(row.milliseconds.map { ISO8601.format(Instant(milliseconds: $0)) } ?? "")
      csv.append(row.table)
      csv.append(ParameterText.encode(row.fields))
      csv.endRow()
    }
    return csv.text
  }
}
