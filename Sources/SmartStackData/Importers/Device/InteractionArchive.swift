import Foundation
import SmartStackBase

/// Reads donated parameters out of knowledgeC's
/// `ZSTRUCTUREDMETADATA.Z_DKINTENTMETADATAKEY__SERIALIZEDINTERACTION`, an `INInteraction`
/// archived with `NSKeyedArchiver` as a binary property list.
///
/// **What is extracted, exactly.** The blob is parsed with Foundation's
/// `PropertyListSerialization` (no class is instantiated, so no Intents framework is
/// needed). It is decoded when it is a dictionary whose `$archiver` is
/// `NSKeyedArchiver` and whose `$objects` is an array. Then every archived dictionary in
/// `$objects` (an object with `NS.keys` and `NS.objects` arrays of object references)
/// contributes its entries whose key *and* value both resolve to strings, as parameters
/// `key=value`; the first occurrence of a key (in `$objects` order) wins. Nothing else
/// is read: numbers, dates, nested objects, and whatever an intent keeps in other
/// encodings (its protobuf "backing store" data) are left alone, because their meaning
/// cannot be read reliably without Apple's classes.
public enum InteractionArchive {
  /// The string entries of the archive's dictionaries, sorted by key; nil when the blob
  /// is not an `NSKeyedArchiver` property list.
  public static func parameters(_ bytes: [UInt8]) -> [Parameter]? {
    guard
      let plist = try? PropertyListSerialization.propertyList(
        from: Data(bytes), options: [], format: nil),
      let top = plist as? [String: Any], top["$archiver"] as? String == "NSKeyedArchiver",
      let objects = top["$objects"] as? [Any]
    else { return nil }
    func string(_ reference: Any) -> String? {
      guard let index = uid(reference), index < objects.count else { return nil }
      return objects[index] as? String
    }
    var parameters: [Parameter] = []
    var seen: [String] = []
    for object in objects {
      guard let dictionary = object as? [String: Any],
        let keys = dictionary["NS.keys"] as? [Any], let values = dictionary["NS.objects"] as? [Any],
        keys.count == values.count
      else { continue }
      for (key, value) in zip(keys, values) {
        guard let k = string(key), let v = string(value), !k.isEmpty, !seen.contains(k) else {
          continue
        }
        seen.append(k)
        parameters.append(Parameter(k, v))
      }
    }
    return parameters.sorted()
  }

  /// The index an archive object reference (a property-list UID) holds, or nil. Foundation
  /// has no public type for UIDs: on Linux it is a class with a stored `value`, on Darwin a
  /// CF type whose description ends in `{value = N}`.
  static func uid(_ reference: Any) -> Int? {
    if reference is String || reference is NSNumber || reference is [Any] { return nil }
    for child in Mirror(reflecting: reference).children where child.label == "value" {
      if let v = child.value as? UInt32 { return Int(v) }
      if let v = child.value as? UInt64 { return Int(v) }
      if let v = child.value as? Int { return v }
    }
    let text = String(describing: reference)
    guard text.contains("UID"), let range = text.range(of: "value = ") else { return nil }
    return Int(text[range.upperBound...].prefix { $0.isNumber })
  }
}
