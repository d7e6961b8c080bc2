/// Reads the members of one JSON object and remembers which keys it looked up, so the
/// keys nobody read are rejected in one place (`rejectUnread()`, called by
/// `JSONDecoding.decodeObject(_:ignoringUnknownKeys:_:)` unless told to ignore them): a
/// reader's accepted keys are exactly the keys it reads, and no list of allowed keys is
/// kept beside them. The order of the first look-ups is the order an unknown key's
/// message lists the keys in.
///
/// Every look-up counts as reading the key, whether the member is present or not and
/// whatever its value; `has(_:)` only peeks. `require…` reports a missing key
/// (`PATH: missing required key "name"`, at the object's `{`); `optional…` reads an
/// absent key or a `null` as nil (or the default) without a report. A value of the
/// wrong kind or out of range is reported at the value and read as nil (or the
/// default: the read fails anyway once something was reported).
///
/// - Complexity: each look-up is O(k) in the object's k members.
public struct JSONObjectReader {
  /// The object being read.
  public let object: JSONObjectItem
  /// The decoding context, borrowed for the read; report problems of your own here.
  public var json: JSONDecoding
  /// The keys looked up so far, in the order of their first look-up.
  public private(set) var readKeys: [String] = []
  /// Keys starting with this are comments (`acceptComments`); nil: none are.
  private var commentPrefix: String? = nil

  /// `json.reportCount` when the read started.
  private let reportCountAtStart: Int

  init(_ object: JSONObjectItem, json: JSONDecoding) {
    self.object = object
    self.json = json
    reportCountAtStart = json.reportCount
  }

  /// True while nothing has been reported since this object's read started (problems
  /// in its members' values included): `guard o.isClean else { return nil }` gives no
  /// value for an object with any problem.
  public var isClean: Bool { json.reportCount == reportCountAtStart }

  /// The object's key path (empty for the root).
  public var path: String { object.path }

  /// The object itself as an item, to report about it as a whole.
  public var item: JSONItem {
    JSONItem(JSONNode(.object(object.members), offset: object.offset), path: object.path)
  }

  // MARK: Raw members

  /// The member `key` as an item (also when its value is `null`), or nil when absent.
  public mutating func member(_ key: String) -> JSONItem? {
    if !readKeys.contains(key) { readKeys.append(key) }
    return object[key]
  }

  /// True when the object has the member `key`. Does not count as reading it.
  public func has(_ key: String) -> Bool { object.contains(key) }

  /// The member `key`; reports a missing key.
  public mutating func require(_ key: String) -> JSONItem? {
    guard let item = member(key) else {
      json.report(
        "missing required key \(JSONEscaping.quoted(key))", at: object.offset, path: object.path)
      return nil
    }
    return item
  }

  /// The member `key`, or nil when it is absent or `null`.
  public mutating func optional(_ key: String) -> JSONItem? {
    guard let item = member(key), !item.value.isNull else { return nil }
    return item
  }

  // MARK: Values read by a closure

  /// The member `key` read by `decode`; reports a missing key.
  public mutating func require<T>(
    _ key: String, _ decode: (JSONItem, inout JSONDecoding) -> T?
  ) -> T? {
    guard let item = require(key) else { return nil }
    return decode(item, &json)
  }

  /// The member `key` read by `decode`, or nil when it is absent or `null`.
  public mutating func optional<T>(
    _ key: String, _ decode: (JSONItem, inout JSONDecoding) -> T?
  ) -> T? {
    guard let item = optional(key) else { return nil }
    return decode(item, &json)
  }

  // MARK: Decodable values

  /// The member `key` as a `T`; reports a missing key.
  public mutating func require<T: JSONDecodable>(_ key: String, as type: T.Type = T.self) -> T? {
    require(key) { item, json in T(json: item, in: &json) }
  }

  /// The member `key` as a `T`, or nil when it is absent or `null`.
  public mutating func optional<T: JSONDecodable>(_ key: String, as type: T.Type = T.self) -> T? {
    optional(key) { item, json in T(json: item, in: &json) }
  }

  /// The member `key` as a `T`, or `value` when it is absent, `null` or wrong.
  public mutating func optional<T: JSONDecodable>(_ key: String, default value: T) -> T {
    optional(key, as: T.self) ?? value
  }

  /// The member `key` as a `T` that passes `valid`; reports a missing key, and
  /// `message(value)` at the value when it fails `valid`.
  public mutating func require<T: JSONDecodable>(
    _ key: String, as type: T.Type = T.self, where valid: (T) -> Bool,
    _ message: (T) -> String
  ) -> T? {
    guard let item = require(key) else { return nil }
    return json.check(T(json: item, in: &json), at: item, valid, message)
  }

  /// The member `key` as a `T` that passes `valid`, or nil when it is absent or `null`;
  /// reports `message(value)` at the value when it fails `valid`.
  public mutating func optional<T: JSONDecodable>(
    _ key: String, as type: T.Type = T.self, where valid: (T) -> Bool,
    _ message: (T) -> String
  ) -> T? {
    guard let item = optional(key) else { return nil }
    return json.check(T(json: item, in: &json), at: item, valid, message)
  }

