/// Writes RFC 4180 CSV into a byte buffer: a header row, then data rows, each ended by
/// `\n`, UTF-8 without a byte order mark.
///
/// A field is quoted only when it has to be: when it contains `,`, `"`, `\r` or `\n`,
/// or starts or ends with a space (which many readers would trim). Inside quotes, `"`
/// is doubled. An empty field is written empty, except as the only field of a row,
/// where it is written `""` so the row is not a blank line.
///
/// Numbers go through a fast path that never quotes: `NumberFormat` output is plain
/// ASCII without commas.
///
/// ```swift
/// var csv = CSVWriter(header: ["strategy", "hit_rate", "visits"])
/// csv.appendRow(["mru", NumberFormat.format(0.25), "96"])
/// csv.append("relevance"); csv.append(0.5, decimals: 3); csv.append(96); csv.endRow()
/// try csv.write(to: path)
/// ```
///
/// - Complexity: appending is O(n) in the bytes appended.
public struct CSVWriter: Sendable {
  /// The column names, written as the first row.
  public let header: [String]
  /// The CSV so far.
  public private(set) var bytes: [UInt8] = []
  /// Data rows completed (the header not counted).
  public private(set) var rowCount = 0
  /// Fields appended to the row in progress.
  private var fieldsInRow = 0

  /// Starts a CSV with `header` as its first row.
  public init(header: [String]) {
    self.header = header
    appendRow(header)
    rowCount = 0
  }

  /// The CSV so far as text.
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Appends a whole row.
  ///
  /// - Precondition: no row is in progress and `fields.count == header.count`.
  public mutating func appendRow(_ fields: [String]) {
    for field in fields { append(field) }
    endRow()
  }

  /// Appends one text field to the row in progress, quoting it if needed.
  ///
  /// - Complexity: O(bytes of `field`), read in place (`withUTF8`: a bridged string is
  ///   copied once first).
  public mutating func append(_ field: String) {
    separate()
    var field = field
    let alone = header.count == 1
    field.withUTF8 { utf8 in
      if Self.needsQuoting(utf8) || (utf8.isEmpty && alone) {
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 {
          if byte == UInt8(ascii: "\"") { bytes.append(byte) }
          bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
      } else {
        bytes.append(contentsOf: utf8)
      }
    }
  }

  /// Appends a number as `NumberFormat.format(_:)` writes it (`0.5`, `10`, `nan`).
  public mutating func append(_ x: Double) {
    separate()
    bytes.append(contentsOf: NumberFormat.format(x).utf8)
  }

  /// Appends a number with exactly `decimals` digits after the point.
  public mutating func append(_ x: Double, decimals: Int) {
    separate()
    bytes.append(contentsOf: NumberFormat.format(x, decimals: decimals).utf8)
  }

  /// Appends an integer.
  public mutating func append(_ x: Int) {
    separate()
    bytes.append(contentsOf: String(x).utf8)
  }

  /// Ends the row in progress with `\n`.
  ///
  /// - Precondition: the row has exactly `header.count` fields (a programming error
  ///   otherwise, never a property of input data).
  public mutating func endRow() {
    precondition(
      fieldsInRow == header.count,
      "CSV row has \(fieldsInRow) fields but the header has \(header.count)")
    bytes.append(UInt8(ascii: "\n"))
    fieldsInRow = 0
    rowCount += 1
  }

  /// Writes the CSV to `path` atomically (see `FileIO.writeAtomically`).
  ///
  /// - Throws: `OutputFileError`.
  public func write(to path: String) throws {
    try FileIO.writeAtomically(bytes, to: path)
  }

  /// True when `field` must be quoted: it contains `,` `"` `\r` `\n`, or starts or
  /// ends with a space.
  public static func needsQuoting(_ field: String) -> Bool {
    var field = field
    return field.withUTF8 { needsQuoting($0) }
  }

  /// `needsQuoting(_:)` of a field's UTF-8 bytes.
  static func needsQuoting(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    if utf8.first == UInt8(ascii: " ") || utf8.last == UInt8(ascii: " ") { return true }
    return utf8.contains { byte in
      byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\r")
        || byte == UInt8(ascii: "\n")
    }
  }

  private mutating func separate() {
    if fieldsInRow > 0 { bytes.append(UInt8(ascii: ",")) }
    fieldsInRow += 1
  }
}
