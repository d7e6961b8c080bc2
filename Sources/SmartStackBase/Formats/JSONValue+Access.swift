extension JSONValue {
  /// True for `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The Boolean, or nil for any other kind of value.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The number, or nil for any other kind of value.
  public var doubleValue: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The string, or nil for any other kind of value.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The elements of an array, or nil for any other kind of value.
  public var arrayValue: [JSONNode]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// The members of an object in file order, or nil for any other kind of value.
  public var objectValue: [JSONMember]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// The value of `key` in an object, or nil when this is not an object or has no
  /// such key. - Complexity: O(k) in the number of members.
  public subscript(key: String) -> JSONNode? {
    guard case .object(let members) = self else { return nil }
    for member in members where member.key == key { return member.node }
    return nil
  }

  /// The element at `index` of an array, or nil when this is not an array or the
  /// index is out of bounds.
  public subscript(index: Int) -> JSONNode? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }

  /// The kind of value with its article, for messages: `null`, `a boolean`,
  /// `a number`, `a string`, `an array`, `an object`.
  public var kindDescription: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

extension JSONNode {
  /// The value of `key` when this is an object. - Complexity: O(k) in the members.
  public subscript(key: String) -> JSONNode? { value[key] }

  /// The element at `index` when this is an array.
  public subscript(index: Int) -> JSONNode? { value[index] }

  /// The exact integer value of a parsed number as an `Int`, or nil when the node is
  /// not a parsed number, not integral (`1.5`) or outside `Int`'s range. Unlike
  /// `Int(exactly: doubleValue)`, this sees `9007199254740993` as itself, not as the
  /// `Double` it rounds to.
  public var intValue: Int? {
    number?.int64.flatMap { Int(exactly: $0) }
  }

  /// The same node and every node below it with offsets 0 and no number literal
  /// details: what a value built in code would look like. Handy for comparing trees
  /// read from different texts. Recursion depth is the value's nesting depth.
  public var withoutLocations: JSONNode {
    switch value {
    case .array(let elements):
      return JSONNode(.array(elements.map(\.withoutLocations)))
    case .object(let members):
      return JSONNode(
        .object(members.map { JSONMember(key: $0.key, node: $0.node.withoutLocations) }))
    default:
      return JSONNode(value)
    }
  }
}
