/// A JSON value located in its document: the node and its key path from the root.
///
/// The path is written the way a person would name the value:
/// `instances[2].entries[0].relevance.score`; the root's path is empty. Keys that are
/// not identifiers (`[A-Za-z_][A-Za-z0-9_]*`) are written as quoted subscripts:
/// `parameters["card id"]`.
public struct JSONItem: Sendable, Equatable {
  public var node: JSONNode
  public var path: String

  public init(_ node: JSONNode, path: String = "") {
    self.node = node
    self.path = path
  }

  public var value: JSONValue { node.value }
  public var offset: Int { node.offset }
}

/// A JSON object located in its document, ready for member look-ups.
public struct JSONObjectItem: Sendable, Equatable {
  /// The members in file order.
  public var members: [JSONMember]
  /// Byte offset of the object's `{`.
  public var offset: Int
  /// Key path of the object (empty for the root).
  public var path: String

  public init(members: [JSONMember], offset: Int, path: String) {
    self.members = members
    self.offset = offset
    self.path = path
  }

  /// The member `key` as an item with its path, or nil. - Complexity: O(k).
  public subscript(key: String) -> JSONItem? {
    for member in members where member.key == key {
      return JSONItem(member.node, path: JSONDecoding.path(path, key: key))
    }
    return nil
  }

  /// True when the object has the member `key` (even if its value is `null`).
  public func contains(_ key: String) -> Bool {
    members.contains { $0.key == key }
  }
}

/// The context for turning a parsed JSON tree into typed values with messages a person
/// can act on.
///
/// It holds the file name, the bytes (to compute line and column only when something
/// is reported) and a `DiagnosticCollector`. Every `require…` method checks one value,
/// reports what is wrong as
/// `FILE:LINE:COLUMN: instances[2].entries[0].relevance.score: expected a number, found a string`
/// at the offending value, and returns nil, so a reader checks everything and reports
/// all problems in one run. Objects are read through `decodeObject(_:_:)` and a
/// `JSONObjectReader` (or a `JSONObjectDecodable` type), whose look-ups are the keys
/// the object accepts:
///
/// ```swift
/// var json = JSONDecoding(file: path, bytes: bytes)
/// let stack = json.parseDocument().flatMap { root in
///   json.decodeObject(root) { o -> Stack? in
///     let name = o.require("name", as: String.self)
///     let instances = o.requireArray("instances", of: Instance.self)
///     guard let name, let instances else { return nil }
///     return Stack(name: name, instances: instances)
///   }
/// }
/// return try json.finish(stack)  // throws every problem, in file order
/// ```
public struct JSONDecoding: Sendable {
  /// The file as the user named it.
  public let file: String
  /// The whole file, or the line being read (`replaceText(_:lineBase:)`).
  public private(set) var bytes: [UInt8]
  /// Added to every reported line: 0 for a whole file, else what makes line 1 of `bytes`
  /// the line of the file it was cut from.
  public private(set) var lineBase = 0
  /// Everything reported so far (also open for reports of your own).
  public var problems: DiagnosticCollector
  /// How many times `report` was called, also past the collector's limit: a reader
  /// compares counts to learn whether a part it read had a problem.
  public private(set) var reportCount = 0
  /// The most values one parsed JSON text may hold (`JSONParser.maximumValues` unless a
  /// reader allows more for its format).
  public var maximumValues = JSONParser.maximumValues
  private var lines: LineIndex?

  public init(file: String, bytes: [UInt8], limit: Int = DiagnosticCollector.defaultLimit) {
    self.file = file
    self.bytes = bytes
    self.problems = DiagnosticCollector(file: file, limit: limit)
  }

  /// Makes `bytes`, cut from the file so that its line 1 is the file's line
  /// `lineBase + 1`, the text parsed and reported in from now on: a JSON Lines reader
  /// that does not hold the whole file decodes it a line at a time this way. Problems
  /// reported so far are kept. O(1) (the line index is rebuilt when first needed).
  public mutating func replaceText(_ bytes: [UInt8], lineBase: Int) {
    self.bytes = bytes
    self.lineBase = lineBase
    lines = nil
  }

  // MARK: Parsing

  /// Parses the whole file as one JSON text; reports the syntax error and returns nil
  /// when it is not valid JSON.
  public mutating func parseDocument() -> JSONItem? {
    parse(range: 0..<bytes.count)
  }

