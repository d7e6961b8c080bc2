// Checks on one located value: each returns the typed value, or reports what is wrong
// at the value (`PATH: expected …, found …`) and returns nil.
extension JSONDecoding {
  /// The value as an object, or reports `expected an object, found …`.
  public mutating func requireObject(_ item: JSONItem) -> JSONObjectItem? {
    guard case .object(let members) = item.value else {
      report("expected an object, found \(found(item))", at: item)
      return nil
    }
    return JSONObjectItem(members: members, offset: item.offset, path: item.path)
  }

  /// The elements of an array, each with its path (`PATH[i]`), or reports
  /// `expected an array, found …`.
  public mutating func requireArray(_ item: JSONItem) -> [JSONItem]? {
    guard case .array(let elements) = item.value else {
      report("expected an array, found \(found(item))", at: item)
      return nil
    }
    var items: [JSONItem] = []
    items.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      items.append(JSONItem(element, path: Self.path(item.path, index: index)))
    }
    return items
  }

  /// The string, or reports `expected a string, found …`.
  public mutating func requireString(_ item: JSONItem) -> String? {
    guard case .string(let text) = item.value else {
      report("expected a string, found \(found(item))", at: item)
      return nil
    }
    return text
  }

  /// The Boolean, or reports `expected true or false, found …`.
  public mutating func requireBool(_ item: JSONItem) -> Bool? {
    guard case .bool(let value) = item.value else {
      report("expected true or false, found \(found(item))", at: item)
      return nil
    }
    return value
  }

  /// The number, or reports `expected a number, found …`, or, outside `range`,
  /// `expected a number in 0...1, found 1.5` (`>= 0` or `<= 1` for a range open on
  /// one side).
  public mutating func requireDouble(
    _ item: JSONItem, in range: ClosedRange<Double> = -Double.infinity...Double.infinity
  ) -> Double? {
    guard case .number(let value) = item.value else {
      report("expected a number, found \(found(item))", at: item)
      return nil
    }
    guard range.contains(value) else {
      report("expected a number \(Self.describe(range)), found \(found(item))", at: item)
      return nil
    }
    return value
  }

  /// The exact integer, or reports `expected an integer, found …` for another kind of
  /// value or a number that is not integral (`1.5`; `2.0` and `1e3` are integers), or
  /// `expected an integer in 0...10, found 42` outside `range` (which also catches
  /// integers too large for `T`, e.g. beyond 2^63).
  public mutating func requireInteger<T: FixedWidthInteger>(
    _ item: JSONItem, in range: ClosedRange<T>
  ) -> T? {
    guard case .number(let double) = item.value else {
      report("expected an integer, found \(found(item))", at: item)
      return nil
    }
    let isIntegral: Bool
    let exact: T?
    if let literal = item.node.number {
      isIntegral = literal.isIntegral
      exact = Self.integer(literal)
    } else {  // a node built in code
      isIntegral = double.isFinite && double.rounded(.towardZero) == double
      exact = isIntegral ? T(exactly: double) : nil
    }
    guard isIntegral else {
      report("expected an integer, found \(found(item))", at: item)
      return nil
    }
    guard let exact, range.contains(exact) else {
      report(
        "expected an integer in \(range.lowerBound)...\(range.upperBound), found \(found(item))",
        at: item)
      return nil
    }
    return exact
  }

  /// The case of `T` whose raw value is the string, or reports
  /// `expected one of "a", "b", found "c"`, followed by `(did you mean "a"?)` when a
  /// raw value is at most two edits from the string.
  public mutating func requireCase<T: CaseIterable & RawRepresentable>(
    _ item: JSONItem, as type: T.Type
  ) -> T? where T.RawValue == String {
    if case .string(let text) = item.value, let value = T(rawValue: text) { return value }
    let names = T.allCases.map(\.rawValue)
    let choices = names.map(JSONEscaping.quoted).joined(separator: ", ")
    var shown = found(item)
    if let text = item.value.stringValue {
      shown = JSONEscaping.quoted(text)
      if let closest = Self.closest(to: text, among: names) {
        shown += " (did you mean \(JSONEscaping.quoted(closest))?)"
      }
    }
    report("expected one of \(choices), found \(shown)", at: item)
    return nil
  }

  /// The members of an object whose values are all strings, in file order; reports
  /// `expected an object, found …` or, for each value that is not a string,
  /// `PATH.key: expected a string, found …` (and then returns nil).
  public mutating func requireStringMembers(_ item: JSONItem) -> [(key: String, value: String)]? {
    guard let object = requireObject(item) else { return nil }
    var pairs: [(key: String, value: String)] = []
    pairs.reserveCapacity(object.members.count)
    var allStrings = true
    for member in object.members {
      let child = JSONItem(member.node, path: Self.path(item.path, key: member.key))
      if let text = requireString(child) {
        pairs.append((member.key, text))
      } else {
        allStrings = false
      }
    }
    return allStrings ? pairs : nil
  }

  /// The literal's exact value as a `T`, or nil when it has none or `T` cannot hold it.
  static func integer<T: FixedWidthInteger>(_ literal: JSONNumberLiteral) -> T? {
    guard literal.isIntegral, let magnitude = literal.magnitude else { return nil }
    if !literal.isNegative || magnitude == 0 { return T(exactly: magnitude) }
    // -magnitude == -(magnitude - 1) - 1, which reaches T.min without overflowing.
    guard T.isSigned, let belowMagnitude = T(exactly: magnitude - 1) else { return nil }
    return 0 - belowMagnitude - 1
  }

  /// `in 0...1`, `>= 0`, `<= 1`, or `in any range` for the whole line.
  static func describe(_ range: ClosedRange<Double>) -> String {
    switch (range.lowerBound == -.infinity, range.upperBound == .infinity) {
    case (true, true): return "in any range"
    case (true, false): return "<= \(NumberFormat.format(range.upperBound))"
    case (false, true): return ">= \(NumberFormat.format(range.lowerBound))"
    case (false, false):
      return
        "in \(NumberFormat.format(range.lowerBound))...\(NumberFormat.format(range.upperBound))"
    }
  }
}
