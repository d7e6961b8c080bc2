import Foundation

/// What the importer takes from an `App.Intent` record's archived `INInteraction` (field 8
/// of `BiomeAppIntentEvent`), an `NSKeyedArchiver` binary property list.
///
/// The archive is read with Foundation's `PropertyListSerialization` and walked by hand
/// (`$top.root` → `$objects`), never unarchived: the Intents classes do not exist on Linux,
/// and unarchiving classes from an untrusted file is what secure coding exists to prevent.
///
/// Only two properties of the interaction itself are taken, because their meaning is the
/// same for every app (Apple's `INInteraction` documentation):
///
/// - `groupIdentifier` (a string the app chose to group interactions, e.g. one
///   conversation) → parameter `group`;
/// - `direction` (`INInteractionDirection`: 0 unspecified, 1 outgoing, 2 incoming) →
///   parameter `direction` = `unspecified`, `outgoing`, `incoming` (another number as it is).
///
/// The intent's own parameters are inside `intent.backingStore`, a protobuf whose schema
/// depends on the intent class and the app, and are not read.
public struct InteractionArchive: Sendable, Hashable {
  /// The parameters found, sorted by key; empty when the interaction has neither property.
  public var parameters: [Parameter]

  /// The parameters of the archive `bytes`, or nil when they are not an `NSKeyedArchiver`
  /// binary property list (`bplist00`) whose root object is a dictionary.
  public init?(_ bytes: ArraySlice<UInt8>) {
    // Archives are binary property lists; anything else is not handed to the parser, whose
    // text (OpenStep) branch would try to read arbitrary bytes as a property list.
    guard bytes.starts(with: Self.binaryMagic),
      let plist = try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil),
      let archive = plist as? [String: Any],
      archive["$archiver"] as? String == "NSKeyedArchiver",
      let objects = archive["$objects"] as? [Any],
      let top = archive["$top"] as? [String: Any],
      let root = Self.resolve(top["root"], in: objects) as? [String: Any]
    else { return nil }
    var parameters: [Parameter] = []
    if let direction = Self.resolve(root["direction"], in: objects) as? NSNumber {
      let names = [0: "unspecified", 1: "outgoing", 2: "incoming"]
      let value = direction.intValue
      parameters.append(Parameter("direction", names[value] ?? String(value)))
    }
    if let group = Self.resolve(root["groupIdentifier"], in: objects) as? String, !group.isEmpty {
      parameters.append(Parameter("group", group))
    }
    self.parameters = parameters.sorted()
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
      if let n = child.value as? Int { return n }
    }
    let text = String(describing: value)
    guard let range = text.range(of: "value = ") else { return nil }
    return Int(text[range.upperBound...].prefix { $0.isNumber })
  }
}
