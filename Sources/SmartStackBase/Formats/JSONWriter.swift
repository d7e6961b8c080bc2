/// Writes JSON text deterministically.
///
/// - Object members are written in the order given (never a `Dictionary`'s order);
///   duplicate keys are written as given, so keep them unique.
/// - Strings are escaped by `JSONEscaping.appendQuoted` (`"`, `\` and control
///   characters only; `/` and non-ASCII are written as they are, in UTF-8).
/// - Numbers are written by `NumberFormat.format(_:)` (`10`, `0.5`, `1e+16`), which
///   reads back as the same `Double`. NaN and infinities have no JSON form and are
///   written as `null`, as JavaScript's `JSON.stringify` does.
/// - Compact output has no whitespace at all. Pretty output puts every array element
///   and object member on its own line, indented by 2 spaces per level, with
///   `"key": value`; empty arrays and objects stay `[]` and `{}`.
/// - No trailing newline: add one when writing a file.
///
/// ```swift
/// let manifest: JSONValue = ["tool": "smartstack", "seed": 42, "strategies": ["mru", "relevance"]]
/// var writer = JSONWriter(pretty: true)
/// writer.write(manifest)
/// try FileIO.writeAtomically(writer.text + "\n", to: path)
/// ```
///
/// - Complexity: O(n) in the size of the output. Recursion depth is the nesting depth
///   of the value (at most `JSONParser.maximumDepth` for parsed values).
public struct JSONWriter: Sendable {
  /// Whether to indent (2 spaces per level) and break lines.
  public var pretty: Bool
  /// The text written so far.
  public private(set) var text: String = ""

  public init(pretty: Bool = false) {
    self.pretty = pretty
  }

  /// Appends `value`.
  public mutating func write(_ value: JSONValue) {
    write(value, depth: 0)
  }

  /// `value` as JSON text.
  public static func serialize(_ value: JSONValue, pretty: Bool = false) -> String {
    var writer = JSONWriter(pretty: pretty)
    writer.write(value)
    return writer.text
  }

  private mutating func write(_ value: JSONValue, depth: Int) {
    switch value {
    case .null:
      text.append("null")
    case .bool(let flag):
      text.append(flag ? "true" : "false")
    case .number(let number):
      text.append(number.isFinite ? NumberFormat.format(number) : "null")
    case .string(let string):
      JSONEscaping.appendQuoted(string, to: &text)
    case .array(let elements):
      guard !elements.isEmpty else {
        text.append("[]")
        return
      }
      text.append("[")
      for (index, element) in elements.enumerated() {
        if index > 0 { text.append(",") }
        newline(depth: depth + 1)
        write(element.value, depth: depth + 1)
      }
      newline(depth: depth)
      text.append("]")
    case .object(let members):
      guard !members.isEmpty else {
        text.append("{}")
        return
      }
      text.append("{")
      for (index, member) in members.enumerated() {
        if index > 0 { text.append(",") }
        newline(depth: depth + 1)
        JSONEscaping.appendQuoted(member.key, to: &text)
        text.append(pretty ? ": " : ":")
        write(member.node.value, depth: depth + 1)
      }
      newline(depth: depth)
      text.append("}")
    }
  }

  private mutating func newline(depth: Int) {
    guard pretty else { return }
    text.append("\n")
    text.append(String(repeating: " ", count: 2 * depth))
  }
}

extension JSONValue {
  /// This value as JSON text; see `JSONWriter`.
  public func serialized(pretty: Bool = false) -> String {
    JSONWriter.serialize(self, pretty: pretty)
  }
}

extension JSONNode {
  /// This node's value as JSON text; see `JSONWriter`.
  public func serialized(pretty: Bool = false) -> String {
    JSONWriter.serialize(value, pretty: pretty)
  }
}

// Literals, so values can be built in code in reading order:
// `let v: JSONValue = ["name": "demo", "weights": [0.5, 1], "note": nil]`.
// A dictionary literal keeps its written order (it never becomes a `Dictionary`).

extension JSONValue: ExpressibleByNilLiteral {
  public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
  public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: JSONValue...) {
    self = .array(elements.map { JSONNode($0) })
  }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(elements.map { JSONMember($0.0, $0.1) })
  }
}
