import CSQLite
import Foundation
import SmartStackBase

/// A problem reading a SQLite database: `FILE: what is wrong`. Bad data (a file that is
/// not a database, a truncated one, a missing table) is exit 65 on the command line; an
/// unreadable file is an `InputFileError` (66) instead.
public struct DatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The database as the user named it (never the temporary copy).
  public var file: String
  /// What is wrong, in words a person can act on.
  public var message: String

  public init(file: String, message: String) {
    self.file = file
    self.message = message
  }

  /// `FILE: message`, control characters escaped (`TerminalText.escapingControls`): the
  /// file name and SQLite's own messages may quote hostile text (a schema's names).
  public var description: String { TerminalText.escapingControls("\(file): \(message)") }
}

/// One column value of a row, copied out of SQLite.
public enum SQLiteValue: Sendable, Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])

  /// The value as a Double (integers converted), or nil for null, text and blobs.
  public var double: Double? {
    switch self {
    case .integer(let v): Double(v)
    case .real(let v): v
    default: nil
    }
  }

  /// The value as an integer (reals truncated toward zero when finite), or nil.
  public var integer: Int64? {
    switch self {
    case .integer(let v): v
    case .real(let v) where v.isFinite && abs(v) < 9.2e18: Int64(v)
    default: nil
    }
  }

  /// Text, or integers and reals written as SQLite would; nil for null and blobs.
  public var text: String? {
    switch self {
    case .text(let v): v
    case .integer(let v): String(v)
    case .real(let v): String(v)
    default: nil
    }
  }
}

/// A read-only connection to a SQLite database, through the system library (`CSQLite`).
///
/// **Evidence safety.** `open(copying:)` never opens the file it is given: it copies the
/// database and its `-wal` and `-shm` files (when present) byte for byte into a fresh
/// temporary folder, opens *that copy* with `SQLITE_OPEN_READONLY` (so rows that exist
/// only in the write-ahead log are still read), and `close()` removes the folder. The
/// original files are only ever read with `open(2)`/`read(2)`: their bytes and
/// modification times do not change.
///
/// **Invariants of the unsafe code**, all of it in this type:
/// - `handle` is a connection returned by `sqlite3_open_v2` with `SQLITE_OK`, owned by
///   this value alone, used by one thread at a time (`SQLiteDatabase` is not
///   `Sendable`), and closed exactly once, by `close()` (or `deinit` of the box).
/// - A statement pointer lives only inside `query(_:bind:row:)`: prepared, stepped and
///   finalised there, whatever the closure throws.
/// - Column text and blobs are copied into Swift values before the next `sqlite3_step`,
///   so no pointer SQLite owns escapes.
/// - A blob handle lives only inside `blob(table:column:rowid:)`, closed there; it reads
///   exactly `sqlite3_blob_bytes` bytes into an array of that capacity.
public final class SQLiteDatabase {
  /// The file the user named, for messages.
  public let file: String
  private var handle: OpaquePointer?
  /// The folder holding the copy (removed by `close()`); nil for a database not copied.
  let temporaryFolder: String?
  /// The text values read so far that were not valid UTF-8 (each read with U+FFFD in
  /// place of its bad bytes): the importers report the count.
  public private(set) var invalidUTF8Values = 0

  private init(file: String, handle: OpaquePointer, temporaryFolder: String?) {
    self.file = file
    self.handle = handle
    self.temporaryFolder = temporaryFolder
  }

  deinit { close() }

