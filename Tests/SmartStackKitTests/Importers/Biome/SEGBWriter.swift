import Foundation
import SmartStackKit

/// Writes SEGB files in the layouts `SEGBFile` documents, for the tests: the reader is
/// checked against files built from the published layouts, not against itself.
struct SEGBWriter {
  /// One record to write.
  struct Record {
    var payload: [UInt8]
    /// The stored state: 1 written, 3 deleted, anything else.
    var state: Int32 = 1
    /// Cocoa seconds.
    var time: Double = 0
    /// The CRC-32 to store; nil: the payload's.
    var crc: UInt32? = nil
  }

  static func v1(_ records: [Record]) -> [UInt8] {
    var body: [UInt8] = []
    for record in records {
      // Records start on 8-byte boundaries, counted from the start of the file.
      while (56 + body.count) % 8 != 0 { body.append(0) }
      body += le(Int32(record.payload.count)) + le(record.state)
      body += le(record.time.bitPattern) + le((record.time + 1).bitPattern)
      body += le(record.crc ?? CRC32.checksum(record.payload)) + le(Int32(0))
      body += record.payload
    }
    var header = le(UInt32(56 + body.count)) + [UInt8](repeating: 0, count: 48)
    header += Array("SEGB".utf8)
    return header + body
  }

  static func v2(_ records: [Record]) -> [UInt8] {
    var body: [UInt8] = []
    var trailer: [UInt8] = []
    for record in records {
      while body.count % 4 != 0 { body.append(0) }
      body += le(record.crc ?? CRC32.checksum(record.payload)) + le(Int32(0)) + record.payload
      trailer += le(Int32(body.count)) + le(record.state) + le(record.time.bitPattern)
    }
    while body.count % 4 != 0 { body.append(0) }
    var header = Array("SEGB".utf8) + le(Int32(records.count)) + le(Double(7).bitPattern)
    header += [UInt8](repeating: 0, count: 16)
    return header + body + trailer
  }

  static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
  }
}

/// Payloads of the streams, made with the generated protobuf types.
enum BiomePayload {
  static func inFocus(_ bundle: String?, starting: UInt64?, time: Double?) -> [UInt8] {
    var event = BiomeAppInFocusEvent()
    if let bundle { event.bundleID = bundle }
    if let starting { event.starting = starting }
    if let time { event.absoluteTime = time }
    event.shortVersion = "1.0"
    return try! event.serializedBytes()
  }

  static func intent(
    _ bundle: String, intentClass: String?, verb: String?, time: Double?, interaction: [UInt8]? = nil
  ) -> [UInt8] {
    var event = BiomeAppIntentEvent()
    event.bundleID = bundle
    event.sourceID = "intents"
    if let intentClass { event.intentClass = intentClass }
    if let verb { event.intentVerb = verb }
    if let time { event.absoluteTime = time }
    if let interaction { event.interaction = Data(interaction) }
    return try! event.serializedBytes()
  }

  /// A `Device.Power.PluggedIn` record; nil leaves the field out.
  static func pluggedIn(starting: Bool?, wireless: Bool? = nil) -> [UInt8] {
    var event = BiomeDevicePluggedInEvent()
    if let starting { event.starting = starting }
    if let wireless { event.wireless = wireless }
    event.adapterType = 1
    return try! event.serializedBytes()
  }

  /// An `NSKeyedArchiver` archive shaped like an archived `INInteraction`: a root object
  /// with `direction` (a number) and `groupIdentifier` (a string).
  static func interaction(direction: Int, group: String?) -> [UInt8] {
    let data = try! NSKeyedArchiver.archivedData(
      withRootObject: FakeInteraction(direction: direction, group: group),
      requiringSecureCoding: false)
    return [UInt8](data)
  }
}

/// Encodes like `INInteraction` does the two properties the importer reads.
final class FakeInteraction: NSObject, NSCoding {
  let direction: Int
  let group: String?

  init(direction: Int, group: String?) {
    self.direction = direction
    self.group = group
  }

  required init?(coder: NSCoder) { nil }

  func encode(with coder: NSCoder) {
    coder.encode(direction, forKey: "direction")
    if let group { coder.encode(group, forKey: "groupIdentifier") }
    coder.encode("identifier-1", forKey: "identifier")
  }
}
