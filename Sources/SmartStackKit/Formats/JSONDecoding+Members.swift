// Checks on object members. `require…` reports a missing key
// (`PATH: missing required key "name"`, at the object's `{`) and a wrong value;
// `optional…` returns nil without a report when the key is absent or its value is
// `null`, and reports a wrong value.
extension JSONDecoding {
  /// The member `key` as an item; reports a missing key.
  public mutating func require(_ object: JSONObjectItem, _ key: String) -> JSONItem? {
    guard let item = object[key] else {
      report(
        "missing required key \(JSONEscaping.quoted(key))", at: object.offset, path: object.path)
      return nil
    }
    return item
  }

  /// The member `key` as an item, or nil when it is absent or `null`.
  public func optional(_ object: JSONObjectItem, _ key: String) -> JSONItem? {
    guard let item = object[key], !item.value.isNull else { return nil }
    return item
  }

  public mutating func requireObject(_ object: JSONObjectItem, _ key: String) -> JSONObjectItem? {
    guard let item = require(object, key) else { return nil }
    return requireObject(item)
  }

  public mutating func optionalObject(_ object: JSONObjectItem, _ key: String) -> JSONObjectItem? {
    guard let item = optional(object, key) else { return nil }
    return requireObject(item)
  }

  public mutating func requireArray(_ object: JSONObjectItem, _ key: String) -> [JSONItem]? {
    guard let item = require(object, key) else { return nil }
    return requireArray(item)
  }

  public mutating func optionalArray(_ object: JSONObjectItem, _ key: String) -> [JSONItem]? {
    guard let item = optional(object, key) else { return nil }
    return requireArray(item)
  }

  public mutating func requireString(_ object: JSONObjectItem, _ key: String) -> String? {
    guard let item = require(object, key) else { return nil }
    return requireString(item)
  }

  public mutating func optionalString(_ object: JSONObjectItem, _ key: String) -> String? {
    guard let item = optional(object, key) else { return nil }
    return requireString(item)
  }

  public mutating func requireBool(_ object: JSONObjectItem, _ key: String) -> Bool? {
    guard let item = require(object, key) else { return nil }
    return requireBool(item)
  }

  public mutating func optionalBool(_ object: JSONObjectItem, _ key: String) -> Bool? {
    guard let item = optional(object, key) else { return nil }
    return requireBool(item)
  }

  public mutating func requireDouble(
    _ object: JSONObjectItem, _ key: String,
    in range: ClosedRange<Double> = -Double.infinity...Double.infinity
  ) -> Double? {
    guard let item = require(object, key) else { return nil }
    return requireDouble(item, in: range)
  }

  public mutating func optionalDouble(
    _ object: JSONObjectItem, _ key: String,
    in range: ClosedRange<Double> = -Double.infinity...Double.infinity
  ) -> Double? {
    guard let item = optional(object, key) else { return nil }
    return requireDouble(item, in: range)
  }

  public mutating func requireInteger<T: FixedWidthInteger>(
    _ object: JSONObjectItem, _ key: String, in range: ClosedRange<T>
  ) -> T? {
    guard let item = require(object, key) else { return nil }
    return requireInteger(item, in: range)
  }

  public mutating func requireInteger(_ object: JSONObjectItem, _ key: String) -> Int? {
    requireInteger(object, key, in: Int.min...Int.max)
  }

  public mutating func optionalInteger<T: FixedWidthInteger>(
    _ object: JSONObjectItem, _ key: String, in range: ClosedRange<T>
  ) -> T? {
    guard let item = optional(object, key) else { return nil }
    return requireInteger(item, in: range)
  }

  public mutating func optionalInteger(_ object: JSONObjectItem, _ key: String) -> Int? {
    optionalInteger(object, key, in: Int.min...Int.max)
  }

  public mutating func requireCase<T: CaseIterable & RawRepresentable>(
    _ object: JSONObjectItem, _ key: String, as type: T.Type
  ) -> T? where T.RawValue == String {
    guard let item = require(object, key) else { return nil }
    return requireCase(item, as: type)
  }

  public mutating func optionalCase<T: CaseIterable & RawRepresentable>(
    _ object: JSONObjectItem, _ key: String, as type: T.Type
  ) -> T? where T.RawValue == String {
    guard let item = optional(object, key) else { return nil }
    return requireCase(item, as: type)
  }

  public mutating func optionalStringMembers(
    _ object: JSONObjectItem, _ key: String
  ) -> [(key: String, value: String)]? {
    guard let item = optional(object, key) else { return nil }
    return requireStringMembers(item)
  }

  /// Reports every member whose key is not in `allowed`, at the key:
  /// `PATH: unknown key "nmae" (did you mean "name"?)` when an allowed key is at most
  /// two edits away, else `PATH: unknown key "x" (expected one of "a", "b")`.
  /// Returns true when there was none.
  @discardableResult
  public mutating func rejectUnknownKeys(_ object: JSONObjectItem, allowed: [String]) -> Bool {
    var clean = true
    for member in object.members where !allowed.contains(member.key) {
      clean = false
      var hint = "expected one of " + allowed.map(JSONEscaping.quoted).joined(separator: ", ")
      if let closest = Self.closest(to: member.key, among: allowed) {
        hint = "did you mean \(JSONEscaping.quoted(closest))?"
      }
      report(
        "unknown key \(JSONEscaping.quoted(member.key)) (\(hint))", at: member.keyOffset,
        path: object.path)
    }
    return clean
  }

  /// The first of `candidates` within edit distance 2 of `key` (ties: the earliest),
  /// if any. Distances are computed over Unicode scalars.
  static func closest(to key: String, among candidates: [String]) -> String? {
    let target = Array(key.unicodeScalars)
    var best: (distance: Int, text: String)? = nil
    for candidate in candidates {
      let distance = editDistance(target, Array(candidate.unicodeScalars))
      if distance <= 2, distance < (best?.distance ?? Int.max) { best = (distance, candidate) }
    }
    return best?.text
  }

  /// Levenshtein distance. - Complexity: O(a × b).
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
