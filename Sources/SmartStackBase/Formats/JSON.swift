/// A JSON value (RFC 8259) as the parser reads it and the writer writes it.
///
/// Arrays and objects hold `JSONNode`s, which remember where each value started in the
/// parsed buffer, so a reader can report `FILE:LINE:COLUMN` for a value it rejects.
/// Object members keep file order and are never put in a `Dictionary`.
public indirect enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// A number as the nearest `Double` (RFC 8259 §6). How it was written (integer or
  /// not, its exact integer value) is in `JSONNode.number`.
  case number(Double)
  case string(String)
  case array([JSONNode])
  /// Members in file order; the parser refuses duplicate keys.
  case object([JSONMember])
}

/// A JSON value plus where it starts in the parsed buffer.
public struct JSONNode: Sendable, Equatable {
  public var value: JSONValue
  /// Byte offset of the value's first byte in the parsed buffer (for a string, its
  /// opening quote). 0 for values built in code.
  public var offset: Int
  /// How a parsed number was written; nil for other values and for values built in code.
  public var number: JSONNumberLiteral?

  public init(_ value: JSONValue, offset: Int = 0, number: JSONNumberLiteral? = nil) {
    self.value = value
    self.offset = offset
    self.number = number
  }
}

/// One `"key": value` pair of an object.
public struct JSONMember: Sendable, Equatable {
  public var key: String
  /// Byte offset of the key's opening quote.
  public var keyOffset: Int
  public var node: JSONNode

  public init(key: String, keyOffset: Int = 0, node: JSONNode) {
    self.key = key
    self.keyOffset = keyOffset
    self.node = node
  }

  /// A member built in code (offsets 0).
  public init(_ key: String, _ value: JSONValue) {
    self.init(key: key, keyOffset: 0, node: JSONNode(value))
  }
}

/// What the text of a number literal said beyond its `Double` value: whether it was
/// written as an integer and its exact integer value, so callers can refuse `1.5` (or
/// a rounded `9007199254740993`) where an exact integer is needed.
public struct JSONNumberLiteral: Sendable, Hashable {
  /// True when the literal has neither a fraction nor an exponent (`12`, `-0`; not
  /// `12.0`, `1e3`).
  public var isIntegerLiteral: Bool
  /// True when the exact decimal value of the literal is an integer (`12`, `12.0`,
  /// `1.5e1`, `0e-5`; not `1.5`, `1e-1`), whatever its size.
  public var isIntegral: Bool
  /// True when the literal has a leading `-` (so `-0` is negative here, though it
  /// equals 0).
  public var isNegative: Bool
  /// The exact magnitude when the value is integral and below 2^64; nil otherwise.
  public var magnitude: UInt64?

  public init(isIntegerLiteral: Bool, isIntegral: Bool, isNegative: Bool, magnitude: UInt64?) {
    self.isIntegerLiteral = isIntegerLiteral
    self.isIntegral = isIntegral
    self.isNegative = isNegative
    self.magnitude = magnitude
  }

  /// True when the value is an integer of magnitude above 2^53, where `Double` no
  /// longer holds every integer: the node's `Double` may have been rounded
  /// (`9007199254740993` reads as `9007199254740992.0`). Use `magnitude`, `int64` or
  /// `uint64` for the exact value.
  public var exceedsExactDoubleIntegers: Bool {
    isIntegral && (magnitude.map { $0 > 1 << 53 } ?? true)
  }

  /// The exact value as an `Int64`, or nil when it is not integral or not in
  /// `Int64.min...Int64.max`.
  public var int64: Int64? {
    guard let magnitude else { return nil }
    if !isNegative { return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil }
    if magnitude <= UInt64(Int64.max) { return -Int64(magnitude) }
    return magnitude == UInt64(Int64.max) + 1 ? Int64.min : nil
  }

  /// The exact value as a `UInt64`, or nil when it is not integral or not in
  /// `0...UInt64.max` (`-0` is 0).
  public var uint64: UInt64? {
    guard let magnitude else { return nil }
    return isNegative && magnitude != 0 ? nil : magnitude
  }
}

/// Why a text is not valid JSON, and where.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Byte offset of the problem in the parsed buffer (for a range parse, relative to
  /// the whole buffer, not to the range).
  public var offset: Int
  /// What is wrong, e.g. `expected ',' or '}' after an object member`.
  public var message: String

  public init(offset: Int, message: String) {
    self.offset = offset
    self.message = message
  }

  /// `byte OFFSET: MESSAGE`.
  public var description: String { "byte \(offset): \(message)" }

  /// The error as a diagnostic for `file`, located with `lines`.
  public func diagnostic(file: String, lines: LineIndex) -> Diagnostic {
    let position = lines.position(ofByte: offset)
    return Diagnostic(file: file, line: position.line, column: position.column, message: message)
  }
}