  /// Parses `bytes[range]` as one JSON text (one JSON Lines record); reports the
  /// syntax error, located in the whole file, and returns nil when it is not valid.
  public mutating func parse(range: Range<Int>) -> JSONItem? {
    do throws(JSONParseError) {
      return JSONItem(try JSONParser.parse(bytes, range: range, maximumValues: maximumValues))
    } catch {
      report(error.message, at: error.offset)
      return nil
    }
  }

  // MARK: Reporting

  /// Reports `message` at byte `offset`, prefixed by `path: ` when `path` is not empty.
  public mutating func report(_ message: String, at offset: Int, path: String = "") {
    reportCount += 1
    if problems.isFull {
      problems.report(line: 1, column: 1, message)  // only marks the list truncated
      return
    }
    let place = position(ofByte: offset)
    problems.report(
      line: place.line, column: place.column, path.isEmpty ? message : "\(path): \(message)")
  }

  /// Reports `message` about `item`, at its first byte, prefixed by its path.
  public mutating func report(_ message: String, at item: JSONItem) {
    report(message, at: item.offset, path: item.path)
  }

  /// The line and column of byte `offset`.
  public mutating func position(ofByte offset: Int) -> TextPosition {
    if lines == nil { lines = LineIndex(bytes) }
    var position = lines?.position(ofByte: offset) ?? TextPosition(line: 1, column: 1)
    position.line += lineBase
    return position
  }

  /// True once the collector's limit is reached; a reader may stop looking.
  public var isFull: Bool { problems.isFull }

  /// Throws a `DiagnosticList` when anything was reported, in file order (by line and
  /// column; reports at the same place keep the order they were made in).
  public func throwIfAny() throws {
    guard !problems.isEmpty else { return }
    let sorted = problems.diagnostics.enumerated().sorted { a, b in
      (a.element.line, a.element.column, a.offset) < (b.element.line, b.element.column, b.offset)
    }
    throw DiagnosticList(sorted.map(\.element), truncated: problems.truncated)
  }

  /// `value` when nothing was reported; otherwise throws every problem as
  /// `throwIfAny()` does. Ends a typed reader: `return try json.finish(stack)`.
  ///
  /// A nil `value` with no problems reported (a reader that gave up without saying
  /// why) throws `no value could be read`, at 1:1.
  public func finish<T>(_ value: T?) throws -> T {
    try throwIfAny()
    guard let value else {
      throw DiagnosticList([
        Diagnostic(file: file, line: 1, column: 1, message: "no value could be read")
      ])
    }
    return value
  }

  // MARK: Paths

  /// The path of member `key` of the value at `parent`.
  public static func path(_ parent: String, key: String) -> String {
    guard isIdentifier(key) else { return parent + "[" + JSONEscaping.quoted(key) + "]" }
    return parent.isEmpty ? key : parent + "." + key
  }

  /// The path of element `index` of the array at `parent`.
  public static func path(_ parent: String, index: Int) -> String {
    parent + "[\(index)]"
  }

  static func isIdentifier(_ key: String) -> Bool {
    guard let first = key.utf8.first, !JSONScanner.isDigit(first) else { return false }
    return key.utf8.allSatisfy(JSONScanner.isWordByte)
  }

  /// How the value of `item` is described after "found": the literal for numbers (as
  /// written in the file) and Booleans (`1.50`, `true`), the kind otherwise (`a string`).
  package func found(_ item: JSONItem) -> String {
    switch item.value {
    case .number(let value):
      return item.node.number == nil ? NumberFormat.format(value) : literalText(at: item.offset)
    case .bool(let value): return value ? "true" : "false"
    default: return item.value.kindDescription
    }
  }

  /// The number literal starting at `offset` as written (at most 40 bytes shown).
  func literalText(at offset: Int) -> String {
    guard offset >= 0, offset < bytes.count else { return "a number" }
    var end = offset
    while end < bytes.count, end - offset < 40 {
      switch bytes[end] {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
        UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
        end += 1
      default:
        return String(decoding: bytes[offset..<end], as: UTF8.self)
      }
    }
    let text = String(decoding: bytes[offset..<end], as: UTF8.self)
    return end < bytes.count && JSONScanner.isDigit(bytes[end]) ? text + "..." : text
  }
}
