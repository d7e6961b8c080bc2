/// A type read from a located JSON value, reporting every problem it finds.
///
/// A conformance reads `item` through `json` and reports each problem at the value that
/// causes it, as `PATH: message`; it returns nil only when what is wrong leaves no usable
/// value. Objects are read by `JSONObjectDecodable` types.
///
/// Types that need context (a time zone, the ids read so far) keep an initialiser with
/// more parameters and are read with the closure forms of `JSONObjectReader`.
public protocol JSONDecodable {
  /// Reads a value from `item`; nil after reporting a problem that leaves no usable value.
  init?(json item: JSONItem, in json: inout JSONDecoding)
}

/// A type read from a JSON object: write `read(_:)`, which looks up members through
/// the reader; the object check and the rejection of keys it did not read come with
/// the conformance (`JSONDecoding.decodeObject(_:_:)`).
///
/// ```swift
/// extension SleepWindow: JSONObjectDecodable {
///   static func read(_ o: inout JSONObjectReader) -> SleepWindow? {
///     let from = o.require("from") { item, json in json.clock(item) }
///     let to = o.require("to") { item, json in json.clock(item) }
///     guard let from, let to else { return nil }
///     return SleepWindow(fromMinute: from, toMinute: to)
///   }
/// }
/// ```
public protocol JSONObjectDecodable: JSONDecodable {
  /// Reads the value from the object's members; looks up every key it accepts before
  /// returning, also when it returns nil.
  static func read(_ o: inout JSONObjectReader) -> Self?
}

extension JSONObjectDecodable {
  public init?(json item: JSONItem, in json: inout JSONDecoding) {
    guard let value = json.decodeObject(item, Self.read) else { return nil }
    self = value
  }
}

/// A decodable type with an order, read with bounds: `o.optional("days", in: 1...366, default: 7)`.
public protocol JSONBoundedDecodable: JSONDecodable, Comparable {
  /// Reads a value in `range`; reports a value of another kind or outside `range`.
  init?(json item: JSONItem, in json: inout JSONDecoding, range: ClosedRange<Self>)
}

extension String: JSONDecodable {
  /// Reports `expected a string, found …`.
  public init?(json item: JSONItem, in json: inout JSONDecoding) {
    guard let text = json.requireString(item) else { return nil }
    self = text
  }
}

extension Bool: JSONDecodable {
  /// Reports `expected true or false, found …`.
  public init?(json item: JSONItem, in json: inout JSONDecoding) {
    guard let value = json.requireBool(item) else { return nil }
    self = value
  }
}

extension Double: JSONBoundedDecodable {
  /// Any number (reports `expected a number, found …`).
  public init?(json item: JSONItem, in json: inout JSONDecoding) {
    self.init(json: item, in: &json, range: -Double.infinity...Double.infinity)
  }

  /// A number in `range` (reports `expected a number in 0...1, found 1.5`).
  public init?(json item: JSONItem, in json: inout JSONDecoding, range: ClosedRange<Double>) {
    guard let value = json.requireDouble(item, in: range) else { return nil }
    self = value
  }
}

// Integers are read exactly from the literal's text (`9007199254740993` is itself), and
// refused when not integral (`1.5`) or outside the type's range.
extension JSONBoundedDecodable where Self: FixedWidthInteger {
  /// An integer of any value the type holds.
  public init?(json item: JSONItem, in json: inout JSONDecoding) {
    self.init(json: item, in: &json, range: Self.min...Self.max)
  }

  /// An integer in `range` (reports `expected an integer in 1...4, found 9`).
  public init?(json item: JSONItem, in json: inout JSONDecoding, range: ClosedRange<Self>) {
    guard let value = json.requireInteger(item, in: range) else { return nil }
    self = value
  }
}

extension Int: JSONBoundedDecodable {}
extension Int64: JSONBoundedDecodable {}
extension UInt64: JSONBoundedDecodable {}

/// An enumeration read from one of its raw values: conform and nothing else.
///
/// A string that is no raw value is reported as
/// `expected one of "atEnd", "after", "never", found "atend" (did you mean "atEnd"?)`,
/// the hint given when a raw value is at most two edits away.
extension JSONDecodable where Self: CaseIterable & RawRepresentable, Self.RawValue == String {
  public init?(json item: JSONItem, in json: inout JSONDecoding) {
    guard let value = json.requireCase(item, as: Self.self) else { return nil }
    self = value
  }
}

extension JSONDecoding {
  /// The elements of the array at `item`, each read by `decode` (every element is read
  /// and every problem reported), or nil when `item` is not an array or any element
  /// could not be read. - Complexity: O(n) reads for n elements.
  public mutating func decodeArray<T>(
    _ item: JSONItem, _ decode: (JSONItem, inout JSONDecoding) -> T?
  ) -> [T]? {
    guard let items = requireArray(item) else { return nil }
    var values: [T] = []
    values.reserveCapacity(items.count)
    var complete = true
    for element in items {
      if let value = decode(element, &self) { values.append(value) } else { complete = false }
    }
    return complete ? values : nil
  }

  /// The elements of the array at `item` as `T`s; see `decodeArray(_:_:)`.
  public mutating func decodeArray<T: JSONDecodable>(_ item: JSONItem, of type: T.Type) -> [T]? {
    decodeArray(item) { element, json in T(json: element, in: &json) }
  }

  /// Reads the object at `item` with `body`, then reports every member `body` did not
  /// look up as an unknown key (with a "did you mean" hint; see
  /// `JSONObjectReader.rejectUnread()`), unless `ignoringUnknownKeys`: for formats that
  /// carry more than their reader uses (a bench baseline's other figures, a donation's
  /// extra fields). Reports `expected an object, found …` and returns nil when `item` is
  /// not an object.
  ///
  /// `body` must look up every key it accepts before it returns, also when it returns
  /// nil: read all members first, then combine them. When `body` throws, the error is
  /// rethrown and nothing it reported is kept.
  public mutating func decodeObject<T>(
    _ item: JSONItem, ignoringUnknownKeys: Bool = false,
    _ body: (inout JSONObjectReader) throws -> T?
  ) rethrows -> T? {
    guard let object = requireObject(item) else { return nil }
    var reader = JSONObjectReader(object, json: self)
    let value = try body(&reader)
    if !ignoringUnknownKeys { reader.rejectUnread() }
    self = reader.json
    return value
  }

  /// Parses the whole file and reads it as a `T`; nil after reporting a problem (end
  /// with `finish(_:)` to throw them).
  public mutating func decodeDocument<T: JSONDecodable>(_ type: T.Type) -> T? {
    guard let root = parseDocument() else { return nil }
    return T(json: root, in: &self)
  }

  /// `value` when `valid(value)`; otherwise reports `message(value)` at `item` and
  /// returns nil.
  public mutating func check<T>(
    _ value: T?, at item: JSONItem, _ valid: (T) -> Bool, _ message: (T) -> String
  ) -> T? {
    guard let value else { return nil }
    guard valid(value) else {
      report(message(value), at: item)
      return nil
    }
    return value
  }
}