  /// Copies `path` (and its `-wal`, `-shm`, looked for beside the file `path` leads to
  /// through links) to a new temporary folder (`SQLiteCopyFolder`, which first removes
  /// the copies killed runs left) and opens the copy read-only. Checks that the copy is a
  /// readable database (reads its schema).
  ///
  /// - Throws: `InputFileError` when `path` is missing or unreadable; `DatabaseError`
  ///   (`path: is not a SQLite database ...`) when it is not a database or is damaged.
  public static func open(copying path: String) throws -> SQLiteDatabase {
    // Through links: the -wal and -shm that hold the newest rows are beside the file the
    // link leads to, not beside the link.
    let real = ResolvedPath.of(path)
    // Checked as named first, so a missing or special file is reported by its name.
    try SQLiteCopyFolder.checkReadable(path)
    let folder = try SQLiteCopyFolder.create(for: path)
    let copy = folder + "/database.sqlite"
    do {
      try SQLiteCopyFolder.copy(real, to: copy)
      for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: real + suffix) {
        try SQLiteCopyFolder.copy(real + suffix, to: copy + suffix)
      }
      let database = try openReadOnly(copy, file: path, temporaryFolder: folder)
      try database.checkReadable()
      return database
    } catch {
      try? FileManager.default.removeItem(atPath: folder)
      throw error
    }
  }

  /// Opens a copy of `path` (`open(copying:)`), calls `body` with it, then closes it and
  /// removes the copy, whatever `body` throws.
  public static func withCopy<R>(of path: String, _ body: (SQLiteDatabase) throws -> R) throws
    -> R
  {
    let database = try open(copying: path)
    defer { database.close() }
    return try body(database)
  }

  private static func openReadOnly(_ path: String, file: String, temporaryFolder: String?)
    throws -> SQLiteDatabase
  {
    var pointer: OpaquePointer?
    let status = sqlite3_open_v2(path, &pointer, SQLITE_OPEN_READONLY, nil)
    guard status == SQLITE_OK, let pointer else {
      let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      sqlite3_close(pointer)
      throw DatabaseError(file: file, message: "cannot open as a SQLite database: \(message)")
    }
    // Every value SQLite makes, read from the file or computed (a generated column), is
    // bounded: a bigger one fails the statement with SQLITE_TOOBIG instead of taking
    // memory without limit.
    sqlite3_limit(pointer, SQLITE_LIMIT_LENGTH, Int32(maximumValueBytes))
    return SQLiteDatabase(file: file, handle: pointer, temporaryFolder: temporaryFolder)
  }

  /// The largest value (text or blob, in bytes) a statement may read or compute: 16 MiB.
  /// A value beyond it fails the statement (`valueTooLarge`); a blob that may be bigger is
  /// read with `blob(table:column:rowid:)` instead, which skips it unread.
  public static let maximumValueBytes = 16 << 20

  /// What `blob(table:column:rowid:)` read.
  public enum BlobRead: Sendable, Equatable {
    /// The value's bytes (empty for NULL and for an empty value).
    case bytes([UInt8])
    /// The value has this many bytes, more than `maximumValueBytes`: not read.
    case tooLarge(Int)
    /// SQLite cannot open it as a blob (no such row, a generated column, a table
    /// without rowid).
    case unavailable
  }

  /// The stored value of `column` in the row `rowid` of `table`, read with SQLite's
  /// incremental blob I/O straight into one Swift array, or only its size when it is over
  /// `maximumValueBytes` (a 100 MB blob costs nothing).
  public func blob(table: String, column: String, rowid: Int64) -> BlobRead {
    guard let handle else { return .unavailable }
    var blob: OpaquePointer?
    guard sqlite3_blob_open(handle, "main", table, column, rowid, 0, &blob) == SQLITE_OK, let blob else {
      return .unavailable
    }
    defer { sqlite3_blob_close(blob) }
    let count = Int(sqlite3_blob_bytes(blob))
    guard count <= Self.maximumValueBytes else { return .tooLarge(count) }
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      failed = count > 0 && sqlite3_blob_read(blob, buffer.baseAddress, Int32(count), 0) != SQLITE_OK
      initialized = failed ? 0 : count
    }
    return failed ? .unavailable : .bytes(bytes)
  }

  /// The message for a statement that failed on a value beyond `maximumValueBytes`.
  static var valueTooLarge: String {
    "a value (text or blob, stored or computed by a generated column) is larger than "
      + "\(maximumValueBytes) bytes (16 MiB), the most the importers read"
  }

  /// Reads the schema and checks the database's integrity quickly, so a file that is not
  /// a database, or a truncated one, fails here with a clear message.
  private func checkReadable() throws {
    do {
      _ = try tables()
      try query("PRAGMA quick_check(1)") { row in
        if let verdict = row.text(0), verdict != "ok" {
          throw DatabaseError(file: file, message: "the database is damaged: \(verdict)")
        }
      }
    } catch let error as DatabaseError {
      // quick_check computes generated columns with NOT NULL: one beyond the value limit
      // stops the check, not the import, which reads only the columns it needs.
      if error.message == Self.valueTooLarge { return }
      if error.message.hasPrefix("the database is damaged") { throw error }
      throw DatabaseError(
        file: file,
        message: "is not a readable SQLite database (\(error.message)); is it truncated or another kind of file?")
    }
  }

  /// Closes the connection and removes the temporary copy. Safe to call twice.
  public func close() {
    if let handle { sqlite3_close_v2(handle) }
    handle = nil
    if let temporaryFolder { try? FileManager.default.removeItem(atPath: temporaryFolder) }
  }

  /// The names of the tables, sorted.
  public func tables() throws -> [String] {
    var names: [String] = []
    try query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { row in
      if let name = row.text(0) { names.append(name) }
    }
    return names
  }

  /// The columns of `table` in declaration order (`PRAGMA table_info`); empty when the
  /// table does not exist.
  public func columns(of table: String) throws -> [String] {
    var names: [String] = []
    try query("PRAGMA table_info(\(Self.quoted(table)))") { row in
      if let name = row["name"]?.text { names.append(name) }
    }
    return names
  }

  /// The number of rows of `tables` together (`SELECT COUNT(*)` of each).
  public func rowCount(of tables: [String]) throws -> Int {
    var total = 0
    for table in tables {
      try query("SELECT COUNT(*) FROM \(Self.quoted(table))") { total += Int($0.values[0].integer ?? 0) }
    }
    return total
  }

  /// `name` as a SQL identifier in double quotes (inner quotes doubled).
  public static func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// Prepares `sql`, binds `bind` to its `?` parameters (1-based, in order), and calls
  /// `row` with every result row in order.
  ///
  /// - Throws: `DatabaseError` when SQLite refuses the statement or fails while stepping
  ///   (a damaged file); whatever `row` throws.
  public func query(
    _ sql: String, bind: [SQLiteValue] = [], row body: (SQLiteRow) throws -> Void
  ) throws {
    guard let handle else { throw DatabaseError(file: file, message: "the database is closed") }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw DatabaseError(file: file, message: String(cString: sqlite3_errmsg(handle)))
    }
    defer { sqlite3_finalize(statement) }
    for (index, value) in bind.enumerated() {
      let i = Int32(index + 1)
      switch value {
      case .null: sqlite3_bind_null(statement, i)
      case .integer(let v): sqlite3_bind_int64(statement, i, v)
      case .real(let v): sqlite3_bind_double(statement, i, v)
      case .text(let v):
        var text = v
        _ = text.withUTF8 { bytes in
          bytes.withMemoryRebound(to: CChar.self) {
            csqlite_bind_text_transient(statement, i, $0.baseAddress, Int32($0.count))
          }
        }
      case .blob(let v):
        _ = v.withUnsafeBytes {
          sqlite3_bind_blob(statement, i, $0.baseAddress, Int32($0.count), nil)
        }
      }
    }
    let count = Int(sqlite3_column_count(statement))
    let names = (0..<count).map { String(cString: sqlite3_column_name(statement, Int32($0))) }
    while true {
      let status = sqlite3_step(statement)
      if status == SQLITE_DONE { return }
      guard status == SQLITE_ROW else { throw stepError(status, handle) }
      var values: [SQLiteValue] = []
      values.reserveCapacity(count)
      for c in 0..<Int32(count) { values.append(value(statement, c)) }
      try body(SQLiteRow(names: names, values: values))
    }
  }

  /// The error of a failed `sqlite3_step`, SQLite's message escaped (it may quote a
  /// hostile schema).
  private func stepError(_ status: Int32, _ handle: OpaquePointer) -> DatabaseError {
    if status == SQLITE_TOOBIG { return DatabaseError(file: file, message: Self.valueTooLarge) }
    return DatabaseError(file: file, message: String(cString: sqlite3_errmsg(handle)))
  }

  /// Column `c` of the current row, copied.
  private func value(_ statement: OpaquePointer, _ c: Int32) -> SQLiteValue {
    switch sqlite3_column_type(statement, c) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, c))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, c))
    case SQLITE_TEXT:
      guard let bytes = sqlite3_column_text(statement, c) else { return .text("") }
      let n = Int(sqlite3_column_bytes(statement, c))
      let buffer = UnsafeBufferPointer(start: bytes, count: n)
      if let text = String(validating: buffer, as: UTF8.self) { return .text(text) }
      invalidUTF8Values += 1
      return .text(String(decoding: buffer, as: UTF8.self))
    case SQLITE_BLOB:
      let n = Int(sqlite3_column_bytes(statement, c))
      guard n > 0, let bytes = sqlite3_column_blob(statement, c) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: n)))
    default: return .null
    }
  }

  /// Creates a database at `path` (which must not exist) and runs `script` in it: for
  /// tests and examples that build small databases. With `keepWAL`, the database is put
  /// in WAL mode before the script and closed without a checkpoint, so the script's
  /// rows stay in the `-wal` file only.
  @_spi(Fixtures) public static func create(at path: String, script: String, keepWAL: Bool = false)
    throws
  {
    var pointer: OpaquePointer?
    guard sqlite3_open_v2(path, &pointer, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
      == SQLITE_OK, let pointer
    else {
      sqlite3_close(pointer)
      throw DatabaseError(file: path, message: "cannot create")
    }
    defer { sqlite3_close_v2(pointer) }
    if keepWAL {
      _ = csqlite_no_checkpoint_on_close(pointer, 1)
      sqlite3_exec(pointer, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;", nil, nil, nil)
    }
    var error: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(pointer, script, nil, nil, &error) != SQLITE_OK {
      let message = error.map { String(cString: $0) } ?? "error"
      sqlite3_free(error)
      throw DatabaseError(file: path, message: message)
    }
  }
}

/// One result row: values by position and by column name.
public struct SQLiteRow: Sendable {
  /// The result's column names, in order.
  public let names: [String]
  /// The values, in column order.
  public let values: [SQLiteValue]

  /// The value of the column named `name` (exact, then ASCII case-insensitive), or nil
  /// when the result has no such column.
  public subscript(name: String) -> SQLiteValue? {
    if let i = names.firstIndex(of: name) { return values[i] }
    let lowered = name.lowercased()
    return names.firstIndex { $0.lowercased() == lowered }.map { values[$0] }
  }

  /// Column `i` as text (see `SQLiteValue.text`).
  public func text(_ i: Int) -> String? { values[i].text }
}