  // MARK: Bounded values

  /// The member `key` in `range`; reports a missing key.
  public mutating func require<T: JSONBoundedDecodable>(_ key: String, in range: ClosedRange<T>)
    -> T?
  {
    require(key) { item, json in T(json: item, in: &json, range: range) }
  }

  /// The member `key` in `range`, or nil when it is absent or `null`.
  public mutating func optional<T: JSONBoundedDecodable>(_ key: String, in range: ClosedRange<T>)
    -> T?
  {
    optional(key) { item, json in T(json: item, in: &json, range: range) }
  }

  /// The member `key` in `range`, or `value` when it is absent, `null` or wrong.
  public mutating func optional<T: JSONBoundedDecodable>(
    _ key: String, in range: ClosedRange<T>, default value: T
  ) -> T {
    optional(key, in: range) ?? value
  }

  // MARK: Arrays

  /// The member `key` as an array of `T` (see `JSONDecoding.decodeArray(_:of:)`);
  /// reports a missing key.
  public mutating func requireArray<T: JSONDecodable>(_ key: String, of type: T.Type) -> [T]? {
    require(key) { item, json in json.decodeArray(item, of: T.self) }
  }

  /// The member `key` as an array of `T`, or nil when it is absent or `null`.
  public mutating func optionalArray<T: JSONDecodable>(_ key: String, of type: T.Type) -> [T]? {
    optional(key) { item, json in json.decodeArray(item, of: T.self) }
  }

  /// The member `key` as an array whose elements `decode` reads; reports a missing key.
  public mutating func requireArray<T>(
    _ key: String, _ decode: (JSONItem, inout JSONDecoding) -> T?
  ) -> [T]? {
    require(key) { item, json in json.decodeArray(item, decode) }
  }

  /// The member `key` as an array whose elements `decode` reads, or nil when it is
  /// absent or `null`.
  public mutating func optionalArray<T>(
    _ key: String, _ decode: (JSONItem, inout JSONDecoding) -> T?
  ) -> [T]? {
    optional(key) { item, json in json.decodeArray(item, decode) }
  }

  /// The elements of the array at `key`, each with its path, unread; reports a missing
  /// key or another kind of value.
  public mutating func requireElements(_ key: String) -> [JSONItem]? {
    require(key) { item, json in json.requireArray(item) }
  }

  /// The elements of the array at `key`, or nil when it is absent or `null`.
  public mutating func optionalElements(_ key: String) -> [JSONItem]? {
    optional(key) { item, json in json.requireArray(item) }
  }

  /// The members of the object at `key` whose values are all strings, in file order,
  /// or nil when it is absent or `null` (see `JSONDecoding.requireStringMembers(_:)`).
  public mutating func optionalStringMembers(_ key: String) -> [(key: String, value: String)]? {
    optional(key) { item, json in json.requireStringMembers(item) }
  }

  // MARK: Unknown keys

  /// Marks every member as read: for a reader that gave up on the object after
  /// reporting why (its type, say), so the keys it never reached are not called unknown.
  public mutating func skipRest() {
    for member in object.members where !readKeys.contains(member.key) {
      readKeys.append(member.key)
    }
  }

  /// Marks every key that starts with `prefix` as read: comments (`"_about": "…"`) in a
  /// format that documents them; any value is accepted.
  public mutating func acceptComments(prefix: String = "_") {
    commentPrefix = prefix
  }

  /// Reports every member whose key was not looked up, at the key:
  /// `PATH: unknown key "nmae" (did you mean "name"?)` when a read key is at most two
  /// edits away, else `PATH: unknown key "x" (expected one of "a", "b")`, the keys in
  /// the order they were first looked up. Returns true when there was none.
  @discardableResult
  public mutating func rejectUnread() -> Bool {
    var clean = true
    for member in object.members where !readKeys.contains(member.key) {
      if let commentPrefix, member.key.hasPrefix(commentPrefix) { continue }
      clean = false
      var hint = "expected one of " + readKeys.map(JSONEscaping.quoted).joined(separator: ", ")
      if let closest = JSONDecoding.closest(to: member.key, among: readKeys) {
        hint = "did you mean \(JSONEscaping.quoted(closest))?"
      }
      json.report(
        "unknown key \(JSONEscaping.quoted(member.key)) (\(hint))", at: member.keyOffset,
        path: object.path)
    }
    return clean
  }
}

extension JSONItem {
  /// The member `key` of this object, with its path; nil when this is not an object or
  /// has no such member. For reporting about a member after the object was read.
  /// - Complexity: O(k) in the members.
  public subscript(key: String) -> JSONItem? {
    node[key].map { JSONItem($0, path: JSONDecoding.path(path, key: key)) }
  }
}
