import Foundation
import SmartStackBase

/// An `INInteraction` archived with `NSKeyedArchiver` as a binary property list: what
/// knowledgeC keeps in `ZSTRUCTUREDMETADATA.Z_DKINTENTMETADATAKEY__SERIALIZEDINTERACTION`
/// and Biome in field 8 of an `App.Intent` record.
///
/// The archive is read with Foundation's `PropertyListSerialization` and walked by hand
/// (`$top.root` and `$objects`), never unarchived: the Intents classes do not exist on
/// Linux, and unarchiving classes from an untrusted file is what secure coding exists to
/// prevent. Two readings of it, one per importer (each documented in docs/importers.md):
///
/// - `interactionParameters` (Biome): two properties of the interaction itself whose
///   meaning is the same for every app (Apple's `INInteraction` documentation):
///   `groupIdentifier` → `group`, and `direction` (`INInteractionDirection`: 0
///   unspecified, 1 outgoing, 2 incoming) → `direction` = `unspecified`, `outgoing`,
///   `incoming` (another number as it is).
/// - `stringEntries` (knowledgeC): every archived dictionary in `$objects` (an object with
///   `NS.keys` and `NS.objects` arrays of references) contributes its entries whose key
///   *and* value both resolve to non-empty-keyed strings, as `key=value`; the first
///   occurrence of a key in `$objects` order wins.
///
/// Nothing else is read: numbers, dates, nested objects and the intent's own parameters
/// (inside `intent.backingStore`, a protobuf whose schema depends on the intent class and
/// the app) are left alone, because their meaning cannot be read reliably without Apple's
/// classes.
public struct InteractionArchive {
  /// The archive's object table.
  let objects: [Any]
  /// The root object (`$top.root`), when it resolves to a dictionary.
  let root: [String: Any]?

  /// The archive in `bytes`, or nil when they are not an `NSKeyedArchiver` binary
  /// property list (`bplist00`).
  public init?<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
    // Archives are binary property lists; anything else is not handed to the parser, whose
    // text (OpenStep) branch would try to read arbitrary bytes as a property list.
    guard bytes.starts(with: Self.binaryMagic),
      let plist = try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil),
      let archive = plist as? [String: Any],
      archive["$archiver"] as? String == "NSKeyedArchiver",
      let objects = archive["$objects"] as? [Any]
    else { return nil }
    self.objects = objects
    let top = archive["$top"] as? [String: Any]
    root = Self.resolve(top?["root"], in: objects) as? [String: Any]
  }

  /// `direction` and `group` of the interaction (see the type's documentation), sorted by
  /// key; empty when the root has neither.
  public var interactionParameters: [Parameter] {
    guard let root else { return [] }
    var parameters: [Parameter] = []
    if let direction = Self.resolve(root["direction"], in: objects) as? NSNumber {
      let names = [0: "unspecified", 1: "outgoing", 2: "incoming"]
      let value = direction.intValue
      parameters.append(Parameter("direction", names[value] ?? String(value)))
    }
    if let group = Self.resolve(root["groupIdentifier"], in: objects) as? String, !group.isEmpty {
      parameters.append(Parameter("group", group))
    }
    return parameters.sorted()
  }

  /// The string entries of every archived dictionary (see the type's documentation),
  /// sorted by key.
  public var stringEntries: [Parameter] {
    func string(_ reference: Any) -> String? { Self.resolve(reference, in: objects) as? String }
    var parameters: [Parameter] = []
    var seen: Set<String> = []  // looked up only, never iterated
    for object in objects {
      guard let dictionary = object as? [String: Any],
        let keys = dictionary["NS.keys"] as? [Any], let values = dictionary["NS.objects"] as? [Any],
        keys.count == values.count
      else { continue }
      for (key, value) in zip(keys, values) {
        guard Self.uid(key) != nil, Self.uid(value) != nil, let k = string(key), let v = string(value),
          !k.isEmpty, seen.insert(k).inserted
        else { continue }
        parameters.append(Parameter(k, v))
      }
    }
    return parameters.sorted()
  }

  /// The first bytes of a binary property list.
  static let binaryMagic = Array("bplist00".utf8)

  /// `value`, or the object it refers to when it is a keyed-archiver UID (nil for a UID out
  /// of range and for `$null`).
  static func resolve(_ value: Any?, in objects: [Any]) -> Any? {
    guard let value else { return nil }
    guard let index = uid(value) else { return value }
    guard index >= 0, index < objects.count else { return nil }
    let object = objects[index]
    return (object as? String) == "$null" ? nil : object
  }

  /// The index a keyed-archiver UID holds, or nil when `value` is no UID. Foundation has
  /// no public API for it: swift-corelibs-foundation's `_NSKeyedArchiverUID` has a stored
  /// `value`, Apple's `CFKeyedArchiverUID` prints `{value = N}`.
  static func uid(_ value: Any) -> Int? {
    let typeName = String(describing: type(of: value))
    guard typeName.contains("KeyedArchiverUID") else { return nil }
    for child in Mirror(reflecting: value).children where child.label == "value" {
      if let n = child.value as? UInt32 { return Int(n) }
      if let n = child.value as? UInt64 { return Int(n) }
      if let n = child.value as? Int { return n }
    }
    let text = String(describing: value)
    guard let range = text.range(of: "value = ") else { return nil }
    return Int(text[range.upperBound...].prefix { $0.isNumber })
  }
}
